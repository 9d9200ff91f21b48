// Elements of a vector and characters of a string written one at a time, then read whole by
// the library (a copy, a sum, printing): the slice leads from the result to each element's
// write, also after the vector has grown into new storage, and a single element's read leads
// to its own write only.
#include <cstdio>
#include <iostream>
#include <numeric>
#include <string>
#include <vector>

int main(int argc, char **) {
  std::vector<int> scores(3, 10);
  int bonus = argc * 5;
  int penalty = 2;
  scores[1] += bonus;
  scores[2] -= penalty;
  for (int round = 0; round < 8; ++round)
    scores.push_back(round);
  std::vector<int> kept = scores;
  int total = std::accumulate(kept.begin(), kept.end(), 0);
  std::string label = "total";
  label[0] = static_cast<char>('S' + argc);
  label += ':';
  std::cout << label << ' ' << total << '\n';
  int second = scores[1];
  std::printf("%d\n", second);
  return 0;
}
