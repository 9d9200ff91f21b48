/* C99: declarations in for, mixed declarations and statements, compound literals, designated
 * initializers, _Bool, long long, inline functions (static, and an external inline
 * definition), variable-length arrays; parameters declared
 * as arrays (`int a[4]`, `va_list`), on which sizeof warns. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>

struct point {
  int x, y;
};

static inline int twice(int v) { return v * 2; }

static long long widen(int v) { return (long long)v << 33; }

/* A parameter declared as an array, in the shadow memory (its address is taken), read inside a
 * macro's expansion: its size is its pointer's (no -Wsizeof-array-argument). */
#define FIRST_CHAR(v) ((v)[0][0])
static int first_char(const char *names[]) {
  const char ***where = &names;
  return FIRST_CHAR(names) + (**where)[1];
}

/* An inline definition that is an external one (the declaration before it is extern), as
 * bzip2's BZ2_indexIntoF: its probes may use the file's static tables. */
extern int clamp(int v);
inline int clamp(int v) { return v < 0 ? 0 : v; }

static int vla_sum(int n) {
  int values[n];
  int total = 0;
  for (int i = 0; i < n; i++)
    values[i] = i * i;
  for (int i = 0, j = n - 1; i < j; i++, j--)
    total += values[i] + values[j];
  return total;
}

/* Unbraced bodies ending in a string literal: the `;` after `"..."` belongs to the body. */
static const char *sign_name(int v) {
  if (v < 0)
    return "negative";
  else if (v == 0)
    return "zero";
  while (v > 100)
    return "large";
  return "positive";
}

static int first_after(int values[4], int skip) {
  values = values + skip;
  return values[0];
}

static int print_with(const char *format, va_list args) {
  int written = vprintf(format, args);
  return written;
}

static int print(const char *format, ...) {
  va_list args;
  va_start(args, format);
  int written = print_with(format, args);
  va_end(args);
  return written;
}

int main(void) {
  int total = 0;
  total += twice(3);
  struct point p = {.y = 4, .x = 3};
  struct point *pp = &(struct point){1, 2};
  bool ok = p.x < p.y;
  long long big = widen(total);
  for (int k = 0; k < 3; ++k) {
    int doubled = twice(k);
    total += doubled;
  }
  int later = total + pp->y;
  _Bool flag = later > 10;
  total += vla_sum(5) + clamp(-3) + clamp(2);
  total = total > 100 ? total - 100 : total + 100;
  printf("total=%d ok=%d big=%lld later=%d flag=%d\n", total, ok, big, later, flag);
  printf("%s %s %s %s\n", sign_name(-1), sign_name(0), sign_name(7), sign_name(1000));
  int four[4] = {4, 5, 6, 7};
  print("after=%d\n", first_after(four, 2));
  const char *names[] = {"ab", "cd"};
  printf("first=%d\n", first_char(names));
  return 0;
}
