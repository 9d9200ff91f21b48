// Structured bindings to bit-fields: a binding of a bit-field has no address, so the tracker
// records neither its write nor its reads, and a value read through one has no origin (listed
// in tests/soundness/expected-misses.txt). Bindings of ordinary members, by copy and by
// reference, outside and inside templates, are read as the members are.
#include <cstdio>
#include <utility>

struct Flags {
  unsigned on : 1;
  unsigned level : 3;
};

unsigned levels(const Flags &f) {
  auto [on, level] = f;
  return on ? level : 0u;
}

template <class P> int total(const P &p) {
  const auto &[a, b] = p;
  return a + b;
}

template <class P> int product(P p) {
  auto [a, b] = p;
  return a * b;
}

int main(int argc, char **) {
  Flags f{1, unsigned(argc + 2)};
  std::pair<int, int> p{argc, 7};
  std::pair<int, int> q{argc + 1, 3};
  std::printf("%u %d %d\n", levels(f), total(p), product(q));
  return 0;
}
