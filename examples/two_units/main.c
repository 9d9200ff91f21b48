/* Two translation units: dependences cross from stats.c into main.c. */
#include <stdio.h>
#include "stats.h"

int main(void) {
    int scores[3] = {70, 80, 93};
    int m = mean(scores, 3);
    int passed = m >= 80;
    printf("mean = %d, passed = %d\n", m, passed);
    return 0;
}
