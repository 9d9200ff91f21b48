/* Rewriting rules under -std=c89 -pedantic -Werror (design brief §5): each construct here once
 * broke, or could break, a naive rewriter. The program prints what it computed; the instrumented
 * build must print the same. */
#include <assert.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SQUARE(x) ((x) * (x))
#define SET_TO_ONE(v) v = 1
#define SWAP(a, b)                                                                                \
  do {                                                                                            \
    int swap_tmp = (a);                                                                           \
    (a) = (b);                                                                                    \
    (b) = swap_tmp;                                                                               \
  } while (0)

/* The argument is read and assigned in one expansion (zlib's CRC2): the read of `state` inside
 * it must not wrap the argument's text, which the assignment needs as an lvalue. */
#define MIX_INTO(check, word)                                                                     \
  do {                                                                                            \
    mixbuf[0] = (unsigned char)(word);                                                            \
    check = mix(check, mixbuf[0]);                                                                \
  } while (0)

static unsigned char mixbuf[2];

static unsigned long mix(unsigned long check, unsigned char c) { return check * 31u + c; }

struct checked {
  unsigned long check;
};

static unsigned long mix_all(struct checked *state, const char *text) {
  unsigned hold;
  for (hold = 0; text[hold] != '\0'; hold++)
    MIX_INTO(state->check, text[hold]);
  return state->check;
}

struct flags {
  unsigned ready : 1;
  unsigned level : 3;
};

struct pair {
  int first;
  int second;
};

enum color { RED, GREEN, BLUE };

static jmp_buf recovery;
static int calls;

static int counter(void) {
  static int count = 10; /* a static initializer must stay constant */
  count++;
  return count;
}

static struct pair make_pair(int a, int b) {
  struct pair p;
  p.first = a;
  p.second = b;
  return p;
}

static const char *find_char(const char *s, int c) {
  while (*s) {
    if (*s == c)
      return s;
    s++;
  }
  return 0; /* a null pointer constant must stay one */
}

static char *nothing(void) { return NULL; }

static int sum_ints(int n, ...) {
  va_list ap;
  int total = 0;
  int i;
  va_start(ap, n);
  for (i = 0; i < n; i++)
    total += va_arg(ap, int);
  va_end(ap);
  return total;
}

static void deep(int level) {
  calls++;
  if (level < 0)
    return;
  if (level == 0)
    longjmp(recovery, 7);
  deep(level - 1);
}

static int compare_ints(const void *a, const void *b) {
  int x = *(const int *)a, y = *(const int *)b;
  return (x > y) - (x < y);
}

static void early(int *out, int v) {
  if (v < 0)
    return;
  *out = v * 2;
}

static int next_value(int *cursor) {
  int values[4];
  values[0] = 5;
  values[1] = 3;
  values[2] = 8;
  values[3] = 0;
  return values[(*cursor)++];
}

int main(void) {
  int *p, q = 3;           /* one declarator a pointer, the other not */
  int a = 1, b = a + 1;    /* b reads a: each declarator on its own */
  register int fast = 4;   /* no address for register variables */
  volatile int vol = 5;
  const int limit = 3;
  struct flags f;
  struct pair pr, copy;
  char buffer[16];
  char *dst;
  const char *src;
  int arr[5];
  int i, j, c, total, jumped;
  unsigned u;
  enum color col;
  int (*fp)(int *);

  p = &q;
  *p += b;
  f.ready = 1;
  f.level = 5;
  f.level++;
  pr = make_pair(a, *p);
  copy = pr;
  copy.second += pr.first;
  total = SQUARE(q) + fast + vol + limit;
  SET_TO_ONE(i);
  j = 2;
  SWAP(i, j);
  arr[0] = arr[1] = arr[2] = arr[3] = arr[4] = 0;
  for ((void)(i = 0), j = 4; i < j; (void)i++, j--)
    arr[i] = arr[j] + i * j;
  i = 0;
  arr[i++] = arr[j] + 1; /* side effects in the left operand: evaluated once */
  src = "hello";
  dst = buffer;
  while ((*dst++ = *src++) != '\0')
    ;
  j = 2;
  while ((c = next_value(&j)) != 0 && c < 100)
    total += c;
  u = 7u;
  switch (u) {
  case 7u:
    total += 1;
    /* fall through */
  case 8u:
    total += 2;
    break;
  default:
    total = -1;
  }
  col = BLUE;
  switch (col) {
  case RED:
    total += 100;
    break;
  case GREEN:
  case BLUE:
    total += 200;
    break;
  }
  switch (buffer[1]) {
  case 'e':
    total += 3;
    break;
  default:
    break;
  }
  total += sum_ints(3, q, a, b);
  qsort(arr, 5, sizeof arr[0], compare_ints);
  fp = next_value;
  j = 0;
  total += fp(&j) + (*fp)(&j);
  total += (int)sizeof(arr[i]); /* unevaluated */
  early(&i, 21);
  early(&i, -1);
  jumped = setjmp(recovery);
  if (jumped == 0)
    deep(3);
  total += jumped + calls;
  dst = NULL; /* values that are macro expansions */
  c = EOF;
  if (dst == NULL && c == EOF)
    total += 1;
  if (i > 10)
    goto done;
  total = -1000;
done:
  total += counter() + counter();
  {
    struct checked sum;
    sum.check = 7;
    total += (int)(mix_all(&sum, "sleuth") % 100u);
  }
  assert(total > 0 && find_char("abc", 'b') != 0);
  assert(nothing() == NULL);
  printf("q=%d b=%d f=%u/%u pair=%d,%d copy=%d,%d buffer=%s\n", q, b, f.ready, f.level,
         pr.first, pr.second, copy.first, copy.second, buffer);
  printf("arr=%d,%d,%d,%d,%d i=%d total=%d\n", arr[0], arr[1], arr[2], arr[3], arr[4], i,
         total);
  return total % 7;
}
