// Mutation-based localization: Metallaxis-FL's score, what counts as a changed outcome, the
// schemata manifest, coverage of a schemata build mapped onto the original, and the mutant
// runs themselves with shell commands standing in for the schemata binary (they read
// SLEUTH_MUTANT as it would).
#include "sleuth/localizer/mutation.h"
#include "sleuth/slicer/source_hash.h"

#include "TestSupport.h"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace sleuth::localizer;

namespace {

using MutationTest = test::ScratchDirTest;

TEST(Metallaxis, IsOchiaiOnMutantKills) {
  EXPECT_DOUBLE_EQ(metallaxisScore(1, 0, 1), 1.0);
  EXPECT_DOUBLE_EQ(metallaxisScore(1, 1, 1), 1 / std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(metallaxisScore(2, 2, 4), 0.5);
  EXPECT_DOUBLE_EQ(metallaxisScore(1, 3, 2), 1 / std::sqrt(8.0));
  // A mutant that changes no failing test, or nothing at all, says nothing about its line.
  EXPECT_EQ(metallaxisScore(0, 3, 2), 0.0);
  EXPECT_EQ(metallaxisScore(0, 0, 3), 0.0);
  EXPECT_EQ(metallaxisScore(0, 0, 0), 0.0);
}

TEST(Metallaxis, ScoresALineByItsBestMutant) {
  std::vector<MutantOutcome> Outcomes = {
      {2, 1, 1, 1, 1}, {3, 1, 0, 1, 0}, {3, 0, 0, 0, 0}, {4, 0, 2, 0, 2}};
  std::map<unsigned, double> Scores = lineScores(Outcomes, MutationTechnique::Metallaxis, 1);
  EXPECT_EQ(Scores.size(), 3u);
  EXPECT_DOUBLE_EQ(Scores[2], 1 / std::sqrt(2.0));
  EXPECT_DOUBLE_EQ(Scores[3], 1.0);
  EXPECT_EQ(Scores[4], 0.0);
}

TEST(Muse, AveragesFlipsOverTheLinesMutantsPlusOne) {
  // f2p = 2 and p2f = 3 over all mutants. Line 2: (1/3 - 1/4) / 2; line 3: (1/3 + 0) / 3;
  // line 4: (0 - 2/4) / 2.
  std::vector<MutantOutcome> Outcomes = {
      {2, 1, 1, 1, 1}, {3, 1, 0, 1, 0}, {3, 0, 0, 0, 0}, {4, 0, 2, 0, 2}};
  std::map<unsigned, double> Scores = lineScores(Outcomes, MutationTechnique::Muse, 1);
  EXPECT_DOUBLE_EQ(Scores[2], (1.0 / 3 - 1.0 / 4) / 2);
  EXPECT_DOUBLE_EQ(Scores[3], (1.0 / 3) / 3);
  EXPECT_DOUBLE_EQ(Scores[4], -0.25);
  // Output changes without a verdict flip do not count for MUSE.
  EXPECT_EQ(lineScores({{5, 1, 1, 0, 0}}, MutationTechnique::Muse, 1)[5], 0.0);
}

TEST(Metallaxis, OutcomeChangesWithVerdictReasonOrOutput) {
  TestResult Failed;
  Failed.Outcome = Verdict::Failed;
  Failed.Detail = "exit 1, expected 0";
  TestResult Same = Failed;
  EXPECT_FALSE(outcomeChanged(Failed, "4\n", Same, "4\n"));
  // Still failing, but printing something else: the mutant reached the failure.
  EXPECT_TRUE(outcomeChanged(Failed, "4\n", Same, "3\n"));
  TestResult OtherExit = Failed;
  OtherExit.Detail = "exit 2, expected 0";
  EXPECT_TRUE(outcomeChanged(Failed, "", OtherExit, ""));
  TestResult Passed;
  EXPECT_TRUE(outcomeChanged(Failed, "", Passed, ""));
  TestResult Crashed;
  Crashed.Outcome = Verdict::Crashed;
  EXPECT_TRUE(outcomeChanged(Passed, "", Crashed, ""));
}

TEST_F(MutationTest, ReadsTheManifestOfMutateSchemata) {
  std::string Path = write("p.s.c.json", R"({"version": 1, "file": "p.c", "schemata": "p.s.c",
    "variable": "SLEUTH_MUTANT", "prelude_lines": 29, "path": "/src/p.c",
    "mutants": [{"id": 3, "file": "p.c", "line": 7, "column": 9, "operator": "ror",
                 "original": ">", "replacement": ">="}],
    "left_out": [{"id": 1, "reason": "in the initializer of a static variable"}]})");
  SchemataManifest M;
  std::string Error;
  ASSERT_TRUE(readSchemataManifest(Path, M, Error)) << Error;
  EXPECT_EQ(M.Source, "/src/p.c");
  EXPECT_EQ(M.Schemata, (Dir / "p.s.c").string());
  EXPECT_EQ(M.PreludeLines, 29u);
  ASSERT_EQ(M.Mutants.size(), 1u);
  EXPECT_EQ(M.Mutants[0].Id, 3u);
  EXPECT_EQ(M.Mutants[0].Line, 7u);
  EXPECT_EQ(M.Mutants[0].Replacement, ">=");

  // The schemata beside the manifest must hold the text it describes.
  write("h.s.c", "int f(void);\n");
  std::string Hashed = write("h.s.c.json", R"({"path": "/src/h.c", "mutants": [],
    "schemata_hash": ")" + sleuth::sourceHash("int f(void);\n") +
                                               R"("})");
  EXPECT_TRUE(readSchemataManifest(Hashed, M, Error)) << Error;
  EXPECT_EQ(M.SchemataHash, sleuth::sourceHash("int f(void);\n"));
  write("h.s.c", "int f(void);\nint g(void);\n");
  EXPECT_FALSE(readSchemataManifest(Hashed, M, Error));
  EXPECT_EQ(Error, Hashed + ": describes another version of " + (Dir / "h.s.c").string() +
                       " (one of the two was rewritten since); run `sleuth mutate --schemata` "
                       "again");

  EXPECT_FALSE(readSchemataManifest((Dir / "none.json").string(), M, Error));
  EXPECT_EQ(Error,
            "cannot read schemata manifest '" + (Dir / "none.json").string() + "': no such file");
  std::string Bad = write("bad.json", R"({"mutants": []})");
  EXPECT_FALSE(readSchemataManifest(Bad, M, Error));
  EXPECT_EQ(Error.rfind(Bad + ": not a schemata manifest", 0), 0u) << Error;
}

TEST(Metallaxis, MapsSchemataCoverageOntoTheOriginal) {
  SchemataManifest M;
  M.Source = "/src/p.c";
  M.Schemata = "/build/p.s.c";
  M.PreludeLines = 20;
  CoverageFile Cov;
  Cov.Files = {{"aaaaaaaaaaaaaaaa", "/src/lib.c"}, {"00112233aabbccdd", "/build/p.s.c"}};
  // The prelude's function (lines 10-19), then f (lines 22-25 = 2-5 of p.c) and lib's g.
  Cov.Functions = {
      {1, 10, 19, 0, 1, "__sleuth_mutant"}, {1, 22, 25, 2, 3, "f"}, {0, 3, 4, 4, 5, "g"}};
  Cov.Blocks = {{0, 1, {11}}, {0, 1, {}}, {1, 1, {22, 23}}, {1, 1, {}}, {2, 1, {3}}, {2, 1, {}}};
  Cov.Edges = {{0, 1, EdgeKind::Seq, 1}, {2, 3, EdgeKind::True, 1}, {4, 5, EdgeKind::Seq, 1}};
  Cov.Conditions = {{0, 11, 5, 11, 9, 1, 0}, {2, 23, 7, 23, 12, 1, 0}};
  Cov.Lines = {{1, 11, 1}, {1, 22, 1}, {1, 23, 1}, {0, 3, 1}};
  ASSERT_EQ(mapSchemataCoverage(Cov, M), SchemataMatch::Mapped);
  EXPECT_EQ(Cov.Files[1].Path, "/src/p.c");
  ASSERT_EQ(Cov.Functions.size(), 2u);
  EXPECT_EQ(Cov.Functions[0].Name, "f");
  EXPECT_EQ(Cov.Functions[0].Begin, 2u);
  EXPECT_EQ(Cov.Functions[0].End, 5u);
  EXPECT_EQ(Cov.Functions[0].Entry, 0u);
  EXPECT_EQ(Cov.Functions[0].Exit, 1u);
  EXPECT_EQ(Cov.Functions[1].Entry, 2u); // lib.c's g keeps its lines, its blocks move
  ASSERT_EQ(Cov.Blocks.size(), 4u);
  EXPECT_EQ(Cov.Blocks[0].Lines, (std::vector<unsigned>{2, 3}));
  EXPECT_EQ(Cov.Blocks[2].Lines, (std::vector<unsigned>{3}));
  ASSERT_EQ(Cov.Edges.size(), 2u);
  EXPECT_EQ(Cov.Edges[0].From, 0u);
  EXPECT_EQ(Cov.Edges[1].From, 2u);
  ASSERT_EQ(Cov.Conditions.size(), 1u);
  EXPECT_EQ(Cov.Conditions[0].Line, 3u);
  ASSERT_EQ(Cov.Lines.size(), 3u);
  EXPECT_EQ(Cov.Lines[0].Number, 2u);
  EXPECT_EQ(Cov.Lines[2].Number, 3u); // lib.c:3 unchanged
  // The result is a coverage file the localizer reads back.
  std::string Error;
  EXPECT_TRUE(CoverageFile::parse(Cov.write(), "mapped.cov", Error)) << Error;

  CoverageFile Other;
  Other.Files = {{"aaaaaaaaaaaaaaaa", "/src/lib.c"}};
  EXPECT_EQ(mapSchemataCoverage(Other, M), SchemataMatch::None);
  EXPECT_EQ(Other.Files[0].Path, "/src/lib.c");
}

TEST(Metallaxis, RefusesCoverageOfAnotherSchemataVersion) {
  SchemataManifest M;
  M.Source = "/src/p.c";
  M.Schemata = "/build/p.s.c";
  M.SchemataHash = "00112233aabbccdd";
  CoverageFile Cov;
  Cov.Files = {{"ffffffffffffffff", "/build/p.s.c"}};
  Cov.Functions = {{0, 22, 25, 0, 1, "f"}};
  Cov.Blocks = {{0, 1, {22}}, {0, 1, {}}};
  EXPECT_EQ(mapSchemataCoverage(Cov, M), SchemataMatch::OtherVersion);
  EXPECT_EQ(Cov.Files[0].Path, "/build/p.s.c"); // Left as it was.
  Cov.Files[0].Hash = M.SchemataHash;
  EXPECT_EQ(mapSchemataCoverage(Cov, M), SchemataMatch::Mapped);
}

/// Three tests over p.c (lines 1-5): t1 fails and executes 1-3, t2 passes through 1-2, t3
/// through 1 and 3. The commands behave as a schemata binary would: mutants 1 and 2 make t1
/// pass, mutant 1 also makes t2 fail, mutant 3 changes nothing.
struct Fixture {
  std::vector<TestCase> Tests;
  std::vector<TestResult> Results;
  Program Model;
  SuiteSpectra Suite;
  SchemataManifest Manifest;

  explicit Fixture(const fs::path &Dir) {
    const char *Commands[] = {
        R"(case "$SLEUTH_MUTANT" in 1|2) exit 0;; esac; exit 1)",
        R"(case "$SLEUTH_MUTANT" in 1) exit 1;; esac; exit 0)",
        "exit 0",
    };
    const std::set<unsigned> Executed[] = {{1, 2, 3}, {1, 2}, {1, 3}};
    Suite.Model = &Model;
    std::string Error;
    for (int I = 0; I < 3; ++I) {
      TestCase T;
      T.Name = "t" + std::to_string(I + 1);
      T.Origin = "tests.txt:" + std::to_string(I + 1);
      T.Shell = Commands[I];
      T.Directory = Dir.string();
      Tests.push_back(T);
      TestResult R;
      R.Outcome = I == 0 ? Verdict::Failed : Verdict::Passed;
      R.Detail = I == 0 ? "exit 1, expected 0" : "";
      Results.push_back(R);
      Spectrum S;
      EXPECT_TRUE(Model.merge(sleuth::localizer::test::linesOnly("/src/p.c", 5, Executed[I]),
                              "t.cov", S, Error))
          << Error;
      Suite.Spectra.push_back(S);
      Suite.Failed.push_back(I == 0);
    }
    Manifest.Source = "/src/p.c";
    Manifest.Mutants = {{1, 2, "ror", "<", "<="},
                        {2, 3, "obo", "1", "2"},
                        {3, 3, "neg", "c", "!(c)"},
                        {4, 5, "sdl", "x++;", ";"}};
  }

  double scoreOf(const Ranking &R, unsigned Line) const {
    for (const ScoredEvent &E : R.Events)
      if (Model.lines()[E.What.Id].Number == Line)
        return E.Score;
    ADD_FAILURE() << "line " << Line << " not ranked";
    return -1;
  }
};

TEST_F(MutationTest, ScoresLinesByTheirBestMutant) {
  Fixture F(Dir);
  MutationOptions O;
  O.Run.Store = (Dir / "store").string();
  O.Run.Jobs = 2;
  Ranking R;
  MutationSummary S;
  std::string Error;
  ASSERT_TRUE(rankByMutants(F.Tests, F.Results, F.Suite, F.Manifest, O, R, S, Error)) << Error;
  EXPECT_EQ(R.Technique, "metallaxis");
  EXPECT_DOUBLE_EQ(F.scoreOf(R, 3), 1.0);                // mutant 2: t1 only
  EXPECT_DOUBLE_EQ(F.scoreOf(R, 2), 1 / std::sqrt(2.0)); // mutant 1: t1 and t2
  EXPECT_EQ(F.scoreOf(R, 1), 0.0);                       // no mutant
  ASSERT_FALSE(R.Events.empty());
  EXPECT_EQ(F.Model.lines()[R.Events[0].What.Id].Number, 3u);
  EXPECT_EQ(R.Events[0].Rank, (RankRange{1, 1}));
  // Mutant 4 is on a line no failing test executed; tests that did not execute a mutant's
  // line are not run (t3 for mutant 1, t2 for mutants 2 and 3).
  EXPECT_EQ(S.Available, 3u);
  EXPECT_EQ(S.Run, 3u);
  EXPECT_EQ(S.Lines, 3u);
  EXPECT_EQ(S.LinesScored, 2u);
  EXPECT_EQ(S.TestRuns, 6u);
  EXPECT_EQ(S.PassingRuns, 3u);
  EXPECT_FALSE(S.BudgetSpent);
  EXPECT_FALSE(fs::exists(Dir / "store" / "mutants"));
}

TEST_F(MutationTest, SamplesPassingTestsAndStopsAtTheBudget) {
  Fixture F(Dir);
  MutationOptions O;
  O.Run.Store = (Dir / "store").string();
  O.PassingPerMutant = 0; // t2 no longer shows that mutant 1 breaks passing runs
  Ranking R;
  MutationSummary S;
  std::string Error;
  ASSERT_TRUE(rankByMutants(F.Tests, F.Results, F.Suite, F.Manifest, O, R, S, Error)) << Error;
  EXPECT_DOUBLE_EQ(F.scoreOf(R, 2), 1.0);
  EXPECT_EQ(S.PassingRuns, 0u);

  O.Budget = 1e-9;
  ASSERT_TRUE(rankByMutants(F.Tests, F.Results, F.Suite, F.Manifest, O, R, S, Error)) << Error;
  EXPECT_EQ(S.Run, 0u);
  EXPECT_EQ(S.Available, 3u);
  EXPECT_TRUE(S.BudgetSpent);
  EXPECT_EQ(F.scoreOf(R, 3), 0.0);
}

TEST_F(MutationTest, TheBudgetCutsAMutantBetweenItsTests) {
  // Each test of the mutant on line 2 (run by t1 and t2, one at a time) takes 3 s, past the 2 s
  // budget: its second test never starts, and the mutant, cut short, is not counted.
  Fixture F(Dir);
  for (TestCase &T : F.Tests)
    T.Shell = "echo run >> runs.log; sleep 3; " + T.Shell;
  MutationOptions O;
  O.Run.Store = (Dir / "store").string();
  O.Run.Jobs = 1;
  O.Budget = 2;
  Ranking R;
  MutationSummary S;
  std::string Error;
  ASSERT_TRUE(rankByMutants(F.Tests, F.Results, F.Suite, F.Manifest, O, R, S, Error)) << Error;
  std::ifstream Log(Dir / "runs.log");
  std::string All((std::istreambuf_iterator<char>(Log)), {});
  EXPECT_EQ(All, "run\n");
  EXPECT_EQ(S.Run, 0u);
  EXPECT_TRUE(S.BudgetSpent);
}

TEST_F(MutationTest, RunsTheMostSuspiciousLinesFirst) {
  // t1 runs against every mutant and logs the order. Without an order, lines go by number
  // (line 2: mutant 1, line 3: mutants 2 and 3); ranked 3, 2, 1, round robin runs mutant 2
  // (line 3), then mutant 1 (line 2), then line 3's second mutant, so that a budget cut keeps
  // one mutant of each of the most suspicious lines.
  Fixture F(Dir);
  F.Tests[0].Shell = "echo \"$SLEUTH_MUTANT\" >> order.log; " + F.Tests[0].Shell;
  MutationOptions O;
  O.Run.Store = (Dir / "store").string();
  O.Run.Jobs = 1;
  Ranking R;
  MutationSummary S;
  std::string Error;
  auto Log = [&] {
    std::ifstream In(Dir / "order.log");
    std::string All((std::istreambuf_iterator<char>(In)), {});
    fs::remove(Dir / "order.log");
    return All;
  };
  ASSERT_TRUE(rankByMutants(F.Tests, F.Results, F.Suite, F.Manifest, O, R, S, Error)) << Error;
  EXPECT_EQ(Log(), "1\n2\n3\n");
  Ranking Order;
  for (unsigned Line : {3u, 2u, 1u})
    for (unsigned Id = 0; Id < F.Model.lines().size(); ++Id)
      if (F.Model.lines()[Id].Number == Line)
        Order.Events.push_back({{EventKind::Line, Id}, {}, 0, {}});
  O.Order = &Order;
  ASSERT_TRUE(rankByMutants(F.Tests, F.Results, F.Suite, F.Manifest, O, R, S, Error)) << Error;
  EXPECT_EQ(Log(), "2\n1\n3\n");
}

} // namespace
