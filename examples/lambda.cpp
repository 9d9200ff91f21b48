// A lambda: its body is a function of its own; captures are read through the closure.
#include <cstdio>

int main() {
    int base = 5;
    int bonus = 2;
    auto add_base = [base](int v) {
        int r = v + base;
        return r;
    };
    int total = add_base(bonus) * 2;
    std::printf("total = %d\n", total);
    return 0;
}
