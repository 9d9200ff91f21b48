// The library calling the program's own operators with no callable given: std::sort ordering a
// class with its operator<, a std::set of it, std::find comparing with its operator==, a
// std::unordered_set hashing it with the program's std::hash, made under tests, for the
// control-dependence oracle (control_oracle.py): the operators' statements are controlled by
// what controls the library call.
#include <algorithm>
#include <cstdio>
#include <functional>
#include <set>
#include <unordered_set>
#include <vector>

struct Point {
  int x, y;
  bool operator<(const Point &other) const {
    if (x != other.x)
      return x < other.x;
    return y < other.y;
  }
};

bool operator==(const Point &a, const Point &b) {
  bool same = a.x == b.x;
  return same && a.y == b.y;
}

template <> struct std::hash<Point> {
  std::size_t operator()(const Point &p) const {
    std::size_t h = static_cast<std::size_t>(p.x);
    return h * 31 + static_cast<std::size_t>(p.y);
  }
};

int main(int argc, char **) {
  std::vector<Point> v{{3, 1}, {1, 2}, {3, 0}, {2, 2}};
  int found = 0;
  if (argc > 0)
    std::sort(v.begin(), v.end());
  std::set<Point> seen;
  for (const Point &p : v)
    if (p.y != 2)
      seen.insert(p);
  if (seen.size() > 1)
    found = std::find(v.begin(), v.end(), Point{2, 2}) != v.end();
  std::unordered_set<Point> hashed;
  if (found)
    hashed.insert(v[0]);
  std::printf("%d %d %zu %zu\n", v[0].x, found, seen.size(), hashed.size());
  return 0;
}
