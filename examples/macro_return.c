/* Error checks that return from inside a macro's body (REQUIRE returns its error code when the
 * condition fails; TRY passes a negative result on), as bzip2's decompressor and many C
 * libraries write them. No probe can go into a macro, yet parse_digit and parse_pair are
 * instrumented: while a statement that invokes such a macro runs, the function's frame names a
 * return node made for that statement, which the macro's return completes. So the caller's
 * `errors` still depends on the check that failed, and on the value it tested; and the
 * statements after a check depend on it, as they would on an `if` written out. */
#include <stdio.h>

/* clang-format off */
#define REQUIRE(c, err) if (!(c)) return (err)
#define TRY(call) __extension__ ({ int r_ = (call); if (r_ < 0) return r_; r_; })
#define BOTH_POSITIVE(a, b, err) { REQUIRE((a) > 0, err); REQUIRE((b) > 0, err); }
/* clang-format on */

static int parse_digit(char c, int *out) {
  REQUIRE(c >= '0', -1);
  REQUIRE(c <= '9', -2);
  *out = c - '0';
  return 0;
}

static int parse_pair(const char *s) {
  int high = 0, low = 0, sum;
  sum = TRY(parse_digit(s[0], &high));
  switch (s[1]) {
  case ';':
    REQUIRE(high > 0, -3);
    break;
  default:
    sum = TRY(parse_digit(s[1], &low));
    break;
  }
  return sum + high * 10 + low;
}

/* The checks run only for a negative sum: the macro's statements stay under the `if`. */
static int checked_sum(int a, int b) {
  int sum = a + b;
  if (sum < 0)
    BOTH_POSITIVE(a, b, -4);
  return sum;
}

/* A loop without braces that may return through either REQUIRE: the else's REQUIRE, a branch
 * without braces, gets braces of its own and so its own return node and test, as the block's
 * REQUIRE has. */
static int all_below(const int *v, int n, int limit) {
  while (n--)
    if (n % 2) {
      REQUIRE(v[n] < limit, -5);
    } else
      REQUIRE(v[n] < limit + 1, -6);
  return 0;
}

int main(void) {
  const char *text = "4x2";
  const char *pairs[] = {"42", "x1", "4y", "0;"};
  const int values[] = {1, 2, 9, 4};
  int total = 0, errors = 0, i;
  for (i = 0; text[i] != '\0'; i++) {
    int digit = 0;
    if (parse_digit(text[i], &digit) != 0)
      errors = errors + 1;
    else
      total = total * 10 + digit;
  }
  for (i = 0; i < 4; i++)
    if (parse_pair(pairs[i]) < 0)
      errors = errors + 1;
  if (all_below(values, 4, 5) < 0)
    errors = errors + 1;
  printf("%d %d %d %d\n", total, errors, checked_sum(3, -1), checked_sum(-3, 1));
  return 0;
}
