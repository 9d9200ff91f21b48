// End-to-end runs of `reduce --valid-with` and of the checks made on the
// original before reducing (the validity command, a flaky test), and the
// default number of jobs, through sleuth_reduce_cli.
#include "TestUtil.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

using namespace sleuth::reducer::testing;

namespace {

const char *const Program = R"(typedef unsigned long size_type;
struct point { int x; int y; };
struct config { const char *name; size_type limit; struct point origin; };
static int square(int v) { return v * v; }
int distance(struct point a, struct point b) {
  int dx = a.x - b.x, dy = a.y - b.y;
  return square(dx) + square(dy);
}
int process(struct config *c, int n) {
  int total = 0;
  for (int i = 0; i < n; i++)
    total -= distance(c->origin, (struct point){i, i});
  /* the "compiler" crashes on a division by a member access */
  return total / c->origin.y;
}
int main(void) {
  struct config c = {"demo", 10, {1, 2}};
  return process(&c, 5) > 0;
}
)";

/// The reference compiler's verdict on D/prog.c.
bool compiles(const TempDir &D) {
  std::string Cmd =
      "cd '" + D.Path + "' && '" SLEUTH_TEST_CLANG "' -fsyntax-only -w prog.c >/dev/null 2>&1";
  return std::system(Cmd.c_str()) == 0;
}

bool crashes(const TempDir &D) {
  return std::system(("cd '" + D.Path + "' && ./crash.sh").c_str()) == 0;
}

std::size_t countLines(const std::string &Text) {
  return std::count(Text.begin(), Text.end(), '\n');
}

/// The number just before Marker in Text ("... 12 candidates" -> 12), or -1.
long numberBefore(const std::string &Text, const std::string &Marker) {
  std::size_t At = Text.find(Marker);
  if (At == std::string::npos || At == 0)
    return -1;
  std::size_t Start = Text.rfind(' ', At - 1) + 1;
  std::string Digits = Text.substr(Start, At - Start);
  Digits.erase(std::remove(Digits.begin(), Digits.end(), ','), Digits.end());
  return Digits.empty() ? -1 : std::stol(Digits);
}

/// The last line of Text (before a progress line, stderr holds the message).
std::string lastLine(const std::string &Text) {
  std::size_t End = Text.size() - (!Text.empty() && Text.back() == '\n');
  std::size_t Start = Text.rfind('\n', End - 1);
  return Text.substr(Start == std::string::npos ? 0 : Start + 1);
}

/// A test that exits 0 on every run but run number FailingRun (1-based).
std::string failsOnRun(const TempDir &D, int FailingRun) {
  return "#!/bin/sh\necho x >> " + (D / "count") + "\n[ $(wc -l < " + (D / "count") + ") -ne " +
         std::to_string(FailingRun) + " ]\n";
}

} // namespace

TEST(CliChecksTest, ValidWithKeepsTheReproducerValid) {
  TempDir D;
  writeFile(D / "prog.c", Program);
  writeFile(D / "crash.sh", CrashScript, true);
  ASSERT_TRUE(compiles(D)) << "the original must be valid C";
  // Each rejection leaves a line, to check the count in the summary.
  std::string Validity = "'" SLEUTH_TEST_CLANG "' -fsyntax-only -w prog.c || { echo r >> " +
                         (D / "rejected") + "; exit 1; }";
  CliResult R = cli(D, "reduce ./crash.sh prog.c --jobs 2 --valid-with \"" + Validity + "\"");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  std::string Reduced = readFile(D / "prog.c");
  EXPECT_TRUE(crashes(D)) << Reduced;
  EXPECT_TRUE(compiles(D)) << Reduced;
  EXPECT_LT(Reduced.size(), std::string(Program).size() / 3) << Reduced;
  EXPECT_EQ(readFile(D / "prog.c.orig"), Program);
  long Rejected = countLines(readFile(D / "rejected"));
  EXPECT_GT(Rejected, 0);
  EXPECT_EQ(numberBefore(R.Err, " candidates\n"), Rejected) << R.Err;
  EXPECT_NE(R.Err.find("; the validity command ran "), std::string::npos) << R.Err;

  // Without the validity command the same reduction ends in code the reference compiler
  // rejects: what --valid-with is for.
  TempDir Plain;
  writeFile(Plain / "prog.c", Program);
  writeFile(Plain / "crash.sh", CrashScript, true);
  R = cli(Plain, "reduce ./crash.sh prog.c --jobs 2");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_TRUE(crashes(Plain));
  EXPECT_FALSE(compiles(Plain)) << readFile(Plain / "prog.c");
}

TEST(CliChecksTest, OriginalMustPassTheValidityCommand) {
  TempDir D;
  writeFile(D / "prog.c", Program);
  writeFile(D / "crash.sh", CrashScript, true);
  CliResult R = cli(D, "reduce ./crash.sh prog.c --valid-with 'grep -q never prog.c'");
  EXPECT_EQ(R.Exit, 1);
  EXPECT_EQ(lastLine(R.Err),
            "sleuth reduce: the validity command 'grep -q never prog.c' exits 1 on the "
            "original file; it must accept the original\n");
  EXPECT_EQ(readFile(D / "prog.c"), Program);
  EXPECT_FALSE(std::filesystem::exists(D / "prog.c.orig"));
}

TEST(CliChecksTest, BadValidityCommandsAreUsageErrors) {
  TempDir D;
  writeFile(D / "prog.c", Program);
  writeFile(D / "crash.sh", CrashScript, true);
  for (const char *Empty : {"''", "'  '", "="}) {
    std::string Option =
        std::string(Empty) == "=" ? "--valid-with=" : "--valid-with " + std::string(Empty);
    CliResult R = cli(D, "reduce ./crash.sh prog.c " + Option);
    EXPECT_EQ(R.Exit, 2) << Option;
    EXPECT_EQ(R.Err, "sleuth reduce: --valid-with needs a shell command, e.g. --valid-with 'gcc "
                     "-fsyntax-only FILE'\n")
        << Option;
  }
  CliResult R = cli(D, "reduce ./crash.sh prog.c --valid-with 'gcc \"prog.c'");
  EXPECT_EQ(R.Exit, 2);
  EXPECT_EQ(R.Err, "sleuth reduce: --valid-with 'gcc \"prog.c' is not a valid shell command\n");
  R = cli(D, "reduce ./crash.sh prog.c --valid-with");
  EXPECT_EQ(R.Exit, 2);
  EXPECT_EQ(R.Err, "sleuth reduce: option '--valid-with' needs a value\n");
  // ddmin reduces any text: no notion of valid code.
  R = cli(D, "ddmin ./crash.sh prog.c --valid-with true");
  EXPECT_EQ(R.Exit, 2);
  EXPECT_EQ(R.Err, "sleuth ddmin: unknown option '--valid-with' (see --help)\n");
  EXPECT_EQ(readFile(D / "prog.c"), Program);
  EXPECT_FALSE(std::filesystem::exists(D / "prog.c.orig"));
}

TEST(CliChecksTest, HelpSaysHowTheValidityCommandNamesTheFile) {
  TempDir D;
  CliResult R = cli(D, "reduce --help");
  ASSERT_EQ(R.Exit, 0);
  EXPECT_NE(R.Out.find("--valid-with COMMAND"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("holds the candidate under FILE's name"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("--original-runs N"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("--allow-flaky"), std::string::npos) << R.Out;
}

TEST(CliChecksTest, FlakyTestOnTheOriginalStopsBeforeReducing) {
  TempDir D;
  writeFile(D / "prog.c", Program);
  // Passes, then fails, then passes again.
  writeFile(D / "t.sh", failsOnRun(D, 2), true);
  CliResult R = cli(D, "reduce ./t.sh prog.c --jobs 1");
  EXPECT_EQ(R.Exit, 3) << R.Err;
  EXPECT_EQ(lastLine(R.Err),
            "sleuth reduce: the test is flaky on the original: passed 2 of 3 runs (a "
            "failing run exits 1); make it deterministic, or reduce anyway with "
            "--allow-flaky\n");
  EXPECT_EQ(readFile(D / "prog.c"), Program);
  EXPECT_FALSE(std::filesystem::exists(D / "prog.c.orig"));
  EXPECT_EQ(countLines(readFile(D / "count")), 3u);
}

TEST(CliChecksTest, OriginalRunsSetsHowOftenTheOriginalIsTested) {
  TempDir D;
  writeFile(D / "notes.txt", "a\nb\nc\n");
  writeFile(D / "t.sh", failsOnRun(D, 5), true);
  CliResult R = cli(D, "ddmin ./t.sh notes.txt --jobs 1 --original-runs 5");
  EXPECT_EQ(R.Exit, 3) << R.Err;
  EXPECT_NE(R.Err.find("passed 4 of 5 runs"), std::string::npos) << R.Err;
  // One run: no check, the reduction goes on (run 2 is a candidate's).
  std::filesystem::remove(D / "count");
  writeFile(D / "t.sh", failsOnRun(D, 2), true);
  R = cli(D, "ddmin ./t.sh notes.txt --jobs 1 --original-runs 1");
  EXPECT_EQ(R.Exit, 0) << R.Err;
  EXPECT_EQ(R.Err.find("flaky"), std::string::npos) << R.Err;
  for (const char *Bad : {"0", "101", "x", ""}) {
    R = cli(D, std::string("ddmin ./t.sh notes.txt --original-runs '") + Bad + "'");
    EXPECT_EQ(R.Exit, 2) << Bad;
    EXPECT_EQ(R.Err, std::string("sleuth ddmin: --original-runs needs a number from 1 to 100, "
                                 "not '") +
                         Bad + "'\n");
  }
}

TEST(CliChecksTest, AllowFlakyWarnsAndReduces) {
  TempDir D;
  writeFile(D / "prog.c", Program);
  writeFile(D / "t.sh", failsOnRun(D, 2), true);
  CliResult R = cli(D, "reduce ./t.sh prog.c --jobs 1 --allow-flaky");
  EXPECT_EQ(R.Exit, 0) << R.Err;
  EXPECT_NE(R.Err.find("sleuth reduce: warning: the test is flaky on the original: passed 2 of 3 "
                       "runs (a failing run exits 1); reducing anyway (--allow-flaky)\n"),
            std::string::npos)
      << R.Err;
  EXPECT_EQ(readFile(D / "prog.c.orig"), Program);
  EXPECT_LT(readFile(D / "prog.c").size(), std::string(Program).size());
}

TEST(CliChecksTest, JobsDefaultToTheProcessorsThisProcessMayUse) {
  // Pinned to one processor (taskset, a container's cpuset), parallel tests would only
  // compete for it: the default is one job even on a machine with more.
  if (std::system("command -v taskset >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "no taskset";
  TempDir D;
  std::string Text;
  for (int I = 0; I < 16; ++I)
    Text += "line " + std::to_string(I) + (I == 11 ? " needle" : "") + "\n";
  writeFile(D / "notes.txt", Text);
  std::filesystem::create_directory(D / "running");
  writeFile(D / "t.sh",
            "#!/bin/sh\ntouch " + D / "running" + "/$$\nsleep 0.1\nls " + D / "running" +
                " | wc -l >> " + D / "seen" + "\nrm -f " + D / "running" +
                "/$$\ngrep -q needle notes.txt\n",
            true);
  std::string Cmd = "cd '" + D.Path +
                    "' && taskset -c 0 '" SLEUTH_REDUCE_CLI "' ddmin ./t.sh notes.txt 2>/dev/null";
  ASSERT_EQ(std::system(Cmd.c_str()), 0);
  unsigned Most = 0;
  std::istringstream Seen(readFile(D / "seen"));
  for (unsigned N; Seen >> N;)
    Most = std::max(Most, N);
  EXPECT_EQ(Most, 1u) << "tests ran in parallel on one processor";
}
