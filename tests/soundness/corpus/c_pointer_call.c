/* A known gap the CI test's own check needs: a call through a pointer whose first argument
 * writes. Its callee is unknown, so no fence keeps y's read, which GCC evaluates first, out of
 * the write's node: pick's b gets no origin. */
#include <stdio.h>

static int g = 255;

static int pick(int a, int b) { return a + 10 * b; }

int main(int argc, char **argv) {
  int (*volatile fp)(int, int) = pick;
  int y = 3 * argc;
  int r = fp((g &= argc, 5), y);
  (void)argv;
  printf("%d\n", r);
  return 0;
}
