/* A failing assert(): the C library prints its message and aborts (SIGABRT). */
#include <assert.h>
#include <stdio.h>

static int count_above(const int *v, int n, int limit) {
  int i, count = 0; /* in-slice */
  for (i = 0; i < n; i++)
    if (v[i] > limit)
      count++;
  return count; /* in-slice */
}

int main(void) {
  int scores[4] = {3, 4, 5, 6};
  int above = count_above(scores, 4, 10); /* in-slice */
  assert(above > 0);                      /* in-slice: the last node */
  printf("%d\n", above);
  return 0;
}
