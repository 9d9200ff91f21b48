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

// FILE with each `%p` replaced by Pid and `%%` by `%`, as the runtime names its file.
static std::string expandPid(const std::string &Pattern, pid_t Pid) {
  std::string Out;
  for (size_t I = 0; I < Pattern.size(); ++I) {
    if (Pattern[I] == '%' && I + 1 < Pattern.size() && Pattern[I + 1] == 'p') {
      Out += std::to_string(Pid);
      ++I;
    } else if (Pattern[I] == '%' && I + 1 < Pattern.size() && Pattern[I + 1] == '%') {
      Out += '%';
      ++I;
    } else {
      Out += Pattern[I];
    }
  }
  return Out;
}

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
                      "also when the program crashes. Exits with the program's status.\n"
                      "A `%p` in FILE stands for the process id: a program that forks then\n"
                      "leaves one file per process that exits (the program's own is named).\n";
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
  llvm::SmallString<256> Pattern(Output);
  llvm::sys::fs::make_absolute(Pattern);
  // A stale file must not pass for this run's (with `%p`, the child removes its own).
  if (Output.find('%') == std::string::npos)
    llvm::sys::fs::remove(Pattern);
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
    setenv("SLEUTH_OUT", Pattern.c_str(), 1);
    unlink(expandPid(std::string(Pattern), getpid()).c_str());
    execv(Program.c_str(), const_cast<char *const *>(Argv + I));
    std::fprintf(stderr, "sleuth run: cannot run %s: %s\n", Argv[I], std::strerror(errno));
    _exit(127);
  }
  int Status = 0;
  while (waitpid(Child, &Status, 0) < 0 && errno == EINTR) {
  }
  // The program's own file: the child kept its process id through execv.
  std::string Absolute = expandPid(std::string(Pattern), Child);
  Output = expandPid(Output, Child);
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
