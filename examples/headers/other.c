#include "lib/scale.h"
int half_of(int full) { return scale(50, full); }
