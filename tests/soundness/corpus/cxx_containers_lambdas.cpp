// Containers and algorithms with lambdas.
#include <algorithm>
#include <cstdio>
#include <numeric>
#include <vector>

int main() {
  std::vector<int> v{9, 4, 7, 1, 8};
  int offset = 3, limit = 6, noise = 0;
  std::vector<int> shifted(v.size());
  std::transform(v.begin(), v.end(), shifted.begin(), [offset](int x) { return x + offset; });
  std::sort(shifted.begin(), shifted.end(), [](int a, int b) { return a > b; });
  long big = std::count_if(shifted.begin(), shifted.end(), [limit](int x) { return x > limit; });
  int total = std::accumulate(shifted.begin(), shifted.end(), 0);
  int product = 1;
  std::for_each(v.begin(), v.end(), [&product](int x) { product = product * x % 1000; });
  v.push_back(total);
  noise = static_cast<int>(v.size()) * 7;
  auto it = std::find_if(v.begin(), v.end(), [](int x) { return x % 2 == 0; });
  std::printf("big=%ld total=%d product=%d first_even=%d last=%d\n", big, total, product, *it,
              v.back());
  for (int x : shifted)
    std::printf("%d ", x);
  std::printf("\n");
}
