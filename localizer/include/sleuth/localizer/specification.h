// Specification-guided ranking in the manner of SAT-TAR (Gopinath, Zaeem, Khurshid, ASE 2012):
// the statements the trace formula of a failing run blames (its minimal correction sets and
// unsatisfiable core, sleuth/trace/diagnosis.h) lift a spectrum formula's scores, each failing
// run is compared with the passing runs most like it, and failing runs whose suspects are
// disjoint are taken for different faults and localized apart.
#pragma once

#include "sleuth/localizer/ranking.h"
#include "sleuth/trace/trace.h"

#include <optional>
#include <string>

#include <span>
#include <vector>

namespace sleuth::localizer {

/// What the trace formula of one failing test blames, by line (Program line ids).
struct RunDiagnosis {
  std::size_t Test = 0; ///< Index into SuiteSpectra::Spectra; a failing test.
  /// Each minimal correction set found, as the lines of its statements.
  std::vector<std::vector<unsigned>> CorrectionSets;
  /// The lines of a minimal unsatisfiable core.
  std::vector<unsigned> Core;
};

/// A failing run's recorded path (the `.path` file a build with SLEUTH_PATH=1 writes) as a trace
/// formula's path, with the test's expected output as its specification: the first integer a
/// `printf` printed that differs from what the expected output has there becomes an assertion.
struct PathTranslation {
  trace::Path Path;
  std::vector<std::string> Files; ///< SourceLoc::file -> the source's path.
  /// The violated specification, as shown to users ("" if the path has none).
  std::string Specification;
  /// Why the oracle stopped short of a specification, and similar remarks.
  std::vector<std::string> Notes;
  /// Statements encoded with the value the run recorded (library calls, unsupported types).
  unsigned Concretized = 0;
  bool Truncated = false; ///< The run took more steps than were kept.
};

/// Reads PathFile; fails (one line in Error naming the file) on a malformed file.
std::optional<PathTranslation> translatePath(const std::string &PathFile,
                                             const std::string &ExpectedOutput, std::string &Error);

/// The diagnosis of failing test Test from its recorded path: its correction sets and core as
/// Program line ids, each set with the branch of each of its statements (the last condition its
/// activation passed before it: the path formula cannot change a branch itself). Empty when the path has no specification or the formula does not reproduce
/// the run; Note then says why.
std::optional<RunDiagnosis> diagnoseRecordedPath(const SuiteSpectra &Suite, std::size_t Test,
                                                 const PathTranslation &Path, std::string &Note);

/// The lines a diagnosis blames: those of its correction sets and of its core.
std::vector<unsigned> suspectLines(const RunDiagnosis &D);

/// Groups the diagnoses whose suspect lines overlap (transitively): each group is taken for one
/// fault. Returns, per group, indices into Diagnoses; diagnoses without suspects are in none.
std::vector<std::vector<std::size_t>> partitionByFault(std::span<const RunDiagnosis> Diagnoses);

/// The passing tests compared with a group of failing runs: those that execute at least one of
/// the group's suspect lines (all passing tests if none does).
std::vector<std::size_t> similarPassingTests(const SuiteSpectra &Suite,
                                             std::span<const unsigned> Suspects);

/// Ranks lines by F over, for each fault, the failing runs of that fault (and the failing runs
/// without a diagnosis) and the passing runs similar to them, each score in [0, 1] (rescaled
/// where F's range is not), plus a lift of 1 + the share of the fault's correction sets that
/// hold the line for every suspect line. A line takes its best score over the faults; its
/// Reason says which sets lifted it. Without diagnoses this is F's ranking of lines.
Ranking rankBySpecification(const SuiteSpectra &Suite, std::span<const RunDiagnosis> Diagnoses,
                            const Formula &F);

} // namespace sleuth::localizer
