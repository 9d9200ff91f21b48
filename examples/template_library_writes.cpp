// The library writes through references inside templates as outside them: `in >> t`,
// std::getline and std::swap in a function template are writes of t, s and both of a and b,
// as in a plain function (the template's pattern calls nothing yet; each instantiation calls
// the library).
#include <iostream>
#include <sstream>
#include <string>
#include <utility>

template <typename T> T parse(std::istringstream &in) {
  T t{};
  in >> t;
  return t;
}

template <typename T> void swapped(T &a, T &b) { std::swap(a, b); }

template <typename S> S line(std::istream &in) {
  S s;
  std::getline(in, s);
  return s;
}

int main() {
  std::istringstream in("31 x\nhello\n");
  int v = parse<int>(in);
  int a = v + 1, b = 2;
  swapped(a, b);
  std::string rest = line<std::string>(in);
  std::cout << b << " " << rest.size() << "\n";
}
