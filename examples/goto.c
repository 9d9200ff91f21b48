/* goto: a retry loop written with a label. */
#include <stdio.h>

int main(void) {
    int attempts = 0;
    int value = 1;
retry:
    attempts++;
    value = value * 3;
    if (value < 50)
        goto retry;
    printf("value = %d after %d attempts\n", value, attempts);
    return 0;
}
