// Reading tests files and running suites. The "programs" are shell commands
// that leave hand-written coverage files where a coverage build would.
#include "sleuth/localizer/suite.h"

#include "TestSupport.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;
using namespace sleuth::localizer;

namespace {

const std::string Fixtures = SLEUTH_LOCALIZER_FIXTURES;

using SuiteTest = test::ScratchDirTest;

TEST_F(SuiteTest, ReadsTestsFile) {
  write("expected.txt", "abc\n");
  std::string Path =
      write("tests.txt", "# comment\n\n"
                         "./prog abc\n"
                         "1 ./prog --bad\n"
                         "name=quote stdout=expected.txt timeout=2.5 ./prog '\"abc\"'\n"
                         "exit=3 -- exit=4 ./weird\n");
  std::vector<TestCase> Tests;
  std::string Error;
  ASSERT_TRUE(readTestsFile(Path, Tests, Error)) << Error;
  ASSERT_EQ(Tests.size(), 4u);
  EXPECT_EQ(Tests[0].Name, "t1");
  EXPECT_EQ(Tests[0].Shell, "./prog abc");
  EXPECT_EQ(Tests[0].ExpectedExit, 0);
  EXPECT_EQ(Tests[0].Directory, Dir.string());
  EXPECT_EQ(Tests[0].Origin, Path + ":3");
  EXPECT_EQ(Tests[1].ExpectedExit, 1);
  EXPECT_EQ(Tests[1].Shell, "./prog --bad");
  EXPECT_EQ(Tests[2].Name, "quote");
  EXPECT_EQ(Tests[2].ExpectedStdout, (Dir / "expected.txt").string());
  EXPECT_DOUBLE_EQ(Tests[2].Timeout, 2.5);
  EXPECT_EQ(Tests[2].Shell, "./prog '\"abc\"'");
  EXPECT_EQ(Tests[3].ExpectedExit, 3);
  EXPECT_EQ(Tests[3].Shell, "exit=4 ./weird");
}

TEST_F(SuiteTest, RejectsBadTestsFiles) {
  std::vector<TestCase> Tests;
  std::string Error;
  EXPECT_FALSE(readTestsFile((Dir / "missing.txt").string(), Tests, Error));
  EXPECT_NE(Error.find("cannot read tests file"), std::string::npos);
  std::string P = write("a.txt", "exit=300 ./x\n");
  EXPECT_FALSE(readTestsFile(P, Tests, Error));
  EXPECT_EQ(Error, P + ":1: exit status '300' is not a number from 0 to 255");
  P = write("b.txt", "./x\nstdout=nope.txt ./y\n");
  EXPECT_FALSE(readTestsFile(P, Tests, Error));
  EXPECT_EQ(Error, P + ":2: expected-output file 'nope.txt' does not exist");
  P = write("c.txt", "name=a ./x\nname=a ./y\n");
  EXPECT_FALSE(readTestsFile(P, Tests, Error));
  EXPECT_EQ(Error, P + ":2: a second test named 'a'");
  P = write("d.txt", "# nothing\n");
  EXPECT_FALSE(readTestsFile(P, Tests, Error));
  EXPECT_EQ(Error, P + ": no tests (one command per line expected)");
  P = write("e.txt", "0 timeout=1\n");
  EXPECT_FALSE(readTestsFile(P, Tests, Error));
  EXPECT_NE(Error.find(":1: no command"), std::string::npos);
}

TEST_F(SuiteTest, RunsPassingFailingCrashingAndHangingTests) {
  std::string Cov = Fixtures + "/exit0.cov", Crashed = Fixtures + "/two_units.cov";
  write("expected.txt", "abc\n");
  std::string Tests =
      write("tests.txt",
            "name=pass cp " + Cov + " \"$SLEUTH_COV_DIR/1.cov\"\n" + "name=twice cp " + Cov +
                " \"$SLEUTH_COV_DIR/1.cov\"; cp " + Crashed + " \"$SLEUTH_COV_DIR/2.cov\"\n" +
                "name=exit1 cp " + Cov + " \"$SLEUTH_COV_DIR/1.cov\"; exit 1\n" +
                "name=expected1 1 exit 1\n" + "name=output stdout=expected.txt echo abd\n" +
                "name=good-output stdout=expected.txt echo abc\n" + "name=crash cp " + Cov +
                " \"$SLEUTH_COV_DIR/1.cov\"; kill -SEGV $$\n" + "name=hang timeout=0.5 cp " + Cov +
                " \"$SLEUTH_COV_DIR/1.cov\"; sleep 30\n");
  std::vector<TestCase> Cases;
  std::string Error;
  ASSERT_TRUE(readTestsFile(Tests, Cases, Error)) << Error;
  RunOptions Options;
  Options.Jobs = 3;
  Options.Store = (Dir / "store").string();
  std::vector<TestResult> Results;
  ASSERT_TRUE(runSuite(Cases, Options, Results, Error)) << Error;
  ASSERT_EQ(Results.size(), 8u);
  EXPECT_EQ(Results[0].Outcome, Verdict::Passed);
  EXPECT_FALSE(Results[0].Spectrum.empty());
  // One of its two processes died of SIGSEGV (its coverage file says so).
  EXPECT_EQ(Results[1].Outcome, Verdict::Crashed);
  EXPECT_EQ(Results[1].Detail, "killed by SIGSEGV");
  EXPECT_EQ(Results[2].Outcome, Verdict::Failed);
  EXPECT_EQ(Results[2].Detail, "exit 1, expected 0");
  EXPECT_EQ(Results[3].Outcome, Verdict::Passed);
  EXPECT_TRUE(Results[3].Spectrum.empty());
  EXPECT_EQ(Results[4].Outcome, Verdict::Failed);
  EXPECT_EQ(Results[4].Detail, "output differs from 'expected.txt' at line 1");
  EXPECT_EQ(Results[5].Outcome, Verdict::Passed);
  EXPECT_EQ(Results[6].Outcome, Verdict::Crashed);
  EXPECT_EQ(Results[6].Detail, "killed by SIGSEGV");
  EXPECT_FALSE(Results[6].Spectrum.empty());
  EXPECT_EQ(Results[7].Outcome, Verdict::TimedOut);
  EXPECT_EQ(Results[7].Detail, "timed out after 0.5 s");
  EXPECT_FALSE(Results[7].Spectrum.empty()); // its coverage is kept
  EXPECT_LT(Results[7].Seconds, 10);

  // Two processes: their counts add up in the test's one spectrum.
  std::optional<CoverageFile> Twice = CoverageFile::load(Results[1].Spectrum, Error);
  ASSERT_TRUE(Twice) << Error;
  EXPECT_EQ(Twice->Lines[0].Count, 2u);
  EXPECT_EQ(Twice->Status, (RunStatus{RunStatus::Signal, 11})); // the worst of the two

  // The manifest reads back.
  std::vector<TestCase> StoredTests;
  std::vector<TestResult> Stored;
  ASSERT_TRUE(readStore(Options.Store, StoredTests, Stored, Error)) << Error;
  ASSERT_EQ(Stored.size(), 8u);
  EXPECT_EQ(StoredTests[6].Name, "crash");
  EXPECT_EQ(Stored[6].Outcome, Verdict::Crashed);
  EXPECT_EQ(Stored[7].Spectrum, Results[7].Spectrum);
}

TEST_F(SuiteTest, CommandThatCannotStart) {
  std::string Tests = write("tests.txt", "./does-not-exist --flag\n");
  std::vector<TestCase> Cases;
  std::string Error;
  ASSERT_TRUE(readTestsFile(Tests, Cases, Error)) << Error;
  RunOptions Options;
  Options.Store = (Dir / "store").string();
  std::vector<TestResult> Results;
  EXPECT_FALSE(runSuite(Cases, Options, Results, Error));
  EXPECT_NE(Error.find(Tests + ":1: test 't1' cannot start: "), std::string::npos) << Error;
  EXPECT_NE(Error.find("not found"), std::string::npos) << Error;
  // A command vector (ctest) that cannot be executed.
  TestCase T;
  T.Name = "direct";
  T.Origin = "ctest test 'direct'";
  T.Argv = {(Dir / "nope").string()};
  T.Directory = Dir.string();
  EXPECT_FALSE(runSuite({T}, Options, Results, Error));
  EXPECT_EQ(Error, "ctest test 'direct': test 'direct' cannot start: " + (Dir / "nope").string() +
                       ": No such file or directory");
}

TEST_F(SuiteTest, IncrementalRerunsOnlyChangedTests) {
  std::string Cov = Fixtures + "/exit0.cov";
  write("input.txt", "1");
  std::string Tests =
      write("tests.txt", "name=a cp " + Cov + " \"$SLEUTH_COV_DIR/1.cov\"\n" +
                             "name=b cat input.txt; cp " + Cov + " \"$SLEUTH_COV_DIR/1.cov\"\n");
  std::vector<TestCase> Cases;
  std::string Error;
  ASSERT_TRUE(readTestsFile(Tests, Cases, Error)) << Error;
  RunOptions Options;
  Options.Store = (Dir / "store").string();
  Options.Incremental = true;
  std::vector<TestResult> Results;
  ASSERT_TRUE(runSuite(Cases, Options, Results, Error)) << Error;
  EXPECT_FALSE(Results[0].Reused);
  ASSERT_TRUE(runSuite(Cases, Options, Results, Error)) << Error;
  EXPECT_TRUE(Results[0].Reused);
  EXPECT_TRUE(Results[1].Reused);
  // A named input file changes: only its test reruns.
  fs::last_write_time(Dir / "input.txt",
                      fs::last_write_time(Dir / "input.txt") + std::chrono::seconds(5));
  ASSERT_TRUE(runSuite(Cases, Options, Results, Error)) << Error;
  EXPECT_TRUE(Results[0].Reused);
  EXPECT_FALSE(Results[1].Reused);
}

} // namespace
