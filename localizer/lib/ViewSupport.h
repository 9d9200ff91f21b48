// Helpers shared by the views: paths as shown, scores as text, colors.
#pragma once

#include "sleuth/localizer/views.h"

#include <map>
#include <optional>
#include <string>

namespace sleuth::localizer {

/// The path relative to the working directory when it is below it, else as is.
std::string displayPath(const std::string &Path);

/// A score as text: "0.707", "inf", "-1.000".
std::string formatScore(double Score);

/// "3" or "2-4".
std::string formatRank(const RankRange &Rank);

/// Maps scores of a ranking to [0, 1] for colors: unit-range formulas as they
/// are, others rescaled between the lowest and highest finite score
/// (infinity is 1).
class ColorScale {
public:
  explicit ColorScale(const Ranking &R);
  double operator()(double Score) const;

private:
  bool Unit;
  double Low = 0, High = 0;
};

struct Rgb {
  unsigned R, G, B;
};
/// The spectrum color of a suspiciousness in [0, 1]: hue from green (0) to red
/// (1), pale enough to read black text on.
Rgb spectrumColor(double Suspiciousness);

/// The highest score of the ranked events placed on each (source, line).
std::map<std::pair<unsigned, unsigned>, double> lineScores(const Report &R);

/// The source text of a line, or nullopt.
std::optional<std::string> sourceLine(const Report &R, unsigned Source, unsigned Line);

/// What an event shows after its place: the source line for lines, the
/// description for others.
std::string eventText(const Report &R, const ScoredEvent &E);

/// The value predicate that ordered E among equal scores, e.g. "m < 0 (importance 0.82)",
/// or "".
std::string liftedBy(const Report &R, const ScoredEvent &E);

/// Why E ranks above its spectrum or its tie: its Reason and the predicate that ordered it,
/// joined by "; ", or "".
std::string whyRanked(const Report &R, const ScoredEvent &E);

/// `file:line` (and `:column` for branches).
std::string eventLocation(const Report &R, const ScoredEvent &E);

/// Escapes &, <, >, " for HTML.
std::string escapeHtml(std::string_view Text);

/// Lines of executed functions, merged into ranges per source, in order.
std::vector<std::pair<unsigned, std::vector<std::pair<unsigned, unsigned>>>>
executedRanges(const Report &R);

} // namespace sleuth::localizer
