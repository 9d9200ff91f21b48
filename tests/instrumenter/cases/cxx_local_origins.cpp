// Locals kept in companion locals, where C++ makes the rewrite's value category matter: ++i and
// assignments are lvalues, compound operators on their results, references bound to results,
// lambdas, and range-for loops next to kept locals.
#include <cstdio>
#include <vector>

static int lvalues(int a) {
  int i = a;
  (++i) += 2;
  (i = 4) *= 3;
  int &r = (i += 1);
  r += 1; // writes i through a reference: i stays in the shadow memory
  int k = 1;
  (k = 5)++;
  int m = 2;
  int n = (m += 3) * 2;
  return i + k + n;
}

static int loops(const std::vector<int> &v) {
  int sum = 0, count = 0;
  for (int e : v) {
    sum += e;
    ++count;
  }
  auto scaled = [](int x) {
    int y = x * 2;
    return y + 1;
  };
  for (std::size_t j = 0; j < v.size(); j++)
    sum += scaled(v[j]);
  return sum * 100 + count;
}

int main() {
  std::vector<int> v{1, 2, 3};
  std::printf("%d %d\n", lvalues(1), loops(v));
  return 0;
}
