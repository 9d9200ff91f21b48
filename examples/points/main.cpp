#include <cstdio>

#include "point.h"

int main() {
    Point a{1, 2};
    Point b{4, 6};
    a.shift(1);
    int total = a.sum() + distance(a, b);
    std::printf("%d\n", total);
    return 0;
}
