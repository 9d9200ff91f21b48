/* break and continue: the statements after the loop body's tests are controlled by them. */
#include <stdio.h>

int main(void) {
    int values[6] = {3, -1, 4, -1, 5, 9};
    int sum = 0;
    int i;
    for (i = 0; i < 6; i++) {
        if (values[i] < 0)
            continue;
        if (values[i] > 8)
            break;
        sum += values[i];
    }
    printf("sum = %d\n", sum);
    return 0;
}
