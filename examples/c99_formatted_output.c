/* check_example flags: -O2 -D_FORTIFY_SOURCE=2 */
/* sprintf and snprintf write the bytes they format, and those bytes depend on what was
 * formatted: first, a digit that copy_digits() copied out of number char by char (as cJSON
 * prints a number), leads back through sprintf to total, price and quantity; shown, snprintf's
 * value, to quantity. With _FORTIFY_SOURCE, glibc's sprintf and snprintf are macros in C (as
 * Clang parses them), whose invocations the instrumenter renames as it would calls. */
#include <stdio.h>

static int copy_digits(char *out, const char *digits) {
  int i;
  for (i = 0; digits[i] != '\0'; i++)
    out[i] = digits[i];
  out[i] = '\0';
  return i;
}

int main(void) {
  char number[32], label[16], out[64];
  double price = 2.5, total;
  int quantity = 4, length, shown, first;
  total = price * quantity;
  length = sprintf(number, "%g", total);
  copy_digits(out, number);
  first = out[0];
  shown = snprintf(label, sizeof label, "qty=%d", quantity);
  printf("%s %d %s %d %c\n", out, length, label, shown, first);
  return 0;
}
