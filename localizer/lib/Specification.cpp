// SAT-TAR's combination of trace-formula diagnoses with a spectrum formula.
#include "sleuth/localizer/specification.h"
#include "sleuth/trace/diagnosis.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>
#include <set>

namespace sleuth::localizer {

std::vector<unsigned> suspectLines(const RunDiagnosis &D) {
  std::set<unsigned> Lines(D.Core.begin(), D.Core.end());
  for (const std::vector<unsigned> &Set : D.CorrectionSets)
    Lines.insert(Set.begin(), Set.end());
  return {Lines.begin(), Lines.end()};
}

std::optional<RunDiagnosis> diagnoseRecordedPath(const SuiteSpectra &Suite, std::size_t Test,
                                                 const PathTranslation &Path, std::string &Note) {
  if (Path.Specification.empty()) {
    Note = Path.Notes.empty() ? "no output differs from the expected output on the recorded path"
                              : Path.Notes.front();
    return std::nullopt;
  }
  trace::DiagnosisOptions Options;
  Options.maxCorrectionSets = 10;
  Options.timeLimit = std::chrono::milliseconds(3000);
  Options.coreTimeLimit = std::chrono::milliseconds(2000);
  trace::Diagnosis D;
  try {
    D = trace::diagnose(Path.Path, Options);
  } catch (const std::exception &E) {
    Note = fmt::format("the path cannot be encoded: {}", E.what());
    return std::nullopt;
  }
  if (D.status == trace::Diagnosis::Status::Inconsistent) {
    Note = "the trace formula does not reproduce the run (a value changed outside what was "
           "recorded)";
    return std::nullopt;
  }
  if (D.status == trace::Diagnosis::Status::SpecHolds) {
    Note = "the trace formula meets the specification: nothing to blame";
    return std::nullopt;
  }
  auto LineOf = [&](std::size_t Stmt) -> std::optional<unsigned> {
    const trace::SourceLoc &L = Path.Path.statements[Stmt].loc;
    if (L.file >= Path.Files.size() || L.line == 0)
      return std::nullopt;
    std::optional<unsigned> Source = Suite.Model->sourceId(Path.Files[L.file]);
    return Source ? Suite.Model->lineId(*Source, L.line) : std::nullopt;
  };
  // The formula keeps the path: no correction changes a branch. The branch that let a blamed
  // statement run shares its blame: the last condition its activation passed before it.
  std::vector<std::optional<std::size_t>> Branch(Path.Path.statements.size());
  std::map<unsigned, std::size_t> LastCondition;
  for (std::size_t I = 0; I < Path.Path.statements.size(); ++I) {
    const trace::Stmt &S = Path.Path.statements[I];
    // Where the statement's code runs: a return's value is the callee's, an argument the caller's.
    if (auto It = LastCondition.find(S.valueActivation); It != LastCondition.end())
      Branch[I] = It->second;
    if (S.kind == trace::Stmt::Kind::Assume)
      LastCondition[S.activation] = I;
  }
  RunDiagnosis R;
  R.Test = Test;
  for (const trace::CorrectionSet &Set : D.correctionSets) {
    std::set<unsigned> Lines;
    for (std::size_t S : Set.statements) {
      if (std::optional<unsigned> Line = LineOf(S))
        Lines.insert(*Line);
      if (Branch[S])
        if (std::optional<unsigned> Line = LineOf(*Branch[S]))
          Lines.insert(*Line);
    }
    if (!Lines.empty())
      R.CorrectionSets.emplace_back(Lines.begin(), Lines.end());
  }
  std::set<unsigned> Core;
  for (std::size_t S : D.core)
    if (std::optional<unsigned> Line = LineOf(S))
      Core.insert(*Line);
  R.Core.assign(Core.begin(), Core.end());
  Note = fmt::format("{}; {} correction set{}{}", Path.Specification, R.CorrectionSets.size(),
                     R.CorrectionSets.size() == 1 ? "" : "s", D.complete() ? "" : " (cut short)");
  return R;
}

std::vector<std::vector<std::size_t>> partitionByFault(std::span<const RunDiagnosis> Diagnoses) {
  // Union-find over the diagnoses, joined through each suspect line's first diagnosis.
  std::vector<std::size_t> Parent(Diagnoses.size());
  std::iota(Parent.begin(), Parent.end(), 0);
  auto Find = [&](std::size_t I) {
    while (Parent[I] != I)
      I = Parent[I] = Parent[Parent[I]];
    return I;
  };
  std::map<unsigned, std::size_t> FirstWithLine;
  std::vector<bool> HasSuspects(Diagnoses.size());
  for (std::size_t I = 0; I < Diagnoses.size(); ++I)
    for (unsigned Line : suspectLines(Diagnoses[I])) {
      HasSuspects[I] = true;
      auto [It, New] = FirstWithLine.try_emplace(Line, I);
      if (!New)
        Parent[Find(I)] = Find(It->second);
    }
  std::map<std::size_t, std::vector<std::size_t>> Groups;
  for (std::size_t I = 0; I < Diagnoses.size(); ++I)
    if (HasSuspects[I])
      Groups[Find(I)].push_back(I);
  std::vector<std::vector<std::size_t>> Out;
  for (auto &[Root, Members] : Groups)
    Out.push_back(std::move(Members));
  // In the order of their first failing test, so that fault numbers follow the suite.
  std::sort(Out.begin(), Out.end(), [&](const auto &A, const auto &B) {
    return Diagnoses[A.front()].Test < Diagnoses[B.front()].Test;
  });
  return Out;
}

std::vector<std::size_t> similarPassingTests(const SuiteSpectra &Suite,
                                             std::span<const unsigned> Suspects) {
  std::vector<std::size_t> All, Similar;
  for (std::size_t T = 0; T < Suite.Spectra.size(); ++T) {
    if (Suite.Failed[T])
      continue;
    All.push_back(T);
    if (std::any_of(Suspects.begin(), Suspects.end(), [&](unsigned Line) {
          return eventCount(Suite.Spectra[T], {EventKind::Line, Line}) > 0;
        }))
      Similar.push_back(T);
  }
  return Similar.empty() ? All : Similar;
}

namespace {

/// F's scores of Lines over the tests Tests of Suite, rescaled to [0, 1] unless F's range is.
std::vector<double> unitScores(const SuiteSpectra &Suite, std::span<const std::size_t> Tests,
                               std::span<const Event> Lines, const Formula &F) {
  SuiteSpectra Part;
  Part.Model = Suite.Model;
  for (std::size_t T : Tests) {
    Part.Spectra.push_back(Suite.Spectra[T]);
    Part.Failed.push_back(Suite.Failed[T]);
  }
  std::vector<double> Scores;
  for (Event E : Lines)
    Scores.push_back(F.Score(countEvent(Part, E)));
  if (F.UnitRange || Scores.empty())
    return Scores;
  // Infinite scores (DStar's) stay the largest; the finite ones are spread below them.
  double Low = INFINITY, High = -INFINITY;
  for (double S : Scores)
    if (std::isfinite(S))
      Low = std::min(Low, S), High = std::max(High, S);
  for (double &S : Scores)
    S = !std::isfinite(S) ? (S > 0 ? 1.0 : 0.0) : High > Low ? (S - Low) / (High - Low) : 1.0;
  return Scores;
}

std::string testList(std::span<const RunDiagnosis> Diagnoses, std::span<const std::size_t> Group) {
  std::vector<std::string> Names;
  for (std::size_t I : Group)
    Names.push_back(std::to_string(Diagnoses[I].Test + 1));
  return fmt::format("{} {}", Names.size() == 1 ? "test" : "tests", fmt::join(Names, ", "));
}

} // namespace

Ranking rankBySpecification(const SuiteSpectra &Suite, std::span<const RunDiagnosis> Diagnoses,
                            const Formula &F) {
  const EventKind LineKind[] = {EventKind::Line};
  std::vector<Event> Lines = observedEvents(Suite, LineKind);

  std::vector<std::vector<std::size_t>> Faults = partitionByFault(Diagnoses);
  // Failing tests without suspects (no specification found, or no diagnosis) count for every
  // fault: nothing says they fail for another reason.
  std::set<std::size_t> Diagnosed;
  for (const std::vector<std::size_t> &Group : Faults)
    for (std::size_t I : Group)
      Diagnosed.insert(Diagnoses[I].Test);
  std::vector<std::size_t> Undiagnosed;
  for (std::size_t T = 0; T < Suite.Spectra.size(); ++T)
    if (Suite.Failed[T] && !Diagnosed.count(T))
      Undiagnosed.push_back(T);

  std::vector<double> Best(Lines.size(), -INFINITY);
  std::vector<std::string> Reasons(Lines.size());
  auto Keep = [&](std::size_t I, double Score, std::string Reason) {
    if (Score > Best[I])
      Best[I] = Score, Reasons[I] = std::move(Reason);
  };
  if (Faults.empty()) {
    std::vector<std::size_t> All(Suite.Spectra.size());
    std::iota(All.begin(), All.end(), 0);
    std::vector<double> Scores = unitScores(Suite, All, Lines, F);
    for (std::size_t I = 0; I < Lines.size(); ++I)
      Keep(I, Scores[I], "");
  }
  for (std::size_t K = 0; K < Faults.size(); ++K) {
    const std::vector<std::size_t> &Group = Faults[K];
    std::set<unsigned> Suspects;
    std::map<unsigned, unsigned> SetsWithLine;
    unsigned Sets = 0;
    for (std::size_t I : Group) {
      for (unsigned Line : suspectLines(Diagnoses[I]))
        Suspects.insert(Line);
      for (const std::vector<unsigned> &Set : Diagnoses[I].CorrectionSets) {
        ++Sets;
        for (unsigned Line : std::set<unsigned>(Set.begin(), Set.end()))
          ++SetsWithLine[Line];
      }
    }
    std::vector<unsigned> SuspectList(Suspects.begin(), Suspects.end());
    std::vector<std::size_t> Tests = similarPassingTests(Suite, SuspectList);
    for (std::size_t I : Group)
      Tests.push_back(Diagnoses[I].Test);
    Tests.insert(Tests.end(), Undiagnosed.begin(), Undiagnosed.end());
    std::sort(Tests.begin(), Tests.end());
    std::vector<double> Scores = unitScores(Suite, Tests, Lines, F);
    std::string Fault = Faults.size() > 1 ? fmt::format("fault {}: ", K + 1) : "";
    for (std::size_t I = 0; I < Lines.size(); ++I) {
      unsigned Line = Lines[I].Id;
      if (!Suspects.count(Line)) {
        Keep(I, Scores[I], "");
        continue;
      }
      unsigned With = SetsWithLine.count(Line) ? SetsWithLine[Line] : 0;
      double Lift = 1 + (Sets ? double(With) / Sets : 0);
      Keep(I, Scores[I] + Lift,
           With ? fmt::format("{}in {} of {} correction sets of failing {}", Fault, With, Sets,
                              testList(Diagnoses, Group))
                : fmt::format("{}in the unsatisfiable core of failing {}", Fault,
                              testList(Diagnoses, Group)));
    }
  }

  Ranking R;
  R.Technique = "sat-tar";
  R.Title = fmt::format("SAT-TAR ({} + trace formulas)", F.Title);
  R.UnitRange = false;
  for (std::size_t I = 0; I < Lines.size(); ++I) {
    ScoredEvent S;
    S.What = Lines[I];
    S.Counts = countEvent(Suite, Lines[I]);
    S.Score = Best[I];
    S.Reason = Reasons[I];
    R.Events.push_back(std::move(S));
  }
  orderRanking(*Suite.Model, R.Events);
  return R;
}

} // namespace sleuth::localizer
