/* Compound literals whose address the program takes: creating one is a write of the whole
 * object, which its initializer's reads flow into, so a read through the pointer leads back to
 * them (and not to whatever an earlier object left at that address of the stack). A literal
 * read by value needs no node: its initializer's reads flow into what reads it. */
#include <stdio.h>

struct range {
  int low, high;
};

static int width(const struct range *r) { return r->high - r->low; }

static int sum(const int *values, int n) {
  int total = 0;
  for (int i = 0; i < n; ++i)
    total += values[i];
  return total;
}

int main(void) {
  int start = 3, end = 10, step = 2, unused = 5;
  int w = width(&(struct range){start, end});
  int s = sum((int[]){w, step, 1}, 3);
  int low = (struct range){s, w}.low;
  printf("%d %d %d %d\n", w, s, unused, low);
  return 0;
}
