//===- Command.cpp - sleuth reduce / ddmin / dd command lines -------------===//
#include "Driver.h"
#include "FileSet.h"

#include "sleuth/reducer/command.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <iostream>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <vector>

extern char **environ;

namespace sleuth {

using namespace reducer;

namespace {

/// The most tests run at once (as `sleuth localize --jobs`).
constexpr unsigned MaxJobs = 1024;

const char *const ReduceHelp =
    R"(usage: sleuth reduce TEST_SCRIPT FILE... [options]

Reduce a C or C++ FILE while TEST_SCRIPT still finds it interesting.
TEST_SCRIPT runs in a scratch directory holding the candidate under FILE's
name; exit status 0 means "still interesting" (the C-Reduce convention).
The best result is written back to FILE as soon as it is found; the original
is kept as FILE.orig. Ctrl-C stops and keeps the best result.

With several FILEs, or a directory (its C/C++ sources and headers, .c .cc
.cpp .cxx .h .hh .hpp .hxx .inc, recursively), all are reduced together: the
scratch directory holds each under its path relative to the current
directory, which must contain them all.

options:
  -j, --jobs N          tests to run in parallel (default: number of processors)
  --timeout SECONDS     seconds before a test is killed (default: 300)
  --passes A,B,...      run only these passes, in this order
  --list-passes         list the passes with a one-line description
  --lang c|c++          language (default: from the file name)
  --std STD             language standard for parsing, e.g. c++17
  --parse-arg ARG       extra argument for Clang's parser (repeatable)
  --include-dir DIR     with several files: a directory searched for includes
                        by the parse of each file, besides the current
                        directory and the file's own (repeatable)
  --apply-pass PASS[:N] print FILE with instance N (1-based) of PASS applied,
                        or without N the number of instances; no test is run
  --valid-with COMMAND  a shell command every candidate must also pass (exit 0),
                        so that a crash on valid code stays valid, e.g.
                        --valid-with 'g++ -fsyntax-only -std=c++20 bug.cpp'.
                        It runs with /bin/sh -c in a scratch directory that
                        holds the candidate under FILE's name (as TEST_SCRIPT
                        does), so it names the file by FILE's base name. The
                        original must pass it. Repeatable; the check that
                        rejects candidates at the least cost runs first
  --original-runs N     run the test N times on the original before reducing
                        and stop if it is flaky (default 3; 1 skips the check)
  --allow-flaky         warn instead of stopping when the test is flaky on the
                        original
  -v, --verbose         after each pass, print its instances, tests and gain
)";

const char *const DDMinHelp = R"(usage: sleuth ddmin TEST_SCRIPT FILE [options]

Reduce any text FILE with ddmin, by lines, then tokens, then bytes, while
TEST_SCRIPT exits 0 (same conventions as 'sleuth reduce').

options:
  -j, --jobs N          tests to run in parallel (default: number of processors)
  --timeout SECONDS     seconds before a test is killed (default: 300)
  --original-runs N     run the test N times on the original before reducing
                        and stop if it is flaky (default 3; 1 skips the check)
  --allow-flaky         warn instead of stopping when the test is flaky on the
                        original
)";

const char *const DDHelp =
    R"(usage: sleuth dd TEST_SCRIPT PASSING FAILING [options]

Find the minimal failure-inducing difference between two files with dd.
TEST_SCRIPT runs in a scratch directory holding a mix of the two under
FAILING's file name: exit 0 means the failure occurs, exit 1 means it does
not, any other status (or a timeout) means the mix cannot be judged.

options:
  -j, --jobs N          tests to run in parallel (default: number of processors)
  --timeout SECONDS     seconds before a test is killed (default: 300)
)";

struct Parsed {
  std::vector<std::string> Positional;
  SessionOptions Session;
  std::vector<std::string> Passes;
  std::vector<std::string> ParseArgs;
  std::vector<std::string> IncludeDirs;
  std::string Lang, Std, ApplyPass;
  bool ListPasses = false, Help = false;
};

/// The most runs of the test on the original (`--original-runs`).
constexpr unsigned MaxOriginalRuns = 100;

/// Whether /bin/sh can parse Command (`sh -n`: read it, run nothing), so that
/// a stray quote is reported as a usage error rather than as a rejected original.
bool isShellCommand(const std::string &Command) {
  posix_spawn_file_actions_t FA;
  posix_spawn_file_actions_init(&FA);
  posix_spawn_file_actions_addopen(&FA, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&FA, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&FA, 2, "/dev/null", O_WRONLY, 0);
  const char *Argv[] = {"/bin/sh", "-n", "-c", Command.c_str(), nullptr};
  pid_t Pid;
  int Rc = posix_spawn(&Pid, "/bin/sh", &FA, nullptr, const_cast<char **>(Argv), environ);
  posix_spawn_file_actions_destroy(&FA);
  if (Rc != 0)
    return true; // No shell to ask; running the command will tell.
  int Status;
  while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  return WIFEXITED(Status) && WEXITSTATUS(Status) == 0;
}

bool parseArgs(const char *Command, int Argc, const char **Argv, Parsed &P) {
  P.Session.Command = Command;
  P.Session.Jobs = std::clamp(processorCount(), 1u, MaxJobs);
  bool Reduce = std::strcmp(Command, "reduce") == 0;
  // dd tests two given files, it does not reduce one.
  bool Reduces = std::strcmp(Command, "dd") != 0;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    std::string Value;
    bool HasValue = false;
    if (A.rfind("--", 0) == 0 && A.find('=') != std::string::npos) {
      Value = A.substr(A.find('=') + 1);
      A = A.substr(0, A.find('='));
      HasValue = true;
    }
    auto Take = [&](std::string &Out) {
      if (HasValue) {
        Out = Value;
        return true;
      }
      if (I + 1 >= Argc) {
        std::fprintf(stderr, "sleuth %s: option '%s' needs a value\n", Command, A.c_str());
        return false;
      }
      Out = Argv[++I];
      return true;
    };
    std::string S;
    if (A == "-h" || A == "--help") {
      P.Help = true;
    } else if (A == "-j" || A == "--jobs" || (A.size() > 2 && A.rfind("-j", 0) == 0)) {
      if (A.size() > 2 && A[1] == 'j') { // -j4
        HasValue = true;
        Value = A.substr(2);
        A = "-j";
      }
      if (!Take(S))
        return false;
      char *End;
      unsigned long Jobs = std::strtoul(S.c_str(), &End, 10);
      if (S.empty() || *End || !std::isdigit((unsigned char)S[0]) || Jobs < 1 || Jobs > MaxJobs) {
        std::fprintf(stderr, "sleuth %s: %s needs a number from 1 to %u, not '%s'\n", Command,
                     A.c_str(), MaxJobs, S.c_str());
        return false;
      }
      P.Session.Jobs = unsigned(Jobs);
    } else if (A == "--timeout") {
      if (!Take(S))
        return false;
      char *End;
      double Seconds = std::strtod(S.c_str(), &End);
      if (S.empty() || *End || !(Seconds > 0)) {
        std::fprintf(stderr, "sleuth %s: --timeout needs a positive number of seconds, not '%s'\n",
                     Command, S.c_str());
        return false;
      }
      P.Session.TimeoutSeconds = Seconds;
    } else if (Reduces && A == "--original-runs") {
      if (!Take(S))
        return false;
      char *End;
      unsigned long Runs = std::strtoul(S.c_str(), &End, 10);
      if (S.empty() || *End || !std::isdigit((unsigned char)S[0]) || Runs < 1 ||
          Runs > MaxOriginalRuns) {
        std::fprintf(stderr, "sleuth %s: --original-runs needs a number from 1 to %u, not '%s'\n",
                     Command, MaxOriginalRuns, S.c_str());
        return false;
      }
      P.Session.OriginalRuns = unsigned(Runs);
    } else if (Reduces && A == "--allow-flaky") {
      P.Session.AllowFlaky = true;
    } else if (Reduce && A == "--valid-with") {
      if (!Take(S))
        return false;
      if (S.find_first_not_of(" \t\n") == std::string::npos) {
        std::fprintf(stderr, "sleuth reduce: --valid-with needs a shell command, e.g. "
                             "--valid-with 'gcc -fsyntax-only FILE'\n");
        return false;
      }
      if (!isShellCommand(S)) {
        std::fprintf(stderr, "sleuth reduce: --valid-with '%s' is not a valid shell command\n",
                     S.c_str());
        return false;
      }
      P.Session.ValidityCommands.push_back(S);
    } else if (A == "--verbose" || A == "-v") {
      P.Session.Verbose = true;
    } else if (Reduce && A == "--passes") {
      if (!Take(S))
        return false;
      for (std::size_t B = 0; B <= S.size();) {
        std::size_t E = S.find(',', B);
        E = E == std::string::npos ? S.size() : E;
        if (E > B)
          P.Passes.push_back(S.substr(B, E - B));
        B = E + 1;
      }
    } else if (Reduce && A == "--list-passes") {
      P.ListPasses = true;
    } else if (Reduce && A == "--lang") {
      if (!Take(P.Lang))
        return false;
      if (P.Lang != "c" && P.Lang != "c++") {
        std::fprintf(stderr, "sleuth reduce: --lang must be c or c++\n");
        return false;
      }
    } else if (Reduce && A == "--std") {
      if (!Take(P.Std))
        return false;
    } else if (Reduce && A == "--parse-arg") {
      if (!Take(S))
        return false;
      P.ParseArgs.push_back(S);
    } else if (Reduce && A == "--include-dir") {
      if (!Take(S))
        return false;
      std::error_code EC;
      if (!std::filesystem::is_directory(S, EC)) {
        std::fprintf(stderr, "sleuth reduce: --include-dir '%s' is not a directory\n", S.c_str());
        return false;
      }
      P.IncludeDirs.push_back(S);
    } else if (Reduce && A == "--apply-pass") {
      if (!Take(P.ApplyPass))
        return false;
    } else if (A.size() > 1 && A[0] == '-') {
      std::fprintf(stderr, "sleuth %s: unknown option '%s' (see --help)\n", Command, A.c_str());
      return false;
    } else {
      P.Positional.push_back(A);
    }
  }
  return true;
}

/// FILE arguments must be regular files (or missing, which the session reports): a directory
/// is a usage error.
bool checkNotDirectory(const char *Command, const std::string &File) {
  std::error_code EC;
  if (!std::filesystem::is_directory(File, EC))
    return true;
  std::fprintf(stderr, "sleuth %s: '%s' is a directory, not a file\n", Command, File.c_str());
  return false;
}

bool isCFile(const std::string &File) {
  auto Ends = [&](const char *Ext) {
    std::size_t N = std::strlen(Ext);
    return File.size() >= N && File.compare(File.size() - N, N, Ext) == 0;
  };
  return Ends(".c") || Ends(".i") || Ends(".h");
}

bool isSourceFile(const std::filesystem::path &Path) {
  static const char *const Extensions[] = {".c",  ".cc",  ".cpp", ".cxx", ".h",
                                           ".hh", ".hpp", ".hxx", ".inc"};
  std::string Ext = Path.extension().string();
  return std::any_of(std::begin(Extensions), std::end(Extensions),
                     [&](const char *E) { return Ext == E; });
}

/// The files of a multi-file reduction: the named files and the C/C++ files
/// under the named directories, as paths relative to the current directory
/// (the base of the scratch copies), each once, in a stable order. Prints
/// why not and returns false for a file outside the current directory or a
/// directory without sources.
bool collectFiles(const std::vector<std::string> &Named, std::vector<std::string> &Out) {
  namespace fs = std::filesystem;
  std::error_code EC;
  fs::path Base = fs::current_path(EC);
  auto Relative = [&](const std::string &Shown, const fs::path &Path, fs::path &Rel) {
    Rel = fs::absolute(Path, EC).lexically_normal().lexically_relative(Base);
    if (!Rel.empty() && *Rel.begin() != "..")
      return true;
    std::fprintf(stderr,
                 "sleuth reduce: '%s' is outside the current directory, the base of the "
                 "files' copies; run from a directory that holds every FILE\n",
                 Shown.c_str());
    return false;
  };
  auto Add = [&](const std::string &Shown, const fs::path &Path) {
    fs::path Rel;
    if (!Relative(Shown, Path, Rel))
      return false;
    std::string R = Rel.generic_string();
    if (std::find(Out.begin(), Out.end(), R) == Out.end())
      Out.push_back(R);
    return true;
  };
  for (const std::string &N : Named) {
    if (!fs::is_directory(N, EC)) {
      if (!Add(N, N))
        return false;
      continue;
    }
    fs::path Rel;
    if (!Relative(N, N, Rel))
      return false;
    std::vector<fs::path> Found;
    for (fs::recursive_directory_iterator It(N, EC), End; !EC && It != End; It.increment(EC))
      if (It->is_regular_file(EC) && isSourceFile(It->path()))
        Found.push_back(It->path());
    if (EC) { // a directory it could not read: reducing part of the files would mislead
      std::fprintf(stderr, "sleuth reduce: cannot read under '%s': %s\n", N.c_str(),
                   EC.message().c_str());
      return false;
    }
    if (Found.empty()) {
      std::fprintf(stderr, "sleuth reduce: no C/C++ sources or headers under '%s'\n", N.c_str());
      return false;
    }
    std::sort(Found.begin(), Found.end());
    for (const fs::path &F : Found)
      if (!Add(F.string(), F))
        return false;
  }
  return true;
}

int applyOnly(const Parsed &P, const LanguageOptions &Lang, const std::string &File) {
  std::string Name = P.ApplyPass;
  long N = 0;
  if (std::size_t Colon = Name.rfind(':'); Colon != std::string::npos) {
    N = std::strtol(Name.c_str() + Colon + 1, nullptr, 10);
    Name = Name.substr(0, Colon);
  }
  const Transformation *T = findTransformation(Name);
  if (!T) {
    std::fprintf(stderr, "sleuth reduce: unknown pass '%s' (see --list-passes)\n", Name.c_str());
    return ExitUsage;
  }
  std::string Text;
  {
    FILE *F = std::fopen(File.c_str(), "rb");
    if (!F) {
      std::fprintf(stderr, "sleuth reduce: cannot read '%s': %s\n", File.c_str(),
                   std::strerror(errno));
      return ExitBadInput;
    }
    char Buf[65536];
    std::size_t K;
    while ((K = std::fread(Buf, 1, sizeof Buf, F)) > 0)
      Text.append(Buf, K);
    std::fclose(F);
  }
  std::vector<Change> Instances = collectInstances(*T, Text, Lang);
  if (N == 0) {
    std::printf("%zu\n", Instances.size());
    return ExitOk;
  }
  if (N < 1 || std::size_t(N) > Instances.size()) {
    std::fprintf(stderr, "sleuth reduce: %s has %zu instances in '%s'\n", Name.c_str(),
                 Instances.size(), File.c_str());
    return ExitUsage;
  }
  std::fputs(applyChanges(Text, {&Instances[N - 1]}).c_str(), stdout);
  return ExitOk;
}

} // namespace

int reduceMain(int Argc, const char **Argv) {
  Parsed P;
  if (!parseArgs("reduce", Argc, Argv, P))
    return ExitUsage;
  if (P.Help) {
    std::fputs(ReduceHelp, stdout);
    return ExitOk;
  }
  if (P.ListPasses) {
    static const char *Levels[] = {"declarations", "members", "expressions", "lexical"};
    for (const Transformation *T : allTransformations())
      std::printf("%-24s %-12s %s\n", T->name(), Levels[T->level()], T->description());
    for (const CrossFileTransformation *T : allCrossFileTransformations())
      std::printf("%-24s %-12s %s\n", T->name(), "files", T->description());
    return ExitOk;
  }
  ReduceOptions O;
  O.Session = P.Session;
  O.Passes = P.Passes;
  O.IncludeDirs = P.IncludeDirs;
  bool Apply = !P.ApplyPass.empty();
  if (Apply ? P.Positional.size() != 1 : P.Positional.size() < 2) {
    std::fprintf(stderr, "sleuth reduce: expected TEST_SCRIPT FILE... (see "
                         "--help)\n");
    return ExitUsage;
  }
  const std::string &File = P.Positional.back();
  std::error_code EC;
  if (!Apply && (P.Positional.size() > 2 || std::filesystem::is_directory(File, EC))) {
    std::vector<std::string> Named(P.Positional.begin() + 1, P.Positional.end());
    if (!collectFiles(Named, O.Session.Files))
      return ExitUsage;
    // C++ unless every file is C: a header of a C++ project is C++.
    O.Lang.CPlusPlus = P.Lang.empty()
                           ? !std::all_of(O.Session.Files.begin(), O.Session.Files.end(), isCFile)
                           : P.Lang == "c++";
    O.Lang.Standard = P.Std;
    O.Lang.ExtraArgs = P.ParseArgs;
    O.Session.Script = P.Positional[0];
    O.Session.File = O.Session.Files.front();
    O.Session.CPlusPlus = O.Lang.CPlusPlus;
    return runReduce(O);
  }
  if (!checkNotDirectory("reduce", File))
    return ExitUsage;
  O.Lang.CPlusPlus = P.Lang.empty() ? !isCFile(File) : P.Lang == "c++";
  O.Lang.Standard = P.Std;
  O.Lang.ExtraArgs = P.ParseArgs;
  O.Lang.FileName = File.substr(File.rfind('/') + 1);
  if (!P.ApplyPass.empty())
    return applyOnly(P, O.Lang, File);
  O.Session.Script = P.Positional[0];
  O.Session.File = File;
  O.Session.CTokens = true;
  O.Session.CPlusPlus = O.Lang.CPlusPlus;
  return runReduce(O);
}

int ddminMain(int Argc, const char **Argv) {
  Parsed P;
  if (!parseArgs("ddmin", Argc, Argv, P))
    return ExitUsage;
  if (P.Help) {
    std::fputs(DDMinHelp, stdout);
    return ExitOk;
  }
  if (P.Positional.size() != 2) {
    std::fprintf(stderr, "sleuth ddmin: expected TEST_SCRIPT FILE (see --help)\n");
    return ExitUsage;
  }
  if (!checkNotDirectory("ddmin", P.Positional[1]))
    return ExitUsage;
  P.Session.Script = P.Positional[0];
  P.Session.File = P.Positional[1];
  P.Session.CTokens = false;
  return runDDMin(P.Session);
}

int ddMain(int Argc, const char **Argv) {
  Parsed P;
  if (!parseArgs("dd", Argc, Argv, P))
    return ExitUsage;
  if (P.Help) {
    std::fputs(DDHelp, stdout);
    return ExitOk;
  }
  if (P.Positional.size() != 3) {
    std::fprintf(stderr, "sleuth dd: expected TEST_SCRIPT PASSING FAILING (see "
                         "--help)\n");
    return ExitUsage;
  }
  if (!checkNotDirectory("dd", P.Positional[1]) || !checkNotDirectory("dd", P.Positional[2]))
    return ExitUsage;
  P.Session.Script = P.Positional[0];
  return runDD(P.Session, P.Positional[1], P.Positional[2], stdout);
}

} // namespace sleuth
