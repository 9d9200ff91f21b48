/* Reads hidden in macro expansions: SQUARE and TWICE use their argument twice, LIMIT names
 * locals in its body. Each expansion reads those variables, so area depends on x and limit on
 * base and margin. */
#include <stdio.h>

#define SQUARE(v) ((v) * (v))
#define TWICE(v) ((v) + (v))
#define LIMIT (base + margin)

int main(void) {
  int base = 10, margin = 5, x = 3;
  int area = SQUARE(x);
  int limit = LIMIT;
  int result = area < limit ? TWICE(area) : limit;
  printf("%d\n", result);
  return 0;
}
