// Range-based `for`: the loop is a test (its implicit `__begin != __end`, which reads the
// range's object), each iteration writes the loop variable (or each name of a structured
// binding) from the element, and the body's statements are controlled by the test, as a
// `while` body by its condition.
#include <cstdio>
#include <map>
#include <string>
#include <vector>

int main(int argc, char **) {
  std::vector<int> v{1, 2, 3};
  v[1] = 7 * argc;
  int s = 0;
  for (int y : v)
    s += y;
  std::map<std::string, int> m{{"a", 1}, {"b", 2}};
  int t = 0;
  for (const auto &[k, x] : m)
    t += x;
  int arr[3] = {4, 5, 6};
  for (auto &e : arr)
    e *= 2;
  int u = 0;
  for (int e : arr)
    u += e;
  std::string word = "abc";
  int w = 0;
  for (char c : word)
    w += c;
  std::printf("%d %d %d %d\n", s, t, u, w);
  return 0;
}
