/* check_example flags: -O2 */
/* Reads through pointers inside macro arguments. When optimizing, glibc's tolower() is a macro
 * (a statement expression that names its argument several times), and MAX spells each of its
 * arguments twice: the reads of *s, p->len and v[i] written in those arguments happen just
 * before the expansion, so what the macros give depends on the writes to those objects, at -O2
 * as at -O0, where tolower() is a function call. */
#include <ctype.h>
#include <stdio.h>

#define MAX(a, b) ((a) > (b) ? (a) : (b))

struct buffer {
  int len;
  int cap;
};

static int widest(const struct buffer *p, int n) {
  int w = MAX(p->len, n);
  return w;
}

int main(void) {
  char text[4];
  struct buffer b;
  int v[3];
  const char *s = text;
  int lower, w, m, i = 1;
  text[0] = 'Q';
  text[1] = '\0';
  b.len = 7;
  b.cap = 16;
  v[0] = 1;
  v[1] = 9;
  v[2] = 4;
  lower = tolower(*s);
  w = widest(&b, 3);
  m = MAX(v[i], w);
  printf("%c %d %d %d\n", lower, w, m, b.cap);
  return 0;
}
