// The test runner: scratch directories, the cache, timeouts, parallel jobs
// and stopping on SIGINT.
#include "FileSet.h"
#include "Runner.h"
#include "TestUtil.h"

#include <gtest/gtest.h>

#include <csignal>
#include <thread>

using namespace sleuth::reducer;
using namespace sleuth::reducer::testing;

namespace {

TestRunner makeRunner(const TempDir &D, const std::string &Script, unsigned Jobs = 1,
                      double Timeout = 10) {
  writeFile(D / "test.sh", "#!/bin/sh\n" + Script, true);
  return TestRunner({D / "test.sh", "prog.c", Jobs, Timeout, {}, {}});
}

} // namespace

TEST(RunnerTest, RunsScriptBesideTheCandidate) {
  TempDir D;
  TestRunner R = makeRunner(D, "grep -q needle prog.c\n");
  std::string Err;
  ASSERT_TRUE(R.prepare(Err)) << Err;
  EXPECT_TRUE(R.run("a needle here").interesting());
  RunResult No = R.run("nothing");
  EXPECT_FALSE(No.interesting());
  EXPECT_EQ(No.ExitCode, 1);
}

TEST(RunnerTest, WritesEveryFileOfABundleUnderItsPath) {
  TempDir D;
  writeFile(D / "test.sh",
            "#!/bin/sh\ngrep -qx 'int a;' inc/a.h && grep -qx '#include \"../inc/a.h\"' "
            "src/b.cpp && test ! -s empty.h && test -f empty.h\n",
            true);
  RunnerOptions O{D / "test.sh", "unused.c", 1, 10, {}, {}};
  O.FilePaths = {"inc/a.h", "src/b.cpp", "empty.h"};
  TestRunner R(O);
  std::string Err;
  ASSERT_TRUE(R.prepare(Err)) << Err;
  EXPECT_TRUE(R.run(encodeFiles({"int a;\n", "#include \"../inc/a.h\"\n", ""})).interesting());
  EXPECT_FALSE(R.run(encodeFiles({"int b;\n", "#include \"../inc/a.h\"\n", ""})).interesting());
  // Not a bundle of three files: nothing to run, so not interesting.
  EXPECT_FALSE(R.run(encodeFiles({"int a;\n", "#include \"../inc/a.h\"\n"})).interesting());
}

TEST(RunnerTest, CachesByContent) {
  TempDir D;
  // Counts real runs in a file outside the scratch directory.
  TestRunner R = makeRunner(D, "echo x >> " + (D / "runs") + "\nexit 0\n");
  std::string Err;
  ASSERT_TRUE(R.prepare(Err));
  R.run("same");
  R.run("same");
  R.run("other");
  EXPECT_EQ(R.testsRun(), 2u);
  EXPECT_EQ(R.cacheHits(), 1u);
  EXPECT_EQ(readFile(D / "runs"), "x\nx\n");
  // Bypassing the cache runs again.
  R.run("same", /*UseCache=*/false);
  EXPECT_EQ(R.testsRun(), 3u);
}

TEST(RunnerTest, CountsOnlyTheCacheAnswersThatAreUsed) {
  TempDir D;
  TestRunner R = makeRunner(D, "grep -q needle prog.c\n");
  std::string Err;
  ASSERT_TRUE(R.prepare(Err));
  R.run("needle 1");
  R.run("needle 2");
  ASSERT_EQ(R.cacheHits(), 0u);
  // The first candidate matches from the cache; the second, also in the cache, was generated
  // ahead of the answer and is dropped with the third: one answer came from the cache.
  const char *Texts[] = {"needle 1", "needle 2", "needle 3"};
  std::optional<std::size_t> Match =
      R.firstMatch([&](std::size_t I) -> std::optional<TestRunner::Candidate> {
        if (I >= 3)
          return std::nullopt;
        return TestRunner::Candidate{
            Texts[I], [](const RunResult &Result) { return Result.interesting(); }, std::nullopt};
      });
  EXPECT_EQ(Match, std::optional<std::size_t>(0));
  EXPECT_EQ(R.cacheHits(), 1u);
}

TEST(RunnerTest, KillsHangingTestAndItsChildrenAtTimeout) {
  TempDir D;
  TestRunner R = makeRunner(D, "sleep 30 & echo $! > " + (D / "child") + "\nwait\n", 1, 0.3);
  std::string Err;
  ASSERT_TRUE(R.prepare(Err));
  double Start = monotonicSeconds();
  RunResult Res = R.run("x");
  EXPECT_TRUE(Res.TimedOut);
  EXPECT_FALSE(Res.interesting());
  EXPECT_LT(monotonicSeconds() - Start, 5.0);
  EXPECT_EQ(R.timeouts(), 1u);
  // The background sleep was in the script's process group: gone too.
  pid_t Child = std::stoi(readFile(D / "child"));
  // It is dead (possibly a zombie waiting for init to reap it).
  usleep(100000);
  std::string Stat = readFile("/proc/" + std::to_string(Child) + "/stat");
  bool Dead = Stat.empty() || Stat.find(") Z ") != std::string::npos;
  EXPECT_TRUE(Dead) << Stat;
}

TEST(RunnerTest, FirstMatchIsInGenerationOrderWithParallelJobs) {
  TempDir D;
  // Candidate "slow-yes" is interesting but slower than "fast-yes" after it.
  TestRunner R = makeRunner(D,
                            "case $(cat prog.c) in\n"
                            "  slow-yes) sleep 0.5; exit 0;;\n"
                            "  fast-yes) exit 0;;\n"
                            "  *) exit 1;;\n"
                            "esac\n",
                            4);
  std::string Err;
  ASSERT_TRUE(R.prepare(Err));
  std::vector<std::string> Cands = {"no", "slow-yes", "fast-yes", "no2"};
  auto Hit = R.firstMatch([&](std::size_t I) -> std::optional<TestRunner::Candidate> {
    if (I >= Cands.size())
      return std::nullopt;
    return TestRunner::Candidate{Cands[I], [](const RunResult &Res) { return Res.interesting(); },
                                 std::nullopt};
  });
  ASSERT_TRUE(Hit.has_value());
  EXPECT_EQ(*Hit, 1u);
}

TEST(RunnerTest, SigintStopsRunningTests) {
  TempDir D;
  TestRunner R = makeRunner(D, "sleep 30\n");
  std::string Err;
  ASSERT_TRUE(R.prepare(Err));
  TestRunner::installSignalHandlers();
  std::thread Killer([] {
    usleep(300000);
    kill(getpid(), SIGINT);
  });
  double Start = monotonicSeconds();
  RunResult Res = R.run("x");
  Killer.join();
  EXPECT_TRUE(Res.Interrupted);
  EXPECT_TRUE(TestRunner::stopRequested());
  EXPECT_LT(monotonicSeconds() - Start, 5.0);
  TestRunner::clearStop();
  signal(SIGINT, SIG_DFL);
  signal(SIGTERM, SIG_DFL);
}

TEST(RunnerTest, RemovesScratchDirectory) {
  TempDir D;
  std::string Root;
  {
    TestRunner R = makeRunner(D, "exit 0\n");
    std::string Err;
    ASSERT_TRUE(R.prepare(Err));
    R.run("x");
    Root = R.scratchRoot();
    EXPECT_TRUE(std::filesystem::exists(Root));
  }
  EXPECT_FALSE(std::filesystem::exists(Root));
}
