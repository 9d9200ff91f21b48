/* The program's own variadic functions: what va_arg yields is the argument it reads at the
 * call, walked directly, through a va_copy, and by a helper given the va_list. */
#include <stdarg.h>
#include <stdio.h>

/* Adds up count ints of a va_list its caller started. */
static long vsum(int count, va_list ap) {
  long total = 0;
  int i;
  for (i = 0; i < count; ++i)
    total += va_arg(ap, int);
  return total;
}

static long sum(int count, ...) {
  va_list ap;
  long total;
  va_start(ap, count);
  total = vsum(count, ap);
  va_end(ap);
  return total;
}

/* The largest of count ints less the first, which a copy of the walk reads again. */
static int spread(int count, ...) {
  va_list ap, again;
  int largest, i;
  va_start(ap, count);
  va_copy(again, ap);
  largest = va_arg(ap, int);
  for (i = 1; i < count; ++i) {
    int v = va_arg(ap, int);
    if (v > largest)
      largest = v;
  }
  largest -= va_arg(again, int);
  va_end(again);
  va_end(ap);
  return largest;
}

int main(int argc, char **argv) {
  int a = 3 * argc, b = 14, c = 15 + argc;
  int unused = 92;
  long s = sum(3, a, b, c);
  int d = spread(3, b, c, a);
  (void)argv;
  unused = unused * 2;
  printf("%ld %d\n", s, d);
  return 0;
}
