/* Writes through pointers are read back under another name: the shadow memory keys origins by
 * address, not by name. */
#include <stdio.h>

static void set_through(int *p, int v) {
    *p = v;
}

int main(void) {
    int a = 1;
    int *q = &a;
    int b;
    set_through(q, 40);
    b = a + 2;
    printf("b = %d\n", b);
    return 0;
}
