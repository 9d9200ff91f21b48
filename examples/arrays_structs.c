/* Arrays and struct fields: each element and field has its own origin. */
#include <stdio.h>

struct point {
    int x;
    int y;
};

int main(void) {
    struct point pt;
    int squares[4];
    int i;
    int r;
    pt.x = 3;
    pt.y = 4;
    for (i = 0; i < 4; i++)
        squares[i] = i * i;
    r = squares[2] + pt.y;
    printf("r = %d\n", r);
    return 0;
}
