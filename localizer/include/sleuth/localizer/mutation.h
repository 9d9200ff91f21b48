// Mutation-based localization (Metallaxis-FL: Papadakis and Le Traon, STVR 2015): mutate the
// lines that failing tests executed, rerun the tests against each mutant, and score a line by
// how well its mutants' effect on the outcomes matches the failures.
//
// The mutants come from a mutant schemata (`sleuth mutate --schemata`): the suite's program is
// a coverage build of the schemata, whose runs are the original program while SLEUTH_MUTANT is
// unset, and mutant N with SLEUTH_MUTANT=N. Its coverage is mapped back onto the original
// source, so that the spectra and the views show the file as written.
#pragma once

#include "sleuth/localizer/coverage.h"
#include "sleuth/localizer/ranking.h"
#include "sleuth/localizer/suite.h"

#include <cstddef>
#include <map>
#include <string>
#include <vector>

namespace sleuth::localizer {

/// The manifest `OUT.json` of `sleuth mutate --schemata OUT FILE`.
struct SchemataManifest {
  struct Mutant {
    unsigned Id = 0;
    unsigned Line = 0; ///< In the original file.
    std::string Operator, Original, Replacement;
  };
  std::string Source;   ///< The original file, absolute.
  std::string Schemata; ///< The schemata source, absolute (the manifest's path without .json).
  std::string Variable = "SLEUTH_MUTANT";
  unsigned PreludeLines = 0; ///< Line L of Source is line L + PreludeLines of Schemata.
  /// The content hash of the schemata text the manifest describes (sleuth/slicer/source_hash.h);
  /// empty in manifests that predate it.
  std::string SchemataHash;
  std::vector<Mutant> Mutants;
};

/// Reads a schemata manifest. On failure returns false and sets Error to one line naming the
/// file.
/// Fails when the schemata file beside it holds another text than the manifest describes (the
/// two are written one after the other, and either may be newer).
bool readSchemataManifest(const std::string &Path, SchemataManifest &Manifest, std::string &Error);

/// How a coverage file relates to the schemata of a manifest.
enum class SchemataMatch {
  None,        ///< It names no file at the schemata's path.
  Mapped,      ///< It does, and its records now describe the original source.
  OtherVersion ///< It does, but from a build of another schemata text; nothing was changed.
};

/// Rewrites the records of Cov that belong to the schemata so that they describe the original
/// source: its path, its line numbers, without the prelude's function.
SchemataMatch mapSchemataCoverage(CoverageFile &Cov, const SchemataManifest &Manifest);

/// Metallaxis-FL's score of one mutant, Ochiai on mutant kills: the failing tests whose
/// outcome it changed / sqrt(all failing tests x (changed failing + changed passing)); 0 when
/// it changed nothing.
double metallaxisScore(std::size_t ChangedFailing, std::size_t ChangedPassing, std::size_t Failing);

/// How one mutant changed the tests run against it.
struct MutantOutcome {
  unsigned Line = 0;                                  ///< The mutant's line in the original file.
  std::size_t ChangedFailing = 0, ChangedPassing = 0; ///< Outcome changed (outcomeChanged).
  std::size_t FailToPass = 0, PassToFail = 0;         ///< Verdict flipped.
};

/// How lines are scored from their mutants' outcomes.
enum class MutationTechnique {
  /// Metallaxis-FL: the line's best mutant by metallaxisScore.
  Metallaxis,
  /// MUSE (Moon, Kim, Kim and Yoo, ICST 2014): 1/(mutants + 1) x the sum over the line's
  /// mutants of FailToPass/(f2p + 1) - PassToFail/(p2f + 1), where f2p and p2f are the totals
  /// over all mutants run: a line is suspicious when its mutants make failing tests pass and
  /// rarely make passing tests fail.
  Muse,
};

/// The score of each line with at least one mutant in Outcomes; Failing is the number of
/// failing tests of the suite.
std::map<unsigned, double> lineScores(const std::vector<MutantOutcome> &Outcomes,
                                      MutationTechnique Technique, std::size_t Failing);

/// Whether a test's outcome differs between two runs: verdict, the oracle's reason (exit
/// status, first differing line) or the standard output.
bool outcomeChanged(const TestResult &Original, const std::string &OriginalStdout,
                    const TestResult &Mutant, const std::string &MutantStdout);

struct MutationOptions {
  double Budget = 300;               ///< Seconds for all mutant runs.
  std::size_t PassingPerMutant = 20; ///< Passing tests run per mutant (a sample).
  RunOptions Run;                    ///< As for the suite; Store gets a `mutants/` scratch.
  /// The order in which lines get their mutants run (most suspicious first, round robin: each
  /// line one mutant before any line a second), so that a budget cut keeps the lines that
  /// matter: the spectrum scores of the line events.
  const Ranking *Order = nullptr;
  MutationTechnique Technique = MutationTechnique::Metallaxis;
};

/// What the mutant runs covered, for the user to judge the ranking.
struct MutationSummary {
  std::size_t Available = 0;   ///< Mutants on lines executed by failing tests.
  std::size_t Run = 0;         ///< Mutants run within the budget.
  std::size_t Lines = 0;       ///< Lines executed by failing tests.
  std::size_t LinesScored = 0; ///< Of those, lines with at least one mutant run.
  std::size_t TestRuns = 0;    ///< Test runs against mutants.
  std::size_t PassingRuns = 0; ///< Of those, runs of passing tests.
  double Seconds = 0;
  bool BudgetSpent = false;
};

/// Ranks the line events of Suite by Options.Technique: each mutant of Manifest on a line that a
/// failing test executed runs the failing tests that executed its line and a sample of the
/// passing ones that did, with SLEUTH_MUTANT set; lineScores() scores the lines (0 without a
/// mutant run). Tests that did not execute a mutant's line cannot
/// see it and are not run. Fails (Error) when a test cannot start.
bool rankByMutants(const std::vector<TestCase> &Tests, const std::vector<TestResult> &Results,
                   const SuiteSpectra &Suite, const SchemataManifest &Manifest,
                   const MutationOptions &Options, Ranking &Out, MutationSummary &Summary,
                   std::string &Error);

} // namespace sleuth::localizer
