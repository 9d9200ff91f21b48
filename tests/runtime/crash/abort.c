/* A consistency check that calls abort() on a negative balance: SIGABRT. */
#include <stdio.h>
#include <stdlib.h>

static int balance(const int *moves, int n) {
  int sum = 0, i;
  for (i = 0; i < n; i++)
    sum += moves[i]; /* in-slice */
  return sum;        /* in-slice */
}

int main(void) {
  int moves[3] = {5, -3, -4};  /* in-slice */
  int b = balance(moves, 3);   /* in-slice */
  if (b < 0)                   /* in-slice: the last node */
    abort();
  printf("%d\n", b);
  return 0;
}
