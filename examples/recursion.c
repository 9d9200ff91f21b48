/* Recursion: all activations of a site merge into one node. */
#include <stdio.h>

static int factorial(int n) {
    if (n <= 1)
        return 1;
    return n * factorial(n - 1);
}

int main(void) {
    int f = factorial(5);
    printf("5! = %d\n", f);
    return 0;
}
