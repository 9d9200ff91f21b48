/* setjmp/longjmp: an error unwinds several frames to the handler. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf on_error;
static int depth_reached;
static int last_bad;

static int parse_digit(char c) {
  if (c < '0' || c > '9') {
    last_bad = c;
    longjmp(on_error, 1);
  }
  return c - '0';
}

static int parse_number(const char *s) {
  int value = 0;
  depth_reached++;
  while (*s) {
    value = value * 10 + parse_digit(*s);
    s++;
  }
  return value;
}

static int try_parse(const char *s, int fallback) {
  volatile int result = fallback;
  if (setjmp(on_error) == 0)
    result = parse_number(s);
  else
    result = fallback - last_bad;
  return result;
}

int main(void) {
  int base = 100;
  int a = try_parse("1234", base);
  int b = try_parse("12x4", base);
  int scratch = a * 2;
  scratch -= b;
  printf("a=%d b=%d depth=%d\n", a, b, depth_reached);
  return 0;
}
