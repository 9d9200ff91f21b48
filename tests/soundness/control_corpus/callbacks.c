/* Callbacks that the C library calls while the program's call runs (qsort's and bsearch's
 * comparators), made under tests and in a loop, for the control-dependence oracle
 * (control_oracle.py): the callback's statements are controlled by what controls the call. */
#include <stdio.h>
#include <stdlib.h>

static int compared = 0;

static int ascending(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  compared++;
  if (x < y)
    return -1;
  return x > y;
}

static int descending(const void *a, const void *b) { return ascending(b, a); }

int main(int argc, char **argv) {
  int v[6] = {5, 3, 9, 1, 7, 3};
  int n = 6, found = 0, key = 7;
  (void)argv;
  if (n > 1)
    qsort(v, (size_t)n, sizeof *v, ascending);
  for (int round = 0; round < 3; round++) {
    if (round == argc)
      qsort(v, (size_t)n, sizeof *v, descending);
    if (round != 1) {
      int *hit = bsearch(&key, v, (size_t)n, sizeof *v, ascending);
      if (hit)
        found++;
    }
  }
  printf("%d %d %d %d\n", v[0], v[5], found, compared);
  return 0;
}
