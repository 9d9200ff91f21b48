// std::function, std::optional and std::variant with std::visit.
#include <cstdio>
#include <functional>
#include <optional>
#include <string>
#include <variant>

static std::optional<int> half(int v) {
  if (v % 2 != 0)
    return std::nullopt;
  return v / 2;
}

struct Describe {
  int operator()(int i) const { return i * 10; }
  int operator()(const std::string &s) const { return static_cast<int>(s.size()); }
};

int main() {
  int factor = 3;
  std::function<int(int)> scale = [factor](int x) { return x * factor; };
  int scaled = scale(7);
  int even = 12, odd = 9;
  std::optional<int> a = half(even), b = half(odd);
  std::variant<int, std::string> v = 4;
  int described = std::visit(Describe{}, v);
  v = std::string("hello");
  int described2 = std::visit(Describe{}, v);
  std::printf("scaled=%d a=%d b=%d described=%d,%d\n", scaled, a.value_or(-1), b.value_or(-1),
              described, described2);
}
