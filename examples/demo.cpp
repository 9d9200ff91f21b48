// The Debugging Book's demo(): a loop whose test reads the variable it changes.
#include <cstdio>

int demo(int x) {
    int z = x;
    while (x <= z && z <= 64)
        z *= 2;
    return z;
}

int main() {
    std::printf("demo(10) = %d\n", demo(10));
    return 0;
}
