// Counting events over the suite, scoring them with a formula, ordering them
// with rank ranges for ties.
#include "sleuth/localizer/ranking.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numeric>

namespace sleuth::localizer {

namespace {

/// Scores computed along different paths (sums in another order) differ in
/// the last bits; those are ties.
bool sameScore(double A, double B) {
  if (A == B)
    return true;
  if (std::isinf(A) || std::isinf(B))
    return false;
  return std::abs(A - B) <= 1e-9 * std::max({1.0, std::abs(A), std::abs(B)});
}

} // namespace

std::vector<RankRange> rankRanges(std::span<const double> Scores) {
  return rankRanges(Scores, std::vector<double>(Scores.size(), 0.0));
}

std::vector<RankRange> rankRanges(std::span<const double> Scores, std::span<const double> Seconds) {
  std::vector<std::size_t> Order(Scores.size());
  std::iota(Order.begin(), Order.end(), 0);
  auto Same = [&](std::size_t A, std::size_t B) {
    return sameScore(Scores[A], Scores[B]) && sameScore(Seconds[A], Seconds[B]);
  };
  std::stable_sort(Order.begin(), Order.end(), [&](std::size_t A, std::size_t B) {
    if (!sameScore(Scores[A], Scores[B]))
      return Scores[A] > Scores[B];
    return Seconds[A] > Seconds[B];
  });
  std::vector<RankRange> Ranks(Scores.size());
  for (std::size_t Begin = 0; Begin < Order.size();) {
    std::size_t End = Begin + 1;
    while (End < Order.size() && Same(Order[Begin], Order[End]))
      ++End;
    for (std::size_t I = Begin; I < End; ++I)
      Ranks[Order[I]] = {static_cast<unsigned>(Begin + 1), static_cast<unsigned>(End)};
    Begin = End;
  }
  return Ranks;
}

std::size_t SuiteSpectra::failures() const {
  return static_cast<std::size_t>(std::count(Failed.begin(), Failed.end(), true));
}

EventCounts countEvent(const SuiteSpectra &Suite, Event E) {
  EventCounts C;
  for (std::size_t T = 0; T < Suite.Spectra.size(); ++T) {
    bool Seen = eventCount(Suite.Spectra[T], E) > 0;
    bool Reached = Seen || observationCount(Suite.Spectra[T], E) > 0;
    if (Suite.Failed[T]) {
      (Seen ? C.Ef : C.Nf) += 1;
      C.Of += Reached;
    } else {
      (Seen ? C.Ep : C.Np) += 1;
      C.Op += Reached;
    }
  }
  return C;
}

std::vector<Event> observedEvents(const SuiteSpectra &Suite, std::span<const EventKind> Kinds) {
  std::vector<Event> Out;
  for (EventKind Kind : Kinds)
    for (Event E : allEvents(*Suite.Model, Kind))
      if (std::any_of(Suite.Spectra.begin(), Suite.Spectra.end(),
                      [&](const Spectrum &S) { return eventCount(S, E) > 0; }))
        Out.push_back(E);
  return Out;
}

void orderRanking(const Program &P, std::vector<ScoredEvent> &Events) {
  auto PlaceLess = [&](const ScoredEvent &A, const ScoredEvent &B) {
    Place PA = placeOf(P, A.What), PB = placeOf(P, B.What);
    const std::string &FA = P.sources()[PA.Source].Path, &FB = P.sources()[PB.Source].Path;
    if (FA != FB)
      return FA < FB;
    return std::tie(PA.Line, PA.Column, A.What) < std::tie(PB.Line, PB.Column, B.What);
  };
  std::sort(Events.begin(), Events.end(), [&](const ScoredEvent &A, const ScoredEvent &B) {
    if (!sameScore(A.Score, B.Score))
      return A.Score > B.Score;
    if (A.Second != B.Second)
      return A.Second > B.Second;
    return PlaceLess(A, B);
  });
  std::vector<double> Scores, Seconds;
  for (const ScoredEvent &E : Events) {
    Scores.push_back(E.Score);
    Seconds.push_back(E.Second);
  }
  std::vector<RankRange> Ranks = rankRanges(Scores, Seconds);
  for (std::size_t I = 0; I < Events.size(); ++I)
    Events[I].Rank = Ranks[I];
  // Scores within the tolerance of a tie may have been sorted apart by a
  // last-bit difference; list each tie in source order.
  for (std::size_t Begin = 0; Begin < Events.size();) {
    std::size_t End = Begin + 1;
    while (End < Events.size() && Events[End].Rank == Events[Begin].Rank)
      ++End;
    std::stable_sort(Events.begin() + static_cast<std::ptrdiff_t>(Begin),
                     Events.begin() + static_cast<std::ptrdiff_t>(End), PlaceLess);
    Begin = End;
  }
}

Ranking rankByFormula(const SuiteSpectra &Suite, std::span<const Event> Events, const Formula &F) {
  Ranking R;
  R.Technique = std::string(F.Name);
  R.Title = std::string(F.Title);
  R.UnitRange = F.UnitRange;
  for (Event E : Events) {
    ScoredEvent S;
    S.What = E;
    S.Counts = countEvent(Suite, E);
    S.Score = F.Score(S.Counts);
    R.Events.push_back(S);
  }
  orderRanking(*Suite.Model, R.Events);
  return R;
}

void breakTiesByPredicates(const SuiteSpectra &Suite, Ranking &R) {
  const Program &P = *Suite.Model;
  const Formula &Importance = *findFormula("importance");
  // The best predicate of each line: the most important value predicate at a site on it, or
  // branch predicate (CBI's "branches" scheme: a condition on it was true, or false).
  std::map<std::pair<unsigned, unsigned>, std::pair<double, Event>> Best;
  const EventKind PredicateKinds[] = {EventKind::Value, EventKind::Branch};
  for (Event E : observedEvents(Suite, PredicateKinds)) {
    double Score = Importance.Score(countEvent(Suite, E));
    if (Score <= 0)
      continue;
    Place Where = placeOf(P, E);
    auto [It, New] = Best.try_emplace({Where.Source, Where.Line}, Score, E);
    if (!New && Score > It->second.first)
      It->second = {Score, E};
  }
  R.TieBreak = "importance";
  for (ScoredEvent &S : R.Events) {
    if (S.What.Kind != EventKind::Line)
      continue;
    Place Where = placeOf(P, S.What);
    auto It = Best.find({Where.Source, Where.Line});
    if (It == Best.end())
      continue;
    S.Second = It->second.first;
    S.Lifted = It->second.second;
  }
  orderRanking(P, R.Events);
}

} // namespace sleuth::localizer
