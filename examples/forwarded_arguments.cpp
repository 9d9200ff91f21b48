// Arguments the library passes on to the program's code: std::make_unique and emplace_back
// call the program's constructor with them, std::invoke and a std::function call the program's
// lambda, and a std::optional returned from a parameter copies it.
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

struct Account {
  Account(long o, int r) : balance_(o), rate_(r) {}
  long interest() const { return balance_ * rate_ / 100; }
  long balance_;
  int rate_;
};

std::optional<int> even(int v) {
  if (v % 2 != 0)
    return std::nullopt;
  return v;
}

int main(int argc, char **) {
  long opening = 1000L * argc;
  int rate = 3 + argc;
  long deposit = 250;
  auto account = std::make_unique<Account>(opening, rate);
  long a = account->interest();
  std::vector<Account> accounts;
  accounts.emplace_back(deposit, 2);
  long b = accounts.back().interest();
  std::function<long(long)> fee = [](long x) { return x / 10; };
  long c = fee(deposit);
  int bonus = 4 * argc;
  int d = std::invoke([](int x) { return x + 1; }, bonus);
  std::optional<int> e = even(2 * rate);
  std::printf("%ld %ld %ld %d %d\n", a, b, c, d, e.value_or(-1));
  return 0;
}
