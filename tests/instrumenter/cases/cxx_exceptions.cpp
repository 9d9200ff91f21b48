// Exceptions that leave blocks half-way: a call that throws skips the rest of its block, and
// the handler runs instead. Coverage mode must count what ran, with both counter placements
// (tests/coverage/golden/cxx_exceptions.txt, as gcov counts it).
#include <cstdio>
#include <stdexcept>
#include <vector>

static int checked(int x) {
  if (x > 5)
    throw std::out_of_range("too large");
  return x;
}

struct Tally {
  std::vector<int> seen;
  void add(int x) {
    seen.push_back(checked(x)); // throws before push_back for x > 5
    if (x % 2 == 0)
      seen.push_back(0);
  }
};

int main() {
  int sum = 0, caught = 0;
  Tally tally;
  for (int i = 0; i < 10; i++) {
    try {
      sum += checked(i);
      if (sum > 3)
        sum -= 1;
      else
        sum += 2;
      tally.add(i + 2);
    } catch (const std::out_of_range &) {
      caught++;
    }
  }
  std::printf("%d %d %zu\n", sum, caught, tally.seen.size());
  return 0;
}
