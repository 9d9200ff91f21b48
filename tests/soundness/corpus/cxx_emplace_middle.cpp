// A vector's emplace at a position: in the middle (libstdc++ builds a temporary with the
// program's constructor and move-assigns it into place, unseen) and at the front of storage it
// must grow (built in place in the new storage).
#include <cstdio>
#include <vector>

struct Entry {
  Entry(long amount, int days) : due_(amount * days) {}
  long due_;
};

int main(int argc, char **) {
  long deposit = 250L + argc;
  std::vector<Entry> ledger;
  ledger.reserve(8);
  ledger.emplace_back(1, 1);
  ledger.emplace_back(2, 2);
  ledger.emplace(ledger.begin() + 1, deposit, 3);
  long c = ledger[1].due_;
  std::vector<Entry> grown{Entry(5, 5)};
  grown.emplace(grown.begin(), deposit, 4);
  long d = grown[0].due_ + grown[1].due_;
  std::printf("%ld %ld\n", c, d);
  return 0;
}
