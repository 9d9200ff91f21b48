// Assignments whose value the enclosing expression uses: chains and compound assignments.
#include <cstdio>

int g;

int main() {
  int n = 6;
  int a, b;
  a = b = n * 2;
  long l = 5;
  int *p = &g;
  *p = 3;
  *p = static_cast<int>(l |= *p);
  int c = 1;
  int d = (c += 4) * 2;
  int e = 0, f = 9;
  e = (f -= 2);
  std::printf("a=%d b=%d g=%d d=%d e=%d\n", a, b - 1, g, d, e);
}
