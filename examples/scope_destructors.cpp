// Destructors that C++ runs implicitly: at a scope's end, on a return, while an exception unwinds
// (`sleuth slice prog.*.deps scope_destructors.cpp:40`). Such a call is made by the scope's
// cleanup, which every way out of the scope but an exception runs: the destructor's statements
// are controlled by what controls it: the test whose branch throws (line 19, for both of work's
// returns), the loop whose body ends (line 36), or, unwinding the scope, the throw (line 20).
#include <cstdio>
#include <stdexcept>

struct Timer {
  int *total;
  int cost;
  ~Timer() { *total += cost; }
};

static int spent = 0;

static int work(int n) {
  Timer t{&spent, n};
  if (n > 8)
    throw std::runtime_error("too big");
  if (n % 2 == 0)
    return n / 2;
  return n * 3 + 1;
}

int main() {
  int jobs[] = {3, 4, 12, 5};
  int result = 0, failed = 0;
  for (int n : jobs) {
    try {
      result += work(n);
    } catch (const std::exception &) {
      ++failed;
    }
  }
  for (int round = 0; round < failed; ++round) {
    Timer retry{&spent, 10};
    result += round;
  }
  std::printf("result=%d failed=%d spent=%d\n", result, failed, spent);
}
