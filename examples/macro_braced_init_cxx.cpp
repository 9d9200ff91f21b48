// C++ initializers that a macro spells as a braced list: `Buf b = BUF_INIT(m);`, a container
// filled from one (`std::vector<int> v = PAIR_OF(x, y);`), a direct list initialization whose
// braces the macro brings (`std::array<int, 2> a PAIR_OF(x, y);`) and a function that returns
// one. A comma expression cannot hold a braced list: the reads the macro hides go before the
// declaration or the return statement, checked against its node, so the slice of a value
// computed from the fields reaches the locals the macro read (`count`, `first`, `second`),
// and not `unused`.
#include <array>
#include <cstdio>
#include <vector>

struct Buf {
  int len;
  int cap;
};

// clang-format off
#define BUF_INIT(n) { n, 2 * (n) }
#define PAIR_OF(x, y) { x, y }
// clang-format on

static Buf reserve(int n) { return BUF_INIT(n + 1); }

static int total(int count, int first, int second) {
  Buf b = BUF_INIT(count);
  std::vector<int> v = PAIR_OF(first, b.len);
  std::array<int, 2> a PAIR_OF(second, 1);
  Buf r = reserve(count);
  return v[0] + v[1] + a[0] + r.cap;
}

int main() {
  int count = 3;
  int first = 10, second = 20;
  int unused = 7;
  int t = total(count, first, second);
  std::printf("%d %d\n", t, unused);
  return 0;
}
