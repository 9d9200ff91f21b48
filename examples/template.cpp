// A function template: the written pattern is instrumented once, for every instantiation.
#include <cstdio>

template <typename T> T clamp_to(T value, T low, T high) {
    T result = value;
    if (value < low)
        result = low;
    else if (value > high)
        result = high;
    return result;
}

int main() {
    int limit = 10;
    int clamped = clamp_to(42, 0, limit);
    double d = clamp_to(-1.5, 0.0, 1.0);
    std::printf("clamped = %d, d = %.1f\n", clamped, d);
    return 0;
}
