/* Dereferences the NULL pointer that a failed search returned, through a local that one
 * definition reaches: the instrumenter knows the read's origin and removes its probe
 * (instrumenter/src/StaticOrigins.h). The statement that dies never completed, yet the crash
 * slice must still hold the pointer's origin: its read of the null address went to the runtime,
 * which wrote the statement's static edges after the signal. */
#include <stdio.h>

struct node {
  int value;
  struct node *next;
};

static struct node *find(struct node *list, int value) {
  struct node *p;
  for (p = list; p; p = p->next)
    if (p->value == value)
      return p;
  return p; /* in-slice: the NULL the search ends with */
}

static struct node c = {3, 0}, b = {2, &c}, a = {1, &b};

int main(void) {
  struct node *hit = find(&a, 4); /* in-slice */
  printf("searching\n");
  fflush(stdout);
  return hit->value; /* dies here */
}
