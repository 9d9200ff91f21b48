#include <stdio.h>
#include "lib/clamp.h"
#include "lib/scale.h"
#include "lib/clamp.h"

int half_of(int full);

int main(void) {
  int full = 40;
  int bar = scale(130, full);
  int half = half_of(full);
  printf("%d %d %s %d\n", bar, half, WHERE, __LINE__);
  return bar > half ? 0 : 1;
}
