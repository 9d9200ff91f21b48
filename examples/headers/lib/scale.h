#ifndef SCALE_H
#define SCALE_H
#include "clamp.h"
#define WHERE __FILE__
static int scale(int percent, int full) {
  int raw = percent * full / 100;
  return clamp(raw, 0, full);
}
#endif
