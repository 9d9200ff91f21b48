//===- Runner.h - Running the interestingness test --------------*- C++ -*-===//
//
// C-Reduce's convention: the test script runs in a scratch directory that
// holds the candidate under the file's own name, and exit status 0 means
// "still interesting". Each parallel job owns one scratch directory; each test
// runs in its own process group so a timeout or Ctrl-C can kill everything the
// script started. Results are cached by a hash of the candidate's content.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <unordered_map>

namespace sleuth::reducer {

struct RunResult {
  int ExitCode = -1; ///< Exit status, or -1 if killed by a signal.
  bool TimedOut = false;
  bool Interrupted = false; ///< Stopped by SIGINT/SIGTERM, no verdict.
  bool interesting() const { return ExitCode == 0 && !TimedOut && !Interrupted; }
};

struct RunnerOptions {
  std::string Script;   ///< Path to the executable test script.
  std::string FileName; ///< Name the candidate is written under.
  unsigned Jobs = 1;
  double TimeoutSeconds = 300;
};

class TestRunner {
public:
  explicit TestRunner(RunnerOptions Opts);
  ~TestRunner();
  TestRunner(const TestRunner &) = delete;
  TestRunner &operator=(const TestRunner &) = delete;

  /// Creates the scratch directories; on failure returns false and sets Err.
  bool prepare(std::string &Err);

  /// Runs the test once on Content (from the cache unless UseCache is false).
  RunResult run(const std::string &Content, bool UseCache = true);

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
  std::size_t testsRun() const { return TestsRun; }
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
  };
  bool launch(Slot &S, unsigned SlotNo, const std::string &Content);
  /// Polls one running slot; returns a result once the process is gone.
  std::optional<RunResult> poll(Slot &S);
  void kill(Slot &S);

  RunnerOptions Opts;
  std::string Root;
  std::unordered_map<std::uint64_t, RunResult> Cache;
  std::size_t TestsRun = 0, CacheHits = 0, Timeouts = 0;
  double LastTick = 0;
};

/// Seconds on a monotonic clock.
double monotonicSeconds();

/// 64-bit content hash used by the cache.
std::uint64_t contentHash(const std::string &Content);

} // namespace sleuth::reducer
