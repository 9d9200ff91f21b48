// Maps filled by initializer lists, read with structured bindings.
#include <cstdio>
#include <map>
#include <string>
#include <utility>
#include <vector>

int main() {
  int bonus = 5;
  std::map<std::string, int> stock{{"apple", 3}, {"pear", 7}, {"fig", 2}};
  stock["plum"] = 4 + bonus;
  stock.at("fig") += bonus;
  int total = 0, kinds = 0;
  for (const auto &[name, count] : stock) {
    total += count;
    kinds++;
  }
  std::vector<std::pair<int, char>> pairs{{1, 'x'}, {2, 'y'}};
  int weighted = 0;
  for (auto [n, c] : pairs)
    weighted += n * c;
  auto [lowest, highest] = std::make_pair(stock.begin()->second, stock.rbegin()->second);
  std::printf("total=%d kinds=%d weighted=%d lowest=%d highest=%d\n", total, kinds, weighted,
              lowest, highest);
}
