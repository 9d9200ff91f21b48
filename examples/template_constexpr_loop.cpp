// A loop over a range whose type waits for the template's instantiation, with an `if constexpr`
// in its body: each instantiation keeps one branch. The control dependences of the template come
// from every instantiation, so the branch that only `measure<std::string>` keeps (17) is
// controlled by the loop's test (13), as the other branch is in `measure<int>`.
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

template <class T> int measure(const std::vector<T> &items) {
  int total = 0;
  int seen = 0;
  for (const T &x : items) {
    if constexpr (std::is_integral_v<T>) {
      total += int(x);
    } else {
      seen = 1;
      total += int(x.size());
    }
  }
  return total + seen;
}

int main(int argc, char **) {
  std::vector<int> numbers{argc, 2, 3};
  std::vector<std::string> words{"ab", "c"};
  int n = measure(numbers);
  int w = measure(words);
  std::printf("%d %d\n", n, w);
  return 0;
}
