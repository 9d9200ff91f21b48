/* Two translation units: the mean is computed here, called from main.c. */
#include "stats.h"

int mean(const int *values, int n) {
    int total = 0;
    int i;
    for (i = 0; i < n; i++)
        total += values[i];
    return total / n;
}
