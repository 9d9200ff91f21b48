/* && and ?: outside a condition: the calls they decide are controlled by their tests. */
#include <stdio.h>

static int checks;

static int expensive(int v) {
    checks++;
    return v > 10;
}

int main(void) {
    int small = 3;
    int big = 42;
    int a = small > 5 && expensive(small);
    int b = big > 5 && expensive(big);
    int c = b ? expensive(big + 1) : 0;
    printf("a=%d b=%d c=%d checks=%d\n", a, b, c, checks);
    return 0;
}
