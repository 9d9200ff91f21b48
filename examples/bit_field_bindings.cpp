// Structured bindings to bit-fields. By copy, `auto [on, level] = f;` copies f into an object
// that nothing else names: each binding's origin is kept in a local of the instrumentation's,
// written by the declaration (which reads f) and by the program's own writes to the binding.
// By reference, the bindings are f's own fields: reads and writes of their bytes.
#include <cstdio>

struct Flags {
  unsigned on : 1;
  unsigned level : 3;
  unsigned spare : 4;
};

unsigned levels(const Flags &f) {
  auto [on, level, spare] = f;
  level += spare;
  return on ? level : 0u;
}

void raise(Flags &f, unsigned by) {
  auto &[on, level, spare] = f;
  level = level + by;
  spare = 0;
}

int main(int argc, char **) {
  Flags f{1, 2, 1};
  Flags g{1, 1, 3};
  f.level = unsigned(argc) + 1;
  raise(g, unsigned(argc));
  std::printf("%u %u\n", levels(f), g.level);
  return 0;
}
