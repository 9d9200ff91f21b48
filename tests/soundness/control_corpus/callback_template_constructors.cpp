// Library constructors that call the program back, written in function templates whose
// variable's type waits for the instantiation: a std::set built from a range and a std::map from
// an initializer list, each ordered by the program's comparator, made under tests, for the
// control-dependence oracle (control_oracle.py): the comparator's statements are controlled by
// what controls the construction in every instantiation.
#include <cstdio>
#include <map>
#include <set>
#include <vector>

struct ByMagnitude {
  bool operator()(long a, long b) const {
    if (a < 0)
      a = -a;
    if (b < 0)
      b = -b;
    return a < b;
  }
};

template <class T, class Less> std::size_t distinct(const std::vector<T> &v, bool wanted) {
  std::size_t n = 0;
  if (wanted) {
    std::set<T, Less> s(v.begin(), v.end());
    n = s.size();
  }
  return n;
}

template <class K, class Less> K smallestKey(K a, K b, int rounds) {
  K key = 0;
  for (int i = 0; i < rounds; ++i) {
    std::map<K, int, Less> m{{a, 1}, {b, 2}};
    key = m.begin()->first;
  }
  return key;
}

int main(int argc, char **) {
  std::vector<int> v{4, -2, 7, 1, -5, 2};
  std::vector<long> w{3L, -3L, 8L};
  std::printf("%zu %zu %ld\n", distinct<int, ByMagnitude>(v, argc > 0),
              distinct<long, ByMagnitude>(w, argc > 1), smallestKey<long, ByMagnitude>(-9L, 4L, argc));
  return 0;
}
