/* Copies by memcpy and memmove carry the origins of the bytes they copy: b.x depends on the
 * write to a.x through the copy (not on a.y's), v[0] on the write to v[1] it was moved from. A
 * buffer cleared with memset has no origin, as a constant: not what an earlier call's locals
 * left at the same stack address (fill() runs at cleared()'s depth, just before it). */
#include <stdio.h>
#include <string.h>

struct point {
  int x;
  int y;
};

static int fill(int seed) {
  int scratch[8];
  int i;
  for (i = 0; i < 8; i++)
    scratch[i] = seed + i;
  return scratch[7];
}

static int cleared(void) {
  int buffer[8];
  memset(buffer, 0, sizeof(buffer));
  return buffer[3];
}

int main(void) {
  struct point a, b;
  int v[4];
  int t, c, z, w;
  a.x = 3;
  a.y = 4;
  memcpy(&b, &a, sizeof(b));
  t = b.x * 2;
  v[0] = 1;
  v[1] = t;
  v[2] = 5;
  v[3] = 7;
  memmove(v, v + 1, 2 * sizeof(v[0]));
  w = v[0] + v[3];
  c = fill(t);
  z = cleared();
  printf("%d %d %d %d\n", t, w, c, z);
  return 0;
}
