// Destructors run at the end of a scope and on unwinding, handlers with several clauses, and a
// callback under a test, for the control-dependence oracle (control_oracle.py).
#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

struct Guard {
  int *count;
  ~Guard() { ++*count; }
};

static int released = 0;

static int inner(int v) {
  Guard g{&released};
  std::string label = "v";
  if (v > 2)
    throw std::runtime_error("big");
  return v * 3;
}

static int middle(int v) {
  Guard g{&released};
  return inner(v) + 1;
}

int main() {
  std::vector<int> values{1, 5, 2};
  int sum = 0, errors = 0;
  for (int v : values) {
    try {
      sum += middle(v);
    } catch (const std::runtime_error &e) {
      errors += 1;
    } catch (...) {
      errors += 100;
    }
  }
  int big = 0;
  std::for_each(values.begin(), values.end(), [&](int v) {
    if (v > 1)
      big += v;
  });
  int depth = 0;
  while (depth < 3) {
    depth++;
    if (depth == 2)
      continue;
  }
  std::printf("%d %d %d %d %d\n", sum, errors, released, big, depth);
}
