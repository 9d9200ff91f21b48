// An exception that nothing catches: std::terminate() aborts (SIGABRT).
#include <cstdio>
#include <stdexcept>

struct Account {
  int Balance;
};

static void withdraw(Account &A, int Amount) {
  if (Amount > A.Balance) // in-slice: the last node
    throw std::runtime_error("insufficient funds");
  A.Balance -= Amount; // in-slice: why the second withdrawal fails
}

int main() {
  Account A{100}; // in-slice
  withdraw(A, 30);
  std::printf("balance %d\n", A.Balance);
  withdraw(A, 80);
  std::printf("balance %d\n", A.Balance);
  return 0;
}
