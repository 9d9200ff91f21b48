// Library constructors that call the program back while they run: a std::set built from a
// range, a std::map from an initializer list and a std::priority_queue from a vector, each with
// the program's comparator, made under tests, for the control-dependence oracle
// (control_oracle.py): the comparator's statements are controlled by what controls the
// construction.
#include <cstdio>
#include <map>
#include <queue>
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

struct Descending {
  bool operator()(int a, int b) const {
    bool less = a > b;
    return less;
  }
};

int main(int argc, char **) {
  std::vector<int> v{4, -2, 7, 1, -5};
  std::size_t sizes = 0;
  if (argc > 0) {
    std::set<int, ByMagnitude> s(v.begin(), v.end());
    sizes += s.size();
  }
  for (int round = 0; round < 2; ++round)
    if (round == 1) {
      std::map<int, int, Descending> m{{3, 1}, {1, 2}, {2, 3}};
      sizes += m.size();
    }
  if (sizes > 3) {
    std::priority_queue<int, std::vector<int>, ByMagnitude> q(ByMagnitude{}, v);
    sizes += static_cast<std::size_t>(q.top());
  }
  std::printf("%zu\n", sizes);
  return 0;
}
