// A C++ reference parameter writes the caller's variable; the caller reads it by its own name.
#include <cstdio>

void scale(int &value, int factor) {
    value = value * factor;
}

int main() {
    int price = 7;
    int quantity = 3;
    int unused = 99;
    scale(price, quantity);
    int total = price + 1;
    std::printf("total = %d, unused = %d\n", total, unused);
    return 0;
}
