/* Triangle classification, the classic fault-localization subject. */
#include <stdio.h>
#include <stdlib.h>

static const char *classify(int a, int b, int c) {
    if (a <= 0 || b <= 0 || c <= 0)
        return "invalid";
    if (a + b <= c || a + c <= b || b + c <= a)
        return "not a triangle";
    if (a == b && b == c)
        return "equilateral";
    if (a == b || b == c || a == c)
        return "isosceles";
    if (a * a + b * b == c * c || a * a + c * c == b * b || b * b + c * c == a * a)
        return "right";
    return "scalene";
}

int main(int argc, char **argv) {
    if (argc != 4)
        return 2;
    printf("%s\n", classify(atoi(argv[1]), atoi(argv[2]), atoi(argv[3])));
    return 0;
}
