// Small functional helpers: binding argument packs into callables.
#include <string>
#include <tuple>
#include <vector>

namespace fn {

template <typename... Ts> constexpr std::size_t count_of() {
  return sizeof...(Ts);
}

template <typename T> std::string describe(const T &v) {
  if constexpr (std::is_arithmetic_v<T>)
    return std::to_string(v);
  else
    return std::string(v);
}

template <typename... Ts> std::vector<std::string> describe_all(const Ts &...v) {
  return {describe(v)...};
}

auto make_checker(auto... x) {
  return [](decltype(x)... y) requires true {};
}

template <typename F, typename Tuple, std::size_t... I>
decltype(auto) apply_impl(F &&f, Tuple &&t, std::index_sequence<I...>) {
  return std::forward<F>(f)(std::get<I>(std::forward<Tuple>(t))...);
}

template <typename F, typename Tuple> decltype(auto) apply(F &&f, Tuple &&t) {
  constexpr auto n = std::tuple_size_v<std::remove_reference_t<Tuple>>;
  return apply_impl(std::forward<F>(f), std::forward<Tuple>(t),
                    std::make_index_sequence<n>{});
}

} // namespace fn

void check_pairs() { fn::make_checker(0, 1)(1, 2); }

int main() {
  auto names = fn::describe_all(1, 2.5, "x");
  auto sum = fn::apply([](int a, int b) { return a + b; }, std::tuple(2, 3));
  check_pairs();
  return static_cast<int>(names.size()) + sum - 8;
}
