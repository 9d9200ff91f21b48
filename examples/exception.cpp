// An exception thrown through two frames: the frames it unwinds are left, and the handler's
// statements are tracked in main's frame.
#include <cstdio>
#include <stdexcept>

int parse_digit(char c) {
    if (c < '0' || c > '9')
        throw std::invalid_argument("not a digit");
    return c - '0';
}

int parse_pair(const char *text) {
    int tens = parse_digit(text[0]);
    int ones = parse_digit(text[1]);
    return tens * 10 + ones;
}

int main() {
    int result = -1;
    try {
        result = parse_pair("4x");
    } catch (const std::invalid_argument &) {
        result = 0;
    }
    int shown = result + 100;
    std::printf("shown = %d\n", shown);
    return 0;
}
