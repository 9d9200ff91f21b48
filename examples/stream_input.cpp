// Values a library function stores through a reference parameter: `in >> x`, std::getline,
// std::swap, std::from_chars. The library writes them, so a slice leads to the line that read
// them, not to their earlier values (`int x = 0;`, `"unset"`), and the input has no origin.
// An argument bound to a forwarding reference (emplace_back) is read, not written.
#include <charconv>
#include <iostream>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

int main() {
  std::istringstream in("21 bob\nsecond line\n");
  int x = 0;
  std::string name = "none";
  in >> x >> name;
  std::string line = "unset";
  std::getline(in, line); // the rest of the first line
  std::getline(in, line);
  int a = x + 1;
  int b = 5;
  std::swap(a, b);
  std::vector<int> kept;
  kept.emplace_back(b);
  int parsed = -1;
  const char digits[] = "314";
  std::from_chars(digits, digits + 3, parsed);
  int y = x * 2 + a;
  std::cout << name << " " << y << " [" << line << "] " << kept[0] + parsed << "\n";
  return 0;
}
