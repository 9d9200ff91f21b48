// Locals whose destruction runs the program's code, in every place a declaration can stand
// (ScopeProbe): each gets a sleuth::Scope, and the program must build and behave as before.
#include <cstdio>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

static int destroyed = 0;

struct Guard {
  int id;
  explicit Guard(int i) : id(i) {}
  Guard(const Guard &other) : id(other.id) {}
  Guard &operator=(const Guard &) = default;
  virtual ~Guard() { destroyed += id; }
};

struct Derived : Guard {
  explicit Derived(int i) : Guard(i) {}
};

struct Pair {
  Guard first;
  int second;
};

#define LOCAL_GUARD(name, i) Guard name{i}

template <class T> static int twice(T value) {
  Guard g{2};
  return value + value;
}

static int branches(int n) {
  Guard outer{1};
  switch (n) {
  case 0: {
    Guard inner{3};
    return inner.id;
  }
  case 1:
    break;
  default: {
    Guard other{4};
    if (n > 5)
      return 5;
  }
  }
  for (int i = 0; i < n; ++i) {
    Guard step{i};
    if (i == 2)
      continue;
    if (i == 4)
      break;
  }
  if (n > 3)
    goto done;
  {
    LOCAL_GUARD(g, 6);
    Guard last{7};
  }
done:
  return n;
}

static int unwinds(int n) try {
  Guard g{8};
  if (n > 1)
    throw std::runtime_error("n");
  return n;
} catch (const std::exception &) {
  return -1;
}

int main() {
  std::vector<Guard> guards;
  guards.emplace_back(9);
  auto owned = std::make_unique<Derived>(10);
  Pair p{Guard{11}, 12};
  auto [a, b] = p;
  int total = twice(3) + branches(0) + branches(2) + branches(7) + branches(6) + unwinds(0) +
              unwinds(5) + a.id + b;
  auto lambda = [&total](int k) {
    Guard g{k};
    total += g.id;
  };
  lambda(13);
  int value = __extension__({
    Guard g{14};
    g.id + 1;
  });
  std::printf("%d %d %d\n", total, value, destroyed);
  return 0;
}
