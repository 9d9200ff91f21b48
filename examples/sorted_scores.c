/* qsort permutes the array inside the library: the sorted array is a write at the qsort line,
 * which depends on every element the array held. */
#include <stdio.h>
#include <stdlib.h>

static int by_value(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

int main(int argc, char **argv) {
  int scores[5];
  int i;
  int bonus = argc * 3;
  (void)argv;
  for (i = 0; i < 5; ++i)
    scores[i] = (i * 7) % 5 + bonus;
  scores[2] = 40;
  qsort(scores, 5, sizeof scores[0], by_value);
  printf("lowest %d highest %d\n", scores[0], scores[4]);
  return 0;
}
