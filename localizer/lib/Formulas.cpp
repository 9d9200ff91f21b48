// The formulas. Where a denominator can be zero the case is decided the way
// the literature does (noted per formula), never left to produce NaN.
#include "sleuth/localizer/formulas.h"

#include <array>
#include <cctype>
#include <cmath>
#include <limits>

namespace sleuth::localizer {

namespace {

/// Num / Den, or Otherwise when Den is zero.
double ratio(double Num, double Den, double Otherwise = 0) {
  return Den == 0 ? Otherwise : Num / Den;
}

double tarantula(const EventCounts &C) {
  double Failed = ratio(C.Ef, C.failed()), Passed = ratio(C.Ep, C.passed());
  return ratio(Failed, Failed + Passed);
}

double ochiai(const EventCounts &C) { return ratio(C.Ef, std::sqrt(C.failed() * (C.Ef + C.Ep))); }

double jaccard(const EventCounts &C) { return ratio(C.Ef, C.failed() + C.Ep); }

/// DStar with * = 2 (Wong et al. 2014): an event in every failing run and in
/// no passing one has no denominator and is as suspicious as it gets.
double dstar(const EventCounts &C) {
  double Den = C.Ep + C.Nf;
  if (Den == 0)
    return C.Ef > 0 ? std::numeric_limits<double>::infinity() : 0;
  return C.Ef * C.Ef / Den;
}

/// Op2 (Naish et al. 2011), optimal for single faults.
double op2(const EventCounts &C) { return C.Ef - C.Ep / (C.passed() + 1); }

/// Barinel (Abreu et al. 2009), the single-fault form 1 - ep / (ep + ef).
double barinel(const EventCounts &C) {
  if (C.Ef + C.Ep == 0)
    return 0;
  return 1 - C.Ep / (C.Ep + C.Ef);
}

double kulczynski2(const EventCounts &C) {
  return 0.5 * (ratio(C.Ef, C.Ef + C.Nf) + ratio(C.Ef, C.Ef + C.Ep));
}

/// Naish1: -1 for an event missing from some failing run, else the number of
/// passing runs without it.
double naish1(const EventCounts &C) { return C.Nf > 0 ? -1 : C.Np; }

double naish2(const EventCounts &C) { return C.Ef - ratio(C.Ep, C.Ep + C.Np + 1); }

/// Kulczynski1: ef / (nf + ep); an event exactly matching the failures scores
/// above any other (the customary ef / 0 = infinity is kept finite: ef + 1).
double kulczynski1(const EventCounts &C) {
  double Den = C.Nf + C.Ep;
  return Den == 0 ? (C.Ef > 0 ? C.Ef + 1 : 0) : C.Ef / Den;
}

double sorensenDice(const EventCounts &C) { return ratio(2 * C.Ef, 2 * C.Ef + C.Ep + C.Nf); }

double russellRao(const EventCounts &C) { return ratio(C.Ef, C.failed() + C.passed()); }

double wong2(const EventCounts &C) { return C.Ef - C.Ep; }

double zoltar(const EventCounts &C) {
  if (C.Ef == 0)
    return 0;
  return C.Ef / (C.Ef + C.Nf + C.Ep + 10000 * C.Nf * C.Ep / C.Ef);
}

/// CBI's Importance (Liblit et al., PLDI 2005) of a predicate: the harmonic mean of its
/// Increase (how much more likely failure is when it holds than when its site is merely
/// reached) and its sensitivity (the share of failing runs it holds in, on a log scale). The
/// logarithms are of 1 + the counts, so a predicate that holds in the only failing run scores
/// (CBI's log F(P) / log NumF is 0 / 0 there). Events that are not predicates (lines, edges,
/// dependences) have Increase 0.
double importance(const EventCounts &C) {
  double Increase = ratio(C.Ef, C.Ef + C.Ep) - ratio(C.Of, C.Of + C.Op);
  if (Increase <= 0 || C.Ef == 0)
    return 0;
  double Sensitivity = std::log1p(C.Ef) / std::log1p(C.failed());
  return 2 / (1 / Increase + 1 / Sensitivity);
}

constexpr std::array<Formula, 15> Table = {{
    {"tarantula", "Tarantula", "(ef/F) / (ef/F + ep/P)", tarantula, true},
    {"ochiai", "Ochiai", "ef / sqrt(F * (ef + ep))", ochiai, true},
    {"jaccard", "Jaccard", "ef / (F + ep)", jaccard, true},
    {"dstar", "DStar (*=2)", "ef^2 / (ep + nf)", dstar, false},
    {"op2", "Op2", "ef - ep / (P + 1)", op2, false},
    {"barinel", "Barinel", "1 - ep / (ep + ef)", barinel, true},
    {"kulczynski2", "Kulczynski2", "(ef / (ef + nf) + ef / (ef + ep)) / 2", kulczynski2, true},
    {"naish1", "Naish1", "-1 if nf > 0, else np", naish1, false},
    {"naish2", "Naish2", "ef - ep / (ep + np + 1)", naish2, false},
    {"kulczynski1", "Kulczynski1", "ef / (nf + ep)", kulczynski1, false},
    {"sorensen-dice", "Sorensen-Dice", "2 ef / (2 ef + ep + nf)", sorensenDice, true},
    {"russell-rao", "Russell-Rao", "ef / (F + P)", russellRao, true},
    {"wong2", "Wong2", "ef - ep", wong2, false},
    {"zoltar", "Zoltar", "ef / (F + ep + 10000 nf ep / ef)", zoltar, true},
    {"importance", "Importance",
     "2 / (1 / (ef/(ef+ep) - of/(of+op)) + log(1+F) / log(1+ef)); values, branches", importance,
     true},
}};

} // namespace

std::span<const Formula> formulas() { return Table; }

const Formula *findFormula(std::string_view Name) {
  for (const Formula &F : Table) {
    if (F.Name.size() != Name.size())
      continue;
    bool Same = true;
    for (std::size_t I = 0; I < Name.size() && Same; ++I)
      Same = std::tolower(static_cast<unsigned char>(Name[I])) == F.Name[I];
    if (Same)
      return &F;
  }
  return nullptr;
}

} // namespace sleuth::localizer
