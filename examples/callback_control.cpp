// Callbacks that the library calls while the program's call runs: a lambda that std::sort calls,
// a comparator that a std::set calls on each insert. Each runs inside the call, as a callee of
// it, however many times the library calls it: its statements are controlled by the test under
// which the program made the call (here `unsorted`, and the sample being nonzero).
//   sleuth slice prog.*.deps callback_control.cpp:36
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <set>
#include <vector>

static int comparisons = 0;

struct ByDistance {
  int centre;
  bool operator()(int a, int b) const {
    ++comparisons;
    return std::abs(a - centre) < std::abs(b - centre);
  }
};

int main(int argc, char **) {
  std::vector<int> samples{9, 4, 0, 7, 4, 1};
  int swaps = 0;
  bool unsorted = !std::is_sorted(samples.begin(), samples.end());
  if (unsorted)
    std::sort(samples.begin(), samples.end(), [&swaps](int a, int b) {
      ++swaps;
      return a < b;
    });
  std::set<int, ByDistance> near(ByDistance{argc * 5});
  for (int sample : samples)
    if (sample != 0)
      near.insert(sample);
  std::printf("%d swaps, %d comparisons, nearest %d\n", swaps, comparisons, *near.begin());
  std::printf("%d %d\n", swaps, comparisons);
  return 0;
}
