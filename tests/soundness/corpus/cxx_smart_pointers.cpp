// Smart pointers: make_unique and make_shared call the program's constructors.
#include <cstdio>
#include <memory>
#include <vector>

class Account {
public:
  Account(long o, int r) : balance_(o), rate_(r) {}
  void accrue() { balance_ += balance_ * rate_ / 100; }
  long balance() const { return balance_; }

private:
  long balance_;
  int rate_;
};

struct Point {
  int x, y;
  Point(int a, int b) : x(a), y(b) {}
};

int main() {
  long opening = 1000;
  int rate = 5;
  auto account = std::make_unique<Account>(opening, rate);
  account->accrue();
  int px = 3, py = 4;
  auto shared = std::make_shared<Point>(px, py);
  std::shared_ptr<Point> alias = shared;
  std::vector<Point> points;
  int qx = 10;
  points.emplace_back(qx, 20);
  std::printf("balance=%ld point=%d,%d uses=%ld emplaced=%d\n", account->balance(), alias->x,
              alias->y, alias.use_count(), points[0].x);
}
