//===- CheckOrder.h - Which of a candidate's checks to run first -*- C++ -*-===//
//
// A candidate is kept only if it passes every check: the interestingness test
// and each validity command (`sleuth reduce --valid-with`). Most candidates
// fail one of them, and a failing check settles the question, so the order
// matters: for independent checks, running them by ascending expected seconds
// per rejection (mean seconds / rejection rate) minimizes the expected time
// per candidate. Neither figure is known in advance and both change as the
// reduction moves from pass to pass, so they are measured on the way, with a
// decay that forgets old runs.
//
// A check's rejection rate is measured only on the runs where it ran first:
// after another check passed, a candidate is already known to be of the kind
// that check accepts, and the rate would be biased. So each check is put first
// a few times at the start, and then on every ExploreEvery-th candidate the
// checks that are not the best first take turns at going first.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <vector>

namespace sleuth::reducer {

class CheckOrder {
public:
  /// Times each check goes first before the measured order is trusted.
  static constexpr std::size_t WarmUp = 4;
  /// One candidate in this many puts a check other than the best first.
  static constexpr std::size_t ExploreEvery = 10;

  explicit CheckOrder(std::size_t Checks);

  /// The order in which to run Checks (indices below the number of checks)
  /// on the next candidate, the first to run first.
  std::vector<std::size_t> arrange(std::vector<std::size_t> Checks);

  /// Records one completed run of Check: how long it took, whether it
  /// rejected the candidate, and whether it ran first on that candidate.
  void record(std::size_t Check, double Seconds, bool Rejected, bool RanFirst);

  /// Mean seconds per run (recent runs weigh more); 0 before the first run.
  double meanSeconds(std::size_t Check) const;
  /// Estimated probability that Check rejects a candidate, from the runs where it ran first.
  double rejectionRate(std::size_t Check) const;
  /// Expected seconds spent per candidate this check rejects; lower runs first.
  double secondsPerRejection(std::size_t Check) const;

  std::size_t runs(std::size_t Check) const { return Stats[Check].Runs; }
  std::size_t rejections(std::size_t Check) const { return Stats[Check].Rejections; }
  /// Candidates on which Check was scheduled first.
  std::size_t scheduledFirst(std::size_t Check) const { return Stats[Check].ScheduledFirst; }

private:
  struct CheckStats {
    // Decayed sums: every new run multiplies the old ones by Decay.
    double Weight = 0, Seconds = 0;
    double FirstWeight = 0, FirstRejections = 0;
    std::size_t Runs = 0, Rejections = 0, ScheduledFirst = 0;
  };
  std::vector<CheckStats> Stats;
  std::size_t Arranged = 0;
};

} // namespace sleuth::reducer
