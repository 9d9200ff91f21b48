// C++ that GCC compiles with warnings and Clang 19 rejects by default: `register` in C++17, and
// a macro right after a string literal (`"%"PRId64`, as before C++11's user-defined literals).
#include <cinttypes>
#include <cstdint>
#include <cstdio>

static std::int64_t triangle(register int n) {
  register std::int64_t sum = 0;
  for (register int i = 1; i <= n; ++i)
    sum += i;
  return sum;
}

int main() {
  std::int64_t t = triangle(10);
  std::printf("triangle %"PRId64"\n", t);
  return t != 55;
}
