// CheckOrder: which of a candidate's checks (the test, the validity commands)
// runs first, learned from their measured time and rejection rate.
#include "CheckOrder.h"

#include <gtest/gtest.h>

#include <vector>

using namespace sleuth::reducer;

namespace {

/// A simulated check: fixed seconds per run, and rejects the I-th candidate
/// iff (I * 37) % 100 < RejectPercent (a fixed, well-spread pattern).
struct SimulatedCheck {
  double Seconds;
  unsigned RejectPercent;
  bool rejects(std::size_t Candidate) const { return (Candidate * 37) % 100 < RejectPercent; }
};

/// Runs Candidates candidates from number From through Order as the runner
/// does: checks in the arranged order until one rejects. Returns how many
/// candidates had check Watched first.
std::size_t simulate(CheckOrder &Order, const std::vector<SimulatedCheck> &Checks, std::size_t From,
                     std::size_t Candidates, std::size_t Watched) {
  std::size_t WatchedFirst = 0;
  for (std::size_t I = From; I < From + Candidates; ++I) {
    std::vector<std::size_t> All;
    for (std::size_t C = 0; C < Checks.size(); ++C)
      All.push_back(C);
    std::vector<std::size_t> Arranged = Order.arrange(All);
    WatchedFirst += Arranged.front() == Watched;
    bool First = true;
    for (std::size_t C : Arranged) {
      bool Rejected = Checks[C].rejects(I);
      Order.record(C, Checks[C].Seconds, Rejected, First);
      First = false;
      if (Rejected)
        break;
    }
  }
  return WatchedFirst;
}

} // namespace

TEST(CheckOrderTest, EachCheckGoesFirstDuringWarmUp) {
  CheckOrder Order(2);
  std::size_t FirstZero = 0;
  for (std::size_t I = 0; I < 2 * CheckOrder::WarmUp; ++I)
    FirstZero += Order.arrange({0, 1}).front() == 0;
  EXPECT_EQ(FirstZero, CheckOrder::WarmUp);
  EXPECT_EQ(Order.scheduledFirst(0), CheckOrder::WarmUp);
  EXPECT_EQ(Order.scheduledFirst(1), CheckOrder::WarmUp);
}

TEST(CheckOrderTest, CheapCheckThatRejectsOftenGoesFirst) {
  // The validity check (1) is fast and rejects most candidates; the test (0) is slow.
  CheckOrder Order(2);
  std::vector<SimulatedCheck> Checks = {{1.0, 30}, {0.01, 60}};
  simulate(Order, Checks, 0, 40, 1);
  std::size_t ValidityFirst = simulate(Order, Checks, 40, 100, 1);
  // All but the exploring candidates (one in ExploreEvery).
  EXPECT_EQ(ValidityFirst, 100 - 100 / CheckOrder::ExploreEvery);
  EXPECT_NEAR(Order.meanSeconds(0), 1.0, 1e-9);
  EXPECT_NEAR(Order.meanSeconds(1), 0.01, 1e-9);
}

TEST(CheckOrderTest, SlowerCheckGoesFirstWhenItRejectsFarMoreOften) {
  // Check 0: 0.5 s, rejects 5%: 10 s per rejection. Check 1: 1 s, rejects 90%: 1.1 s per
  // rejection. Running the faster check first would cost 0.5 + 0.95 s per candidate against
  // 1 + 0.1 * 0.5 s the other way.
  CheckOrder Order(2);
  std::vector<SimulatedCheck> Checks = {{0.5, 5}, {1.0, 90}};
  simulate(Order, Checks, 0, 40, 1);
  EXPECT_LT(Order.secondsPerRejection(1), Order.secondsPerRejection(0));
  EXPECT_EQ(simulate(Order, Checks, 40, 100, 1), 100 - 100 / CheckOrder::ExploreEvery);
}

TEST(CheckOrderTest, FollowsChangingRates) {
  // First the validity check is the better filter, then (a later pass that makes valid
  // candidates) it hardly rejects anything and the test is.
  CheckOrder Order(2);
  simulate(Order, {{0.2, 20}, {0.05, 70}}, 0, 60, 1);
  EXPECT_EQ(Order.arrange({0, 1}).front(), 1u);
  simulate(Order, {{0.2, 80}, {0.05, 1}}, 60, 200, 1);
  std::size_t ValidityFirst = simulate(Order, {{0.2, 80}, {0.05, 1}}, 260, 100, 1);
  EXPECT_EQ(ValidityFirst, 100 / CheckOrder::ExploreEvery);
}

TEST(CheckOrderTest, RejectionRateComesOnlyFromRunsThatWentFirst) {
  CheckOrder Order(2);
  double Before = Order.rejectionRate(1);
  // After the test passed, the validity check rejected: says nothing about its own rate.
  for (int I = 0; I < 20; ++I)
    Order.record(1, 0.1, /*Rejected=*/true, /*RanFirst=*/false);
  EXPECT_DOUBLE_EQ(Order.rejectionRate(1), Before);
  EXPECT_EQ(Order.rejections(1), 20u);
  EXPECT_EQ(Order.runs(1), 20u);
  for (int I = 0; I < 20; ++I)
    Order.record(1, 0.1, /*Rejected=*/true, /*RanFirst=*/true);
  EXPECT_GT(Order.rejectionRate(1), 0.9);
}

TEST(CheckOrderTest, PartlyJudgedCandidateKeepsTheBestOrder) {
  // With one check's verdict cached, the others run best first and no exploration or
  // warm-up is spent on them: their rejection rate would not be measured anyway.
  CheckOrder Order(3);
  for (int I = 0; I < 10; ++I) {
    Order.record(0, 1.0, I < 2, true);
    Order.record(1, 0.1, I < 8, true);
    Order.record(2, 0.5, I < 5, true);
  }
  for (int I = 0; I < 3 * int(CheckOrder::ExploreEvery); ++I) {
    EXPECT_EQ(Order.arrange({0, 2}), (std::vector<std::size_t>{2, 0}));
    EXPECT_EQ(Order.arrange({2}), (std::vector<std::size_t>{2}));
  }
  EXPECT_EQ(Order.scheduledFirst(0) + Order.scheduledFirst(1) + Order.scheduledFirst(2), 0u);
}
