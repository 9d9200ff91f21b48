/* Where a printed value came from. A call into the C library whose value the program discards
 * (printf, puts, fputs, free) is a node of its own: a slice can start at the line that printed
 * the wrong number, and a forward slice shows what a value ended up in. So is a call that ends
 * the program (exit): where its status came from. */
#include <stdio.h>
#include <stdlib.h>

struct account {
  const char *owner;
  long cents;
};

static long interest(long cents, int rate) { return cents * rate / 100; }

int main(void) {
  struct account *acct = malloc(sizeof *acct);
  int rate = 3;
  int fee = 250;
  int lines = 0;
  if (acct == NULL)
    return 1;
  acct->owner = "ada";
  acct->cents = 120000;
  long gain = interest(acct->cents, rate);
  acct->cents += gain - fee;
  printf("%s: %ld.%02ld\n", acct->owner, acct->cents / 100, acct->cents % 100);
  ++lines;
  if (gain > fee)
    puts("grew");
  fputs(acct->owner, stdout);
  putchar('\n');
  free(acct);
  exit(lines == 1 ? EXIT_SUCCESS : EXIT_FAILURE);
}
