// A linked list walked by a pointer that the for statement declares, and a counter decremented
// inside a loop's condition: the sum's slice holds the list's head (14) and the nodes' values,
// and the loop's test (22) reads what `--rounds.left` wrote.
#include <stdio.h>

struct node {
  int value;
  struct node *next;
};

int main(int argc, char **argv) {
  (void)argv;
  struct node c = {3 * argc, NULL}, b = {2, &c}, a = {1, &b};
  struct node *head = &a;
  int sum = 0;
  for (struct node *p = head; p; p = p->next)
    sum += p->value;
  struct {
    int left;
  } rounds = {argc + 2};
  int steps = 0;
  while (--rounds.left > 0)
    steps++;
  printf("%d %d\n", sum, steps);
  return 0;
}
