/* Sites inside a loop's condition run before the loop's test, and the second line of this one
 * only when its first line holds: not on every call of matched(). The second call is the first
 * to run it, under the same test in main as the first call: its control edge must still be
 * recorded, though matched() returned under that test before. */
#include <stdio.h>

static int matched(const char *p, const char *q) {
    int n = 0;
    do {
        n++;
    } while (*++p == *++q &&
             *++p == *++q);
    return n;
}

int main(int argc, char **argv) {
    const char *texts[2] = {"ax", "abcx"};
    int total = 0;
    int round;
    (void)argv;
    for (round = 0; round < 2; round++) {
        if (argc > 0)
            total += matched("abcd", texts[round]);
    }
    printf("total=%d\n", total);
    return 0;
}
