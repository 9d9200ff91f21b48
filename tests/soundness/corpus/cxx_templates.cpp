// Templates: a generic container, function templates, parsing into a template parameter.
#include <cstdio>
#include <sstream>
#include <string>
#include <utility>

template <typename T, int N> class Ring {
public:
  void push(const T &v) {
    items_[next_] = v;
    next_ = (next_ + 1) % N;
    if (size_ < N)
      ++size_;
  }
  T sum() const {
    T s{};
    for (int i = 0; i < size_; ++i)
      s += items_[i];
    return s;
  }

private:
  T items_[N]{};
  int next_ = 0, size_ = 0;
};

template <typename T> T parse(std::istringstream &in) {
  T t{};
  in >> t;
  return t;
}

template <typename T> T largest(T a, T b) { return a < b ? b : a; }

int main() {
  Ring<int, 3> ring;
  int base = 10;
  for (int i = 1; i <= 4; ++i)
    ring.push(base * i);
  std::istringstream in("31 2.5");
  int n = parse<int>(in);
  double d = parse<double>(in);
  int x = 8, y = 13;
  std::swap(x, y);
  std::printf("ring=%d n=%d d=%.1f largest=%d x=%d\n", ring.sum(), n, d, largest(x, y), x);
}
