// The test runner with validity commands: both checks must pass, each check's
// verdict is cached on its own, the order that costs least is learned, and
// repeated runs on one file bypass the cache.
#include "Runner.h"
#include "TestUtil.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace sleuth::reducer;
using namespace sleuth::reducer::testing;

namespace {

/// A runner whose test is Script and whose validity command is Validity;
/// each check appends a line to D/test-runs or D/valid-runs.
TestRunner makeRunner(const TempDir &D, const std::string &Script, const std::string &Validity,
                      unsigned Jobs = 1) {
  writeFile(D / "test.sh", "#!/bin/sh\necho x >> " + (D / "test-runs") + "\n" + Script, true);
  return TestRunner({D / "test.sh",
                     "prog.c",
                     Jobs,
                     10,
                     {"echo x >> '" + (D / "valid-runs") + "'; " + Validity},
                     {}});
}

std::size_t lines(const std::string &Path) {
  std::string Text = readFile(Path);
  return std::count(Text.begin(), Text.end(), '\n');
}

} // namespace

TEST(RunnerChecksTest, CandidateMustPassTheValidityCommandToo) {
  TempDir D;
  TestRunner R = makeRunner(D, "grep -q crash prog.c\n", "grep -q valid prog.c");
  std::string Err;
  ASSERT_TRUE(R.prepare(Err)) << Err;
  EXPECT_TRUE(R.run("crash valid").interesting());
  RunResult Invalid = R.run("crash");
  EXPECT_FALSE(Invalid.interesting());
  EXPECT_EQ(Invalid.Check, 1u);
  RunResult NoCrash = R.run("valid");
  EXPECT_FALSE(NoCrash.interesting());
  EXPECT_EQ(NoCrash.Check, 0u);
  EXPECT_EQ(R.checks(), 2u);
  EXPECT_EQ(R.checkRejections(1), 1u);
  EXPECT_EQ(R.checkRejections(0), 1u);
}

TEST(RunnerChecksTest, ValidityCommandRunsBesideTheCandidateInAFreshDirectory) {
  TempDir D;
  // The test leaves a file behind; the validity command must not see it.
  TestRunner R = makeRunner(D, "touch leftover\n", "test -f prog.c && ! test -e leftover");
  std::string Err;
  ASSERT_TRUE(R.prepare(Err));
  for (int I = 0; I < 12; ++I) // Both orders, whichever the runner picks.
    EXPECT_TRUE(R.run("candidate " + std::to_string(I)).interesting()) << I;
}

TEST(RunnerChecksTest, EachCheckIsCachedByContent) {
  TempDir D;
  TestRunner R = makeRunner(D, "exit 0\n", "grep -q good prog.c");
  std::string Err;
  ASSERT_TRUE(R.prepare(Err));
  R.run("good one");
  R.run("bad one");
  std::size_t Tests = lines(D / "test-runs"), Valids = lines(D / "valid-runs");
  EXPECT_EQ(Valids, 2u);
  R.run("good one");
  EXPECT_FALSE(R.run("bad one").interesting());
  EXPECT_EQ(lines(D / "test-runs"), Tests);
  EXPECT_EQ(lines(D / "valid-runs"), Valids);
  EXPECT_EQ(R.cacheHits(), 2u);
  EXPECT_EQ(R.checkRuns(0), Tests);
  EXPECT_EQ(R.checkRuns(1), Valids);
  // Without the cache both run again.
  EXPECT_TRUE(R.run("good one", /*UseCache=*/false).interesting());
  EXPECT_EQ(lines(D / "test-runs"), Tests + 1);
  EXPECT_EQ(lines(D / "valid-runs"), Valids + 1);
}

TEST(RunnerChecksTest, LearnsToRunTheCheapFilterFirst) {
  // The test is slow and always passes; the validity command is fast and rejects three
  // candidates in four. Once measured, the validity command goes first and the test runs
  // on little more than the valid quarter.
  TempDir D;
  TestRunner R = makeRunner(D, "sleep 0.05\n", "grep -q keep prog.c");
  std::string Err;
  ASSERT_TRUE(R.prepare(Err));
  const int N = 80;
  for (int I = 0; I < N; ++I)
    R.run((I % 4 ? "drop " : "keep ") + std::to_string(I));
  EXPECT_EQ(R.checkRuns(1), std::size_t(N));
  EXPECT_LT(R.checkRuns(0), std::size_t(N / 2)) << "the slow test kept running first";
}

TEST(RunnerChecksTest, LearnsToRunTheTestFirstWhenItIsTheCheapFilter) {
  // The other way round: the validity command is slow and always passes.
  TempDir D;
  TestRunner R = makeRunner(D, "grep -q keep prog.c\n", "sleep 0.05");
  std::string Err;
  ASSERT_TRUE(R.prepare(Err));
  const int N = 80;
  for (int I = 0; I < N; ++I)
    R.run((I % 4 ? "drop " : "keep ") + std::to_string(I));
  EXPECT_EQ(R.checkRuns(0), std::size_t(N));
  EXPECT_LT(R.checkRuns(1), std::size_t(N / 2)) << "the slow validity command kept running first";
}

TEST(RunnerChecksTest, RepeatRunsOneCheckWithoutTheCache) {
  TempDir D;
  // Passes on odd runs only.
  TestRunner R = makeRunner(D, "[ $(($(wc -l < " + (D / "test-runs") + ") % 2)) -eq 1 ]\n",
                            "exit 0", /*Jobs=*/1);
  std::string Err;
  ASSERT_TRUE(R.prepare(Err));
  std::vector<RunResult> Runs = R.repeat("same", 0, 4);
  ASSERT_EQ(Runs.size(), 4u);
  std::size_t Passed = 0;
  for (const RunResult &Run : Runs)
    Passed += Run.interesting();
  EXPECT_EQ(Passed, 2u);
  EXPECT_EQ(lines(D / "test-runs"), 4u);
  EXPECT_FALSE(std::filesystem::exists(D / "valid-runs"));
}

TEST(RunnerChecksTest, RepeatRunsInParallel) {
  TempDir D;
  TestRunner R = makeRunner(D, "sleep 0.3\n", "exit 0", /*Jobs=*/3);
  std::string Err;
  ASSERT_TRUE(R.prepare(Err));
  double Start = monotonicSeconds();
  std::vector<RunResult> Runs = R.repeat("same", 0, 3);
  EXPECT_LT(monotonicSeconds() - Start, 0.8);
  ASSERT_EQ(Runs.size(), 3u);
  for (const RunResult &Run : Runs)
    EXPECT_TRUE(Run.interesting());
}
