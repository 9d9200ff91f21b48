/* Walks a list that a failed lookup left NULL: the loop test itself dies (SIGSEGV) the first
 * time it runs. Coverage mode must still show every line before it, and the test, as run once
 * (tests/coverage/golden/null_loop_condition.txt). */
#include <stdio.h>

struct node {
  struct node *next;
  int value;
};

static struct node second = {0, 2};
static struct node first = {&second, 1};

static struct node *find(int value) {
  struct node *n;
  for (n = &first; n != 0; n = n->next)
    if (n->value == value)
      return n;
  return 0;
}

int main(int argc, char **argv) {
  struct node *start = find(argc > 5 ? 1 : 3); /* in-slice */
  int length = 0;
  (void)argv;
  printf("walking\n");
  fflush(stdout);
  while (start->next != 0) { /* in-slice */
    start = start->next;
    length++;
  }
  printf("%d\n", length);
  return 0;
}
