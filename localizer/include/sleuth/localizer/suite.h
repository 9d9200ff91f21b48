// Test suites: reading them (a file of shell commands, or ctest), running them
// in parallel on a coverage build, and keeping one spectrum per test.
#pragma once

#include "sleuth/localizer/coverage.h"

#include <optional>
#include <regex>
#include <string>
#include <utility>
#include <vector>

namespace sleuth::localizer {

struct TestCase {
  std::string Name;
  std::string Origin; ///< For messages: "tests.txt:3", "ctest test 'foo'".
  /// Either a shell command (run by /bin/sh -c) or an argument vector.
  std::string Shell;
  std::vector<std::string> Argv;
  std::string Directory; ///< Working directory (absolute).
  std::vector<std::pair<std::string, std::string>> Environment;
  int ExpectedExit = 0;
  std::string ExpectedStdout; ///< A file whose content stdout must equal; "" = not checked.
  bool WillFail = false;      ///< ctest's WILL_FAIL: pass and fail swap.
  std::vector<std::string> PassRegex, FailRegex; ///< ctest's regular expressions on the output.
  double Timeout = 0;                            ///< Seconds; 0 = the suite's default.

  /// The command as shown to users.
  std::string commandLine() const;
};

enum class Verdict { Passed, Failed, Crashed, TimedOut };

/// "PASS", "FAIL", "CRASH", "TIMEOUT".
std::string_view verdictName(Verdict V);

struct TestResult {
  Verdict Outcome = Verdict::Passed;
  std::string Detail; ///< Why it failed: "exit 1, expected 0", "killed by SIGSEGV", ...
  double Seconds = 0;
  std::string Spectrum;     ///< The test's merged coverage file ("" if it left none).
  std::string Dependences;  ///< The test's dependence file ("" if it left none).
  std::string RecordedPath; ///< The test's recorded path (SLEUTH_PATH=1 builds; "" if none).
  std::string Fingerprint;  ///< What the run depended on (for --incremental).
  bool Reused = false;      ///< Taken from an earlier run (inputs unchanged).
  bool failed() const { return Outcome != Verdict::Passed; }
};

/// Reads a tests file (one test per line; see docs/localizer.md). On failure
/// returns false and sets Error to `FILE:LINE: what is wrong`.
bool readTestsFile(const std::string &Path, std::vector<TestCase> &Tests, std::string &Error);

/// Lists the tests ctest knows in BuildDir (`ctest --show-only=json-v1`),
/// those matching Regex if given.
bool listCtestTests(const std::string &BuildDir, const std::string &Regex,
                    std::vector<TestCase> &Tests, std::string &Error);

struct RunOptions {
  unsigned Jobs = 1;
  double Timeout = 60;      ///< Seconds per test unless the test says otherwise.
  std::string Store;        ///< Directory of the spectra (created).
  bool Incremental = false; ///< Reuse results of tests whose inputs did not change.
  bool Verbose = false;     ///< One line per test on stderr (failures are always shown).
  bool Quiet = false;       ///< No line at all (reruns against mutants).
};

/// Runs the tests and stores their spectra under Options.Store (layout in
/// docs/localizer.md), then the manifest `suite.json`. Fails (one line in
/// Error) when a test command cannot start or the store cannot be written.
bool runSuite(const std::vector<TestCase> &Tests, const RunOptions &Options,
              std::vector<TestResult> &Results, std::string &Error);

/// Reads a store's manifest (written by runSuite).
bool readStore(const std::string &Store, std::vector<TestCase> &Tests,
               std::vector<TestResult> &Results, std::string &Error);

/// Adds up the coverage files of one test (several processes) into one file,
/// as the format's "localizer adds them up". Fails on files of different
/// builds of one source.
std::optional<CoverageFile> mergeCoverageFiles(const std::vector<std::string> &Paths,
                                               std::string &Error);

/// The coverage files (*.cov) in Directory, sorted.
std::vector<std::string> coverageFilesIn(const std::string &Directory);

/// Writes Text to Path through a temporary file and a rename.
bool writeFileAtomically(const std::string &Path, const std::string &Text, std::string &Error);

/// The name of signal Number ("SIGSEGV"), or "signal N".
std::string signalName(int Number);

} // namespace sleuth::localizer
