// The Debugging Book's square_root(), with its pre- and postcondition as assertions.
#include <cassert>
#include <cmath>
#include <cstdio>

double square_root(double x) {
    assert(x >= 0);  // precondition

    double approx = -1;
    double guess = x / 2;
    while (approx != guess) {
        approx = guess;
        guess = (approx + x / approx) / 2;
    }

    assert(std::fabs(approx * approx - x) < 1e-9);  // postcondition
    return approx;
}

int main() {
    std::printf("square_root(2.0) = %.6f\n", square_root(2.0));
    return 0;
}
