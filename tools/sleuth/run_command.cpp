// `sleuth run [-o|--output FILE] -- PROGRAM ARGS...`: runs an instrumented program and keeps the
// dependence file it writes at exit (or when it crashes or is interrupted).
#include "commands.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <string>
#include <sys/resource.h>
#include <sys/stat.h>
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

// The name the runtime gives the file of a process without $SLEUTH_OUT: the base name of
// argv[0] (runtime/src/output.cpp, defaultOutputPath), then `.PID.deps`, or `.PID-N.deps` when
// an earlier process of the same id left that file. The newest one the run wrote, or "".
static std::string defaultOutputOf(const std::string &Argv0, pid_t Pid, time_t Started) {
  std::string Program;
  for (size_t I = 0; I < Argv0.size(); ++I)
    if (Argv0[I] == '/' && I + 1 < Argv0.size())
      Program = Argv0.substr(I + 1);
  if (Program.empty() && Argv0.find('/') == std::string::npos)
    Program = Argv0;
  Program = Program.substr(0, std::min(Program.find('/'), size_t(200)));
  if (Program.empty())
    Program = "sleuth";
  std::string Found;
  for (unsigned N = 0;; ++N) {
    std::string Name = Program + "." + std::to_string(Pid) +
                       (N ? "-" + std::to_string(N) : std::string()) + ".deps";
    struct stat St;
    if (::stat(Name.c_str(), &St) != 0)
      return Found;
    if (St.st_mtime >= Started)
      Found = Name;
  }
}

// Signals that end a program at the user's request: the terminal sends SIGINT and SIGQUIT to
// the whole foreground process group, so the program gets them itself and sleuth run ignores
// them while it waits (as system() does); SIGTERM and SIGHUP may be sent to sleuth run alone
// (`kill`, a closed terminal reaching its session's jobs), so it passes them on.
static volatile pid_t RunningChild = 0;
static void forwardSignal(int Signal) {
  if (RunningChild > 0)
    ::kill(RunningChild, Signal);
}

// A program that a stop signal ended ends sleuth run the same way: a shell running sleuth run
// in a loop or script then stops too at Ctrl-C, as it would for the program itself.
static void dieAsChildDid(int Status) {
  if (!WIFSIGNALED(Status))
    return;
  int Signal = WTERMSIG(Status);
  if (Signal != SIGINT && Signal != SIGQUIT && Signal != SIGTERM && Signal != SIGHUP)
    return;
  struct rlimit NoCore = {0, 0}; // SIGQUIT's core would be sleuth run's own
  setrlimit(RLIMIT_CORE, &NoCore);
  signal(Signal, SIG_DFL);
  sigset_t Set;
  sigemptyset(&Set);
  sigaddset(&Set, Signal);
  sigprocmask(SIG_UNBLOCK, &Set, nullptr);
  raise(Signal);
}

int runMain(int Argc, const char **Argv) {
  const char *Environment = std::getenv("SLEUTH_OUT");
  // Without -o or $SLEUTH_OUT the runtime names the file after the program and its process id.
  bool DefaultName = !Environment || !*Environment;
  std::string Output = DefaultName ? "" : Environment;
  int I = 1;
  for (; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--") {
      ++I;
      break;
    }
    if (A == "-h" || A == "--help") {
      llvm::outs() << "usage: sleuth run [-o|--output FILE] -- PROGRAM ARGS...\n\nRuns an "
                      "instrumented "
                      "program; its dependence file goes to FILE, also when the program\n"
                      "crashes or is interrupted (Ctrl-C). Exits with the program's status.\n"
                      "Without -o: $SLEUTH_OUT, else PROGRAM.PID.deps in the working directory\n"
                      "(each process its own); the file written is named on stderr.\n"
                      "A `%p` in FILE stands for the process id: a program that forks then\n"
                      "leaves one file per process that exits (the program's own is named).\n";
      return 0;
    }
    if (A.rfind("--output=", 0) == 0) {
      Output = A.substr(9);
      DefaultName = false;
      continue;
    }
    if (A == "-o" || A == "--output") {
      if (I + 1 >= Argc) {
        llvm::errs() << "sleuth run: option '" << A << "' needs a value\n";
        return 2;
      }
      Output = Argv[++I];
      DefaultName = false;
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
  if (!DefaultName)
    llvm::sys::fs::make_absolute(Pattern);
  // A stale file must not pass for this run's (with `%p`, the child removes its own).
  if (!DefaultName && Output.find('%') == std::string::npos)
    llvm::sys::fs::remove(Pattern);
  std::string Program = Argv[I];
  if (Program.find('/') == std::string::npos) {
    if (auto Found = llvm::sys::findProgramByName(Program))
      Program = *Found;
  }
  // Installed before the fork, so that no signal finds sleuth run unprepared; the child gets
  // back what sleuth run was given (a background job's ignored SIGINT stays ignored).
  struct sigaction Ignore {
  }, Forward{}, OldInt, OldQuit, OldTerm, OldHup;
  Ignore.sa_handler = SIG_IGN;
  Forward.sa_handler = forwardSignal;
  sigemptyset(&Ignore.sa_mask);
  sigemptyset(&Forward.sa_mask);
  sigaction(SIGINT, &Ignore, &OldInt);
  sigaction(SIGQUIT, &Ignore, &OldQuit);
  sigaction(SIGTERM, &Forward, &OldTerm);
  sigaction(SIGHUP, &Forward, &OldHup);
  auto RestoreSignals = [&] {
    sigaction(SIGINT, &OldInt, nullptr);
    sigaction(SIGQUIT, &OldQuit, nullptr);
    sigaction(SIGTERM, &OldTerm, nullptr);
    sigaction(SIGHUP, &OldHup, nullptr);
  };
  time_t Started = time(nullptr);
  pid_t Child = fork();
  if (Child < 0) {
    RestoreSignals();
    llvm::errs() << "sleuth run: cannot fork: " << std::strerror(errno) << "\n";
    return 1;
  }
  if (Child == 0) {
    RestoreSignals();
    if (DefaultName) {
      unsetenv("SLEUTH_OUT");
    } else {
      setenv("SLEUTH_OUT", Pattern.c_str(), 1);
      unlink(expandPid(std::string(Pattern), getpid()).c_str());
    }
    execv(Program.c_str(), const_cast<char *const *>(Argv + I));
    std::fprintf(stderr, "sleuth run: cannot run %s: %s\n", Argv[I], std::strerror(errno));
    _exit(127);
  }
  RunningChild = Child;
  int Status = 0;
  while (waitpid(Child, &Status, 0) < 0 && errno == EINTR) {
  }
  RunningChild = 0;
  RestoreSignals();
  // The program's own file: the child kept its process id through execv.
  if (DefaultName)
    Pattern = defaultOutputOf(Argv[I], Child, Started);
  std::string Absolute = expandPid(std::string(Pattern), Child);
  Output = DefaultName ? std::string(Pattern) : expandPid(Output, Child);
  int Code = WIFEXITED(Status) ? WEXITSTATUS(Status) : 128 + WTERMSIG(Status);
  if (WIFEXITED(Status) && Code == 127 && !llvm::sys::fs::exists(Absolute))
    return Code;
  if (Absolute.empty() || !llvm::sys::fs::exists(Absolute)) {
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
  dieAsChildDid(Status);
  return Code;
}

} // namespace sleuth
