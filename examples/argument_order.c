/* Arguments that write. GCC evaluates a call's arguments right to left, Clang left to right,
 * and a write's node takes the reads pending in its frame: a write inside one argument must not
 * take the reads of those evaluated before it, or their parameters lose their origins. */
#include <stdio.h>

static int mask = 255;

static int pick(int a, int b, int c) { return a + 10 * b + 100 * c; }

static int outer(int p, int q) { return p - q; }

int main(int argc, char **argv) {
  int x = 6 + argc, y = 3 * argc, z = 2 + argc;
  int r, s;
  (void)argv;
  r = outer(pick((mask &= x), y, z), z);
  s = pick(y, z, (x += 2));
  printf("%d %d %d\n", r, s, mask);
  return 0;
}
