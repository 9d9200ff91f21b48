// Settings loader for a small command-line tool.
#include <optional>
#include <string>
#include <vector>

namespace tool {

struct Option {
  std::string name;
  std::string value;
  bool from_file = false;
};

class OptionTable {
public:
  void set(const std::string &name, const std::string &value, bool file) {
    for (auto &o : opts_)
      if (o.name == name) {
        o.value = value;
        o.from_file = file;
        return;
      }
    opts_.push_back({name, value, file});
  }
  std::optional<std::string> get(const std::string &name) const {
    for (const auto &o : opts_)
      if (o.name == name)
        return o.value;
    return std::nullopt;
  }
  std::size_t size() const { return opts_.size(); }

private:
  std::vector<Option> opts_;
};

std::vector<std::pair<std::string, std::string>>
parse_lines(const std::string &text) {
  std::vector<std::pair<std::string, std::string>> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    auto end = text.find('\n', pos);
    if (end == std::string::npos)
      end = text.size();
    std::string line = text.substr(pos, end - pos);
    pos = end + 1;
    auto eq = line.find('=');
    if (eq == std::string::npos || line.empty() || line[0] == '#')
      continue;
    out.emplace_back(line.substr(0, eq), line.substr(eq + 1));
  }
  return out;
}

template <typename = int> struct Settings;

auto load_settings() {
  Settings s;
  return s;
}

OptionTable make_table(const std::string &text) {
  OptionTable table;
  for (const auto &[k, v] : parse_lines(text))
    table.set(k, v, true);
  return table;
}

} // namespace tool

int main(int argc, char **argv) {
  std::string text = argc > 1 ? argv[1] : "verbose=1\nlevel=3\n";
  auto table = tool::make_table(text);
  return table.get("verbose") ? 0 : 1;
}
