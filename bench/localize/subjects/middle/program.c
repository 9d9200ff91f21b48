/* The Debugging Book's middle(), correct: the median of three integers. */
#include <stdio.h>
#include <stdlib.h>

static int middle(int x, int y, int z) {
    if (y < z) {
        if (x < y)
            return y;
        else if (x < z)
            return x;
    } else {
        if (x > y)
            return y;
        else if (x > z)
            return x;
    }
    return z;
}

int main(int argc, char **argv) {
    if (argc != 4)
        return 2;
    printf("%d\n", middle(atoi(argv[1]), atoi(argv[2]), atoi(argv[3])));
    return 0;
}
