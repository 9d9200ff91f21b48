/* Idioms of C libraries (xz, lz4) that the instrumented code must compile as the original does,
 * without warnings of its own. */
/* check_example flags: -Wimplicit-fallthrough -Wcast-qual */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>

struct delta {
  int type;
  unsigned dist;
};

/* restrict-qualified parameters and locals: their addresses reach the probes without
 * -Wdiscarded-qualifiers. */
static unsigned checksum(const unsigned char *restrict in, size_t size, unsigned *restrict out) {
  const unsigned char *restrict cursor = in;
  unsigned sum = 0;
  size_t i;
  for (i = 0; i < size; ++i)
    sum = sum * 31u + cursor[i];
  *out = sum;
  return sum;
}

/* A compound literal assigned through a pointer, with a comment inside its initializer (xz's
 * options.c): the literal is a fresh object, and no probe copies its text. */
static struct delta *new_delta(unsigned dist) {
  struct delta *options = malloc(sizeof *options);
  if (options == NULL)
    return NULL;
  *options = (struct delta){
      // No default fits every use.
      .type = 1,
      .dist = dist,
  };
  return options;
}

/* A write whose target's text has a comment in it: the probe's copy of the target leaves the
 * comment out rather than comment out the rest of the line it is folded onto. */
static int table[4];
static void store(int slot, int value) {
  table[slot // the slot chosen by the caller
        % 4] = value;
  assert(table[slot % 4] == value /* stored */ && // and readable
         slot >= 0);
}

static void usage(int status) __attribute__((noreturn));
static void usage(int status) {
  printf("usage: idioms [-v]\n");
  exit(status);
}

/* Two void calls joined by a comma, which Clang's -Wcomma accepts: the probe's comma before
 * the left one must not make Clang doubt it. */
static int calls;
static void count(int n) { calls += n; }
static void count_twice(void) { count(1), count(2); }

/* A call to a function that does not return, before a case label: no -Wimplicit-fallthrough. */
static int parse(int option) {
  int verbose = 0;
  switch (option) {
  case 'v':
    verbose = 1;
    break;
  case 'h':
    usage(0);
  case 'x':
    abort();
  default:
    verbose = -1;
    break;
  }
  return verbose;
}

/* Macros that quote an argument: a test macro printing what it checked, one passing its argument
 * on to another that quotes it, and a name pasted together. The reads of x and limit are in the
 * quoted text: no probe may change it, or the messages change. */
#define SHOW(e) printf("%s = %d\n", #e, (e))
#define EXPECT(c) SHOW(c)
#define FIELD(s, n) ((s).n##_max)
struct limits {
  int depth_max;
};

static int quoted(int x) {
  struct limits limit = {x + 2};
  SHOW(x * 2 + 1);
  EXPECT(x < FIELD(limit, depth));
  return FIELD(limit, depth);
}

int main(void) {
  unsigned char data[5] = {'s', 'l', 'e', 'u', 't'};
  unsigned sum = 0;
  struct delta *d = new_delta(7);
  checksum(data, sizeof data, &sum);
  store(6, (int)(sum % 1000));
  count_twice();
  printf("%u %d %u %d %d %d %d\n", sum, d ? d->type : 0, d ? d->dist : 0, table[2], parse('v'),
         parse('q'), calls);
  printf("%d\n", quoted(3));
  free(d);
  return 0;
}
