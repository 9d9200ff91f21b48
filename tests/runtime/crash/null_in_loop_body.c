/* Sums through a table whose third pointer is NULL: the loop body dies (SIGSEGV) in the third
 * iteration. Coverage mode must show the test run three times, the body three times and the
 * increment, on a line of its own, twice (tests/coverage/golden/null_in_loop_body.txt). The crash
 * slice holds the increment that made the index of the NULL pointer. */
#include <stdio.h>

static int one = 1, two = 2;
static int *table[] = {&one, &two, 0};

int main(void) {
  int i = 0, total = 0;
  printf("summing\n");
  fflush(stdout);
  for (; i < 3;
       i++)             /* in-slice: the index of the NULL pointer */
    total += *table[i]; /* dies here */
  printf("%d\n", total);
  return 0;
}
