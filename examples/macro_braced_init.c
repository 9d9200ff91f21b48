/* Structs and arrays initialized by a macro that spells a braced list, as C libraries write the
 * initializers of their buffers and ranges (`#define BUF_INIT(d, n) { d, n, 2 * (n) }`). No
 * probe can go into a macro, and a comma expression cannot hold a braced list: the reads that
 * the macro hides (the locals and parameters it names, the lvalues of its arguments) are made
 * in a declaration of the instrumentation's just before the declaration, checked against its
 * node. So the slice of a value computed from the struct's fields reaches what the macro read:
 * `room` depends on `used`, and through the designated and the nested lists, `w` on `lo` and
 * `hi`; `ignored` on nothing of them. */
/* check_example flags: -std=c99 */
#include <stdio.h>

struct buf {
  const char *data;
  int len;
  int cap;
};

struct range {
  int lo;
  int hi;
};

struct window {
  struct range span;
  int step;
};

/* clang-format off */
#define BUF_INIT(d, n) { d, n, 2 * (n) }
#define RANGE(l, h) { .hi = (h), .lo = (l) }
#define WINDOW(l, h) { RANGE(l, h), 1 }
#define SCALED(v) { scale(v), scale(v) + 1 }
/* clang-format on */

static int scale(int v) { return 3 * v; }

static int spare(const char *text, int used) {
  struct buf b = BUF_INIT(text, used);
  return b.cap - b.len;
}

static int width(int lo, int hi) {
  struct window w = WINDOW(lo, hi);
  int bounds[] = SCALED(w.span.hi);
  return bounds[1] - bounds[0] + w.span.hi - w.span.lo;
}

int main(void) {
  const char *text = "sleuth";
  int used = 4;
  int lo = 2, hi = 9;
  int ignored = 100;
  int room = spare(text, used);
  int w = width(lo, hi);
  printf("%d %d %d\n", room, w, ignored);
  return 0;
}
