// Structured bindings to bit-fields, which have no address: by copy, a binding's origin lives in
// a companion local (also when the program writes it); by reference, its bytes are reached
// through a reference to the bound object. Bindings of ordinary members, by copy and by
// reference, outside and inside templates, are read as the members are.
#include <cstdio>
#include <utility>

// (The test's field is not the lowest bit, which the oracle's perturbations flip: they would
// change the path.)
struct Mode {
  signed bias : 5;
  unsigned depth : 4;
  unsigned fast : 1;
  unsigned short rounds;
};

int weigh(Mode m) {
  auto [bias, depth, fast, rounds] = m;
  depth++;
  bias -= 1;
  return fast ? int(depth) * bias + rounds : bias;
}

void tune(Mode &m, int by) {
  auto &[bias, depth, fast, rounds] = m;
  bias += by;
  fast = depth > 2;
  rounds = static_cast<unsigned short>(rounds * 2);
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
  Mode m{3, unsigned(argc + 2), 1, 4};
  Mode n{-2, 3, 0, 1};
  std::pair<int, int> p{argc, 7};
  std::pair<int, int> q{argc + 1, 3};
  tune(n, argc);
  std::printf("%d %d %d %d %u\n", weigh(m), total(p), product(q), n.bias, unsigned(n.fast));
  return 0;
}
