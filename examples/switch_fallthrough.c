/* switch with fall-through: case bodies are controlled by the switch's test. */
#include <stdio.h>

static int weight(int kind) {
    int w = 0;
    switch (kind) {
    case 0:
        w += 1;
        /* fall through */
    case 1:
        w += 10;
        break;
    default:
        w = -1;
    }
    return w;
}

int main(void) {
    printf("weight(0) = %d\n", weight(0));
    return 0;
}
