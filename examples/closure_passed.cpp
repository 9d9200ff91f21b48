// A lambda passed straight to the library, which copies the closure where the program cannot
// see: inside the lambda, its captures still lead to the values it copied when it was made.
#include <algorithm>
#include <cstdio>
#include <vector>

int main(int argc, char **) {
  std::vector<int> readings = {14, 3, 27, 9, 18};
  int limit = argc * 10;
  int margin = 2;
  long over = std::count_if(readings.begin(), readings.end(), [limit, margin](int r) {
    bool high = r > limit + margin;
    return high;
  });
  std::printf("%ld over\n", over);
  return 0;
}
