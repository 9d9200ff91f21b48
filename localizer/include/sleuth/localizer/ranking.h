// Rankings: events ordered by suspiciousness, ties reported as rank ranges.
#pragma once

#include "sleuth/localizer/formulas.h"
#include "sleuth/localizer/spectrum.h"

#include <optional>
#include <span>
#include <string>
#include <vector>

namespace sleuth::localizer {

/// Where an event lands when the events are examined in order of
/// suspiciousness: tied events share the range Best..Worst (1 = first).
struct RankRange {
  unsigned Best = 0, Worst = 0;
  double average() const { return (Best + Worst) / 2.0; }
  friend bool operator==(const RankRange &, const RankRange &) = default;
};

/// The rank range of each score (higher scores first); Scores[i] gets result[i].
std::vector<RankRange> rankRanges(std::span<const double> Scores);
/// The same, ordered by Scores and then, among equal scores, by Seconds (higher first).
std::vector<RankRange> rankRanges(std::span<const double> Scores, std::span<const double> Seconds);

struct ScoredEvent {
  Event What;
  EventCounts Counts;
  double Score = 0;
  /// The second criterion, which orders events of equal Score (0 without one).
  double Second = 0;
  /// The value predicate whose Importance is Second (breakTiesByPredicates).
  std::optional<Event> Lifted;
  /// Why the technique scored the event above its spectrum, if it did: "in 2 of 3 correction
  /// sets of failing test 4" (rankBySpecification).
  std::string Reason;
  RankRange Rank;
};

struct Ranking {
  std::string Technique; ///< As given to --formula: "ochiai", "blockrank".
  std::string Title;     ///< As shown: "Ochiai", "BlockRank".
  bool UnitRange = true; ///< Scores are in [0, 1].
  /// The second criterion that breaks ties ("importance"), or empty.
  std::string TieBreak;
  /// Every ranked event, most suspicious first; ties in source order.
  std::vector<ScoredEvent> Events;
};

/// Whether each test failed; the spectra and outcomes of a suite.
struct SuiteSpectra {
  const Program *Model = nullptr;
  std::vector<Spectrum> Spectra;
  std::vector<bool> Failed;
  std::size_t failures() const;
};

/// How many failing and passing runs showed the event.
EventCounts countEvent(const SuiteSpectra &Suite, Event E);

/// Events of the given kinds that occurred in at least one run.
std::vector<Event> observedEvents(const SuiteSpectra &Suite, std::span<const EventKind> Kinds);

/// Scores Events with F and ranks them.
Ranking rankByFormula(const SuiteSpectra &Suite, std::span<const Event> Events, const Formula &F);

/// Breaks the ties of a ranking of lines: among lines of equal score, the line with the more
/// important predicate ranks first (CBI's Importance of a value predicate, `x < 0`, `x == y`,
/// ..., at a site on it, or of a branch predicate, a condition on it true or false). Lines
/// without predicates keep 0.
void breakTiesByPredicates(const SuiteSpectra &Suite, Ranking &R);

/// Orders already scored events (Score and Counts set) and fills in ranks; ties
/// are listed in source order.
void orderRanking(const Program &P, std::vector<ScoredEvent> &Events);

} // namespace sleuth::localizer
