// SAT-TAR's combination (sleuth/localizer/specification.h): suspects from diagnoses, faults
// told apart by disjoint suspects, passing tests chosen by their coverage of the suspects, and
// the lift of the suspects above the spectrum.
#include "TestSupport.h"

#include "sleuth/localizer/specification.h"

#include <gtest/gtest.h>

#include <cmath>

using namespace sleuth::localizer;

namespace {

/// A suite over lines 1..10 of /s.c; Runs are (lines executed, failed).
struct Suite {
  Program Model;
  SuiteSpectra Spectra;
  explicit Suite(const std::vector<std::pair<std::set<unsigned>, bool>> &Runs) {
    Spectra.Model = &Model;
    for (const auto &[Lines, Failed] : Runs) {
      Spectrum S;
      std::string Error;
      EXPECT_TRUE(Model.merge(test::linesOnly("/s.c", 10, Lines), "run", S, Error)) << Error;
      Spectra.Spectra.push_back(S);
      Spectra.Failed.push_back(Failed);
    }
  }
  unsigned line(unsigned Number) const { return *Model.lineId(0, Number); }
  /// The rank range and reason of line Number in R.
  const ScoredEvent &at(const Ranking &R, unsigned Number) const {
    for (const ScoredEvent &E : R.Events)
      if (E.What.Id == line(Number))
        return E;
    ADD_FAILURE() << "line " << Number << " not ranked";
    return R.Events.front();
  }
};

TEST(SpecificationTest, SuspectsAreTheLinesOfTheSetsAndTheCore) {
  RunDiagnosis D;
  D.CorrectionSets = {{4, 2}, {7}};
  D.Core = {2, 9};
  EXPECT_EQ(suspectLines(D), (std::vector<unsigned>{2, 4, 7, 9}));
}

TEST(SpecificationTest, DisjointSuspectsAreDifferentFaults) {
  std::vector<RunDiagnosis> D(4);
  D[0].Test = 3, D[0].CorrectionSets = {{1}, {2}};
  D[1].Test = 1, D[1].CorrectionSets = {{5}};
  D[2].Test = 2, D[2].Core = {2, 8}; // shares line 2 with the first
  D[3].Test = 0;                     // no suspects: in no group
  auto Groups = partitionByFault(D);
  ASSERT_EQ(Groups.size(), 2u);
  EXPECT_EQ(Groups[0], (std::vector<std::size_t>{1}));    // test 1 comes first
  EXPECT_EQ(Groups[1], (std::vector<std::size_t>{0, 2})); // joined through line 2
}

TEST(SpecificationTest, PassingTestsAreThoseThatExecuteASuspect) {
  Suite S({{{1, 2, 3}, false}, {{1, 4}, false}, {{1, 3, 5}, false}, {{1, 3}, true}});
  const unsigned Three[] = {S.line(3)};
  EXPECT_EQ(similarPassingTests(S.Spectra, Three), (std::vector<std::size_t>{0, 2}));
  const unsigned Nine[] = {S.line(9)}; // no test runs it: every passing test
  EXPECT_EQ(similarPassingTests(S.Spectra, Nine), (std::vector<std::size_t>{0, 1, 2}));
}

// Every failing and passing run executes lines 1-3 (a straight-line function): the spectrum
// ties them, and the trace formula's correction sets, which hold line 2 twice and line 3 once,
// order them.
TEST(SpecificationTest, CorrectionSetsLiftTheirLinesAboveTheTie) {
  Suite S({{{1, 2, 3, 4}, false}, {{1, 2, 3, 5}, false}, {{1, 2, 3}, true}});
  const Formula &Op2 = *findFormula("op2");
  std::vector<RunDiagnosis> D(1);
  D[0].Test = 2;
  D[0].CorrectionSets = {{S.line(2)}, {S.line(2), S.line(3)}};
  Ranking Plain = rankBySpecification(S.Spectra, {}, Op2);
  EXPECT_EQ(S.at(Plain, 2).Rank, S.at(Plain, 1).Rank);
  Ranking R = rankBySpecification(S.Spectra, D, Op2);
  EXPECT_EQ(R.Technique, "sat-tar");
  EXPECT_EQ(S.at(R, 2).Rank, (RankRange{1, 1}));
  EXPECT_EQ(S.at(R, 3).Rank, (RankRange{2, 2}));
  EXPECT_EQ(S.at(R, 1).Rank, (RankRange{3, 3}));
  EXPECT_EQ(S.at(R, 2).Reason, "in 2 of 2 correction sets of failing test 3");
  EXPECT_EQ(S.at(R, 3).Reason, "in 1 of 2 correction sets of failing test 3");
  EXPECT_EQ(S.at(R, 1).Reason, "");
  // Op2's range is rescaled to [0, 1] before the lift: 1 + 1 + 1 at most.
  EXPECT_LE(S.at(R, 2).Score, 3.0);
  EXPECT_GE(S.at(R, 2).Score, 2.0);
}

// Two faults: test 2 fails through line 6, test 3 through line 8. Each fault's suspects are
// scored over its own failing run and the passing runs that execute them, so the other
// fault's failing run does not dilute them.
TEST(SpecificationTest, EachFaultIsScoredOverItsOwnRuns) {
  Suite S({{{1, 6}, false}, {{1, 8}, false}, {{1, 6, 7}, true}, {{1, 8, 9}, true}});
  const Formula &Ochiai = *findFormula("ochiai");
  std::vector<RunDiagnosis> D(2);
  D[0].Test = 2, D[0].CorrectionSets = {{S.line(6)}};
  D[1].Test = 3, D[1].CorrectionSets = {{S.line(8)}};
  Ranking R = rankBySpecification(S.Spectra, D, Ochiai);
  EXPECT_EQ(S.at(R, 6).Rank, (RankRange{1, 2}));
  EXPECT_EQ(S.at(R, 8).Rank, (RankRange{1, 2}));
  EXPECT_EQ(S.at(R, 6).Reason, "fault 1: in 1 of 1 correction sets of failing test 3");
  EXPECT_EQ(S.at(R, 8).Reason, "fault 2: in 1 of 1 correction sets of failing test 4");
  // Over fault 1's runs (tests 1, 3) Ochiai gives line 6 ef=1, ep=1: 0.707, lifted by 2.
  EXPECT_NEAR(S.at(R, 6).Score, 2 + 1 / std::sqrt(2.0), 1e-9);
  // Line 7 runs only in fault 1's failing test: it outranks line 1, which every test runs.
  EXPECT_LT(S.at(R, 7).Rank.Worst, S.at(R, 1).Rank.Best);
}

} // namespace
