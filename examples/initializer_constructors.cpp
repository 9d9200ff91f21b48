// Constructors that an initializer list calls (a base class's, another constructor of the same
// class, a member's) run before the calling constructor's body: their arguments come from its
// parameters all the same, by value or by reference, and through calls (withInterest).
#include <cstdio>
#include <string>

class Account {
public:
  Account(int opening, const std::string &owner) : balance_(opening), owner_(owner) {}
  int balance() const { return balance_; }
  const std::string &owner() const { return owner_; }

private:
  int balance_;
  std::string owner_;
};

static int withInterest(int cents) { return cents + cents / 10; }

class Limit {
public:
  explicit Limit(int cents) : cents_(cents) {}
  int cents() const { return cents_; }

private:
  int cents_;
};

class Savings : public Account {
public:
  Savings(int deposit, int bonus, const std::string &name, const int &cap)
      : Account(withInterest(deposit) + bonus, name), limit_(cap) {}
  explicit Savings(int deposit) : Savings(deposit, 0, "nobody", 500) {}
  int headroom() const { return limit_.cents() - balance(); }

private:
  Limit limit_;
};

int main(int argc, char **) {
  int deposit = 100 * argc;
  int bonus = 7;
  int cap = 900;
  std::string name = "ada";
  Savings first(deposit, bonus, name, cap);
  Savings second(deposit + 1);
  int room = first.headroom();
  int other = second.balance();
  std::printf("%d %d %s %s\n", room, other, first.owner().c_str(), second.owner().c_str());
  return 0;
}
