// Every formula against values computed by hand, and the Debugging Book's
// middle() suite (Tarantula 0.83 and Ochiai 0.71 for line 6).
#include "TestSupport.h"

#include "sleuth/localizer/ranking.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

using namespace sleuth::localizer;

namespace {

double score(std::string_view Name, EventCounts C) {
  const Formula *F = findFormula(Name);
  EXPECT_NE(F, nullptr) << Name;
  return F ? F->Score(C) : NAN;
}

TEST(FormulaTest, OneFailingOnePassingOfSix) {
  // ef = 1, ep = 1, nf = 0, np = 4 (F = 1, P = 5).
  EventCounts C{1, 1, 0, 4};
  EXPECT_NEAR(score("tarantula", C), 1.0 / 1.2, 1e-12);
  EXPECT_NEAR(score("ochiai", C), 1 / std::sqrt(2.0), 1e-12);
  EXPECT_NEAR(score("jaccard", C), 0.5, 1e-12);
  EXPECT_NEAR(score("dstar", C), 1.0, 1e-12);
  EXPECT_NEAR(score("op2", C), 1 - 1.0 / 6, 1e-12);
  EXPECT_NEAR(score("barinel", C), 0.5, 1e-12);
  EXPECT_NEAR(score("kulczynski2", C), 0.75, 1e-12);
  EXPECT_NEAR(score("naish1", C), 4, 1e-12);
  EXPECT_NEAR(score("naish2", C), 1 - 1.0 / 6, 1e-12);
  EXPECT_NEAR(score("kulczynski1", C), 1, 1e-12);
  EXPECT_NEAR(score("sorensen-dice", C), 2.0 / 3, 1e-12);
  EXPECT_NEAR(score("russell-rao", C), 1.0 / 6, 1e-12);
  EXPECT_NEAR(score("wong2", C), 0, 1e-12);
  EXPECT_NEAR(score("zoltar", C), 0.5, 1e-12);
}

TEST(FormulaTest, TwoOfThreeFailingThreeOfSevenPassing) {
  EventCounts C{2, 3, 1, 4};
  EXPECT_NEAR(score("tarantula", C), 14.0 / 23, 1e-12);
  EXPECT_NEAR(score("ochiai", C), 2 / std::sqrt(15.0), 1e-12);
  EXPECT_NEAR(score("jaccard", C), 1.0 / 3, 1e-12);
  EXPECT_NEAR(score("dstar", C), 1.0, 1e-12);
  EXPECT_NEAR(score("op2", C), 2 - 3.0 / 8, 1e-12);
  EXPECT_NEAR(score("barinel", C), 0.4, 1e-12);
  EXPECT_NEAR(score("kulczynski2", C), (2.0 / 3 + 0.4) / 2, 1e-12);
  EXPECT_NEAR(score("naish1", C), -1, 1e-12);
  EXPECT_NEAR(score("naish2", C), 2 - 3.0 / 8, 1e-12);
  EXPECT_NEAR(score("kulczynski1", C), 0.5, 1e-12);
  EXPECT_NEAR(score("sorensen-dice", C), 0.5, 1e-12);
  EXPECT_NEAR(score("russell-rao", C), 0.2, 1e-12);
  EXPECT_NEAR(score("wong2", C), -1, 1e-12);
  EXPECT_NEAR(score("zoltar", C), 2.0 / 15006, 1e-15);
}

TEST(FormulaTest, ZeroDenominatorsGiveNumbersNotNaN) {
  EventCounts Never{0, 0, 2, 3};
  for (const Formula &F : formulas())
    EXPECT_FALSE(std::isnan(F.Score(Never))) << F.Name;
  EXPECT_EQ(score("tarantula", Never), 0);
  EXPECT_EQ(score("ochiai", Never), 0);
  // In every failing run and no passing one: DStar's denominator vanishes.
  EventCounts Perfect{2, 0, 0, 3};
  EXPECT_TRUE(std::isinf(score("dstar", Perfect)));
  EXPECT_EQ(score("tarantula", Perfect), 1);
  EXPECT_EQ(score("naish1", Perfect), 3);
  EXPECT_GT(score("kulczynski1", Perfect), score("kulczynski1", EventCounts{2, 1, 0, 2}));
}

TEST(FormulaTest, NamesAreCaseInsensitiveAndUnique) {
  EXPECT_EQ(findFormula("Ochiai"), findFormula("ochiai"));
  EXPECT_EQ(findFormula("nonsense"), nullptr);
  for (const char *Name :
       {"tarantula", "ochiai", "jaccard", "dstar", "op2", "barinel", "kulczynski2", "naish1"})
    EXPECT_NE(findFormula(Name), nullptr) << Name;
  std::set<std::string_view> Names;
  for (const Formula &F : formulas())
    EXPECT_TRUE(Names.insert(F.Name).second) << F.Name;
}

/// The book's six runs of middle(): lines each executed (Python numbering).
struct MiddleSuite {
  Program Model;
  SuiteSpectra Suite;
  MiddleSuite() {
    const std::vector<std::pair<std::set<unsigned>, bool>> Runs = {
        {{1, 2, 3, 5, 6}, false},   // middle(3, 3, 5)
        {{1, 2, 3, 4}, false},      // middle(1, 2, 3)
        {{1, 2, 8, 9}, false},      // middle(3, 2, 1)
        {{1, 2, 8, 10, 12}, false}, // middle(5, 5, 5)
        {{1, 2, 3, 5, 12}, false},  // middle(5, 3, 4)
        {{1, 2, 3, 5, 6}, true},    // middle(2, 1, 3): returns 1, fails
    };
    Suite.Model = &Model;
    for (const auto &[Lines, Failed] : Runs) {
      Spectrum S;
      std::string Error;
      EXPECT_TRUE(Model.merge(test::linesOnly("/src/middle.py", 12, Lines), "run", S, Error))
          << Error;
      Suite.Spectra.push_back(S);
      Suite.Failed.push_back(Failed);
    }
  }
  std::map<unsigned, ScoredEvent> byLine(const Ranking &R) const {
    std::map<unsigned, ScoredEvent> Out;
    for (const ScoredEvent &E : R.Events)
      Out[Model.lines()[E.What.Id].Number] = E;
    return Out;
  }
};

TEST(FormulaTest, MiddleTarantulaAsInTheBook) {
  MiddleSuite M;
  EventKind Lines[] = {EventKind::Line};
  Ranking R = rankByFormula(M.Suite, observedEvents(M.Suite, Lines), *findFormula("tarantula"));
  ASSERT_EQ(R.Events.size(), 10u); // lines 7 and 11 never ran: not ranked
  std::map<unsigned, ScoredEvent> ByLine = M.byLine(R);
  EXPECT_NEAR(ByLine[6].Score, 0.8333, 5e-5);
  EXPECT_NEAR(ByLine[5].Score, 1 / 1.4, 1e-12);
  EXPECT_NEAR(ByLine[3].Score, 1 / 1.6, 1e-12);
  EXPECT_NEAR(ByLine[1].Score, 0.5, 1e-12);
  // The book's order: 6, 5, 3, then 1 and 2 tied, then 12, 9, 8, 4, 10 tied at 0.
  EXPECT_EQ(R.Events[0].What, ByLine[6].What);
  EXPECT_EQ(ByLine[6].Rank, (RankRange{1, 1}));
  EXPECT_EQ(ByLine[5].Rank, (RankRange{2, 2}));
  EXPECT_EQ(ByLine[3].Rank, (RankRange{3, 3}));
  EXPECT_EQ(ByLine[1].Rank, (RankRange{4, 5}));
  EXPECT_EQ(ByLine[2].Rank, (RankRange{4, 5}));
  EXPECT_DOUBLE_EQ(ByLine[2].Rank.average(), 4.5);
  for (unsigned L : {4u, 8u, 9u, 10u, 12u})
    EXPECT_EQ(ByLine[L].Rank, (RankRange{6, 10})) << L;
  EXPECT_EQ(ByLine[6].Counts.Ef, 1);
  EXPECT_EQ(ByLine[6].Counts.Ep, 1);
  EXPECT_EQ(ByLine[6].Counts.Nf, 0);
  EXPECT_EQ(ByLine[6].Counts.Np, 4);
}

TEST(FormulaTest, MiddleOchiaiAsInTheBook) {
  MiddleSuite M;
  EventKind Lines[] = {EventKind::Line};
  Ranking R = rankByFormula(M.Suite, observedEvents(M.Suite, Lines), *findFormula("ochiai"));
  std::map<unsigned, ScoredEvent> ByLine = M.byLine(R);
  EXPECT_NEAR(ByLine[6].Score, 0.7071, 5e-5);
  EXPECT_EQ(R.Events[0].What, ByLine[6].What);
  EXPECT_EQ(R.Events[1].What, ByLine[5].What);
  EXPECT_EQ(R.Events[2].What, ByLine[3].What);
}

TEST(RankTest, RangesForTies) {
  std::vector<double> Scores = {0.5, 0.9, 0.5, 0.1, 0.5};
  std::vector<RankRange> R = rankRanges(Scores);
  EXPECT_EQ(R[1], (RankRange{1, 1}));
  EXPECT_EQ(R[0], (RankRange{2, 4}));
  EXPECT_EQ(R[2], (RankRange{2, 4}));
  EXPECT_EQ(R[4], (RankRange{2, 4}));
  EXPECT_EQ(R[3], (RankRange{5, 5}));
  EXPECT_DOUBLE_EQ(R[0].average(), 3);
  // Scores that differ in the last bits are ties; infinity is not.
  std::vector<double> Close = {0.1 + 0.2, 0.3, INFINITY};
  R = rankRanges(Close);
  EXPECT_EQ(R[2], (RankRange{1, 1}));
  EXPECT_EQ(R[0], (RankRange{2, 3}));
  EXPECT_EQ(R[1], (RankRange{2, 3}));
}

} // namespace
