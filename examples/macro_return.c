/* Error checks that return from inside a macro's body (REQUIRE returns its error code when the
 * condition fails), as bzip2's decompressor and many C libraries write them. No probe can go
 * into the macro, yet parse_digit is instrumented: its frame is left on those returns too, so
 * that the digits' values and main's later statements keep their dependences. */
#include <stdio.h>

/* clang-format off */
#define REQUIRE(c, err) if (!(c)) return (err)
/* clang-format on */

static int parse_digit(char c, int *out) {
  REQUIRE(c >= '0', -1);
  REQUIRE(c <= '9', -2);
  *out = c - '0';
  return 0;
}

int main(void) {
  const char *text = "4x2";
  int total = 0, errors = 0, i;
  for (i = 0; text[i] != '\0'; i++) {
    int digit = 0;
    if (parse_digit(text[i], &digit) != 0)
      errors = errors + 1;
    else
      total = total * 10 + digit;
  }
  printf("%d %d\n", total, errors);
  return 0;
}
