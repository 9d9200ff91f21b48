/* A write inside a macro's body is not seen, but the reads of its argument are pushed: the
 * statement after it (23) must not take them, whichever path the runtime takes (its inline
 * probes, or every node through the runtime as the soundness oracle's runs do). */
#include <stdio.h>

struct buf {
  char data[16];
  int n;
  int level;
  int status;
};

#define PUT(b, c)                                                                              \
  { (b)->data[(b)->n++] = (char)(c); }

int main(int argc, char **argv) {
  struct buf b = {{0}, 0, 0, 0}, *s = &b;
  int i;
  (void)argv;
  s->level = argc * 9;
  for (i = 0; i < 3; i++) {
    PUT(s, s->level == 9 ? 2 : 4);
    s->status = 7 + i;
  }
  printf("%d %d\n", s->status, s->data[0]);
  return 0;
}
