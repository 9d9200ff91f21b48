/* Callbacks through qsort and bsearch: the library calls the program's comparators. */
#include <stdio.h>
#include <stdlib.h>

struct item {
  int key;
  int value;
};

static int by_key(const void *a, const void *b) {
  const struct item *x = a, *y = b;
  return (x->key > y->key) - (x->key < y->key);
}

static int compare_ints(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

int main(void) {
  struct item items[5];
  int numbers[6] = {42, 7, 19, 3, 88, 23};
  int seed = 11, i, probe = 19, misses = 0;
  struct item wanted, *found;
  int *hit;
  for (i = 0; i < 5; ++i) {
    items[i].key = (seed * (i + 3)) % 17;
    items[i].value = i * 10 + seed;
  }
  qsort(items, 5, sizeof items[0], by_key);
  qsort(numbers, 6, sizeof numbers[0], compare_ints);
  wanted.key = items[2].key;
  wanted.value = -1;
  found = bsearch(&wanted, items, 5, sizeof items[0], by_key);
  hit = bsearch(&probe, numbers, 6, sizeof numbers[0], compare_ints);
  if (!hit)
    misses++;
  for (i = 0; i < 5; ++i)
    printf("%d:%d ", items[i].key, items[i].value);
  printf("\nfound=%d smallest=%d largest=%d at=%d misses=%d\n", found ? found->value : -1,
         numbers[0], numbers[5], hit ? (int)(hit - numbers) : -1, misses);
  return 0;
}
