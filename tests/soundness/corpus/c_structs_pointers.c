/* Pointers, a linked list, function pointers, arrays of structs. */
#include <stdio.h>
#include <stdlib.h>

struct node {
  int value;
  struct node *next;
};

static int twice(int x) { return 2 * x; }
static int square(int x) { return x * x; }

static struct node *push(struct node *head, int value) {
  struct node *n = malloc(sizeof *n);
  n->value = value;
  n->next = head;
  return n;
}

static int sum_list(const struct node *n, int (*f)(int)) {
  int total = 0;
  for (; n; n = n->next)
    total += f(n->value);
  return total;
}

int main(void) {
  struct node *head = NULL, *n;
  int data[4] = {4, 1, 3, 2};
  int *p = data, i, dead = 0;
  int (*ops[2])(int) = {twice, square};
  for (i = 0; i < 4; ++i)
    head = push(head, *p++ + i);
  dead = data[0] + data[3];
  data[1] = 100; /* after the list was built */
  printf("%d %d\n", sum_list(head, ops[0]), sum_list(head, ops[1]));
  while (head) {
    n = head->next;
    free(head);
    head = n;
  }
  return 0;
}
