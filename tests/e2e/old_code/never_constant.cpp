// A constexpr function that never yields a constant: Clang rejects it unless told
// -Wno-invalid-constexpr, which must reach the wrapper's parse as it reaches the compiler.
#include <cstdio>

static int counter = 0;
static int next() { return ++counter; }
constexpr int twiceNext() { return 2 * next(); }

int main() {
  int v = twiceNext();
  std::printf("%d\n", v);
  return v != 2;
}
