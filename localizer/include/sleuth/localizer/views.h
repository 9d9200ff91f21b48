// Presentations of a ranking: the ranked list, the event table and colored
// source for the terminal; a self-contained HTML report; CSV, JSON and SARIF.
// Each returns the complete text so callers can write it atomically.
#pragma once

#include "sleuth/localizer/ranking.h"
#include "sleuth/localizer/suite.h"

#include <string>
#include <vector>

namespace sleuth::localizer {

struct TestInfo {
  std::string Name;
  std::string Command;
  Verdict Outcome = Verdict::Passed;
  std::string Detail;
  double Seconds = 0;
};

/// Everything a view shows.
struct Report {
  const SuiteSpectra *Suite = nullptr;
  std::vector<TestInfo> Tests; ///< Parallel to Suite->Spectra.
  Ranking Result;
  /// The lines of each source of the program (empty when unreadable).
  std::vector<std::vector<std::string>> SourceLines;
};

struct ViewOptions {
  bool Color = false;  ///< ANSI 24-bit colors.
  std::size_t Top = 0; ///< Show only the first Top ranked events (0: all).
};

/// Reads each source of the program; unreadable ones are reported in Warnings
/// (one line each) and left empty.
std::vector<std::vector<std::string>> readSources(const Program &P,
                                                  std::vector<std::string> *Warnings);

/// `rank  score  failed  passed  file:line  source`, most suspicious first; ties as "2-4"; a
/// line whose rank among equal scores a predicate decided names it.
std::string rankedListView(const Report &R, const ViewOptions &Options);

/// The Debugging Book's event table: one row per event, one column per test,
/// `X` where the test showed the event, rows colored by suspiciousness.
std::string eventTableView(const Report &R, const ViewOptions &Options);

/// The executed functions' source, each line prefixed with its score and
/// colored on a continuous red (suspicious) to green (innocent) spectrum.
std::string sourceView(const Report &R, const ViewOptions &Options);

/// One HTML page with inline style: tests and outcomes, the ranking, colored
/// source per file and the event table.
std::string htmlReport(const Report &R);

/// One row per ranked event with its counts and the score of every formula.
std::string csvExport(const Report &R);

/// `{"version":1,"technique",...,"tests":[...],"events":[...]}`
std::string jsonExport(const Report &R);

/// SARIF 2.1.0 with the Top most suspicious events as results.
std::string sarifExport(const Report &R, std::size_t Top);

} // namespace sleuth::localizer
