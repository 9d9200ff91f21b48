//===- CheckOrder.cpp - Which of a candidate's checks to run first --------===//
#include "CheckOrder.h"

#include <algorithm>

namespace sleuth::reducer {

namespace {
/// Each run multiplies the weight of the earlier ones by this: about the last
/// 30 runs of a check decide, so the order follows the pass at hand.
constexpr double Decay = 1.0 - 1.0 / 32;
/// A check that has never rejected still gets a small rate, so that its
/// seconds per rejection stay finite and comparable.
constexpr double MinRate = 1e-3;
} // namespace

CheckOrder::CheckOrder(std::size_t Checks) : Stats(Checks) {}

double CheckOrder::meanSeconds(std::size_t Check) const {
  const CheckStats &S = Stats[Check];
  return S.Weight > 0 ? S.Seconds / S.Weight : 0;
}

double CheckOrder::rejectionRate(std::size_t Check) const {
  const CheckStats &S = Stats[Check];
  // One half of a prior run that rejected and one half that did not: an
  // unmeasured check is a coin toss, not a certainty either way.
  return (S.FirstRejections + 0.5) / (S.FirstWeight + 1);
}

double CheckOrder::secondsPerRejection(std::size_t Check) const {
  return meanSeconds(Check) / std::max(rejectionRate(Check), MinRate);
}

std::vector<std::size_t> CheckOrder::arrange(std::vector<std::size_t> Checks) {
  if (Checks.size() < 2)
    return Checks;
  std::stable_sort(Checks.begin(), Checks.end(), [&](std::size_t A, std::size_t B) {
    return secondsPerRejection(A) < secondsPerRejection(B);
  });
  // Rates are measured only where a check runs first on a candidate that no
  // check has judged yet; with some checks' verdicts cached, keep the best order.
  if (Checks.size() != Stats.size())
    return Checks;
  ++Arranged;
  auto Fewest = std::min_element(Checks.begin(), Checks.end(), [&](std::size_t A, std::size_t B) {
    return Stats[A].ScheduledFirst < Stats[B].ScheduledFirst;
  });
  auto First = Checks.begin();
  if (Stats[*Fewest].ScheduledFirst < WarmUp)
    First = Fewest;
  else if (Arranged % ExploreEvery == 0)
    First = Checks.begin() + 1 + (Arranged / ExploreEvery) % (Checks.size() - 1);
  std::rotate(Checks.begin(), First, First + 1);
  ++Stats[Checks.front()].ScheduledFirst;
  return Checks;
}

void CheckOrder::record(std::size_t Check, double Seconds, bool Rejected, bool RanFirst) {
  CheckStats &S = Stats[Check];
  ++S.Runs;
  S.Rejections += Rejected;
  S.Weight = S.Weight * Decay + 1;
  S.Seconds = S.Seconds * Decay + Seconds;
  if (RanFirst) {
    S.FirstWeight = S.FirstWeight * Decay + 1;
    S.FirstRejections = S.FirstRejections * Decay + (Rejected ? 1 : 0);
  }
}

} // namespace sleuth::reducer
