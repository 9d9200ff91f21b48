/* C99: declarations in for, mixed declarations and statements, compound literals, designated
 * initializers, _Bool, long long, inline functions, variable-length arrays. */
#include <stdbool.h>
#include <stdio.h>

struct point {
  int x, y;
};

static inline int twice(int v) { return v * 2; }

static long long widen(int v) { return (long long)v << 33; }

static int vla_sum(int n) {
  int values[n];
  int total = 0;
  for (int i = 0; i < n; i++)
    values[i] = i * i;
  for (int i = 0, j = n - 1; i < j; i++, j--)
    total += values[i] + values[j];
  return total;
}

int main(void) {
  int total = 0;
  total += twice(3);
  struct point p = {.y = 4, .x = 3};
  struct point *pp = &(struct point){1, 2};
  bool ok = p.x < p.y;
  long long big = widen(total);
  for (int k = 0; k < 3; ++k) {
    int doubled = twice(k);
    total += doubled;
  }
  int later = total + pp->y;
  _Bool flag = later > 10;
  total += vla_sum(5);
  total = total > 100 ? total - 100 : total + 100;
  printf("total=%d ok=%d big=%lld later=%d flag=%d\n", total, ok, big, later, flag);
  return 0;
}
