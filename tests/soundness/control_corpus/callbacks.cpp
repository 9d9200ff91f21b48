// Callbacks that the standard library calls while the program's call runs (a lambda given to
// std::sort, std::for_each, std::find_if, std::accumulate; a std::set's comparator), made under
// tests, for the control-dependence oracle (control_oracle.py): the callback's statements are
// controlled by what controls the call.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <set>
#include <vector>

struct ByMagnitude {
  bool operator()(int a, int b) const {
    if (a < 0)
      a = -a;
    if (b < 0)
      b = -b;
    return a < b;
  }
};

int main(int argc, char **) {
  std::vector<int> v{4, -2, 7, 1, -5};
  int swaps = 0, visits = 0, total = 0;
  if (argc > 0)
    std::sort(v.begin(), v.end(), [&](int a, int b) {
      ++swaps;
      return a < b;
    });
  for (int round = 0; round < 2; ++round)
    if (round == 1)
      std::for_each(v.begin(), v.end(), [&](int x) {
        if (x > 0)
          ++visits;
      });
  auto it = v.end();
  if (swaps > 0)
    it = std::find_if(v.begin(), v.end(), [](int x) { return x > 3; });
  std::set<int, ByMagnitude> seen;
  for (int x : v)
    if (x != 1)
      seen.insert(x);
  if (visits > 1)
    total = std::accumulate(v.begin(), v.end(), 0, [](int s, int x) {
      if (x < 0)
        return s - x;
      return s + x;
    });
  std::printf("%d %d %d %d %zu\n", swaps, visits, it == v.end() ? 0 : *it, total, seen.size());
  return 0;
}
