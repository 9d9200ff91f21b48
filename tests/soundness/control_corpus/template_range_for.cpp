// A range-for over a range of dependent type in a template pattern: its body runs under the
// loop's test, as outside templates. The pattern's range-for has no implicit statements until it
// is instantiated, so Clang's CFG of the pattern has no loop: the control dependences come from
// an instantiation's CFG, mapped back to the pattern by source location.
#include <cstdio>
#include <vector>

template <class T> T sumAbove(const std::vector<T> &v, T limit) {
  T sum = 0;
  for (const T &x : v)
    if (x > limit)
      sum += x;
  return sum;
}

int main(int argc, char **) {
  std::vector<int> v{3, 8, 1, 9 + argc};
  std::vector<long> w{4L, 5L * argc};
  std::printf("%d %ld\n", sumAbove(v, 2), sumAbove(w, 4L));
  return 0;
}
