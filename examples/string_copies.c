/* String copies carry their bytes' origins, as memcpy does: full is built by strcpy, strcat and
 * strncat from words that spell() wrote letter by letter, so b (the 'o' of "Love") depends on
 * spell()'s write to word[i]. strncpy pads with '\0's, which have no origin: d reads such a pad
 * byte, where spell() had written an 'x' before. */
#define _POSIX_C_SOURCE 200809L /* stpcpy */
#include <stdio.h>
#include <string.h>
/* check_example flags: -Wno-unknown-warning-option -Wno-stringop-truncation */
static void spell(char *word, const char *letters, int n) {
  int i;
  for (i = 0; i < n; i++)
    word[i] = letters[i];
  word[n] = '\0';
}

int main(void) {
  char first[8], last[16], full[32], tag[16];
  char *end;
  int a, b, c, d;
  spell(first, "Ada", 3);
  spell(last, "Lovelace", 8);
  spell(tag, "xxxxxxxxxx", 10);
  strcpy(full, first);
  strcat(full, " ");
  strncat(full, last, 4);
  a = full[1];
  b = full[5];
  end = stpcpy(tag, last);
  c = end[-1];
  strncpy(tag, first, 6);
  d = tag[5];
  printf("%s|%s|%d %d %d %d\n", full, tag, a, b, c, d);
  return 0;
}
