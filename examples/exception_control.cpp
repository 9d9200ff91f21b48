// Exceptions as control: a handler runs because something threw, so its statements depend on
// the throw and on the tests that led to it, also across frames and when the library threw.
#include <cstdio>
#include <stdexcept>
#include <string>
#include <vector>

int check(int v) {
  if (v < 0)
    throw std::invalid_argument("negative");
  return v * 2;
}

int checked_sum(const std::vector<int> &values) {
  int sum = 0;
  for (int v : values)
    sum += check(v);
  return sum;
}

int main(int argc, char **) {
  std::vector<int> values{3, -argc, 4};
  int sum = 0;
  int bad = 0;
  try {
    sum = checked_sum(values);
  } catch (const std::exception &) {
    bad = 1;
  }
  std::string text = argc > 1 ? "12" : "x12";
  int parsed = 0;
  try {
    parsed = std::stoi(text);
  } catch (const std::invalid_argument &) {
    parsed = -1;
  }
  unsigned index = static_cast<unsigned>(argc) + 5;
  int got = 0;
  try {
    got = values.at(index);
  } catch (const std::out_of_range &) {
    got = -2;
  }
  int again = 0;
  try {
    try {
      check(-argc);
    } catch (const std::invalid_argument &) {
      again = 1;
      throw;
    }
  } catch (...) {
    again += 10;
  }
  std::printf("%d %d %d %d %d\n", sum, bad, parsed, got, again);
  return 0;
}
