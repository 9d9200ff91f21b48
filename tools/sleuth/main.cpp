// The `sleuth` command line: one binary, one subcommand per capability.
#include "commands.h"
#include "sleuth/instrumenter/command.h"
#ifdef SLEUTH_HAVE_LOCALIZER
#include "sleuth/localizer/command.h"
#endif
#ifdef SLEUTH_HAVE_MUTATOR
#include "sleuth/mutator/command.h"
#endif
#include "sleuth/reducer/command.h"
#include "sleuth/slicer/command.h"

#include "llvm/Config/llvm-config.h"

#include <cstdio>
#include <cstring>
#include <string_view>

namespace {

struct Subcommand {
  const char *Name;
  int (*Main)(int Argc, const char **Argv);
  const char *Summary;
};

const Subcommand Subcommands[] = {
    {"instrument", sleuth::instrumentMain, "rewrite C/C++ sources with tracking probes"},
    {"cc", sleuth::ccMain, "compiler wrapper for C: instrument, compile, link"},
    {"c++", sleuth::cxxMain, "compiler wrapper for C++: instrument, compile, link"},
    {"run", sleuth::runMain, "run an instrumented program and keep its dependence file"},
    {"slice", sleuth::sliceMain,
     "print backward/forward slices as code, listing, DOT, SVG or JSON"},
    {"reduce", sleuth::reduceMain,
     "reduce a C/C++ file against an interestingness test (C-Reduce style)"},
    {"ddmin", sleuth::ddminMain, "reduce any text file by lines, tokens and bytes"},
    {"dd", sleuth::ddMain, "isolate the failure-inducing difference between two files"},
#ifdef SLEUTH_HAVE_LOCALIZER
    {"localize", sleuth::localizeMain,
     "run a test suite on a coverage build and rank suspicious code"},
#endif
#ifdef SLEUTH_HAVE_MUTATOR
    {"mutate", sleuth::mutateMain, "faulty versions of C/C++ sources with known fault locations"},
#endif
};

void printUsage(std::FILE *Out) {
  std::fprintf(Out, "usage: sleuth <command> [options]\n\ncommands:\n");
  for (const Subcommand &S : Subcommands)
    std::fprintf(Out, "  %-11s %s\n", S.Name, S.Summary);
  std::fprintf(Out, "  %-11s %s\n", "version",
               "print the version of sleuth and of its LLVM/Clang (also --version)");
  std::fprintf(Out, "\n'sleuth <command> --help' describes a command.\n");
}

// The LLVM/Clang version is the one sleuth was built against: it parses sources with that
// Clang, whatever compiler `sleuth cc` runs.
void printVersion() {
  std::printf("sleuth %s (LLVM/Clang %s)\n", SLEUTH_VERSION, LLVM_VERSION_STRING);
}

} // namespace

int main(int Argc, const char **Argv) {
  // Called as `sleuth-cc` or `sleuth-c++` (links to this binary), the wrappers are one path:
  // `CC=sleuth-cc cmake ...` survives build rules that run ${CMAKE_C_COMPILER} alone, which
  // `CC="sleuth cc"` does not (its `cc` is a separate CMAKE_C_COMPILER_ARG1).
  std::string_view Self = Argv[0];
  if (size_t Slash = Self.rfind('/'); Slash != std::string_view::npos)
    Self.remove_prefix(Slash + 1);
  if (Self == "sleuth-cc")
    return sleuth::ccMain(Argc, Argv);
  if (Self == "sleuth-c++")
    return sleuth::cxxMain(Argc, Argv);
  if (Argc < 2) {
    printUsage(stderr);
    return 2;
  }
  std::string_view Command = Argv[1];
  if (Command == "--help" || Command == "-h" || Command == "help") {
    printUsage(stdout);
    return 0;
  }
  if (Command == "--version" || Command == "version") {
    printVersion();
    return 0;
  }
  for (const Subcommand &S : Subcommands)
    if (Command == S.Name)
      return S.Main(Argc - 1, Argv + 1);
  if (Argv[1][0] == '-') {
    // A compiler option where a command belongs: a build ran `sleuth` from CC="sleuth cc"
    // without its `cc`, as CMake's custom commands do with ${CMAKE_C_COMPILER}.
    std::fprintf(stderr,
                 "sleuth: unknown command '%s': a build that runs the compiler by its path "
                 "alone needs CC=sleuth-cc (or CXX=sleuth-c++), not CC=\"sleuth cc\"\n",
                 Argv[1]);
    return 2;
  }
  std::fprintf(stderr, "sleuth: unknown command '%s' (see 'sleuth --help')\n", Argv[1]);
  return 2;
}
