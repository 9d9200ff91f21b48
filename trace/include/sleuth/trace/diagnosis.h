//===- sleuth/trace/diagnosis.h - Fault diagnoses of a path -----*- C++ -*-===//
//
// Which statements of a failing path explain the failure: the minimal
// correction sets (sets of statements which, relaxed, let the path meet its
// specification, none a superset of another), found by MaxSAT with each
// selector soft and enumerated by blocking each found set; and one minimal
// unsatisfiable core (statements that together contradict the specification).
//
//===----------------------------------------------------------------------===//

#ifndef SLEUTH_TRACE_DIAGNOSIS_H
#define SLEUTH_TRACE_DIAGNOSIS_H

#include "sleuth/trace/trace.h"

#include <chrono>

namespace sleuth::trace {

class TraceFormula;

struct DiagnosisOptions {
  /// Stop after this many correction sets (0: no limit).
  unsigned maxCorrectionSets = 10;
  /// Stop enumerating correction sets after this long.
  std::chrono::milliseconds timeLimit{10000};
  /// Whether to compute a minimal unsatisfiable core, and how long that may take.
  bool computeCore = true;
  std::chrono::milliseconds coreTimeLimit{10000};
};

struct CorrectionSet {
  std::vector<size_t> statements;   // Indices into Path::statements, ascending.
  std::vector<SourceLoc> locations; // Their distinct locations, ascending.
};

struct LocationCount {
  SourceLoc loc;
  unsigned correctionSets = 0; // How many of the sets found have a statement here.
};

struct Diagnosis {
  enum class Status : uint8_t {
    Failing,      // The path violates its specification; the sets below explain that.
    SpecHolds,    // With every statement as it ran the specification holds: nothing to explain.
    Inconsistent, // The encoding does not reproduce the run (an assume, or the oracle's
                  // actual value, contradicts the inputs and statements).
  };
  Status status = Status::Failing;
  /// In the order found: by size, smallest first.
  std::vector<CorrectionSet> correctionSets;
  /// More sets exist than maxCorrectionSets allowed.
  bool cutByCount = false;
  /// The time limit (or the solver giving up) ended the enumeration.
  bool cutByTime = false;
  /// Per location, how many sets contain it: most first, then by location.
  std::vector<LocationCount> ranking;
  /// The statements of one unsatisfiable core, ascending; `coreMinimal` says
  /// whether removing any one of them makes it satisfiable (false where the
  /// core time limit cut the minimization).
  std::vector<size_t> core;
  bool coreMinimal = false;
  /// The statements encoded with a value the run observed (TraceFormula::concretized).
  std::vector<size_t> concretized;

  bool complete() const { return !cutByCount && !cutByTime; }
};

Diagnosis diagnose(const TraceFormula &formula, const DiagnosisOptions &options = {});
/// Encodes `path` in a context of its own; throws EncodeError.
Diagnosis diagnose(const Path &path, const DiagnosisOptions &options = {});

} // namespace sleuth::trace

#endif // SLEUTH_TRACE_DIAGNOSIS_H
