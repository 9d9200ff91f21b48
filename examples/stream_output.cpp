// Where printed values came from, in C++: `std::cout << ...;` is a call into the library whose
// value the program discards, a node of its own as printf's is.
#include <iostream>
#include <string>
#include <vector>

static int sum(const std::vector<int> &values) {
  int total = 0;
  for (int v : values)
    total += v;
  return total;
}

int main() {
  std::vector<int> values{4, 8, 15};
  std::string name = "sum";
  int bonus = 16;
  int unused = 23;
  int total = sum(values) + bonus;
  std::cout << name << " = " << total << '\n';
  std::cout << unused * 2 << std::endl;
  return 0;
}
