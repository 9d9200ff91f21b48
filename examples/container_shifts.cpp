// Elements erased and inserted in the middle of a vector and a string: the elements after the
// position move, and each keeps the origin of its own write at its new place (an erase inside
// a loop too).
#include <cstdio>
#include <string>
#include <vector>

int main(int argc, char **) {
  std::vector<int> v(4, 0);
  int a = argc + 1, b = argc + 2, c = argc + 3;
  v[1] = a;
  v[2] = b;
  v[3] = c;
  v.erase(v.begin() + 1);
  int first = v[1];
  v.insert(v.begin(), 7);
  int second = v[3];
  for (auto it = v.begin(); it != v.end();)
    if (*it == 0)
      it = v.erase(it);
    else
      ++it;
  int third = v[2];
  std::string s = "xyz";
  s[2] = static_cast<char>('a' + argc);
  s.erase(0, 1);
  char last = s[1];
  std::printf("%d %d %d %c\n", first, second, third, last);
  return 0;
}
