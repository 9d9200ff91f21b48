// Constructor calls pass their arguments to the constructor's parameters as any other call
// does: in a declaration (`Price base(cents, rate)`), through `new`, as a temporary and in a
// braced initialization. A constructor called under a test runs under its control.
#include <cstdio>

static int doubled(int v) { return 2 * v; }

class Price {
public:
  Price(int cents, int percent) : cents_(cents), percent_(percent) {
    taxed_ = cents_ + cents_ * percent_ / 100;
  }
  int taxed() const { return taxed_; }

private:
  int cents_;
  int percent_;
  int taxed_ = 0;
};

struct Pair {
  Pair(int a, int b) : first(a), second(doubled(b)) {}
  int first;
  int second;
};

int main(int argc, char **) {
  int cents = 100 * argc;
  int rate = 20;
  int ignored = argc + 5;
  Price base(cents, rate);
  Price *heap = new Price(cents + 50, 5);
  int temporary = Price(ignored, rate).taxed();
  Pair pair{cents, ignored};
  int bonus = 0;
  if (argc < 3) {
    Price extra(rate, 0);
    bonus = extra.taxed();
  }
  int total = base.taxed() + heap->taxed() + bonus;
  std::printf("%d %d %d %d\n", total, temporary, pair.first, pair.second);
  delete heap;
  return 0;
}
