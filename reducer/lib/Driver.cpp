//===- Driver.cpp - Reduction sessions: reduce, ddmin, dd -----------------===//
#include "Driver.h"
#include "FileSet.h"

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
  R.FilePaths = O.Files;
  R.Jobs = O.Jobs;
  R.TimeoutSeconds = O.TimeoutSeconds;
  R.ValidityCommands = O.ValidityCommands;
  return R;
}

Session::Session(SessionOptions O) : Opts(std::move(O)), Runner(runnerOptions(Opts)) {
  Runner.OnTick = [this] { progress(false); };
}

Session::~Session() = default;

Size Session::textSize(const std::string &Text) const {
  std::size_t Tokens = Opts.CTokens ? lexC(Text, Opts.CPlusPlus).size() : lexText(Text).size();
  return {Tokens, Text.size()};
}

Size Session::sizeOf(const std::string &Text) const {
  if (!multiFile())
    return textSize(Text);
  if (Focus != AllFiles) {
    Size Own = textSize(Text);
    return {BestSize.Tokens - TextSizes[Focus].Tokens + Own.Tokens,
            BestSize.Bytes - TextSizes[Focus].Bytes + Own.Bytes};
  }
  std::vector<std::string> Set;
  Size Total;
  if (decodeFiles(Text, Set))
    for (const std::string &T : Set) {
      Size S = textSize(T);
      Total.Tokens += S.Tokens;
      Total.Bytes += S.Bytes;
    }
  return Total;
}

std::string Session::candidate(const std::string &Text) const {
  if (!multiFile() || Focus == AllFiles)
    return Text;
  std::vector<std::string> Set = Texts;
  Set[Focus] = Text;
  return encodeFiles(Set);
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

bool Session::readOriginal() {
  std::string Err;
  if (!multiFile()) {
    if (readFile(Opts.File, Original, Err))
      return true;
    note("cannot read '" + Opts.File + "': " + Err);
    return false;
  }
  OriginalTexts.resize(Opts.Files.size());
  for (std::size_t F = 0; F < Opts.Files.size(); ++F)
    if (!readFile(Opts.Files[F], OriginalTexts[F], Err)) {
      note("cannot read '" + Opts.Files[F] + "': " + Err);
      return false;
    }
  Texts = OriginalTexts;
  for (const std::string &T : Texts)
    TextSizes.push_back(textSize(T));
  Original = encodeFiles(OriginalTexts);
  return true;
}

bool Session::writeBackups() {
  std::vector<std::pair<std::string, const std::string *>> Backups;
  if (multiFile())
    for (std::size_t F = 0; F < Opts.Files.size(); ++F)
      Backups.emplace_back(Opts.Files[F], &OriginalTexts[F]);
  else
    Backups.emplace_back(Opts.File, &Original);
  for (auto [File, Text] : Backups) {
    std::string Orig = File + ".orig";
    if (fs::exists(Orig)) {
      note("keeping the existing '" + Orig + "'");
    } else if (!writeAtomically(Orig, *Text)) {
      note("cannot write '" + Orig + "'; not reducing without a backup");
      return false;
    }
  }
  return true;
}

std::string Session::describeFiles() const {
  if (!multiFile())
    return "is in '" + Opts.File + "', the original in '" + Opts.File + ".orig'";
  return "is in the " + std::to_string(Opts.Files.size()) +
         " files, their originals in FILE.orig beside each ('" + Opts.Files.front() +
         ".orig', ...)";
}

int Session::start() {
  Started = monotonicSeconds();
  if (!checkScript(Opts.Command, Opts.Script))
    return ExitBadInput;
  if (!readOriginal())
    return ExitBadInput;
  std::string Err;
  if (!Runner.prepare(Err)) {
    note(Err);
    return ExitBadInput;
  }
  Best = Original;
  Focus = AllFiles;
  OriginalSize = BestSize = sizeOf(Original);
  Pass = "original";
  RunResult R = Runner.run(Original);
  if (R.Interrupted)
    return ExitInterrupted;
  if (!R.interesting() && R.Check == 0) {
    note("the test script " + describeExit(R, Opts.TimeoutSeconds) +
         (multiFile() ? " on the original files" : " on the original file") +
         "; nothing to reduce");
    return ExitBadInput;
  }
  if (!R.interesting()) {
    note(describeCheck(R.Check) + " " + describeExit(R, Opts.TimeoutSeconds) +
         (multiFile() ? " on the original files" : " on the original file") +
         "; it must accept the original");
    return ExitBadInput;
  }
  if (int RC = checkNotFlaky())
    return RC;
  if (!writeBackups())
    return ExitBadInput;
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
  if (!multiFile()) {
    Best = Text;
    BestSize = sizeOf(Text);
    if (!writeAtomically(Opts.File, Best))
      note("warning: cannot write '" + Opts.File + "': " + std::strerror(errno));
    progress(false);
    return;
  }
  std::vector<std::string> Set;
  if (Focus == AllFiles) {
    if (!decodeFiles(Text, Set) || Set.size() != Texts.size())
      return;
  } else {
    Set = Texts;
    Set[Focus] = Text;
  }
  BestSize = sizeOf(Text);
  // Each changed file is renamed into place on its own; SIGINT only sets a
  // flag, so all of them are written before the run stops.
  for (std::size_t F = 0; F < Set.size(); ++F) {
    if (Set[F] == Texts[F])
      continue;
    Texts[F] = std::move(Set[F]);
    TextSizes[F] = textSize(Texts[F]);
    if (!writeAtomically(Opts.Files[F], Texts[F]))
      note("warning: cannot write '" + Opts.Files[F] + "': " + std::strerror(errno));
  }
  Best = encodeFiles(Texts);
  progress(false);
}

int Session::finish() {
  progress(true);
  if (interrupted()) {
    note("interrupted; the best result so far (" + withCommas(BestSize.Tokens) + " tokens, " +
         withCommas(BestSize.Bytes) + " bytes) " + describeFiles());
    return ExitInterrupted;
  }
  Focus = AllFiles;
  if (Best != Original) {
    // A result that stops being interesting means the test is flaky; say so
    // rather than leave the user with a file that does not reproduce.
    RunResult R = Runner.run(Best, /*UseCache=*/false);
    if (R.Interrupted)
      return ExitInterrupted;
    if (!R.interesting()) {
      note(describeCheck(R.Check) + " is flaky: it exited 0 on the result before, and now it " +
           describeExit(R, Opts.TimeoutSeconds) + "; " +
           (multiFile()
                ? "that result " + describeFiles()
                : "'" + Opts.File + "' holds that result, '" + Opts.File + ".orig' the original"));
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
       (Best == Original ? (multiFile() ? "; the files are unchanged" : "; the file is unchanged")
                         : ""));
  return ExitOk;
}

namespace {

/// Delta debugging's questions answered by the test script. In reduction
/// mode only candidates smaller than the best so far are worth a test, and
/// an interesting one becomes the new best at once.
class SessionEvaluator : public ProbeEvaluator {
public:
  SessionEvaluator(Session &S, std::function<std::string(const Config &)> Materialize,
                   bool AllowSameTokens)
      : S(S), Materialize(std::move(Materialize)), AllowSameTokens(AllowSameTokens) {}

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
    Size Candidate = S.sizeOf(Text);
    if (AllowSameTokens ? S.bestSize().Tokens < Candidate.Tokens : !(Candidate < S.bestSize())) {
      R.ExitCode = -2; // Not a reduction: no need to ask.
      return R;
    }
    return std::nullopt;
  }

  Outcome test(const Config &C) override {
    std::string Text = Materialize(C);
    if (std::optional<RunResult> K = known(Text))
      return classify(*K);
    Outcome O = classify(S.runner().run(S.candidate(Text)));
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
          std::string Text = Materialize(P->Candidate);
          C.Known = known(Text);
          C.Content = S.candidate(Text);
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
  bool AllowSameTokens;
};

} // namespace

std::unique_ptr<ProbeEvaluator>
Session::evaluator(std::function<std::string(const Config &)> Materialize, bool AllowSameTokens) {
  return std::make_unique<SessionEvaluator>(*this, std::move(Materialize), AllowSameTokens);
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
