/* Heap memory keeps the origins of its writes while it is allocated, and only then. A block that
 * realloc moves keeps its bytes' origins: last depends on the loop's write to v[i]. A block that
 * malloc hands out again after a free has none: copy.value was never written in the new record,
 * so the copy depends on r->key's write alone, not on stale()'s write to the freed record that
 * had the same address. */
#include <stdio.h>
#include <stdlib.h>

struct record {
  int key;
  int value;
};

static int stale(int seed) {
  struct record *old = malloc(sizeof *old);
  int kept;
  if (!old)
    return 0;
  old->key = seed;
  old->value = seed * 2;
  kept = old->key + old->value;
  free(old);
  return kept;
}

int main(void) {
  struct record *r, copy;
  int *v;
  int i, x, last;
  x = stale(7);
  r = malloc(sizeof *r);
  if (!r)
    return 1;
  r->key = x;
  copy = *r;
  v = malloc(4 * sizeof *v);
  if (!v)
    return 1;
  for (i = 0; i < 4; i++)
    v[i] = copy.key + i;
  v = realloc(v, 1 << 20); /* a large block: malloc maps it anew, elsewhere */
  if (!v)
    return 1;
  last = v[3];
  printf("%d %d\n", copy.key, last);
  free(v);
  free(r);
  return 0;
}
