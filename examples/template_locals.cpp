// Locals of a function template. Those whose type no template parameter decides and whose
// every use reads or writes them whatever the instantiation (`total`, `n`, and `i`, which
// subscripts a `const T *`) keep their origins in companions, as in a plain function. One
// passed to a call that waits for the instantiation (`op.apply(scaled)`, which may bind it to a
// reference and write it, as Scaler's does) stays in the shadow memory, where that write is seen.
#include <cstdio>

struct Scaler {
  int factor;
  void apply(int &x) const { x *= factor; }
};

template <class T, class Op> int accumulate(const T *items, int n, const Op &op) {
  int total = 0;
  for (int i = 0; i < n; i++)
    if (items[i] > 0)
      total += i;
  int scaled = total;
  op.apply(scaled);
  return scaled;
}

int main(int argc, char **) {
  int values[] = {3, -1, argc, 5};
  Scaler s{argc + 1};
  int result = accumulate(values, 4, s);
  std::printf("result=%d\n", result);
  return 0;
}
