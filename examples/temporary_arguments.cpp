// Values computed in the call and bound to a const reference parameter: the callee reads the
// temporary through the reference, and the temporary holds what the argument read.
#include <cstdio>

template <typename T, int N> class Ring {
public:
  void push(const T &v) {
    items_[next_] = v;
    next_ = (next_ + 1) % N;
  }
  T sum() const {
    T s{};
    for (int i = 0; i < N; ++i)
      s += items_[i];
    return s;
  }

private:
  T items_[N]{};
  int next_ = 0;
};

static long twice(const long &v) { return 2 * v; }

int main(int argc, char **) {
  Ring<int, 3> ring;
  int base = 10 * argc;
  long other = 7;
  for (int i = 1; i <= 4; ++i)
    ring.push(base * i);
  long t = twice(other + argc);
  long u = twice(argc * 5);
  std::printf("%d %ld %ld\n", ring.sum(), t, u);
  return 0;
}
