// A range-for over a range of dependent type whose body keeps a different branch of an
// `if constexpr` in each instantiation: the pattern's control dependences come from every
// instantiation's CFG, so the branch only the second instantiation keeps is controlled by the
// loop's test too.
#include <cstdio>
#include <string>
#include <type_traits>
#include <vector>

template <class T> int measure(const std::vector<T> &items) {
  int total = 0;
  for (const T &x : items) {
    if constexpr (std::is_integral_v<T>) {
      total += int(x);
    } else {
      total += int(x.size());
      if (x.empty())
        total -= 1;
    }
  }
  return total;
}

int main(int argc, char **) {
  std::vector<int> a{argc, 2, 3};
  std::vector<std::string> b{"ab", "", "c"};
  std::printf("%d %d\n", measure(a), measure(b));
  return 0;
}
