// std::string: building, searching, converting.
#include <cstdio>
#include <string>

int main() {
  std::string name = "sleuth";
  int version = 3;
  std::string tag = name + "-" + std::to_string(version);
  tag += "x";
  std::size_t dash = tag.find('-');
  std::string head = tag.substr(0, dash);
  int number = std::stoi(tag.substr(dash + 1));
  std::string upper;
  for (char c : head)
    upper.push_back(static_cast<char>(c - 32));
  std::string unused = upper + "!";
  std::printf("%s %s %d %zu\n", tag.c_str(), upper.c_str(), number * 2, head.size());
}
