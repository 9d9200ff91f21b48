// Range-for loops over ranges of dependent type in templates: a copy of each element, a
// reference to it, structured bindings of a map, a vector<bool> (whose elements are proxies,
// prvalues), a range returned by value, an array. The loop's test controls its body, and a copy
// reads the element it is made of.
#include <algorithm>
#include <cstdio>
#include <map>
#include <string>
#include <vector>

template <class T> T total(const std::vector<T> &v, T floor) {
  T sum = 0;
  for (T x : v)
    if (x > floor)
      sum += x;
  return sum;
}

template <class C> int count(const C &c, int limit) {
  int n = 0;
  for (const auto &x : c)
    n += x < limit;
  return n;
}

template <class K, class V> V heaviest(const std::map<K, V> &m) {
  V best{};
  for (auto [key, weight] : m)
    best = std::max(best, weight);
  return best;
}

template <class B> int raised(const B &bits) {
  int n = 0;
  for (bool b : bits)
    n += b ? 2 : 1;
  return n;
}

template <class T> std::vector<T> doubled(const std::vector<T> &v) {
  std::vector<T> out;
  for (T x : v)
    out.push_back(2 * x);
  return out;
}

template <class T> T last(const std::vector<T> &v) {
  T seen{};
  for (T x : doubled(v))
    seen = x;
  return seen;
}

int main(int argc, char **) {
  std::vector<int> v{3, 8, 1, 9 + argc};
  std::vector<long> w{4L, 5L * argc, 6L};
  int a[3] = {7, 2 + argc, 5};
  std::map<std::string, int> m{{"a", 4}, {"b", 11 * argc}, {"c", 6}};
  std::vector<bool> bits{true, argc > 1, false};
  std::printf("%d %ld %d %d %d %ld\n", total(v, 2), total(w, 4L), count(a, 6), heaviest(m),
              raised(bits), last(w));
  return 0;
}
