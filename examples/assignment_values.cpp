// Assignments whose value the enclosing expression uses: `(c += 4) * 2` reads the c that the
// compound assignment wrote, and a chain `a = b = x` passes x on to both.
#include <cstdio>

int main(int argc, char **) {
  int base = 10 * argc;
  int c = base;
  int d = (c += 4) * 2;
  int f = argc + 7;
  int e = 0;
  e = (f -= 2);
  long l = 5;
  int g = static_cast<int>(l |= e);
  int a, b;
  a = b = g + 1;
  std::printf("%d %d %d\n", d, a, b);
  return 0;
}
