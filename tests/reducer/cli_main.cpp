// sleuth_reduce_cli: `sleuth_reduce_cli reduce|ddmin|dd ...` behaves like
// `sleuth reduce|ddmin|dd ...`, without linking the rest of sleuth.
#include "sleuth/reducer/command.h"

#include <cstdio>
#include <string_view>

int main(int Argc, const char **Argv) {
  if (Argc >= 2) {
    std::string_view C = Argv[1];
    if (C == "reduce")
      return sleuth::reduceMain(Argc - 1, Argv + 1);
    if (C == "ddmin")
      return sleuth::ddminMain(Argc - 1, Argv + 1);
    if (C == "dd")
      return sleuth::ddMain(Argc - 1, Argv + 1);
  }
  std::fprintf(stderr, "usage: sleuth_reduce_cli reduce|ddmin|dd ...\n");
  return 2;
}
