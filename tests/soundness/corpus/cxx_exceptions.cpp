// Exceptions thrown across frames, by the program and by the library.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

static int check(int v) {
  if (v < 0)
    throw std::invalid_argument("negative");
  return v * 2;
}

static int deep(int v, int level) {
  if (level == 0)
    return check(v);
  return deep(v, level - 1) + 1;
}

int main() {
  std::vector<int> inputs{4, -3, 6};
  int sum = 0, bad = 0, parsed = 0;
  for (int v : inputs) {
    try {
      sum += deep(v, 2);
    } catch (const std::exception &) {
      bad = bad + 1;
    }
  }
  std::string text = "12a";
  try {
    parsed = std::stoi(text.substr(2));
  } catch (const std::invalid_argument &) {
    parsed = -1;
  }
  std::printf("sum=%d bad=%d parsed=%d\n", sum, bad, parsed);
}
