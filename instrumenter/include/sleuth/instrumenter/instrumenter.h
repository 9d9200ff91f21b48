// Public interface of the instrumenter: rewrite one C or C++ source file with dependence
// probes or coverage counters. Clang stays behind this boundary.
#pragma once

#include <array>
#include <string>
#include <vector>

namespace sleuth {

/// What the rewritten file records when it runs.
enum class InstrumentMode {
  Dependences, // reads, writes, tests, calls… for the dynamic dependence graph (PROGRAM.PID.deps)
  Coverage,    // block, branch-outcome and CFG edge counters (PROGRAM.PID.cov)
};

/// Where coverage mode puts its counters.
enum class CoverageCounters {
  /// Every count follows from rules that hold in any run (a block is entered through its
  /// in-edges): a run that dies inside a block still shows where it stopped.
  Exact,
  /// Fewer counters, derived as gcov derives its counts: the other counts also use "a block
  /// is left through its out-edges", so a run that ends inside a block (a crash, exit(), an
  /// exception, longjmp) leaves that block's and its successors' counts off by one.
  Minimal,
};

/// Why a function with a body in an instrumentable file was left as it was.
enum class SkipReason : unsigned {
  Constexpr,          // constexpr or consteval: it may run at compile time, without the runtime
  CInlineDefinition,  // a C inline definition that is not an external one: it may not refer to
                      // the file's static tables
  BodyFromMacro,      // the body begins or ends inside a macro's expansion
  BodyInAnotherFile,  // the body is spelled in another file than the name (`#include` inside)
  FunctionTryBlock,   // C++ `void f() try { … } catch …`
  Coroutine,          // C++20 coroutines (co_await, co_yield, co_return)
  NoControlFlowGraph, // coverage mode: Clang built no CFG for the body
};
inline constexpr unsigned NumSkipReasons = unsigned(SkipReason::NoControlFlowGraph) + 1;

/// The reason's short name, as SLEUTH_STATS and `sleuth instrument --stats` print it
/// ("constexpr", "c-inline", "macro-body", …).
const char *skipReasonName(SkipReason Reason);

/// Counts of functions left as they were, by reason.
using SkipCounts = std::array<unsigned, NumSkipReasons>;

/// "macro-body=2,constexpr=1" (most frequent first, "" for none).
std::string describeSkipCounts(const SkipCounts &Counts, const char *Assign = "=",
                               const char *Separator = ",");

struct InstrumentRequest {
  std::string File;                   // the source file, as the compiler would be given it
  std::vector<std::string> Arguments; // compiler arguments (without the compiler and the file)
  std::string Directory;              // working directory of the compile command ("" = cwd)
  bool ShowDiagnostics = true;        // print Clang's diagnostics (the wrappers leave that to
                                      // the real compiler)
  InstrumentMode Mode = InstrumentMode::Dependences;
  CoverageCounters Counters = CoverageCounters::Exact; // coverage mode only
  /// Coverage mode: also record the path a run takes, statement by statement with the values
  /// produced, for specification-guided localization (instrumenter/src/coverage/PathRecorder.h).
  bool RecordPath = false;
  /// Dependence mode: a read of a kept local that one write reaches on every path gets no probe,
  /// its edge listed in the unit's table instead (instrumenter/src/StaticOrigins.h). Off, every
  /// such read is checked at run time, as before static edges (for comparing the two).
  bool StaticReads = true;
  /// Dependence mode, for the soundness oracle (tests/soundness): the writes of kept locals also
  /// pass the local's address (sleuth_def_at), so that a perturbed run (SLEUTH_PERTURB) can
  /// change the value they stored. The graph is the one of the default build.
  bool AddressedLocals = false;
  /// Also instrument the project files the source includes (headers, included .c files): not
  /// system headers, nothing under /usr, /opt or /nix/store, and when IncludedRoots is not
  /// empty only files under one of those directories. Their rewritten text is inlined into the
  /// output in place of the #include.
  bool InstrumentIncludedFiles = true;
  std::vector<std::string> IncludedRoots;
  /// Where instrumented project headers are kept between translation units ("" = nowhere): a
  /// header the parser sees alike in the next one is not instrumented again (HeaderCache.h).
  std::string HeaderCacheDirectory;
};

struct InstrumentResult {
  bool Ok = false;
  std::string Text;  // the rewritten source (when Ok)
  std::string Error; // one line, naming the file (when !Ok); Clang's diagnostics went to stderr
  unsigned Functions = 0; // functions instrumented
  unsigned Sites = 0;     // static sites (nodes and call sites) or counters (coverage)
  unsigned Probes = 0;    // probes (calls and counter increments) inserted
  unsigned Skipped = 0;   // functions left as they were (constexpr, macros, coroutines…)
  SkipCounts SkippedBy{}; // the same, by reason
  /// Included files whose rewritten text the output carries, as the compiler found them: the
  /// compile of Text no longer reads them, but still depends on them.
  std::vector<std::string> IncludedFiles;
  /// Of the included files with instrumented functions, those whose rewriting came from the
  /// header cache.
  unsigned HeadersFromCache = 0;
};

/// Parses Request.File with Clang and returns it rewritten for Request.Mode.
InstrumentResult instrument(const InstrumentRequest &Request);

/// The header cache the compiler wrappers use by default: $XDG_CACHE_HOME/sleuth/headers or
/// ~/.cache/sleuth/headers, created if missing ("" if it cannot be).
std::string defaultHeaderCacheDirectory();

/// Where the runtime's header lives (for -I when compiling instrumented code).
std::string runtimeIncludeDir();

} // namespace sleuth
