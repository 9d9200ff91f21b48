// Argument forwarding helpers for an event dispatcher.
#include <concepts>
#include <string>
#include <vector>

namespace events {

template <typename... Ts> struct TypeList {
  template <auto> using At = int;
  static constexpr std::size_t size = sizeof...(Ts);
};

template <typename T> concept Event = true;

template <typename T>
concept Named = requires(const T &t) {
  { t.name() } -> std::convertible_to<std::string>;
};

struct Click {
  int x = 0, y = 0;
  std::string name() const { return "click"; }
};

struct Key {
  char code = 0;
  std::string name() const { return "key"; }
};

class Dispatcher {
public:
  template <Named E> void on(void (*f)(const void *)) { handlers_.push_back(f); }
  template <Named E> void emit(const E &e) {
    for (auto &h : handlers_)
      h(&e);
  }
  std::size_t count() const { return handlers_.size(); }

private:
  std::vector<void (*)(const void *)> handlers_;
};

void forward_all(auto &&...args)
    requires(TypeList<decltype(args)...>::template At<[]<typename T>() { return Event<T>; }>);

} // namespace events

int main() {
  events::Dispatcher d;
  d.on<events::Click>([](const void *c) { (void)c; });
  d.emit(events::Click{1, 2});
  events::forward_all();
  return static_cast<int>(d.count()) - 1;
}
