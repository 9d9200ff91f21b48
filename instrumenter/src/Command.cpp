// `sleuth instrument`: rewrite C/C++ sources with dependence probes or coverage counters.
#include "sleuth/instrumenter/command.h"
#include "sleuth/instrumenter/instrumenter.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

#include <cstring>
#include <string>
#include <vector>

namespace sleuth {
namespace {

const char Usage[] =
    R"(usage: sleuth instrument [options] FILE... [-- COMPILER_ARGS...]

Rewrites C and C++ sources so that the instrumented program records its dynamic data and
control dependences (reads, writes, conditions, calls, arguments, parameters, returns; written
to sleuth.deps), or, in coverage mode, how often each CFG block, edge and condition outcome ran
(written to sleuth.cov). Line numbers are kept. Compile the result with
-I<sleuth>/runtime/include and link libsleuth_rt.so or libsleuth_rt.a (or let `sleuth cc` /
`sleuth c++` do all of it).

options:
  -o PATH          write to PATH: a file for one input, a directory for several
                   (default: standard output, one input only)
  -p BUILD_DIR     take compiler arguments from BUILD_DIR/compile_commands.json
  --mode MODE      deps (dependences, the default) or coverage (block, edge and condition
                   counters)
  --counters HOW   coverage mode: `exact` (the default: every count holds also for a run
                   that dies inside a block) or `minimal` (fewer counters, derived as gcov
                   does; as fast as gcov, but a run that ends inside a block miscounts it)
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
  --stats          print per file how many functions and sites were instrumented
  -h, --help       this text
)";

int fail(const std::string &Message) {
  llvm::errs() << "sleuth instrument: " << Message << "\n";
  return 1;
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
  bool HaveCompilerArgs = false, Stats = false, StaticReads = true;
  InstrumentMode Mode = InstrumentMode::Dependences;
  CoverageCounters Counters = CoverageCounters::Exact;
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
    if (A == "-o" || A == "-p" || A == "--mode" || A == "--headers" || A == "--counters" ||
        A == "--header-cache") {
      if (I + 1 >= Argc)
        return fail("option " + A + " needs an argument");
      std::string V = Argv[++I];
      if (A == "-o")
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
          return fail("--counters: unknown placement '" + V + "' (known: exact, minimal)");
      } else if (A == "--headers") {
        if (V == "none") {
          IncludedFiles = false;
        } else if (V != "project") {
          if (!llvm::sys::fs::is_directory(V))
            return fail("--headers: '" + V + "' is not a directory (nor project or none)");
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
        return fail("unknown mode '" + V + "' (known: deps, coverage)");
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
    if (!A.empty() && A[0] == '-')
      return fail("unknown option '" + A + "' (see --help)");
    Files.push_back(A);
  }
  if (Files.empty())
    return fail("no input file (see --help)");
  bool OutputIsDir = Files.size() > 1 || (!Output.empty() && llvm::sys::fs::is_directory(Output));
  if (Files.size() > 1 && Output.empty())
    return fail("several inputs need -o DIRECTORY");
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
    Request.StaticReads = StaticReads;
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
