/* C99 and later (and C++ without GNU extensions) call glibc's __isoc99_ scanf functions, which
 * the runtime defines too; this program reads through vsscanf, from a variadic function of its
 * own. The fields it stores are input: stamp depends on none of their initializations, and
 * first on no write of unit's. */
#include <stdarg.h>
#include <stdio.h>

static int parse(const char *text, const char *format, ...) {
  va_list args;
  int assigned;
  va_start(args, format);
  assigned = vsscanf(text, format, args);
  va_end(args);
  return assigned;
}

int main(void) {
  int day = 1, month = 1;
  unsigned year = 1970;
  char unit[4] = "-";
  if (parse("24.11.2026 kg", "%d.%d.%u %3s", &day, &month, &year, unit) != 4)
    return 1;
  long stamp = (long)year * 10000 + month * 100 + day;
  int first = unit[0];
  printf("%ld %c\n", stamp, first);
  return 0;
}
