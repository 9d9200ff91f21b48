//===- Driver.h - Reduction sessions behind the CLI -------------*- C++ -*-===//
#pragma once

#include "Runner.h"
#include "Tokens.h"
#include "Transformation.h"

#include "sleuth/reducer/delta.h"

#include <cstdio>
#include <string>
#include <vector>

namespace sleuth::reducer {

/// Exit codes shared by `sleuth reduce`, `ddmin` and `dd`.
enum ExitCode : int {
  ExitOk = 0,
  ExitBadInput = 1, ///< Script or file unusable, original not interesting.
  ExitUsage = 2,
  ExitFlaky = 3, ///< The test gives different verdicts on the same file.
  ExitInterrupted = 130
};

struct SessionOptions {
  std::string Command = "reduce"; ///< For messages: "sleuth <Command>: ...".
  std::string Script;
  std::string File;
  /// Several files (`sleuth reduce TEST FILE...`): their paths relative to the
  /// current directory, which is the base of the scratch directories' copies.
  /// Empty: the one File.
  std::vector<std::string> Files;
  unsigned Jobs = 1;
  double TimeoutSeconds = 300;
  /// Count tokens as C/C++ (Clang's lexer) or as plain text.
  bool CTokens = true;
  bool CPlusPlus = true;
  bool Verbose = false;
  std::FILE *Log = stderr;
  /// Shell commands every candidate must also pass (`--valid-with`).
  std::vector<std::string> ValidityCommands;
  /// Runs of the test on the original before reducing; a test that is not
  /// interesting in all of them is flaky (1: no check).
  unsigned OriginalRuns = 3;
  /// Reduce even if the test is flaky on the original (after a warning).
  bool AllowFlaky = false;
};

/// One reduction of one file or of a set of files: owns the runner, the
/// best result so far and its copy on disk, and the progress line.
///
/// With several files the passes work on one file at a time, the focus, with
/// the others held at their best: best(), sizeOf() and accept() then speak of
/// the focused file's text, and candidate() turns it into the runner's bundle
/// of the whole set. With the focus on AllFiles they speak of bundles.
class Session {
public:
  static constexpr std::size_t AllFiles = ~std::size_t(0);

  explicit Session(SessionOptions Opts);
  ~Session();

  /// Checks the script and the file, tests the original and saves
  /// FILE.orig. Returns ExitOk, or an exit code after printing why not.
  int start();
  /// Verifies the result once more, prints the summary, returns the exit code.
  int finish();

  /// The best text of the focus (single-file mode: of the file).
  const std::string &best() const {
    return !multiFile() || Focus == AllFiles ? Best : Texts[Focus];
  }
  /// The size of the whole set.
  Size bestSize() const { return BestSize; }
  /// The size of the whole set with Text as the focus.
  Size sizeOf(const std::string &Text) const;
  /// What the runner tests for Text as the focus.
  std::string candidate(const std::string &Text) const;

  bool multiFile() const { return !Opts.Files.empty(); }
  void setFocus(std::size_t File) { Focus = File; }
  /// The best texts of the files (multi-file mode), in the order of Opts.Files.
  const std::vector<std::string> &files() const { return Texts; }
  TestRunner &runner() { return Runner; }
  bool interrupted() const { return TestRunner::stopRequested(); }

  /// Makes Text (as the focus) the best result and writes it to FILE, or
  /// each file it changes, atomically.
  void accept(const std::string &Text);
  void setPass(std::string Name) {
    Pass = std::move(Name);
    progress(false);
  }
  void progress(bool Force);
  void note(const std::string &Message);

  /// An evaluator for delta debugging whose configurations Materialize to
  /// texts; interesting candidates smaller than the best are accepted, or
  /// with AllowSameTokens also those with as many tokens (for passes that
  /// only move text, and move it one way, so that they cannot cycle).
  std::unique_ptr<ProbeEvaluator> evaluator(std::function<std::string(const Config &)> Materialize,
                                            bool AllowSameTokens = false);

  const SessionOptions &options() const { return Opts; }

private:
  bool writeAtomically(const std::string &Path, const std::string &Text);
  /// "the test script" or "the validity command 'CMD'", for messages.
  std::string describeCheck(std::size_t Check) const;
  /// Runs the test on the original again: ExitOk, or after a message the exit
  /// code for a flaky test.
  int checkNotFlaky();

  /// Reads the file or files; the original as the runner sees it.
  bool readOriginal();
  /// Writes FILE.orig for each file that has none yet.
  bool writeBackups();
  /// Where the result is, for the final messages.
  std::string describeFiles() const;
  Size textSize(const std::string &Text) const;

  SessionOptions Opts;
  TestRunner Runner;
  /// As the runner sees them: the text, or the bundle of every file.
  std::string Original, Best;
  Size OriginalSize, BestSize;
  /// Multi-file mode: the best text of each file, its size, its original.
  std::vector<std::string> Texts, OriginalTexts;
  std::vector<Size> TextSizes;
  std::size_t Focus = AllFiles;
  std::string Pass;
  double Started = 0, LastProgress = 0;
  bool ProgressShown = false;
};

/// Checks that Script exists and is executable; prints why not.
bool checkScript(const std::string &Command, const std::string &Script);

struct ReduceOptions {
  SessionOptions Session;
  LanguageOptions Lang;
  std::vector<std::string> Passes; ///< Empty: all, in the default order.
  /// More directories for the parse of each file of a set (`--include-dir`).
  std::vector<std::string> IncludeDirs;
};
/// `sleuth reduce`: AST and lexical passes to a fixpoint; with several files
/// also the cross-file passes (Reduce.cpp).
int runReduce(const ReduceOptions &Opts);

/// `sleuth ddmin`: ddmin by lines, then tokens, then bytes.
int runDDMin(const SessionOptions &Opts);

/// `sleuth dd`: the minimal failure-inducing difference between two files.
int runDD(const SessionOptions &Opts, const std::string &Passing, const std::string &Failing,
          std::FILE *Out);

} // namespace sleuth::reducer
