// Template patterns are rewritten once and serve every instantiation, including class types
// whose operators return something unusual.
#include <cstdio>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

struct Odd {
  int V = 0;
  void operator=(int N) { V = N; } // returns void: a wrapper around `=` would not compile
  bool operator<(const Odd &O) const { return V < O.V; }
};

template <typename T> T largest(const std::vector<T> &Items) {
  T Best = Items.front();
  for (const T &Item : Items)
    if (Best < Item)
      Best = Item;
  return Best;
}

template <typename T> void assign(T &Target, int N) {
  Target = N;
}

// Pack expansions among a call's arguments (fmt::format_to passes std::forward<Args>(args)...).
template <typename... Args> int sumAll(Args... A) { return (0 + ... + A); }
template <typename... Args> int forwardAll(int Base, Args &&...A) {
  return Base + sumAll(std::forward<Args>(A)...);
}

// Conditions the compiler evaluates as constants take no counter (fmt's compile.h).
template <typename T> int widthOf(T V) {
  constexpr bool Wide = sizeof(T) >= 4 && std::is_integral_v<T>;
  if constexpr (Wide || (sizeof(T) > 8 && std::is_floating_point_v<T>))
    return V > 0 ? 32 : 31;
  else
    return 8;
}

template <typename T> class Stack {
public:
  void push(const T &V) { Items.push_back(V); }
  T pop() {
    T Top = Items.back();
    Items.pop_back();
    return Top;
  }
  bool empty() const { return Items.empty(); }

private:
  std::vector<T> Items;
};

template <typename T, int N> int scaled(T V) { return static_cast<int>(V) * N; }

int main() {
  int Total = largest(std::vector<int>{3, 9, 4});
  Total += forwardAll(Total, 1, 2, 3) + widthOf(5) + widthOf('c');
  std::string Longest = largest(std::vector<std::string>{"b", "z", "a"});
  Odd O;
  assign(O, 6);
  int Plain = 0;
  assign(Plain, 7);
  Stack<double> S;
  S.push(1.5);
  S.push(2.5);
  double Popped = 0;
  while (!S.empty())
    Popped += S.pop();
  Total += O.V + Plain + static_cast<int>(Popped) + scaled<double, 3>(2.0);
  std::printf("Total=%d Longest=%s\n", Total, Longest.c_str());
  return 0;
}
