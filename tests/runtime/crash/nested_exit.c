/* exit(3) from a function two calls deep: the exit status is kept. */
#include <stdio.h>
#include <stdlib.h>

static void check(int errors) {
  if (errors > 2) { /* in-slice: the last node */
    fprintf(stderr, "too many errors: %d\n", errors);
    exit(3);
  }
}

static int validate(const char *s) {
  int errors = 0; /* in-slice */
  for (; *s; s++)
    if (*s == '?')
      errors++; /* in-slice */
  check(errors);
  return errors;
}

int main(void) {
  int n = validate("a?b??c?");
  printf("%d\n", n);
  return 0;
}
