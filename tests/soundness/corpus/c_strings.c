/* C strings: formatting into buffers, copies, parsing numbers back. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void) {
  char buf[64], copy[64], *end;
  int year = 2024, month = 7, day = 9, unused_len;
  long parsed;
  snprintf(buf, sizeof buf, "%04d-%02d-%02d", year, month, day);
  strcpy(copy, buf);
  copy[4] = '/';
  unused_len = (int)strlen(buf);
  parsed = strtol(copy + 5, &end, 10);
  strcat(copy, "!");
  printf("%s %s %ld %c\n", buf, copy, parsed, *end);
  return 0;
}
