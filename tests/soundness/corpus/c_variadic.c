/* The program's own variadic functions, read with va_arg (Csmith writes none). */
#include <stdarg.h>
#include <stdio.h>

static long sum_ints(int count, ...) {
  va_list ap;
  long total = 0;
  int i;
  va_start(ap, count);
  for (i = 0; i < count; ++i)
    total += va_arg(ap, int);
  va_end(ap);
  return total;
}

static double weighted(const char *tag, int count, ...) {
  va_list ap;
  double acc = 0.0;
  int i;
  int ignored = 0;
  va_start(ap, count);
  for (i = 0; i < count; ++i) {
    double w = va_arg(ap, double);
    int v = va_arg(ap, int);
    acc += w * v;
    ignored += v; /* computed, never printed */
  }
  va_end(ap);
  (void)tag;
  return acc;
}

static void log_values(char *out, int n, ...) {
  va_list ap;
  int i;
  va_start(ap, n);
  for (i = 0; i < n; ++i)
    out[i] = (char)('a' + va_arg(ap, int) % 26);
  out[n] = '\0';
  va_end(ap);
}

int main(void) {
  int a = 3, b = 14, c = 15;
  int unused_scale = 92;
  long s = sum_ints(3, a, b, c);
  double w = weighted("w", 2, 0.5, a, 2.0, c);
  char word[8];
  unused_scale = unused_scale * 2;
  log_values(word, 4, a, b, c, 7);
  printf("sum=%ld weighted=%.2f word=%s\n", s, w, word);
  return 0;
}
