// `sleuth instrument`: rewrite C/C++ sources with dependence probes or coverage counters.
#include "sleuth/instrumenter/command.h"
#include "sleuth/instrumenter/instrumenter.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace sleuth {
namespace {

const char Usage[] =
    R"(usage: sleuth instrument [options] FILE... [-- COMPILER_ARGS...]

Rewrites C and C++ sources so that the instrumented program records its dynamic data and
control dependences (reads, writes, conditions, calls, arguments, parameters, returns; written
to PROGRAM.PID.deps or $SLEUTH_OUT), or, in coverage mode, how often each CFG block, edge and
condition outcome ran (written to PROGRAM.PID.cov or $SLEUTH_COV_OUT). Line numbers are kept. Compile the result with
-I<sleuth>/runtime/include and link libsleuth_rt.so or libsleuth_rt.a (or let `sleuth cc` /
`sleuth c++` do all of it).

options:
  -o, --output PATH
                   write to PATH: a file for one input, a directory for several
                   (default: standard output, one input only)
  -p BUILD_DIR     take compiler arguments from BUILD_DIR/compile_commands.json
  --mode MODE      deps (dependences, the default) or coverage (block, edge and condition
                   counters)
  --counters HOW   coverage mode: `exact` (the default: every count holds also for a run
                   that dies inside a block) or `minimal` (fewer counters, derived as gcov
                   does; as fast as gcov, but a run that ends inside a block miscounts it)
  --record-path    coverage mode: also record each run's path, statement by statement with
                   the values produced (for sleuth localize --formula sat-tar)
  --headers WHICH  the included files to instrument along with each source (their text is
                   inlined into the output): `project` (the default: every file that is not
                   a system header nor under /usr, /opt or /nix/store), `none`, or a
                   directory (only files under it; repeat for several)
  --header-cache DIR  keep instrumented project headers in DIR: a header seen alike by a
                   later source (same text, tokens and macros) is not instrumented again
                   (the compiler wrappers do this by default; see docs/wrappers.md)
  --checked-reads  deps mode: check every read of a local at run time, also where one write
                   reaches it on every path (by default such a read has no probe: its edge is
                   known when instrumenting, see docs/architecture.md); for comparisons
  --perturbable    deps mode: kept locals' writes also pass the local's address, so that
                   a run with SLEUTH_PERTURB can change the value they stored (the
                   soundness oracle, tests/soundness/oracle.py); the graph stays the same
  --stats          print per file how many functions and sites were instrumented
  -h, --help       this text
)";

/// Prints `sleuth instrument: MESSAGE`; returns Code (1: the input or output is at fault,
/// 2: the command line).
int fail(const std::string &Message, int Code = 1) {
  llvm::errs() << "sleuth instrument: " << Message << "\n";
  return Code;
}

int usageError(const std::string &Message) { return fail(Message, 2); }

/// Whether Arguments choose the input's language themselves (`-x c`): then any file name goes.
bool choosesLanguage(const std::vector<std::string> &Arguments) {
  for (const std::string &A : Arguments)
    if (A == "-x" || (A.rfind("-x", 0) == 0 && A.size() > 2))
      return true;
  return false;
}

/// Whether File's name says C or C++ (as the compiler driver reads it, plus headers).
bool isSourceName(llvm::StringRef File) {
  llvm::StringRef Extension = llvm::sys::path::extension(File);
  for (const char *Known : {".c", ".h", ".i", ".C", ".cc", ".cp", ".cpp", ".cxx", ".c++", ".CPP",
                            ".ii", ".hh", ".hpp", ".hxx", ".h++", ".H", ".ipp", ".tcc", ".inl"})
    if (Extension == Known)
      return true;
  return false;
}

/// Why File cannot be instrumented before Clang sees it, or "": a missing file, a directory,
/// or a name that is not C or C++ (Clang's driver would take it for a linker input and say so
/// in several lines of its own). Arguments are those the user gave after `--`: a compilation
/// database guesses the arguments of a file it does not list, `-x c++` included.
std::string unusableInput(const std::string &File, const std::vector<std::string> &Arguments) {
  if (!llvm::sys::fs::exists(File))
    return File + ": no such file";
  if (llvm::sys::fs::is_directory(File))
    return File + ": is a directory, not a C or C++ source";
  if (!choosesLanguage(Arguments) && !isSourceName(File))
    return File + ": not a C or C++ source (by its name; give -- -x c or -- -x c++ to "
                  "instrument it all the same)";
  return "";
}

/// The arguments of a compile command, without the compiler, the input, -c and -o.
std::vector<std::string> argumentsOf(const clang::tooling::CompileCommand &Command) {
  std::vector<std::string> Out;
  const auto &Line = Command.CommandLine;
  for (size_t I = 1; I < Line.size(); ++I) {
    const std::string &A = Line[I];
    if (A == "-o" || A == "-MF" || A == "-MT" || A == "-MQ") {
      ++I;
      continue;
    }
    if (A == "-c" || A == Command.Filename || A == "-MD" || A == "-MMD" || A == "--")
      continue;
    if (A.rfind("-o", 0) == 0 && A.size() > 2)
      continue;
    Out.push_back(A);
  }
  return Out;
}

bool writeOutput(const std::string &Path, const std::string &Text, std::string &Error) {
  // llvm::writeToOutput writes a temporary file and renames it: no half-written output.
  llvm::Error E = llvm::writeToOutput(Path, [&](llvm::raw_ostream &OS) {
    OS << Text;
    return llvm::Error::success();
  });
  if (E) {
    Error = Path + ": cannot write: " + llvm::toString(std::move(E));
    return false;
  }
  return true;
}

} // namespace

int instrumentMain(int Argc, const char **Argv) {
  std::vector<std::string> Files, CompilerArgs;
  std::string Output, BuildDir;
  bool HaveCompilerArgs = false, Stats = false, StaticReads = true, AddressedLocals = false;
  InstrumentMode Mode = InstrumentMode::Dependences;
  CoverageCounters Counters = CoverageCounters::Exact;
  bool RecordPath = false;
  bool IncludedFiles = true;
  std::vector<std::string> IncludedRoots;
  std::string HeaderCache;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--") {
      HaveCompilerArgs = true;
      for (++I; I < Argc; ++I)
        CompilerArgs.push_back(Argv[I]);
      break;
    }
    if (A == "-h" || A == "--help") {
      llvm::outs() << Usage;
      return 0;
    }
    // Options with a value accept `--opt VALUE` and `--opt=VALUE`.
    std::optional<std::string> Inline;
    if (size_t Eq = A.find('='); A.rfind("--", 0) == 0 && Eq != std::string::npos) {
      Inline = A.substr(Eq + 1);
      A.resize(Eq);
    }
    if (A == "-o" || A == "--output" || A == "-p" || A == "--mode" || A == "--headers" ||
        A == "--counters" || A == "--header-cache") {
      if (!Inline && I + 1 >= Argc)
        return usageError("option '" + A + "' needs a value");
      std::string V = Inline ? *Inline : Argv[++I];
      if (A == "-o" || A == "--output")
        Output = V;
      else if (A == "-p")
        BuildDir = V;
      else if (A == "--header-cache") {
        if (std::error_code EC = llvm::sys::fs::create_directories(V))
          return fail("--header-cache: cannot create '" + V + "': " + EC.message());
        llvm::SmallString<256> Dir(V);
        llvm::sys::fs::make_absolute(Dir);
        HeaderCache = std::string(Dir);
      } else if (A == "--counters") {
        if (V == "exact")
          Counters = CoverageCounters::Exact;
        else if (V == "minimal")
          Counters = CoverageCounters::Minimal;
        else
          return usageError("--counters: unknown counter placement '" + V +
                            "' (accepted: exact, minimal)");
      } else if (A == "--headers") {
        if (V == "none") {
          IncludedFiles = false;
        } else if (V != "project") {
          if (!llvm::sys::fs::is_directory(V))
            return usageError("--headers: '" + V + "' is not a directory (nor project or none)");
          llvm::SmallString<256> Root(V);
          llvm::sys::fs::make_absolute(Root);
          llvm::sys::path::remove_dots(Root, true);
          IncludedRoots.push_back(std::string(Root));
        }
      } else if (V == "deps")
        Mode = InstrumentMode::Dependences;
      else if (V == "coverage")
        Mode = InstrumentMode::Coverage;
      else
        return usageError("--mode: unknown mode '" + V + "' (accepted: deps, coverage)");
      continue;
    }
    if (A == "--record-path") {
      RecordPath = true;
      continue;
    }
    if (A == "--stats") {
      Stats = true;
      continue;
    }
    if (A == "--checked-reads") {
      StaticReads = false;
      continue;
    }
    if (A == "--perturbable") {
      AddressedLocals = true;
      continue;
    }
    if (!A.empty() && A[0] == '-')
      return usageError("unknown option '" + A + "' (see --help)");
    Files.push_back(A);
  }
  if (Files.empty())
    return usageError("no input file (see --help)");
  bool OutputIsDir = Files.size() > 1 || (!Output.empty() && llvm::sys::fs::is_directory(Output));
  if (Files.size() > 1 && Output.empty())
    return usageError("several inputs need -o DIRECTORY");
  if (OutputIsDir && !llvm::sys::fs::is_directory(Output))
    return fail(Output + ": not a directory");

  std::unique_ptr<clang::tooling::CompilationDatabase> Database;
  if (!BuildDir.empty()) {
    std::string Error;
    Database = clang::tooling::CompilationDatabase::loadFromDirectory(BuildDir, Error);
    if (!Database)
      return fail(BuildDir + ": " + Error);
  }
  int Status = 0;
  for (const std::string &File : Files) {
    InstrumentRequest Request;
    Request.File = File;
    Request.Mode = Mode;
    Request.Counters = Counters;
    Request.RecordPath = RecordPath;
    Request.StaticReads = StaticReads;
    Request.AddressedLocals = AddressedLocals;
    Request.InstrumentIncludedFiles = IncludedFiles;
    Request.IncludedRoots = IncludedRoots;
    Request.HeaderCacheDirectory = HeaderCache;
    if (Database) {
      llvm::SmallString<256> Absolute(File);
      llvm::sys::fs::make_absolute(Absolute);
      auto Commands = Database->getCompileCommands(Absolute);
      if (Commands.empty())
        return fail(File + ": not in " + BuildDir + "/compile_commands.json");
      Request.Arguments = argumentsOf(Commands.front());
      Request.Directory = Commands.front().Directory;
      Request.File = std::string(Absolute);
    } else if (HaveCompilerArgs) {
      Request.Arguments = CompilerArgs;
    } else {
      std::string Error;
      if (auto Detected = clang::tooling::CompilationDatabase::autoDetectFromSource(File, Error)) {
        auto Commands = Detected->getCompileCommands(File);
        if (!Commands.empty()) {
          Request.Arguments = argumentsOf(Commands.front());
          Request.Directory = Commands.front().Directory;
        }
      }
    }
    if (std::string Why = unusableInput(File, CompilerArgs); !Why.empty()) {
      Status = fail(Why);
      continue;
    }
    InstrumentResult Result = instrument(Request);
    if (!Result.Ok) {
      Status = fail(Result.Error);
      continue;
    }
    if (Stats)
      llvm::errs() << File << ": " << Result.Functions << " functions, " << Result.Sites
                   << (Mode == InstrumentMode::Coverage ? " counters, " : " sites, ")
                   << Result.Probes << " probes, " << Result.Skipped
                   << " functions left as they were"
                   << (Result.Skipped ? " (" + describeSkipCounts(Result.SkippedBy, " ", ", ") + ")"
                                      : std::string())
                   << ", " << Result.IncludedFiles.size() << " included files instrumented"
                   << (HeaderCache.empty() ? std::string()
                                           : " (" + std::to_string(Result.HeadersFromCache) +
                                                 " from the header cache)")
                   << "\n";
    if (Output.empty()) {
      llvm::outs() << Result.Text;
      continue;
    }
    std::string Target = Output;
    if (OutputIsDir) {
      llvm::SmallString<256> P(Output);
      llvm::sys::path::append(P, llvm::sys::path::filename(File));
      Target = std::string(P);
    }
    std::string Error;
    if (!writeOutput(Target, Result.Text, Error))
      Status = fail(Error);
  }
  return Status;
}

} // namespace sleuth
