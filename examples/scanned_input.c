/* Values that fscanf and sscanf store are input: they have no origin, as a constant's. Before,
 * each variable kept the origin of its initialization, so total depended on `count = 5` and
 * `value = 7`, and first on the store of '-' into word[0]. rest adds big, which sscanf
 * assigned, and skipped, which it did not (the text does not match the `%*d` that comes first),
 * so rest depends on skipped's initialization only. */
#include <stdio.h>

int main(void) {
  int count = 5, value = 7, skipped = 9, total, first, rest;
  long big = 1;
  char word[8];
  double ratio = 0.5;
  FILE *file = tmpfile();
  if (!file)
    return 1;
  word[0] = '-';
  word[1] = '\0';
  fputs("3 4 abc 2.5\n", file);
  rewind(file);
  if (fscanf(file, "%d %d %7s %lf", &count, &value, word, &ratio) != 4)
    return 1;
  if (sscanf("12 x", "%ld %*d %d", &big, &skipped) != 1)
    return 1;
  total = count + value;
  first = word[0];
  rest = (int)big + skipped;
  printf("%d %d %d %.1f\n", total, first, rest, ratio);
  fclose(file);
  return 0;
}
