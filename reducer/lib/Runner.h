//===- Runner.h - Running the interestingness test --------------*- C++ -*-===//
//
// C-Reduce's convention: the test script runs in a scratch directory that
// holds the candidate under the file's own name, and exit status 0 means
// "still interesting". Each parallel job owns one scratch directory; each test
// runs in its own process group so a timeout or Ctrl-C can kill everything the
// script started. Results are cached by a hash of the candidate's content.
//
// Besides the test script, a candidate may have to pass validity commands
// (shell commands run the same way, e.g. a reference compiler's syntax check):
// the checks run one after the other in the candidate's slot, in the order
// CheckOrder learns, and each check's verdict is cached on its own, so a
// candidate whose test was stopped still keeps the verdict of its validity check.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "CheckOrder.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

namespace sleuth::reducer {

struct RunResult {
  int ExitCode = -1; ///< Exit status, or -1 if killed by a signal.
  bool TimedOut = false;
  bool Interrupted = false; ///< Stopped by SIGINT/SIGTERM, no verdict.
  /// The check whose verdict this is: 0 the test script, I > 0 validity command I.
  std::size_t Check = 0;
  bool interesting() const { return ExitCode == 0 && !TimedOut && !Interrupted; }
};

struct RunnerOptions {
  std::string Script;   ///< Path to the executable test script.
  std::string FileName; ///< Name the candidate is written under.
  unsigned Jobs = 1;
  double TimeoutSeconds = 300;
  /// Shell commands (`/bin/sh -c`) every candidate must also pass with exit 0,
  /// run like the script in a scratch directory that holds the candidate.
  std::vector<std::string> ValidityCommands;
  /// Several files: each candidate is a bundle (encodeFiles) of their texts,
  /// written under these paths relative to the scratch directory.
  std::vector<std::string> FilePaths;
};

class TestRunner {
public:
  explicit TestRunner(RunnerOptions Opts);
  ~TestRunner();
  TestRunner(const TestRunner &) = delete;
  TestRunner &operator=(const TestRunner &) = delete;

  /// Creates the scratch directories; on failure returns false and sets Err.
  bool prepare(std::string &Err);

  /// Runs every check on Content until one rejects it (from the cache unless
  /// UseCache is false).
  RunResult run(const std::string &Content, bool UseCache = true);

  /// Runs check Check (0: the test script) Times times on Content, up to Jobs
  /// at once, without the cache: does the check give the same verdict every
  /// time? Stopped early by SIGINT/SIGTERM, the last result is Interrupted.
  std::vector<RunResult> repeat(const std::string &Content, std::size_t Check, unsigned Times);

  struct Candidate {
    std::string Content;
    /// Whether a result answers the caller's question with "yes".
    std::function<bool(const RunResult &)> Matches;
    /// A verdict known without running the test (no process is started).
    std::optional<RunResult> Known;
  };
  /// Tests candidates produced by Next(0), Next(1), ... up to Jobs at a time
  /// and returns the index of the first (in generation order) that matches.
  /// Tests still running when the answer is known are killed.
  std::optional<std::size_t>
  firstMatch(const std::function<std::optional<Candidate>(std::size_t)> &Next);

  /// Runs of the test script started (also those killed when their answer was not needed).
  std::size_t testsRun() const { return Launched[0]; }
  /// Runs of check Check started (0: the test script).
  std::size_t checkRuns(std::size_t Check) const { return Launched[Check]; }
  /// Candidates check Check rejected (each is run once per candidate, as the
  /// cache remembers its verdict).
  std::size_t checkRejections(std::size_t Check) const { return Order.rejections(Check); }
  /// The test script and the validity commands.
  std::size_t checks() const { return Launched.size(); }
  const CheckOrder &order() const { return Order; }
  /// Questions answered by the cache instead of the test script.
  std::size_t cacheHits() const { return CacheHits; }
  std::size_t timeouts() const { return Timeouts; }
  const std::string &scratchRoot() const { return Root; }

  /// Called about every 100 ms while tests run (for progress output).
  std::function<void()> OnTick;

  /// SIGINT and SIGTERM set a flag that makes running tests stop.
  static void installSignalHandlers();
  static bool stopRequested();
  static void requestStop();
  static void clearStop();

private:
  struct Slot {
    int Pid = -1;
    std::size_t Index = 0;
    std::uint64_t Hash = 0;
    double Started = 0;
    std::size_t Check = 0;         ///< The check running.
    bool RanFirst = false;         ///< No other check had judged the candidate.
    std::vector<std::size_t> Then; ///< Checks still to run if this one passes.
  };
  /// Starts check Check on Content in slot SlotNo's fresh scratch directory.
  bool launch(Slot &S, unsigned SlotNo, const std::string &Content, std::size_t Check);
  /// Starts the first of Checks; false (with Failed set) if it cannot be started.
  bool launchChecks(Slot &S, unsigned SlotNo, const std::string &Content,
                    std::vector<std::size_t> Checks, RunResult &Failed);
  /// Polls one running slot; returns a result once the process is gone.
  std::optional<RunResult> poll(Slot &S);
  /// Between two rounds of polling: the progress callback at most every 0.1 s, and a short
  /// sleep if the round made no progress.
  void tick(bool Progress);
  void kill(Slot &S);
  /// The cached verdict of Hash, or nothing and the checks left to run.
  std::optional<RunResult> cached(std::uint64_t Hash, std::vector<std::size_t> &ToRun) const;

  RunnerOptions Opts;
  std::string Root;
  /// Per check: verdicts by content hash.
  std::vector<std::unordered_map<std::uint64_t, RunResult>> Cache;
  std::vector<std::size_t> Launched; ///< Per check: processes started.
  CheckOrder Order;
  std::size_t CacheHits = 0, Timeouts = 0;
  double LastTick = 0;
};

/// The processors this process may run on (its CPU affinity, which `taskset`
/// and container limits narrow), at least 1.
unsigned processorCount();

/// Seconds on a monotonic clock.
double monotonicSeconds();

/// 64-bit content hash used by the cache.
std::uint64_t contentHash(const std::string &Content);

} // namespace sleuth::reducer
