int middle(int x, int y, int z) {
    if (y < z) {
        if (x < y)
            return y;
        else if (x < z)
            return y;
    } else {
        if (x > y)
            return y;
        else if (x > z)
            return x;
    }
    return z;
}

// The Debugging Book's middle(): returns the middle of three numbers, but for (2, 1, 3) it
// returns 1 instead of 2. The backward slice of its return value shows why.
#include <cstdio>

int main() {
    int m = middle(2, 1, 3);
    std::printf("middle(2, 1, 3) = %d\n", m);
    return 0;
}
