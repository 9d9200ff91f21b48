/* check_example flags: -Winline */
/* Warnings about what GCC's optimizer decided on the instrumented code, which is bigger than the
 * original, stay off (bzip2 builds with -Winline; its bsW no longer fits GCC's limits for
 * inlining once instrumented), and GCC's -Wuse-after-free, whose "may be used after realloc"
 * loses track of a null test once the probes' own tests let GCC thread jumps (lz4's UTIL_realloc,
 * jansson): the native build gives the original's. */
#include <stdio.h>
#include <stdlib.h>

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

/* The idiom of lz4's util.h: the old block is freed where realloc failed. */
static void *grow_or_free(void *block, size_t size) {
  void *const bigger = realloc(block, size);
  if (bigger)
    return bigger;
  free(block);
  return NULL;
}

int main(void) {
  int i;
  char *text = grow_or_free(NULL, 4);
  for (i = 0; i < 40; i++)
    put_bits(i % 7 + 1, (unsigned)i & 1u);
  put_bits(8, 0u);
  printf("\n%d %u\n", live, buffer);
  text = grow_or_free(text, 64);
  printf("%s\n", text ? "grown" : "freed");
  free(text);
  return 0;
}
