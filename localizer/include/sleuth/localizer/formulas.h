// Spectrum-based suspiciousness formulas, one table of named functions of the
// four counts of an event.
#pragma once

#include <span>
#include <string_view>

namespace sleuth::localizer {

/// How many failing / passing runs did (Ef, Ep) and did not (Nf, Np) show an
/// event.
struct EventCounts {
  double Ef = 0, Ep = 0, Nf = 0, Np = 0;
  /// How many failing / passing runs reached the place where the event could occur (a value
  /// predicate's site, whatever its outcome); for other events the same as Ef and Ep.
  double Of = 0, Op = 0;
  double failed() const { return Ef + Nf; }
  double passed() const { return Ep + Np; }
};

struct Formula {
  std::string_view Name;       ///< As given to --formula: "ochiai".
  std::string_view Title;      ///< As shown: "Ochiai".
  std::string_view Definition; ///< The formula in plain text.
  /// The suspiciousness; never NaN. May be +infinity (DStar when an event is
  /// in every failing run and no passing one).
  double (*Score)(const EventCounts &);
  /// Scores fall in [0, 1], so they can be shown as percentages and colors
  /// without rescaling.
  bool UnitRange;
};

/// Every formula, in the order of the documentation.
std::span<const Formula> formulas();

/// The formula called Name (case-insensitive), or nullptr.
const Formula *findFormula(std::string_view Name);

} // namespace sleuth::localizer
