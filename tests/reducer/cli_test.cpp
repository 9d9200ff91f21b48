// End-to-end runs of `reduce`, `ddmin` and `dd` through sleuth_reduce_cli,
// including every kind of bad input.
#include "TestUtil.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <sstream>
#include <sys/wait.h>
#include <thread>

using namespace sleuth::reducer::testing;

namespace {

using Result = CliResult;

const char *const Program = R"(#include <stddef.h>
typedef unsigned long size_type;
struct point { int x; int y; };
struct config { const char *name; size_type limit; struct point origin; };
static int square(int v) { return v * v; }
static int clamp(int v, int lo, int hi) { return v < lo ? lo : v > hi ? hi : v; }
int distance(struct point a, struct point b) {
  int dx = a.x - b.x, dy = a.y - b.y;
  return square(dx) + square(dy);
}
int process(struct config *c, int n) {
  int total = 0;
  for (int i = 0; i < n; i++) {
    if (i % 2)
      total += clamp(i, 0, 10);
    else
      total -= distance(c->origin, (struct point){i, i});
  }
  /* the "compiler" crashes on a division by a member access */
  return total / c->origin.y;
}
int main(void) {
  struct config c = {"demo", 10, {1, 2}};
  return process(&c, 5) > 0;
}
)";

} // namespace

TEST(CliTest, ReducesProgramAgainstScriptedCompiler) {
  TempDir D;
  writeFile(D / "prog.c", Program);
  writeFile(D / "crash.sh", CrashScript, true);
  auto Start = std::chrono::steady_clock::now();
  Result R = cli(D, "reduce ./crash.sh prog.c --jobs 2 --timeout 10");
  double Secs = std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_LT(Secs, 60.0);
  std::string Reduced = readFile(D / "prog.c");
  EXPECT_EQ(readFile(D / "prog.c.orig"), Program);
  EXPECT_LT(Reduced.size(), 60u) << Reduced;
  // Still interesting.
  EXPECT_EQ(std::system(("cd '" + D.Path + "' && ./crash.sh").c_str()), 0);
  EXPECT_NE(R.Err.find("done: "), std::string::npos) << R.Err;
  EXPECT_NE(R.Err.find(" tests"), std::string::npos);
}

TEST(CliTest, ReducesPreprocessedFileMainFileFirst) {
  // A preprocessed file: the "crash" needs one declaration of the header and
  // its use in the main file. The verbose log shows the main-file phase.
  TempDir D;
  std::string Text = "# 1 \"p.c\"\n"
                     "# 1 \"h.h\" 1\n"
                     "int unused1;\n"
                     "int needed;\n"
                     "# 1 \"inner.h\" 1\n"
                     "int unused2;\n"
                     "# 4 \"h.h\" 2\n"
                     "# 2 \"p.c\" 2\n"
                     "int f(void) { return needed; }\n"
                     "int g(void) { return 0; }\n";
  writeFile(D / "p.c", Text);
  writeFile(D / "t.sh", "#!/bin/sh\ngrep -q 'int needed' p.c && grep -q 'return needed' p.c\n",
            true);
  Result R = cli(D, "reduce ./t.sh p.c --verbose");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  std::string Reduced = readFile(D / "p.c");
  EXPECT_EQ(Reduced.find("unused"), std::string::npos) << Reduced;
  EXPECT_EQ(Reduced.find("g(void)"), std::string::npos) << Reduced;
  EXPECT_EQ(std::system(("cd '" + D.Path + "' && ./t.sh").c_str()), 0) << Reduced;
  EXPECT_NE(R.Err.find("main file: pass "), std::string::npos) << R.Err;
}

TEST(CliTest, DDMinReducesText) {
  TempDir D;
  std::string Text = "alpha beta\ngamma needle delta\nepsilon\nzeta eta\n";
  writeFile(D / "notes.txt", Text);
  writeFile(D / "t.sh", "#!/bin/sh\ngrep -q 'dle' notes.txt\n", true);
  Result R = cli(D, "ddmin ./t.sh notes.txt");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_EQ(readFile(D / "notes.txt"), "dle");
  EXPECT_EQ(readFile(D / "notes.txt.orig"), Text);
}

TEST(CliTest, DDPrintsFailureInducingDifference) {
  TempDir D;
  std::string Pass = "int a = 1;\nint b = 2;\nint c = 3;\nint d = 4;\n";
  std::string Fail = "int a = 1;\nint b = 0;\nint c = 3;\nint e = 5;\n";
  writeFile(D / "good.c", Pass);
  writeFile(D / "bad.c", Fail);
  // Fails iff b is 0; a mix without a definition of b cannot be judged.
  writeFile(D / "t.sh",
            "#!/bin/sh\ngrep -q 'int b' bad.c || exit 125\n"
            "grep -q 'b = 0' bad.c\n",
            true);
  Result R = cli(D, "dd ./t.sh good.c bad.c");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_NE(R.Out.find("+ bad.c:2: int b = 0;"), std::string::npos) << R.Out;
  EXPECT_EQ(R.Out.find("int e = 5"), std::string::npos) << R.Out;
}

TEST(CliTest, MissingScript) {
  TempDir D;
  writeFile(D / "prog.c", Program);
  Result R = cli(D, "reduce ./nope.sh prog.c");
  EXPECT_EQ(R.Exit, 1);
  EXPECT_EQ(R.Err, "sleuth reduce: test script './nope.sh' does not exist\n");
  EXPECT_EQ(readFile(D / "prog.c"), Program);
}

TEST(CliTest, ScriptNotExecutable) {
  TempDir D;
  writeFile(D / "prog.c", Program);
  writeFile(D / "t.sh", "#!/bin/sh\nexit 0\n", false);
  Result R = cli(D, "ddmin ./t.sh prog.c");
  EXPECT_EQ(R.Exit, 1);
  EXPECT_EQ(R.Err, "sleuth ddmin: test script './t.sh' is not executable "
                   "(chmod +x ./t.sh)\n");
}

TEST(CliTest, OriginalNotInteresting) {
  TempDir D;
  writeFile(D / "prog.c", Program);
  writeFile(D / "t.sh", "#!/bin/sh\nexit 1\n", true);
  Result R = cli(D, "reduce ./t.sh prog.c");
  EXPECT_EQ(R.Exit, 1);
  EXPECT_NE(R.Err.find("sleuth reduce: the test script exits 1 on the "
                       "original file; nothing to reduce\n"),
            std::string::npos)
      << R.Err;
  EXPECT_EQ(readFile(D / "prog.c"), Program);
  EXPECT_FALSE(std::filesystem::exists(D / "prog.c.orig"));
}

TEST(CliTest, HangingTestOnOriginal) {
  TempDir D;
  writeFile(D / "prog.c", Program);
  writeFile(D / "t.sh", "#!/bin/sh\nsleep 30\n", true);
  Result R = cli(D, "reduce ./t.sh prog.c --timeout 0.5");
  EXPECT_EQ(R.Exit, 1);
  EXPECT_NE(R.Err.find("timed out after 0.5 s"), std::string::npos) << R.Err;
  EXPECT_NE(R.Err.find("nothing to reduce"), std::string::npos);
}

TEST(CliTest, HangingCandidatesAreKilled) {
  TempDir D;
  writeFile(D / "notes.txt", "keep\nhang\nother\n");
  // Hangs on any candidate without "hang"; interesting while "keep" is there.
  writeFile(D / "t.sh",
            "#!/bin/sh\ngrep -q hang notes.txt || sleep 30\n"
            "grep -q keep notes.txt\n",
            true);
  Result R = cli(D, "ddmin ./t.sh notes.txt --timeout 0.5");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  std::string Out = readFile(D / "notes.txt");
  EXPECT_NE(Out.find("keep"), std::string::npos);
  EXPECT_NE(Out.find("hang"), std::string::npos);
}

TEST(CliTest, FlakyTestIsReported) {
  TempDir D;
  writeFile(D / "notes.txt", "a\nb\nc\nd\n");
  // Interesting for the first two runs only: the original and the first
  // candidate, which becomes the result and then fails its re-check.
  std::string Counter = D / "count";
  writeFile(D / "t.sh",
            "#!/bin/sh\necho x >> " + Counter + "\n[ $(wc -l < " + Counter + ") -le 2 ]\n", true);
  // One test at a time: a second, speculative test would be the third run. One run on the
  // original: this is the flakiness that shows only after reducing.
  Result R = cli(D, "ddmin ./t.sh notes.txt --jobs 1 --original-runs 1");
  EXPECT_EQ(R.Exit, 3) << R.Err;
  EXPECT_NE(R.Err.find("flaky"), std::string::npos) << R.Err;
  EXPECT_EQ(readFile(D / "notes.txt.orig"), "a\nb\nc\nd\n");
  EXPECT_TRUE(std::filesystem::exists(D / "notes.txt"));
}

TEST(CliTest, CtrlCKeepsBestResult) {
  TempDir D;
  std::string Text;
  for (int I = 0; I < 200; ++I)
    Text += "line " + std::to_string(I) + (I == 150 ? " needle" : "") + "\n";
  writeFile(D / "notes.txt", Text);
  writeFile(D / "t.sh", "#!/bin/sh\nsleep 0.05\ngrep -q needle notes.txt\n", true);
  pid_t Pid = fork();
  if (Pid == 0) {
    chdir(D.Path.c_str());
    int Null = open("/dev/null", O_WRONLY);
    dup2(Null, 2);
    // One test at a time, so that the reduction is still running when SIGINT comes.
    execl(SLEUTH_REDUCE_CLI, SLEUTH_REDUCE_CLI, "ddmin", "./t.sh", "notes.txt", "--jobs", "1",
          nullptr);
    _exit(127);
  }
  usleep(1500000);
  kill(Pid, SIGINT);
  int Status;
  waitpid(Pid, &Status, 0);
  ASSERT_TRUE(WIFEXITED(Status));
  EXPECT_EQ(WEXITSTATUS(Status), 130);
  std::string Now = readFile(D / "notes.txt");
  EXPECT_NE(Now.find("needle"), std::string::npos);
  EXPECT_LT(Now.size(), Text.size());
  EXPECT_EQ(readFile(D / "notes.txt.orig"), Text);
  // No temporary file left behind.
  for (auto &E : std::filesystem::directory_iterator(D.Path))
    EXPECT_EQ(E.path().string().find("sleuth-tmp"), std::string::npos);
}

TEST(CliTest, UnknownPassAndOption) {
  TempDir D;
  writeFile(D / "prog.c", Program);
  writeFile(D / "t.sh", "#!/bin/sh\nexit 0\n", true);
  Result R = cli(D, "reduce ./t.sh prog.c --passes no-such-pass");
  EXPECT_EQ(R.Exit, 2);
  EXPECT_EQ(R.Err, "sleuth reduce: unknown pass 'no-such-pass' (see --list-passes)\n");
  R = cli(D, "reduce ./t.sh prog.c --frobnicate");
  EXPECT_EQ(R.Exit, 2);
  EXPECT_NE(R.Err.find("unknown option '--frobnicate'"), std::string::npos);
}

TEST(CliTest, ApplyPrintsOneInstance) {
  TempDir D;
  writeFile(D / "p.c", "int f(int a, int b) { return a; }\n"
                       "int g(void) { return f(1, 2); }\n");
  Result R = cli(D, "reduce --apply-pass remove-param:2 p.c");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_EQ(R.Out, "int f(int a) { return a; }\n"
                   "int g(void) { return f(1); }\n");
  R = cli(D, "reduce --apply-pass remove-param p.c");
  EXPECT_EQ(R.Out, "2\n");
  // `--apply ID` is sleuth mutate's option; reduce's pass debugging is --apply-pass only.
  R = cli(D, "reduce --apply remove-param p.c");
  EXPECT_EQ(R.Exit, 2);
  EXPECT_EQ(R.Err, "sleuth reduce: unknown option '--apply' (see --help)\n");
}

TEST(CliTest, SummaryCountsScriptRunsAndCacheAnswers) {
  TempDir D;
  writeFile(D / "prog.c", Program);
  std::string Log = D / "runs";
  writeFile(D / "crash.sh",
            std::string(CrashScript) + "status=$?\necho run >> " + Log + "\nexit $status\n", true);
  Result R = cli(D, "reduce ./crash.sh prog.c --jobs 1");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  std::size_t Runs = 0;
  for (char C : readFile(Log))
    Runs += C == '\n';
  // "... in 1.2 s, 40 tests run, 7 answered from the cache"
  std::size_t At = R.Err.find(" tests run, ");
  ASSERT_NE(At, std::string::npos) << R.Err;
  std::size_t Start = R.Err.rfind(' ', At - 1) + 1;
  std::string Count = R.Err.substr(Start, At - Start);
  Count.erase(std::remove(Count.begin(), Count.end(), ','), Count.end());
  EXPECT_EQ(std::stoul(Count), Runs) << R.Err;
  std::size_t Cached = std::stoul(R.Err.substr(At + 12));
  EXPECT_LT(Cached, Runs) << R.Err;
  EXPECT_NE(R.Err.find(" answered from the cache"), std::string::npos) << R.Err;
}

TEST(CliTest, DirectoryAsFileIsAUsageError) {
  TempDir D;
  writeFile(D / "t.sh", "#!/bin/sh\nexit 0\n", true);
  std::filesystem::create_directory(D / "dir");
  writeFile(D / "a.txt", "a\n");
  for (const char *Args :
       {"reduce --apply-pass lines dir", "ddmin ./t.sh dir", "dd ./t.sh a.txt dir"}) {
    std::string Command = std::string(Args).substr(0, std::string(Args).find(' '));
    Result R = cli(D, Args);
    EXPECT_EQ(R.Exit, 2) << Args;
    EXPECT_EQ(R.Err, "sleuth " + Command + ": 'dir' is a directory, not a file\n") << Args;
  }
}

TEST(CliTest, JobsDefaultToTheNumberOfProcessors) {
  if (std::thread::hardware_concurrency() < 2)
    GTEST_SKIP() << "one processor: one test at a time either way";
  TempDir D;
  std::string Text;
  for (int I = 0; I < 16; ++I)
    Text += "line " + std::to_string(I) + (I == 11 ? " needle" : "") + "\n";
  writeFile(D / "notes.txt", Text);
  std::filesystem::create_directory(D / "running");
  // Each test leaves a mark while it runs and records how many marks it saw.
  writeFile(D / "t.sh",
            "#!/bin/sh\ntouch " + D / "running" + "/$$\nsleep 0.2\nls " + D / "running" +
                " | wc -l >> " + D / "seen" + "\nrm -f " + D / "running" +
                "/$$\ngrep -q needle notes.txt\n",
            true);
  Result R = cli(D, "ddmin ./t.sh notes.txt");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  unsigned Most = 0;
  std::istringstream Seen(readFile(D / "seen"));
  for (unsigned N; Seen >> N;)
    Most = std::max(Most, N);
  EXPECT_GE(Most, 2u) << "tests never ran in parallel without --jobs";
}
