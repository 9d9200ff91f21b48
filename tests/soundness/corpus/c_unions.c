/* Unions: a value written through one member and read through another. */
#include <stdio.h>

union word {
  unsigned int whole;
  unsigned char bytes[4];
  struct {
    unsigned short low, high;
  } halves;
};

union number {
  int i;
  float f;
};

static unsigned checksum(const union word *w) {
  return (unsigned)w->bytes[0] + w->bytes[1] * 3u + w->bytes[2] * 5u + w->bytes[3] * 7u;
}

int main(void) {
  union word w;
  union number n;
  unsigned spare = 5;
  int k;
  w.whole = 0x01020304u;
  w.bytes[1] = 0x40;
  spare += w.halves.high; /* never printed */
  n.f = 1.5f;
  k = n.i >> 20;
  w.halves.high = (unsigned short)(w.halves.high + 1);
  printf("whole=%08x low=%u sum=%u k=%d\n", w.whole, w.halves.low, checksum(&w), k);
  return 0;
}
