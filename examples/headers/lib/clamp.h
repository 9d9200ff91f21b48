#pragma once
/* A header with code: instrumented along with each source that includes it. */
static int clamp(int value, int low, int high) {
  if (value < low)
    return low;
  if (value > high)
    return high;
  return value;
}
