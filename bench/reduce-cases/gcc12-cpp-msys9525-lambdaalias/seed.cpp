// Policy-based container with a default comparison policy.
#include <string>
#include <utility>
#include <vector>

namespace store {

template <class T> using default_policy = decltype([]() -> void {});

template <class Key, class Value> class FlatMap {
public:
  void insert(Key k, Value v) {
    auto it = data_.begin();
    while (it != data_.end() && it->first < k)
      ++it;
    if (it != data_.end() && it->first == k)
      it->second = std::move(v);
    else
      data_.insert(it, {std::move(k), std::move(v)});
  }
  const Value *find(const Key &k) const {
    auto it = data_.cbegin();
    while (it != data_.end() && it->first < k)
      ++it;
    return it != data_.end() && it->first == k ? &it->second : nullptr;
  }
  std::size_t size() const { return data_.size(); }

private:
  std::vector<std::pair<Key, Value>> data_;
};

template <class R, class Policy = default_policy<R>> void configure() {}

int tally(const std::vector<std::string> &words, const std::string &w) {
  int n = 0;
  for (const auto &x : words)
    n += x == w;
  return n;
}

} // namespace store

int main() {
  store::FlatMap<std::string, int> m;
  m.insert("a", 1);
  m.insert("b", 2);
  store::configure<int>();
  int t = store::tally({"x", "y", "x"}, "x");
  return m.find("a") && t == 2 ? 0 : 1;
}
