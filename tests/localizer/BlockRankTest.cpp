// BlockRank against the worked example of Fig. 1 in Zhang, Chan, Tse, Jiang:
// "Precise Propagation of Fault-Failure Correlations in Program Flow Graphs"
// (the `schedule` excerpt: three passed and three failed runs, two of the
// failed ones crashing inside b2).
#include "sleuth/localizer/blockrank.h"

#include <gtest/gtest.h>

#include <cmath>
#include <map>

using namespace sleuth::localizer;

namespace {

// Blocks b1..b4 are 0..3; edges e1..e5 are 0..4:
// e1 = b1->b4, e2 = b1->b2, e3 = b2->b4, e4 = b2->b3, e5 = b3->b4.
FlowGraph figureOneGraph() {
  FlowGraph G;
  G.Blocks = 4;
  G.Edges = {{0, 3}, {0, 1}, {1, 3}, {1, 2}, {2, 3}};
  return G;
}

// Part III (edge frequencies) and Part I (block counts) of Fig. 1.
std::vector<EdgeProfile> figureOneRuns() {
  return {
      {{19, 3, 2, 1, 1}, {22, 3, 1, 22}, false},  // t1
      {{12, 5, 3, 2, 2}, {17, 5, 2, 17}, false},  // t2
      {{20, 2, 1, 1, 1}, {22, 2, 1, 22}, false},  // t3
      {{18, 7, 2, 5, 5}, {25, 7, 5, 25}, true},   // t'1
      {{18, 11, 1, 8, 8}, {29, 11, 8, 27}, true}, // t'2: crashed twice in b2
      {{15, 10, 4, 2, 2}, {25, 10, 2, 21}, true}, // t'3: crashed four times in b2
  };
}

TEST(BlockRankTest, SuspiciousEdgeProfileOfFigureOne) {
  std::vector<EdgeProfile> Runs = figureOneRuns();
  BlockRankResult R = blockRank(figureOneGraph(), Runs);
  std::vector<double> MeanPassed = {17, 10.0 / 3, 2, 4.0 / 3, 4.0 / 3};
  std::vector<double> MeanFailed = {17, 28.0 / 3, 7.0 / 3, 5, 5};
  std::vector<double> Suspicious = {0, 6, 1.0 / 3, 11.0 / 3, 11.0 / 3}; // 0.00 6.00 0.33 3.67 3.67
  for (unsigned E = 0; E < 5; ++E) {
    EXPECT_NEAR(R.MeanPassed[E], MeanPassed[E], 1e-12) << "e" << E + 1;
    EXPECT_NEAR(R.MeanFailed[E], MeanFailed[E], 1e-12) << "e" << E + 1;
    EXPECT_NEAR(R.Suspicious[E], Suspicious[E], 1e-12) << "e" << E + 1;
  }
}

TEST(BlockRankTest, ScoresOfFigureOne) {
  std::vector<EdgeProfile> Runs = figureOneRuns();
  BlockRankResult R = blockRank(figureOneGraph(), Runs);
  // Equations (1)-(4): BR(b1) = BR(b2) = BR(b4) = 4.00, BR(b3) = 3.67.
  EXPECT_NEAR(R.Propagated[0], 4, 1e-9);
  EXPECT_NEAR(R.Propagated[1], 4, 1e-9);
  EXPECT_NEAR(R.Propagated[2], 11.0 / 3, 1e-9);
  EXPECT_NEAR(R.Propagated[3], 4, 1e-9);
  // b2 is left 32 times out of 38 entries.
  EXPECT_NEAR(R.Transition[1], 32.0 / 38, 1e-12);
  EXPECT_NEAR(R.Transition[0], 1, 1e-12);
  EXPECT_NEAR(R.Transition[2], 1, 1e-12);
  EXPECT_NEAR(R.Transition[3], 0, 1e-12);
  EXPECT_NEAR(R.Incoming[1], 6, 1e-12);
  // Equation (5): BR'(b2) = 4.32; the others as the paper reports them.
  EXPECT_NEAR(R.Score[1], 32.0 / 38 * 4 + 6.0 / 38 * 6, 1e-9);
  EXPECT_NEAR(R.Score[1], 4.32, 5e-3);
  EXPECT_NEAR(R.Score[0], 4.00, 5e-3);
  EXPECT_NEAR(R.Score[2], 3.67, 5e-3);
  EXPECT_NEAR(R.Score[3], 4.00, 5e-3);
  EXPECT_EQ(R.IterativeComponents, 0u);
  // Ranked: b2 first; b1 and b4 share 2-3 (the paper's worst case 3); b3 last.
  std::vector<RankRange> Ranks = rankRanges(R.Score);
  EXPECT_EQ(Ranks[1], (RankRange{1, 1}));
  EXPECT_EQ(Ranks[0], (RankRange{2, 3}));
  EXPECT_EQ(Ranks[3], (RankRange{2, 3}));
  EXPECT_EQ(Ranks[2], (RankRange{4, 4}));
}

// The same example read as spectra of a program: each block's rank goes to its
// statements (b1: s1; b2: s2-s4; b3: s5-s8; b4: s9).
TEST(BlockRankTest, StatementsTakeTheRankOfTheirBlock) {
  Program Model;
  SuiteSpectra Suite;
  Suite.Model = &Model;
  const std::vector<std::vector<unsigned>> BlockLines = {{1}, {2, 3, 4}, {5, 6, 7, 8}, {9}};
  for (const EdgeProfile &Run : figureOneRuns()) {
    CoverageFile Cov;
    Cov.Program = "./schedule";
    Cov.Files.push_back({"0123456789abcdef", "/src/schedule.c"});
    Cov.Functions.push_back({0, 1, 9, 0, 3, "upgrade_process_prio"});
    for (unsigned B = 0; B < 4; ++B)
      Cov.Blocks.push_back({0, static_cast<uint64_t>(Run.Blocks[B]), BlockLines[B]});
    const unsigned From[] = {0, 0, 1, 1, 2}, To[] = {3, 1, 3, 2, 3};
    const EdgeKind Kinds[] = {EdgeKind::False, EdgeKind::True, EdgeKind::False, EdgeKind::True,
                              EdgeKind::Seq};
    for (unsigned E = 0; E < 5; ++E)
      Cov.Edges.push_back({From[E], To[E], Kinds[E], static_cast<uint64_t>(Run.Edges[E])});
    for (unsigned B = 0; B < 4; ++B)
      for (unsigned L : BlockLines[B])
        Cov.Lines.push_back({0, L, static_cast<uint64_t>(Run.Blocks[B])});
    // Through the text format, as the command reads it.
    std::string Error;
    std::optional<CoverageFile> Parsed = CoverageFile::parse(Cov.write(), "fig1.cov", Error);
    ASSERT_TRUE(Parsed) << Error;
    Spectrum S;
    ASSERT_TRUE(Model.merge(*Parsed, "fig1.cov", S, Error)) << Error;
    Suite.Spectra.push_back(S);
    Suite.Failed.push_back(Run.Failed);
  }
  Ranking R = rankByBlockRank(Suite);
  EXPECT_EQ(R.Technique, "blockrank");
  std::map<unsigned, ScoredEvent> ByLine;
  for (const ScoredEvent &E : R.Events)
    ByLine[Model.lines()[E.What.Id].Number] = E;
  ASSERT_EQ(ByLine.size(), 9u);
  for (unsigned L : {2u, 3u, 4u}) {
    EXPECT_EQ(ByLine[L].Rank, (RankRange{1, 3})) << L;
    EXPECT_NEAR(ByLine[L].Score, 4.32, 5e-3);
  }
  for (unsigned L : {1u, 9u})
    EXPECT_EQ(ByLine[L].Rank, (RankRange{4, 5})) << L;
  for (unsigned L : {5u, 6u, 7u, 8u})
    EXPECT_EQ(ByLine[L].Rank, (RankRange{6, 9})) << L;
}

TEST(BlockRankTest, LoopsAreSolvedAsOneEquationSet) {
  // entry -> head; head -> body (true), head -> exit (false); body -> head.
  FlowGraph G;
  G.Blocks = 4;
  G.Edges = {{0, 1}, {1, 2}, {1, 3}, {2, 1}};
  std::vector<EdgeProfile> Runs = {
      {{1, 2, 1, 2}, {1, 3, 2, 1}, false},
      {{1, 5, 1, 5}, {1, 6, 5, 1}, true},
  };
  BlockRankResult R = blockRank(G, Runs);
  // D = (0, 3, 0, 3). Into head: e0 (0) + e3 (3); into body: e1 (3); into exit: e2 (0).
  // BR(exit) = 0; BR(body) = 1 * BR(head); BR(head) = 1 * BR(body) + 0 * BR(exit):
  // singular, solved by iteration from zero.
  EXPECT_EQ(R.IterativeComponents, 1u);
  for (double S : R.Score)
    EXPECT_TRUE(std::isfinite(S));
}

TEST(BlockRankTest, DenseSolver) {
  std::vector<double> X;
  ASSERT_TRUE(solveDense({2, 1, 1, 3}, {3, 5}, X));
  EXPECT_NEAR(X[0], 0.8, 1e-12);
  EXPECT_NEAR(X[1], 1.4, 1e-12);
  // Needs a row swap.
  ASSERT_TRUE(solveDense({0, 1, 1, 0}, {2, 3}, X));
  EXPECT_NEAR(X[0], 3, 1e-12);
  EXPECT_NEAR(X[1], 2, 1e-12);
  EXPECT_FALSE(solveDense({1, 2, 2, 4}, {1, 2}, X));
}

} // namespace
