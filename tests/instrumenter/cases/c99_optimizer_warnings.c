/* check_example flags: -Winline */
/* Warnings about what GCC's optimizer decided on the instrumented code, which is bigger than the
 * original, stay off (bzip2 builds with -Winline; its bsW no longer fits GCC's limits for
 * inlining once instrumented): the native build gives the original's. */
#include <stdio.h>

static unsigned buffer;
static int live;

static __inline__ void put_bits(int n, unsigned v) {
  while (live >= 8) {
    putchar((int)(buffer >> 24));
    buffer <<= 8;
    live -= 8;
  }
  buffer |= v << (32 - live - n);
  live += n;
}

int main(void) {
  int i;
  for (i = 0; i < 40; i++)
    put_bits(i % 7 + 1, (unsigned)i & 1u);
  put_bits(8, 0u);
  printf("\n%d %u\n", live, buffer);
  return 0;
}
