// Library calls that may call the program back inside function templates, whose pattern
// leaves the callee to the instantiation: std::sort with the template's comparator, a
// std::set of the template's element type ordered by the program's comparator, a
// std::unordered_set hashing and comparing with the program's function objects, std::for_each
// with a lambda, made under tests, for the control-dependence oracle (control_oracle.py): the
// callbacks' statements are controlled by what controls the call in every instantiation.
#include <algorithm>
#include <cstdio>
#include <set>
#include <unordered_set>
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

struct Parity {
  std::size_t operator()(int x) const { return static_cast<std::size_t>(x & 1); }
};

struct SameValue {
  bool operator()(int a, int b) const {
    bool same = a == b;
    return same;
  }
};

template <class T, class Less> void sortAll(std::vector<T> &v, Less less, bool wanted) {
  if (wanted)
    std::sort(v.begin(), v.end(), less);
}

template <class T> int countPositive(const std::vector<T> &v, int rounds) {
  int positive = 0;
  for (int round = 0; round < rounds; ++round)
    if (round == 1)
      std::for_each(v.begin(), v.end(), [&](const T &x) {
        if (x > 0)
          ++positive;
      });
  return positive;
}

// (Over an array: a dependent call of the library's in the loop's condition, as `v.size()` of a
// std::vector<T>, leaves a call record that the comparator's next entry takes, with the loop
// test's control.)
template <class T, class Less> std::size_t distinct(const T *v, std::size_t n, int limit) {
  std::set<T, Less> seen;
  for (std::size_t i = 0; i < n; ++i)
    if (v[i] < limit)
      seen.insert(v[i]);
  return seen.size();
}

// The hash is the first function of the program's that each insert enters, the equality the
// next ones.
template <class T, class Hash, class Equal> std::size_t hashed(const T *v, std::size_t n) {
  std::unordered_set<T, Hash, Equal> seen;
  for (std::size_t i = 0; i < n; ++i)
    if (v[i] != 7)
      seen.insert(v[i]);
  return seen.size();
}

int main(int argc, char **) {
  std::vector<int> v{4, -2, 7, 1, -5};
  std::vector<long> w{3, -1, 2};
  sortAll(v, ByMagnitude{}, argc > 0);
  sortAll(w, [](long a, long b) { return a > b; }, argc > 1);
  int positive = countPositive(v, 2) + countPositive(w, 2);
  std::size_t kept = distinct<int, ByMagnitude>(v.data(), v.size(), 5);
  kept += hashed<int, Parity, SameValue>(v.data(), v.size());
  std::printf("%d %d %d %zu\n", v[0], static_cast<int>(w[0]), positive, kept);
  return 0;
}
