// Value predicates: their records in the coverage file, their counts in spectra, CBI's
// Importance, and lines whose ties they break.
#include "TestSupport.h"

#include "sleuth/localizer/ranking.h"
#include "sleuth/localizer/spectrum.h"
#include "sleuth/localizer/views.h"

#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

using namespace sleuth::localizer;

namespace {

const char *WithValues =
    "sleuth-cov 3\nprogram ./p\nstatus exit 0\nfile 0 0123456789abcdef /s.c\n"
    "func 0 0 1 3 0 1 f\nblock 0 0 1 -\nblock 1 0 1 2,3\nedge 0 1 seq 1\n"
    "line 0 2 4\nline 0 3 1\nvalue 0 0 2 3 m 0 1 0 3\nvalue 1 0 2 3 m y 0 4 0\n"
    "value 2 0 3 3 return 0 0 1 0\nend\n";

TEST(PredicateTest, ReadsAndWritesValueRecords) {
  std::string Error;
  std::optional<CoverageFile> Cov = CoverageFile::parse(WithValues, "v.cov", Error);
  ASSERT_TRUE(Cov) << Error;
  ASSERT_EQ(Cov->Values.size(), 3u);
  const CoverageFile::Value &V = Cov->Values[1];
  EXPECT_EQ(V.Line, 2u);
  EXPECT_EQ(V.Column, 3u);
  EXPECT_EQ(V.Left, "m");
  EXPECT_EQ(V.Right, "y");
  EXPECT_EQ(V.Counts[1], 4u);
  EXPECT_EQ(Cov->write(), WithValues);
}

TEST(PredicateTest, RejectsBrokenValueRecords) {
  std::string Text = WithValues;
  auto Error = [](const std::string &T) {
    std::string E;
    EXPECT_FALSE(CoverageFile::parse(T, "v.cov", E));
    return E;
  };
  // Version 2 has no value records.
  EXPECT_EQ(Error("sleuth-cov 2" + Text.substr(12)),
            "v.cov:11: 'value' record in a version 1 or 2 file");
  std::string Gap = Text;
  Gap.replace(Gap.find("value 1"), 7, "value 5");
  EXPECT_EQ(Error(Gap), "v.cov:12: value id 5 out of sequence (expected 1)");
  std::string Short = Text;
  Short.replace(Short.find(" 0 4 0\n"), 7, " 0 4\n");
  EXPECT_EQ(Error(Short), "v.cov:12: 'value' record needs 9 fields, has 8");
  std::string Late = Text;
  Late.replace(Late.find("line 0 3 1\n"), 11, "");
  Late.replace(Late.find("end\n"), 4, "line 0 3 1\nend\n");
  EXPECT_EQ(Error(Late), "v.cov:13: 'line' record out of order");
}

TEST(PredicateTest, MergesSitesByPlaceAndCountsOutcomes) {
  std::string Error;
  std::optional<CoverageFile> Cov = CoverageFile::parse(WithValues, "v.cov", Error);
  ASSERT_TRUE(Cov) << Error;
  Program P;
  Spectrum First, Second;
  ASSERT_TRUE(P.merge(*Cov, "a.cov", First, Error)) << Error;
  ASSERT_TRUE(P.merge(*Cov, "b.cov", Second, Error)) << Error;
  ASSERT_TRUE(P.merge(*Cov, "c.cov", Second, Error)) << Error; // a test with two processes
  ASSERT_EQ(P.values().size(), 3u);
  Event Greater{EventKind::Value, 3 * 0 + 2}, Less{EventKind::Value, 0};
  EXPECT_EQ(eventCount(First, Greater), 3u);
  EXPECT_EQ(eventCount(Second, Greater), 6u);
  EXPECT_EQ(eventCount(Second, Less), 2u);
  EXPECT_EQ(observationCount(Second, Less), 8u);
  EXPECT_EQ(allEvents(P, EventKind::Value).size(), 9u);
  EXPECT_EQ(describeEvent(P, Greater), "m > 0");
  EXPECT_EQ(describeEvent(P, {EventKind::Value, 3 * 1 + 1}), "m == y");
  EXPECT_EQ(describeEvent(P, {EventKind::Value, 3 * 2 + 0}), "return value < 0");
  EXPECT_EQ(placeOf(P, {EventKind::Value, 3 * 2}).Line, 3u);
}

// Liblit et al.'s measures on counts worked out by hand: F(P) = 3 of 4 failing runs, S(P) = 1,
// the site reached in all 4 failing and 6 passing runs.
TEST(PredicateTest, ImportanceIsTheHarmonicMeanOfIncreaseAndSensitivity) {
  const Formula *Importance = findFormula("importance");
  ASSERT_NE(Importance, nullptr);
  EventCounts C;
  C.Ef = 3, C.Nf = 1, C.Ep = 1, C.Np = 5, C.Of = 4, C.Op = 6;
  double Increase = 3.0 / 4 - 4.0 / 10;
  double Sensitivity = std::log(4.0) / std::log(5.0);
  EXPECT_NEAR(Importance->Score(C), 2 / (1 / Increase + 1 / Sensitivity), 1e-12);
  // A predicate no more likely in failing runs than its site: 0, however often it holds.
  C.Of = 4, C.Op = 1;
  EXPECT_EQ(Importance->Score(C), 0);
  // Never in a failing run: 0.
  EventCounts Never;
  Never.Nf = 2, Never.Ep = 3, Never.Of = 2, Never.Op = 3;
  EXPECT_EQ(Importance->Score(Never), 0);
  // A line is its own site: Increase 0.
  EventCounts Line;
  Line.Ef = 2, Line.Ep = 1, Line.Of = 2, Line.Op = 1;
  EXPECT_EQ(Importance->Score(Line), 0);
}

/// A run of the two-line program: line 2 assigns m (value site 0, compared with 0), line 3
/// assigns k (site 1); both lines always run, so every line formula ties them.
CoverageFile run(uint64_t MNegative, uint64_t KNegative) {
  CoverageFile Cov;
  Cov.Program = "./p";
  Cov.Files.push_back({"0123456789abcdef", "/s.c"});
  Cov.Functions.push_back({0, 1, 4, 0, 1, "f"});
  Cov.Blocks.push_back({0, 1, {}});
  Cov.Blocks.push_back({0, 1, {2, 3}});
  Cov.Edges.push_back({0, 1, EdgeKind::Seq, 1});
  Cov.Lines.push_back({0, 2, 1});
  Cov.Lines.push_back({0, 3, 1});
  Cov.Values.push_back({0, 2, 3, "m", "0", {MNegative, 0, 1 - MNegative}});
  Cov.Values.push_back({0, 3, 3, "k", "0", {KNegative, 0, 1 - KNegative}});
  return Cov;
}

TEST(PredicateTest, BreaksTiesOfLinesByTheirBestPredicate) {
  Program P;
  SuiteSpectra Suite;
  Suite.Model = &P;
  // m < 0 in both failing runs and one of three passing runs; k < 0 in one failing run.
  std::vector<std::pair<CoverageFile, bool>> Runs = {{run(1, 1), true},
                                                     {run(1, 0), true},
                                                     {run(1, 0), false},
                                                     {run(0, 1), false},
                                                     {run(0, 0), false}};
  std::string Error;
  for (auto &[Cov, Failed] : Runs) {
    Spectrum S;
    ASSERT_TRUE(P.merge(Cov, "t.cov", S, Error)) << Error;
    Suite.Spectra.push_back(S);
    Suite.Failed.push_back(Failed);
  }
  const EventKind Lines[] = {EventKind::Line};
  Ranking R = rankByFormula(Suite, observedEvents(Suite, Lines), *findFormula("ochiai"));
  ASSERT_EQ(R.Events.size(), 2u);
  EXPECT_EQ(R.Events[0].Rank, (RankRange{1, 2})); // one tie
  breakTiesByPredicates(Suite, R);
  EXPECT_EQ(R.TieBreak, "importance");
  EXPECT_EQ(placeOf(P, R.Events[0].What).Line, 2u);
  EXPECT_EQ(R.Events[0].Rank, (RankRange{1, 1}));
  EXPECT_EQ(R.Events[1].Rank, (RankRange{2, 2}));
  ASSERT_TRUE(R.Events[0].Lifted);
  EXPECT_EQ(describeEvent(P, *R.Events[0].Lifted), "m < 0");
  EXPECT_GT(R.Events[0].Second, R.Events[1].Second);
  // The first criterion still decides: the scores are unchanged.
  EXPECT_EQ(R.Events[0].Score, R.Events[1].Score);

  // Every view says which predicate ordered the tie.
  Report Rep;
  Rep.Suite = &Suite;
  Rep.Result = R;
  for (std::size_t T = 0; T < Runs.size(); ++T)
    Rep.Tests.push_back({"t" + std::to_string(T), "./p",
                         Runs[T].second ? Verdict::Failed : Verdict::Passed, "", 0.01});
  std::string List = rankedListView(Rep, ViewOptions());
  EXPECT_NE(List.find("from 5 tests (2 failing), ties broken by predicate importance:\n"),
            std::string::npos)
      << List;
  EXPECT_NE(List.find("   1  0.632     2/2     3/3  /s.c:2      [m < 0 (importance 0.421)]\n"),
            std::string::npos)
      << List;
  std::string Source = sourceView(Rep, ViewOptions());
  EXPECT_NE(Source.find("[m < 0 (importance 0.421)]"), std::string::npos) << Source;
  EXPECT_NE(htmlReport(Rep).find("[m &lt; 0 (importance 0.421)]"), std::string::npos);
  nlohmann::json J = nlohmann::json::parse(jsonExport(Rep));
  EXPECT_EQ(J["tie_break"], "importance");
  EXPECT_EQ(J["events"][0]["predicate"], "m < 0");
  EXPECT_NE(sarifExport(Rep, 10).find("among equal scores ranked by m < 0 (importance "),
            std::string::npos);
  EXPECT_NE(csvExport(Rep).find(",m < 0 (importance "), std::string::npos) << csvExport(Rep);
}

} // namespace
