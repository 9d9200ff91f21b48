/* A call through a pointer whose first argument writes. GCC evaluates y first: a fence keeps
 * y's read out of the write's node, and since the callee is unknown (it may not enter to lower
 * the fence), the argument lowers it once evaluated; pick's b takes y's origin. */
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
