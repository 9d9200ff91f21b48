// Values kept in containers and moved by the standard algorithms: the library stores them
// unseen, so each call that fills, sorts or copies a container is a write of it.
#include <algorithm>
#include <cstdio>
#include <iterator>
#include <numeric>
#include <set>
#include <vector>

int main(int argc, char **) {
  int base = argc * 5;
  std::vector<int> samples;
  for (int i = 0; i < 6; ++i)
    samples.push_back(base + i % 3);
  std::vector<int> sorted = samples;
  std::sort(sorted.begin(), sorted.end());
  auto last = std::unique(sorted.begin(), sorted.end());
  sorted.erase(last, sorted.end());
  std::vector<int> doubled;
  std::transform(sorted.begin(), sorted.end(), std::back_inserter(doubled),
                 [](int x) { return 2 * x; });
  int ramp[4];
  std::iota(ramp, ramp + 4, argc);
  int fill = 9;
  std::vector<int> padding(3);
  std::fill(padding.begin(), padding.end(), fill);
  std::set<int> seen;
  int repeats = 0;
  for (int sample : samples)
    if (!seen.insert(sample).second)
      ++repeats;
  int smallest = sorted[0];
  int largest = doubled.back();
  std::printf("%d %d %d %d %zu\n", smallest, largest, ramp[3], padding[1], sorted.size());
  std::printf("%d repeats, %d first\n", repeats, *seen.begin());
  return 0;
}
