/* Schemata end-to-end subject (C89): every construct a guard must respect. */
#include <stdio.h>
#include <string.h>

#define LIMIT 4
#define TWICE(x) ((x) * 2)

static int counter(void) {
  static int calls = 1; /* a static initializer stays a constant */
  calls += 1;
  return calls;
}

static int classify(int v) {
  switch (v % 3) {
  case 0:
    return 10;
  case 1:
    v = v + 1;
    break;
  default:
    v -= 2;
  }
  return v;
}

static int sum(const int *a, int n) {
  int i, total = 0;
  for (i = 0; i < n && i < LIMIT; ++i) {
    if (a[i] > 2)
      total += a[i];
    else
      total = total - 1;
  }
  return total;
}

int main(int argc, char **argv) {
  int values[3] = {1, 5, 3};
  const char *p = argc > 1 ? argv[1] : NULL;
  int k = TWICE(3) + 1;
  int x = 7;
  if (p)
    x = (int)strlen(p);
  while (k > 5 &&
         x != 0) {
    k--;
    x = x / 2;
  }
  printf("%d %d %d\n", sum(values, 3), classify(k + x), counter());
  printf("%d\n", k * 3 - x);
  return k > 6 ? 1 : 0;
}
