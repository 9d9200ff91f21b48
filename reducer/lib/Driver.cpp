//===- Driver.cpp - Reduction sessions: reduce, ddmin, dd -----------------===//
#include "Driver.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace sleuth::reducer {

namespace fs = std::filesystem;

namespace {

bool readFile(const std::string &Path, std::string &Out, std::string &Err) {
  std::ifstream In(Path, std::ios::binary);
  if (!In) {
    Err = std::strerror(errno);
    return false;
  }
  std::ostringstream SS;
  SS << In.rdbuf();
  Out = SS.str();
  return true;
}

std::string withCommas(std::size_t N) {
  std::string S = std::to_string(N);
  for (int I = int(S.size()) - 3; I > 0; I -= 3)
    S.insert(I, ",");
  return S;
}

std::string describeExit(const RunResult &R, double Timeout) {
  if (R.TimedOut) {
    char Seconds[32];
    std::snprintf(Seconds, sizeof Seconds, "%g", Timeout); // 0.5, not 0
    return "timed out after " + std::string(Seconds) + " s";
  }
  if (R.ExitCode < 0)
    return "was killed by a signal";
  if (R.ExitCode == 127)
    return "could not be run (exit 127)";
  return "exits " + std::to_string(R.ExitCode);
}

} // namespace

bool checkScript(const std::string &Command, const std::string &Script) {
  struct stat St;
  if (stat(Script.c_str(), &St) != 0) {
    std::fprintf(stderr, "sleuth %s: test script '%s' does not exist\n", Command.c_str(),
                 Script.c_str());
    return false;
  }
  if (!S_ISREG(St.st_mode) || access(Script.c_str(), X_OK) != 0) {
    std::fprintf(stderr,
                 "sleuth %s: test script '%s' is not executable (chmod +x "
                 "%s)\n",
                 Command.c_str(), Script.c_str(), Script.c_str());
    return false;
  }
  return true;
}

//===----------------------------------------------------------------------===//
// Session
//===----------------------------------------------------------------------===//

static RunnerOptions runnerOptions(const SessionOptions &O) {
  RunnerOptions R;
  std::error_code EC;
  R.Script = fs::absolute(O.Script, EC).string();
  R.FileName = fs::path(O.File).filename().string();
  R.Jobs = O.Jobs;
  R.TimeoutSeconds = O.TimeoutSeconds;
  R.ValidityCommands = O.ValidityCommands;
  return R;
}

Session::Session(SessionOptions O) : Opts(std::move(O)), Runner(runnerOptions(Opts)) {
  Runner.OnTick = [this] { progress(false); };
}

Session::~Session() = default;

Size Session::sizeOf(const std::string &Text) const {
  std::size_t Tokens = Opts.CTokens ? lexC(Text, Opts.CPlusPlus).size() : lexText(Text).size();
  return {Tokens, Text.size()};
}

void Session::note(const std::string &Message) {
  if (ProgressShown) {
    std::fputc('\n', Opts.Log);
    ProgressShown = false;
  }
  std::fprintf(Opts.Log, "sleuth %s: %s\n", Opts.Command.c_str(), Message.c_str());
  std::fflush(Opts.Log);
}

void Session::progress(bool Force) {
  double Now = monotonicSeconds();
  bool Tty = isatty(fileno(Opts.Log));
  // On a terminal the line is redrawn in place; in a log, one line every
  // few seconds is enough.
  if (!Force && Now - LastProgress < (Tty ? 0.2 : 5.0))
    return;
  LastProgress = Now;
  double Elapsed = std::max(Now - Started, 1e-3);
  std::fprintf(Opts.Log, "%s%s tokens, %s bytes | %s tests, %.1f/s | pass %s%s",
               Tty ? "\r\033[K" : "", withCommas(BestSize.Tokens).c_str(),
               withCommas(BestSize.Bytes).c_str(), withCommas(Runner.testsRun()).c_str(),
               Runner.testsRun() / Elapsed, Pass.c_str(), Tty ? "" : "\n");
  std::fflush(Opts.Log);
  ProgressShown = Tty;
}

bool Session::writeAtomically(const std::string &Path, const std::string &Text) {
  // Write beside the target and rename over it: a reader (or a crash) sees
  // either the old file or the new one, never half of one.
  std::string Tmp = Path + ".sleuth-tmp." + std::to_string(getpid());
  int Fd = open(Tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (Fd < 0)
    return false;
  std::size_t Done = 0;
  while (Done < Text.size()) {
    ssize_t N = write(Fd, Text.data() + Done, Text.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      close(Fd);
      unlink(Tmp.c_str());
      return false;
    }
    Done += N;
  }
  struct stat St;
  if (stat(Path.c_str(), &St) == 0)
    fchmod(Fd, St.st_mode & 07777);
  fsync(Fd);
  close(Fd);
  if (rename(Tmp.c_str(), Path.c_str()) != 0) {
    unlink(Tmp.c_str());
    return false;
  }
  return true;
}

int Session::start() {
  Started = monotonicSeconds();
  if (!checkScript(Opts.Command, Opts.Script))
    return ExitBadInput;
  std::string Err;
  if (!readFile(Opts.File, Original, Err)) {
    note("cannot read '" + Opts.File + "': " + Err);
    return ExitBadInput;
  }
  if (!Runner.prepare(Err)) {
    note(Err);
    return ExitBadInput;
  }
  Best = Original;
  OriginalSize = BestSize = sizeOf(Original);
  Pass = "original";
  RunResult R = Runner.run(Original);
  if (R.Interrupted)
    return ExitInterrupted;
  if (!R.interesting() && R.Check == 0) {
    note("the test script " + describeExit(R, Opts.TimeoutSeconds) +
         " on the original file; nothing to reduce");
    return ExitBadInput;
  }
  if (!R.interesting()) {
    note(describeCheck(R.Check) + " " + describeExit(R, Opts.TimeoutSeconds) +
         " on the original file; it must accept the original");
    return ExitBadInput;
  }
  if (int RC = checkNotFlaky())
    return RC;
  std::string Orig = Opts.File + ".orig";
  if (fs::exists(Orig)) {
    note("keeping the existing '" + Orig + "'");
  } else if (!writeAtomically(Orig, Original)) {
    note("cannot write '" + Orig + "'; not reducing without a backup");
    return ExitBadInput;
  }
  return ExitOk;
}

std::string Session::describeCheck(std::size_t Check) const {
  if (Check == 0)
    return "the test script";
  return "the validity command '" + Opts.ValidityCommands[Check - 1] + "'";
}

int Session::checkNotFlaky() {
  if (Opts.OriginalRuns < 2)
    return ExitOk;
  // In parallel, as the reduction will run it: a test that only fails under
  // load (a timeout too tight) shows up here too.
  std::vector<RunResult> Again = Runner.repeat(Original, 0, Opts.OriginalRuns - 1);
  if (!Again.empty() && Again.back().Interrupted)
    return ExitInterrupted;
  std::size_t Passed = 1; // The first run, which start() has seen pass.
  const RunResult *Failed = nullptr;
  for (const RunResult &R : Again) {
    if (R.interesting())
      ++Passed;
    else if (!Failed)
      Failed = &R;
  }
  if (!Failed)
    return ExitOk;
  std::string Message = "the test is flaky on the original: passed " + std::to_string(Passed) +
                        " of " + std::to_string(Opts.OriginalRuns) + " runs (a failing run " +
                        describeExit(*Failed, Opts.TimeoutSeconds) + ")";
  if (!Opts.AllowFlaky) {
    note(Message + "; make it deterministic, or reduce anyway with --allow-flaky");
    return ExitFlaky;
  }
  note("warning: " + Message + "; reducing anyway (--allow-flaky)");
  return ExitOk;
}

void Session::accept(const std::string &Text) {
  Best = Text;
  BestSize = sizeOf(Text);
  if (!writeAtomically(Opts.File, Best))
    note("warning: cannot write '" + Opts.File + "': " + std::strerror(errno));
  progress(false);
}

int Session::finish() {
  progress(true);
  if (interrupted()) {
    note("interrupted; the best result so far (" + withCommas(BestSize.Tokens) + " tokens, " +
         withCommas(BestSize.Bytes) + " bytes) is in '" + Opts.File + "', the original in '" +
         Opts.File + ".orig'");
    return ExitInterrupted;
  }
  if (Best != Original) {
    // A result that stops being interesting means the test is flaky; say so
    // rather than leave the user with a file that does not reproduce.
    RunResult R = Runner.run(Best, /*UseCache=*/false);
    if (R.Interrupted)
      return ExitInterrupted;
    if (!R.interesting()) {
      note(describeCheck(R.Check) + " is flaky: it exited 0 on the result before, and now it " +
           describeExit(R, Opts.TimeoutSeconds) + "; '" + Opts.File + "' holds that result, '" +
           Opts.File + ".orig' the original");
      return ExitFlaky;
    }
  }
  std::string Validity;
  if (Runner.checks() > 1) {
    std::size_t Runs = 0, Rejected = 0;
    for (std::size_t C = 0; C < Runner.checks(); ++C) {
      if (C > 0) {
        Runs += Runner.checkRuns(C);
        Rejected += Runner.checkRejections(C);
      }
      if (Opts.Verbose) {
        const CheckOrder &O = Runner.order();
        char Msg[160];
        std::snprintf(Msg, sizeof Msg,
                      ": %zu runs, mean %.3f s, %zu rejections; went first on %zu candidates",
                      Runner.checkRuns(C), O.meanSeconds(C), O.rejections(C), O.scheduledFirst(C));
        note(describeCheck(C) + Msg);
      }
    }
    Validity = std::string(Runner.checks() > 2 ? "; the validity commands ran "
                                               : "; the validity command ran ") +
               withCommas(Runs) + " times and rejected " + withCommas(Rejected) + " candidates";
  }
  char Time[32];
  std::snprintf(Time, sizeof Time, "%.1f", monotonicSeconds() - Started);
  note("done: " + withCommas(OriginalSize.Tokens) + " -> " + withCommas(BestSize.Tokens) +
       " tokens, " + withCommas(OriginalSize.Bytes) + " -> " + withCommas(BestSize.Bytes) +
       " bytes in " + Time + " s, " + withCommas(Runner.testsRun()) + " tests run, " +
       withCommas(Runner.cacheHits()) + " answered from the cache" + Validity +
       (Best == Original ? "; the file is unchanged" : ""));
  return ExitOk;
}

namespace {

/// Delta debugging's questions answered by the test script. In reduction
/// mode only candidates smaller than the best so far are worth a test, and
/// an interesting one becomes the new best at once.
class SessionEvaluator : public ProbeEvaluator {
public:
  SessionEvaluator(Session &S, std::function<std::string(const Config &)> Materialize)
      : S(S), Materialize(std::move(Materialize)) {}

  static Outcome classify(const RunResult &R) {
    if (R.interesting())
      return Outcome::Fail;
    return R.ExitCode == -2 ? Outcome::Unresolved : Outcome::Pass;
  }

  std::optional<RunResult> known(const std::string &Text) {
    RunResult R;
    if (Text == S.best()) {
      R.ExitCode = 0;
      return R;
    }
    if (!(S.sizeOf(Text) < S.bestSize())) {
      R.ExitCode = -2; // Not a reduction: no need to ask.
      return R;
    }
    return std::nullopt;
  }

  Outcome test(const Config &C) override {
    std::string Text = Materialize(C);
    if (std::optional<RunResult> K = known(Text))
      return classify(*K);
    Outcome O = classify(S.runner().run(Text));
    if (O == Outcome::Fail)
      S.accept(Text);
    return O;
  }

  std::optional<std::size_t> firstMatch(const ProbeSource &Next) override {
    if (S.interrupted())
      return std::nullopt;
    std::optional<std::size_t> Hit =
        S.runner().firstMatch([&](std::size_t I) -> std::optional<TestRunner::Candidate> {
          std::optional<Probe> P = Next(I);
          if (!P)
            return std::nullopt;
          TestRunner::Candidate C;
          C.Content = Materialize(P->Candidate);
          C.Known = known(C.Content);
          Outcome Wanted = P->Wanted;
          C.Matches = [Wanted](const RunResult &R) { return classify(R) == Wanted; };
          return C;
        });
    if (Hit && Next(*Hit)->Wanted == Outcome::Fail) {
      std::string Text = Materialize(Next(*Hit)->Candidate);
      if (Text != S.best())
        S.accept(Text);
    }
    return Hit;
  }

private:
  Session &S;
  std::function<std::string(const Config &)> Materialize;
};

} // namespace

std::unique_ptr<ProbeEvaluator>
Session::evaluator(std::function<std::string(const Config &)> Materialize) {
  return std::make_unique<SessionEvaluator>(*this, std::move(Materialize));
}

//===----------------------------------------------------------------------===//
// sleuth reduce
//===----------------------------------------------------------------------===//

namespace {

/// Applies as many of Changes to S.best() as the test allows. The changes
/// are tried in chunks: all of them, then halves, quarters, ... and each chunk
/// size is swept once over the list, keeping every chunk that stays
/// interesting. Unlike ddmin, a sweep never asks again about a chunk that
/// failed at this size, so a long list of mostly needed instances (the
/// declarations of a preprocessed header) costs about one test per chunk.
///
/// Backward sweeps (the default) meet uses before the declarations they
/// use, so removing a user lets its declaration go later in the same sweep.
/// Passes that sort their instances by size sweep forward, largest first.
void reduceWithChanges(Session &S, const std::vector<Change> &Changes, bool Forward) {
  const std::size_t N = Changes.size();
  if (N == 0 || S.interrupted())
    return;
  const std::string Base = S.best();
  std::vector<char> Applied(N, 0);
  // A configuration here is the set of changes to apply, in list order, so
  // that an outer change (a namespace) wins over an inner one (its member).
  auto Materialize = [&](const Config &Apply) {
    std::vector<const Change *> Ptrs;
    Ptrs.reserve(Apply.size());
    for (std::size_t I : Apply)
      Ptrs.push_back(&Changes[I]);
    return applyChanges(Base, Ptrs);
  };
  auto E = S.evaluator(Materialize);
  using Range = std::pair<std::size_t, std::size_t>;
  auto WithRange = [&](Range R) {
    Config C;
    for (std::size_t I = 0; I < N; ++I)
      if (Applied[I] || (I >= R.first && I < R.second))
        C.push_back(I);
    return C;
  };
  for (std::size_t Chunk = N; Chunk > 0 && !S.interrupted();
       Chunk = Chunk == 1 ? 0 : (Chunk + 1) / 2) {
    // The chunks of this size, in sweep order, that still hold a change not
    // applied yet.
    std::vector<Range> Ranges;
    for (std::size_t K = 0; K * Chunk < N; ++K) {
      Range R = Forward ? Range{K * Chunk, std::min(N, (K + 1) * Chunk)}
                        : Range{N - std::min(N, (K + 1) * Chunk), N - K * Chunk};
      Ranges.push_back(R);
    }
    // Ranges are disjoint, so applying one leaves the later ones as they are.
    std::vector<Range> Todo;
    for (Range R : Ranges)
      if (std::any_of(Applied.begin() + R.first, Applied.begin() + R.second,
                      [](char A) { return !A; }))
        Todo.push_back(R);
    for (std::size_t From = 0; From < Todo.size() && !S.interrupted();) {
      std::optional<std::size_t> Hit = E->firstMatch([&](std::size_t K) -> std::optional<Probe> {
        if (From + K >= Todo.size())
          return std::nullopt;
        return Probe{WithRange(Todo[From + K]), Outcome::Fail};
      });
      if (!Hit)
        break;
      Range R = Todo[From + *Hit];
      std::fill(Applied.begin() + R.first, Applied.begin() + R.second, 1);
      From += *Hit + 1;
    }
  }
}

} // namespace

int runReduce(const ReduceOptions &O) {
  std::vector<const Transformation *> Passes;
  if (O.Passes.empty()) {
    Passes = allTransformations();
  } else {
    for (const std::string &Name : O.Passes) {
      const Transformation *T = findTransformation(Name);
      if (!T) {
        std::fprintf(stderr, "sleuth reduce: unknown pass '%s' (see --list-passes)\n",
                     Name.c_str());
        return ExitUsage;
      }
      Passes.push_back(T);
    }
  }
  std::vector<const Transformation *> AstPasses;
  for (const Transformation *T : Passes)
    if (T->needsAST())
      AstPasses.push_back(T);

  Session S(O.Session);
  TestRunner::installSignalHandlers();
  if (int RC = S.start())
    return RC;

  // One parse per distinct text serves every AST pass.
  std::uint64_t ParsedHash = 0;
  std::vector<std::vector<Change>> Parsed;
  bool WarnedParse = false;
  auto Instances = [&](const Transformation *T) -> std::vector<Change> {
    if (!T->needsAST())
      return collectInstances(*T, S.best(), O.Lang);
    std::uint64_t H = contentHash(S.best());
    if (H != ParsedHash || Parsed.empty()) {
      ParsedHash = H;
      double Limit = std::max(60.0, O.Session.TimeoutSeconds);
      if (!collectInstancesIsolated(AstPasses, S.best(), O.Lang, Limit, Parsed)) {
        Parsed.assign(AstPasses.size(), {});
        if (!WarnedParse && !S.interrupted())
          S.note("clang could not parse this version (it crashed or timed "
                 "out); continuing with lexical passes");
        WarnedParse = true;
      }
    }
    auto It = std::find(AstPasses.begin(), AstPasses.end(), T);
    return Parsed[It - AstPasses.begin()];
  };

  // Only the changes that lie in the main file of a preprocessed file: the
  // bytes outside every #included region.
  auto InMainFile = [&](std::vector<Change> Changes) {
    std::vector<Token> Tokens = lexC(S.best(), O.Lang.CPlusPlus);
    SourceUnit U{S.best(), Tokens, O.Lang.CPlusPlus};
    std::vector<std::pair<std::size_t, std::size_t>> Regions = includedFileRegions(U);
    const std::size_t Bytes = S.best().size();
    std::vector<long> Delta(Bytes + 1, 0);
    for (auto [B, E] : Regions) {
      ++Delta[B];
      --Delta[E];
    }
    // Before[I]: how many of the bytes before I lie in an included region.
    std::vector<std::size_t> Before(Bytes + 1, 0);
    long Depth = 0;
    for (std::size_t I = 0; I < Bytes; ++I) {
      Depth += Delta[I];
      Before[I + 1] = Before[I] + (Depth > 0);
    }
    std::erase_if(Changes, [&](const Change &C) {
      for (const Edit &E : C.Edits) {
        std::size_t B = std::min(E.Offset, Bytes);
        std::size_t End = std::min(std::max(E.Offset + E.Length, E.Offset + 1), Bytes);
        if (Before[End] != Before[B])
          return true;
      }
      return false;
    });
    return Changes;
  };

  std::map<const Transformation *, std::size_t> Gain;
  // Runs the passes of levels 0..Last, coarse levels first, each set of
  // levels to a fixpoint.
  auto RunLevels = [&](unsigned Last, bool MainFileOnly) {
    for (unsigned MaxLevel = Declarations; MaxLevel <= Last; ++MaxLevel) {
      for (;;) {
        if (S.interrupted())
          break;
        Size RoundStart = S.bestSize();
        // Coarse levels first; within a level, the passes that removed the
        // most last time go first.
        std::vector<const Transformation *> Order;
        for (const Transformation *T : Passes)
          if (T->level() <= MaxLevel)
            Order.push_back(T);
        std::stable_sort(Order.begin(), Order.end(),
                         [&](const Transformation *A, const Transformation *B) {
                           if (A->level() != B->level())
                             return A->level() < B->level();
                           return Gain[A] > Gain[B];
                         });
        for (const Transformation *T : Order) {
          if (S.interrupted())
            break;
          S.setPass(T->name());
          std::size_t Before = S.bestSize().Tokens, Tests = S.runner().testsRun();
          double Began = monotonicSeconds();
          std::vector<Change> Changes = Instances(T);
          if (MainFileOnly)
            Changes = InMainFile(std::move(Changes));
          double Collected = monotonicSeconds();
          reduceWithChanges(S, Changes, T->largestFirst());
          Gain[T] = Before - S.bestSize().Tokens;
          if (O.Session.Verbose) {
            char Msg[256];
            std::snprintf(Msg, sizeof Msg,
                          "%spass %s: %zu instances (%.1f s to find), %zu tests, -%zu tokens, "
                          "%.1f s",
                          MainFileOnly ? "main file: " : "", T->name(), Changes.size(),
                          Collected - Began, S.runner().testsRun() - Tests, Gain[T],
                          monotonicSeconds() - Began);
            S.note(Msg);
          }
        }
        if (!(S.bestSize() < RoundStart))
          break;
      }
    }
  };

  // In a preprocessed file the crash is almost always in the main file, and
  // the headers are there only for its sake: while the main file uses them
  // nearly every header is needed, and each test compiles all of them. So
  // the main file's own code is reduced first (declarations, statements,
  // expressions); then most headers go in a few large chunks.
  {
    std::vector<Token> Tokens = lexC(S.best(), O.Lang.CPlusPlus);
    std::vector<std::pair<std::size_t, std::size_t>> Regions =
        includedFileRegions(SourceUnit{S.best(), Tokens, O.Lang.CPlusPlus});
    if (!Regions.empty()) {
      const Transformation *RemoveIncluded = findTransformation("remove-included-file");
      if (std::find(Passes.begin(), Passes.end(), RemoveIncluded) != Passes.end()) {
        // A crash on invalid code may not need the headers at all: one test
        // without any of them settles it.
        std::sort(Regions.begin(), Regions.end(), [](auto A, auto B) {
          return A.first != B.first ? A.first < B.first : A.second > B.second;
        });
        Change AllHeaders;
        std::size_t End = 0;
        for (auto [B, E] : Regions)
          if (B >= End) { // Outermost regions only; nested ones lie inside.
            AllHeaders.Edits.push_back({B, E - B, ""});
            End = E;
          }
        S.setPass(RemoveIncluded->name());
        reduceWithChanges(S, {AllHeaders}, true);
      }
      RunLevels(Expressions, /*MainFileOnly=*/true);
    }
  }
  Gain.clear(); // What paid off in the main file says little about the rest.
  RunLevels(Lexical, /*MainFileOnly=*/false);
  return S.finish();
}

//===----------------------------------------------------------------------===//
// sleuth ddmin
//===----------------------------------------------------------------------===//

int runDDMin(const SessionOptions &O) {
  Session S(O);
  TestRunner::installSignalHandlers();
  if (int RC = S.start())
    return RC;
  for (;;) {
    Size RoundStart = S.bestSize();
    for (const char *Unit : {"lines", "tokens", "bytes"}) {
      if (S.interrupted())
        break;
      S.setPass(Unit);
      std::vector<std::string> Parts;
      const std::string &Text = S.best();
      if (std::string_view(Unit) == "lines") {
        for (std::size_t B = 0; B < Text.size();) {
          std::size_t E = Text.find('\n', B);
          E = E == std::string::npos ? Text.size() : E + 1;
          Parts.push_back(Text.substr(B, E - B));
          B = E;
        }
      } else if (std::string_view(Unit) == "tokens") {
        for (const Token &T : lexText(Text))
          Parts.push_back(Text.substr(T.Offset, T.Length));
      } else {
        for (char C : Text)
          Parts.push_back(std::string(1, C));
      }
      auto E = S.evaluator([&Parts](const Config &C) {
        std::string Out;
        for (std::size_t I : C)
          Out += Parts[I];
        return Out;
      });
      try {
        deltaDebug(Parts.size(), *E, DDMode::Minimize);
      } catch (const DeltaError &) {
      }
    }
    if (S.interrupted() || !(S.bestSize() < RoundStart))
      break;
  }
  return S.finish();
}

//===----------------------------------------------------------------------===//
// sleuth dd
//===----------------------------------------------------------------------===//

namespace {

struct LineChange {
  bool Added;       ///< A line of FAILING missing from PASSING.
  std::size_t Line; ///< 1-based line in FAILING (added) or PASSING.
  std::string Text;
};

std::vector<std::pair<std::size_t, std::size_t>> lines(const std::string &T) {
  std::vector<std::pair<std::size_t, std::size_t>> L;
  for (std::size_t B = 0; B < T.size();) {
    std::size_t E = T.find('\n', B);
    E = E == std::string::npos ? T.size() : E + 1;
    L.emplace_back(B, E);
    B = E;
  }
  return L;
}

/// Line changes that turn Pass into Fail, one per deleted or added line, via
/// a longest common subsequence of lines (after trimming common ends).
void lineDiff(const std::string &Pass, const std::string &Fail, std::vector<Change> &Changes,
              std::vector<LineChange> &Info) {
  auto PL = lines(Pass), FL = lines(Fail);
  auto PText = [&](std::size_t I) {
    return std::string_view(Pass).substr(PL[I].first, PL[I].second - PL[I].first);
  };
  auto FText = [&](std::size_t I) {
    return std::string_view(Fail).substr(FL[I].first, FL[I].second - FL[I].first);
  };
  std::size_t Pre = 0;
  while (Pre < PL.size() && Pre < FL.size() && PText(Pre) == FText(Pre))
    ++Pre;
  std::size_t Suf = 0;
  while (Suf + Pre < PL.size() && Suf + Pre < FL.size() &&
         PText(PL.size() - 1 - Suf) == FText(FL.size() - 1 - Suf))
    ++Suf;
  std::size_t N = PL.size() - Pre - Suf, M = FL.size() - Pre - Suf;
  // Matched pairs (pass line, fail line) in the middle part.
  std::vector<std::pair<std::size_t, std::size_t>> Common;
  if (N && M && N * M <= 25'000'000) {
    std::vector<std::vector<unsigned>> L(N + 1, std::vector<unsigned>(M + 1));
    for (std::size_t I = N; I-- > 0;)
      for (std::size_t J = M; J-- > 0;)
        L[I][J] = PText(Pre + I) == FText(Pre + J) ? L[I + 1][J + 1] + 1
                                                   : std::max(L[I + 1][J], L[I][J + 1]);
    for (std::size_t I = 0, J = 0; I < N && J < M;) {
      if (PText(Pre + I) == FText(Pre + J)) {
        Common.emplace_back(Pre + I, Pre + J);
        ++I, ++J;
      } else if (L[I + 1][J] >= L[I][J + 1]) {
        ++I;
      } else {
        ++J;
      }
    }
  }
  Common.emplace_back(Pre + N, Pre + M); // Sentinel.
  std::size_t I = Pre, J = Pre;
  for (auto [CI, CJ] : Common) {
    for (; I < CI; ++I) {
      Changes.push_back(replaceRange(PL[I].first, PL[I].second));
      Info.push_back({false, I + 1, std::string(PText(I))});
    }
    std::size_t At = CI < PL.size() ? PL[CI].first : Pass.size();
    for (; J < CJ; ++J) {
      Change C;
      C.Edits.push_back({At, 0, std::string(FText(J))});
      Changes.push_back(std::move(C));
      Info.push_back({true, J + 1, std::string(FText(J))});
    }
    ++I, ++J;
  }
}

class DDEvaluator : public ProbeEvaluator {
public:
  DDEvaluator(TestRunner &R, std::function<std::string(const Config &)> M)
      : R(R), Materialize(std::move(M)) {}
  /// exit 0: the failure reproduces; exit 1: it does not; anything else
  /// (a timeout, a compile error signalled as 125, ...): unresolved.
  static Outcome classify(const RunResult &Res) {
    if (Res.TimedOut || Res.Interrupted)
      return Outcome::Unresolved;
    return Res.ExitCode == 0   ? Outcome::Fail
           : Res.ExitCode == 1 ? Outcome::Pass
                               : Outcome::Unresolved;
  }
  Outcome test(const Config &C) override { return classify(R.run(Materialize(C))); }
  std::optional<std::size_t> firstMatch(const ProbeSource &Next) override {
    return R.firstMatch([&](std::size_t I) -> std::optional<TestRunner::Candidate> {
      std::optional<Probe> P = Next(I);
      if (!P)
        return std::nullopt;
      Outcome Wanted = P->Wanted;
      return TestRunner::Candidate{
          Materialize(P->Candidate),
          [Wanted](const RunResult &Res) { return classify(Res) == Wanted; }, std::nullopt};
    });
  }

private:
  TestRunner &R;
  std::function<std::string(const Config &)> Materialize;
};

} // namespace

int runDD(const SessionOptions &O, const std::string &PassingPath, const std::string &FailingPath,
          std::FILE *Out) {
  if (!checkScript(O.Command, O.Script))
    return ExitBadInput;
  std::string Pass, Fail, Err;
  for (auto [Path, Text] : {std::pair{&PassingPath, &Pass}, std::pair{&FailingPath, &Fail}})
    if (!readFile(*Path, *Text, Err)) {
      std::fprintf(stderr, "sleuth dd: cannot read '%s': %s\n", Path->c_str(), Err.c_str());
      return ExitBadInput;
    }
  SessionOptions SO = O;
  SO.File = FailingPath;
  TestRunner Runner(runnerOptions(SO));
  if (!Runner.prepare(Err)) {
    std::fprintf(stderr, "sleuth dd: %s\n", Err.c_str());
    return ExitBadInput;
  }
  TestRunner::installSignalHandlers();

  std::vector<Change> Changes;
  std::vector<LineChange> Info;
  lineDiff(Pass, Fail, Changes, Info);
  auto Materialize = [&](const Config &Applied) {
    std::vector<const Change *> Apply;
    for (std::size_t I : Applied)
      Apply.push_back(&Changes[I]);
    return applyChanges(Pass, Apply);
  };
  DDEvaluator E(Runner, Materialize);
  for (auto [Path, Text, Want] : {std::tuple{&PassingPath, &Pass, Outcome::Pass},
                                  std::tuple{&FailingPath, &Fail, Outcome::Fail}}) {
    RunResult R = Runner.run(*Text);
    if (R.Interrupted)
      return ExitInterrupted;
    if (DDEvaluator::classify(R) != Want) {
      std::fprintf(stderr,
                   "sleuth dd: the test script %s on '%s'; expected exit %d "
                   "(%s)\n",
                   describeExit(R, O.TimeoutSeconds).c_str(), Path->c_str(),
                   Want == Outcome::Pass ? 1 : 0, Want == Outcome::Pass ? "passes" : "fails");
      return ExitBadInput;
    }
  }
  if (Changes.empty()) {
    std::fprintf(stderr, "sleuth dd: the files are identical\n");
    return ExitBadInput;
  }
  DDConfigs R;
  try {
    R = deltaDebug(Changes.size(), E, DDMode::Both);
  } catch (const DeltaError &Ex) {
    std::fprintf(stderr, "sleuth dd: %s\n", Ex.what());
    return ExitBadInput;
  }
  if (TestRunner::stopRequested()) {
    std::fprintf(stderr, "sleuth dd: interrupted\n");
    return ExitInterrupted;
  }
  std::fprintf(Out, "%zu of %zu changed lines make the difference (%zu tests):\n",
               R.Difference.size(), Changes.size(), Runner.testsRun());
  for (std::size_t I : R.Difference) {
    const LineChange &C = Info[I];
    std::string Text = C.Text;
    if (!Text.empty() && Text.back() == '\n')
      Text.pop_back();
    std::fprintf(Out, "%c %s:%zu: %s\n", C.Added ? '+' : '-',
                 (C.Added ? FailingPath : PassingPath).c_str(), C.Line, Text.c_str());
  }
  return ExitOk;
}

} // namespace sleuth::reducer
