// More arguments the library passes on to the program's code: a map's try_emplace and emplace
// construct the mapped value with them (try_emplace after comparing keys with the program's
// operator<, whose value is none of the constructor's arguments), a vector's emplace an element
// where it says, std::visit calls the visitor with the variant's alternative, and std::thread
// calls its function on the new thread with copies of its arguments.
#include <cstdio>
#include <map>
#include <string>
#include <thread>
#include <variant>
#include <vector>

struct Account {
  Account(long o, int r) : balance_(o), rate_(r) {}
  long interest() const { return balance_ * rate_ / 100; }
  long balance_;
  int rate_;
};

struct Branch {
  int code;
  bool operator<(const Branch &B) const { return code < B.code; }
};

struct Limit {
  Limit(long c) : cap_(c) {}
  long cap_;
};

struct Entry {
  Entry(long amount, int days) : due_(amount * days) {}
  long due_;
};

struct Fee {
  long operator()(long cents) const { return cents / 10; }
  long operator()(const std::string &code) const { return static_cast<long>(code.size()); }
};

long audited;

void audit(long total, int times) { audited = total * times; }

int main(int argc, char **) {
  long opening = 1000L * argc;
  int rate = 3 + argc;
  std::map<Branch, Account> book;
  book.try_emplace(Branch{1}, opening, rate);
  book.try_emplace(Branch{2}, opening, 2);
  long a = book.at(Branch{2}).interest();
  long overdraft = 500L * argc;
  std::map<int, Limit> limits;
  limits.emplace(1, overdraft);
  long b = limits.at(1).cap_;
  long deposit = 250L + argc;
  std::vector<Entry> ledger;
  ledger.emplace(ledger.begin(), deposit, 2);
  long c = ledger.front().due_;
  std::variant<long, std::string> charge = 40L * argc;
  long d = std::visit(Fee{}, charge);
  long total = opening + deposit;
  std::thread auditor(audit, total, rate);
  auditor.join();
  long e = audited;
  std::printf("%ld %ld %ld %ld %ld\n", a, b, c, d, e);
  return 0;
}
