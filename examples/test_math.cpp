// The Debugging Book's add_to / mul_with / test_math: arguments flow into parameters and
// return values flow back into the caller.
#include <cstdio>

int add_to(int n, int m) {
    n += m;
    return n;
}

int mul_with(int x, int y) {
    x *= y;
    return x;
}

int test_math() {
    return mul_with(1, add_to(2, 3));
}

int main() {
    std::printf("test_math() = %d\n", test_math());
    return 0;
}
