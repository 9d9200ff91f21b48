// Rankings: events ordered by suspiciousness, ties reported as rank ranges.
#pragma once

#include "sleuth/localizer/formulas.h"
#include "sleuth/localizer/spectrum.h"

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

struct ScoredEvent {
  Event What;
  EventCounts Counts;
  double Score = 0;
  RankRange Rank;
};

struct Ranking {
  std::string Technique; ///< As given to --formula: "ochiai", "blockrank".
  std::string Title;     ///< As shown: "Ochiai", "BlockRank".
  bool UnitRange = true; ///< Scores are in [0, 1].
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

/// Orders already scored events (Score and Counts set) and fills in ranks; ties
/// are listed in source order.
void orderRanking(const Program &P, std::vector<ScoredEvent> &Events);

} // namespace sleuth::localizer
