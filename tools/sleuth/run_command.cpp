// `sleuth run [-o FILE] -- PROGRAM ARGS...`: runs an instrumented program and keeps the
// dependence file it writes at exit (or when it crashes).
#include "commands.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace sleuth {

int runMain(int Argc, const char **Argv) {
  std::string Output = "sleuth.deps";
  int I = 1;
  for (; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--") {
      ++I;
      break;
    }
    if (A == "-h" || A == "--help") {
      llvm::outs() << "usage: sleuth run [-o FILE] -- PROGRAM ARGS...\n\nRuns an instrumented "
                      "program; its dependence file goes to FILE (default sleuth.deps),\n"
                      "also when the program crashes. Exits with the program's status.\n";
      return 0;
    }
    if (A == "-o") {
      if (I + 1 >= Argc) {
        llvm::errs() << "sleuth run: option -o needs an argument\n";
        return 2;
      }
      Output = Argv[++I];
      continue;
    }
    if (!A.empty() && A[0] == '-') {
      llvm::errs() << "sleuth run: unknown option '" << A << "' (see --help)\n";
      return 2;
    }
    break; // the program, without `--`
  }
  if (I >= Argc) {
    llvm::errs() << "sleuth run: no program to run (see --help)\n";
    return 2;
  }
  llvm::SmallString<256> Absolute(Output);
  llvm::sys::fs::make_absolute(Absolute);
  // A stale file must not pass for this run's.
  llvm::sys::fs::remove(Absolute);
  std::string Program = Argv[I];
  if (Program.find('/') == std::string::npos) {
    if (auto Found = llvm::sys::findProgramByName(Program))
      Program = *Found;
  }
  pid_t Child = fork();
  if (Child < 0) {
    llvm::errs() << "sleuth run: cannot fork: " << std::strerror(errno) << "\n";
    return 1;
  }
  if (Child == 0) {
    setenv("SLEUTH_OUT", Absolute.c_str(), 1);
    execv(Program.c_str(), const_cast<char *const *>(Argv + I));
    std::fprintf(stderr, "sleuth run: cannot run %s: %s\n", Argv[I], std::strerror(errno));
    _exit(127);
  }
  int Status = 0;
  while (waitpid(Child, &Status, 0) < 0 && errno == EINTR) {
  }
  int Code = WIFEXITED(Status) ? WEXITSTATUS(Status) : 128 + WTERMSIG(Status);
  if (WIFEXITED(Status) && Code == 127 && !llvm::sys::fs::exists(Absolute))
    return Code;
  if (!llvm::sys::fs::exists(Absolute)) {
    llvm::errs() << "sleuth run: " << Argv[I] << " wrote no dependence file (is it built with "
                 << "'sleuth cc' / 'sleuth c++'?)\n";
    return Code ? Code : 1;
  }
  llvm::errs() << "sleuth run: dependences of " << Argv[I] << " written to " << Output;
  if (WIFSIGNALED(Status))
    llvm::errs() << " (killed by signal " << WTERMSIG(Status) << ": " << strsignal(WTERMSIG(Status))
                 << ")";
  else if (Code != 0)
    llvm::errs() << " (exit status " << Code << ")";
  llvm::errs() << "\n";
  return Code;
}

} // namespace sleuth
