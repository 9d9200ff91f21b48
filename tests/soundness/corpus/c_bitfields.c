/* Bit-fields: written and read through a struct and through a pointer, several sharing a byte,
 * by assignment, compound assignment and ++; a write keeps its neighbours' bits. */
#include <stdio.h>

struct flags {
  unsigned on : 1;
  unsigned level : 3;
  signed delta : 5;
  unsigned wide : 20;
};

static void bump(struct flags *f, int by) {
  f->delta += by;
  f->wide++;
}

static int score(const struct flags *f) { return f->on ? f->level * 10 + f->delta : -1; }

int main(int argc, char **argv) {
  struct flags f = {0, 0, 0, 0};
  struct flags g[2] = {{1, 2, 3, 4}, {0, 1, 2, 3}};
  int base = argc + 2;
  int extra = (int)(argv[0][0] != 0) + 4;
  unsigned spare = 9;
  f.on = 1;
  f.level = base;
  f.wide = extra * 1000;
  bump(&f, extra);
  g[1].level = f.level + 1;
  g[1].on = (unsigned)(spare > 3);
  spare = g[0].wide; /* never printed */
  printf("score=%d wide=%u g=%d %u\n", score(&f), f.wide, score(&g[1]), g[0].level);
  return 0;
}
