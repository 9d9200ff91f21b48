// Tests of the perturbed runs of the soundness oracle (runtime/src/perturb.h): the runtime
// changes the bytes the chosen execution of a write stored, after the store (or, for a probe
// that runs before its store, at the next node), fingerprints the run's path and reports both.
// Each scenario runs in a forked child, whose runtime starts clean (as in TrackerTest).
#include "perturb.h"
#include "sleuth/runtime.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>

namespace {

// One unit: a write, a write recorded before its store (C++'s `x++` whose value is used), a
// test, and a kept local's write.
const sleuth_site Sites[] = {
    {SLEUTH_SITE_VAR, 0, 3, 5, 0, 0, 0, "x"},
    {SLEUTH_SITE_VAR, SLEUTH_FLAG_COMPOUND | SLEUTH_FLAG_BEFORE_STORE, 4, 5, 0, 0, 0, "y"},
    {SLEUTH_SITE_TEST, 0, 5, 5, 0, 0, 0, "<test>"},
    {SLEUTH_SITE_VAR, 0, 6, 5, 0, 0, 0, "k"},
};
const sleuth_func Funcs[] = {{1, 9, "scenario"}};

struct Unit {
  sleuth_site_state States[4] = {};
  sleuth_func_state FuncStates[1] = {};
  sleuth_tu Tu = {"/perturb/scenario.c",
                  "0000000000000000",
                  Sites,
                  4,
                  nullptr,
                  Funcs,
                  1,
                  States,
                  FuncStates,
                  nullptr,
                  0,
                  0,
                  0,
                  0};
};

/// The scenarios' unit: the registry keeps it until the child's exit writes the files. Only the
/// children run probes, each in its own copy.
Unit TheUnit;

struct Outcome {
  int Status = -1;
  std::string Report, Error;
};

std::string readFile(const std::filesystem::path &Path) {
  std::ifstream In(Path);
  std::stringstream S;
  S << In.rdbuf();
  return S.str();
}

/// Runs Scenario in a child with SLEUTH_PERTURB=Spec (null: not perturbed); its exit writes
/// the dependence file and the report.
Outcome runChild(const char *Spec, const std::function<void()> &Scenario) {
  static unsigned Count = 0;
  std::filesystem::path Dir =
      std::filesystem::temp_directory_path() /
      ("sleuth-perturb-" + std::to_string(getpid()) + "-" + std::to_string(Count++));
  std::filesystem::create_directories(Dir);
  std::fflush(nullptr);
  pid_t Child = fork();
  if (Child == 0) {
    setenv("SLEUTH_OUT", (Dir / "run.deps").c_str(), 1);
    if (Spec && !sleuth::rt::perturb::configure(Spec, (Dir / "report").c_str()))
      _exit(3);
    Scenario();
    std::exit(0); // writes the files
  }
  Outcome O;
  int Status = 0;
  waitpid(Child, &Status, 0);
  O.Status = WIFEXITED(Status) ? WEXITSTATUS(Status) : 128 + WTERMSIG(Status);
  O.Report = readFile(Dir / "report");
  std::filesystem::remove_all(Dir);
  return O;
}

/// The line of Report that begins with Key, without the key ("" if none).
std::string field(const std::string &Report, const std::string &Key) {
  std::istringstream In(Report);
  for (std::string Line; std::getline(In, Line);)
    if (Line.rfind(Key + " ", 0) == 0)
      return Line.substr(Key.size() + 1);
  return "";
}

/// Fails the child with a message (its assertions cannot reach the parent's GoogleTest).
void require(bool Condition, const char *What) {
  if (!Condition) {
    std::fprintf(stderr, "scenario check failed: %s\n", What);
    _exit(2);
  }
}

// Writes x three times: 10, 20, 30; each value is checked right after its write's probe.
void threeWrites(Unit &U, int Expected2) {
  volatile int X = 10;
  sleuth_set(&U.Tu, 0, 0, &X, sizeof X);
  require(X == 10, "the first write keeps its value");
  X = 20;
  sleuth_set(&U.Tu, 0, 0, &X, sizeof X);
  require(X == Expected2, "the second write's value");
  X = 30;
  sleuth_set(&U.Tu, 0, 0, &X, sizeof X);
  require(X == 30, "the third write keeps its value");
}

TEST(PerturbTest, ChangesTheChosenExecutionOfAWriteRightAfterItsStore) {
  Outcome Flipped = runChild("0:2:flip", [] {
    Unit &U = TheUnit;
    threeWrites(U, 21);
  });
  ASSERT_EQ(Flipped.Status, 0);
  EXPECT_EQ(field(Flipped.Report, "target"), "0 2 flip");
  EXPECT_EQ(field(Flipped.Report, "hits"), "3");
  EXPECT_EQ(field(Flipped.Report, "executions"), "3");
  EXPECT_EQ(field(Flipped.Report, "applied"), "4 14000000 15000000");

  Outcome Added = runChild("0:2:add", [] {
    Unit &U = TheUnit;
    threeWrites(U, 21);
  });
  ASSERT_EQ(Added.Status, 0);
  EXPECT_EQ(field(Added.Report, "applied"), "4 14000000 15000000");
}

TEST(PerturbTest, AddCarriesAcrossTheBytesOfTheValue) {
  Outcome O = runChild("0:1:add", [] {
    Unit &U = TheUnit;
    volatile unsigned X = 0x1ff;
    sleuth_set(&U.Tu, 0, 0, &X, sizeof X);
    require(X == 0x200, "0x1ff + 1");
  });
  ASSERT_EQ(O.Status, 0);
  EXPECT_EQ(field(O.Report, "applied"), "4 ff010000 00020000");
}

TEST(PerturbTest, AProbeBeforeItsStorePerturbsAtTheNextNode) {
  // `y++` whose old value is used: the probe runs before the store, which would overwrite a
  // change made there; the store's result changes before the next node instead.
  Outcome O = runChild("1:1:flip", [] {
    Unit &U = TheUnit;
    volatile int Y = 6;
    sleuth_set(&U.Tu, 1, 0, &Y, sizeof Y);
    require(Y == 6, "not before the store");
    int Old = Y;
    Y = Old + 1;
    require(Y == 7, "not at the store");
    (void)sleuth_test(&U.Tu, 2, 0, 1);
    require(Y == 6, "the stored 7 flipped at the next node");
  });
  ASSERT_EQ(O.Status, 0);
  EXPECT_EQ(field(O.Report, "applied"), "4 07000000 06000000");
}

TEST(PerturbTest, KeptLocalsOfAnOracleBuildPassTheirAddress) {
  Outcome O = runChild("3:1:add", [] {
    Unit &U = TheUnit;
    volatile long K = 41;
    unsigned Origin = sleuth_def_at(&U.Tu, 3, 0, &K, sizeof K);
    require(Origin == 4, "the local's origin is 1 + its node");
    require(K == 42, "the local's value");
  });
  ASSERT_EQ(O.Status, 0);
  EXPECT_EQ(field(O.Report, "applied"), "8 2900000000000000 2a00000000000000");
}

TEST(PerturbTest, AWriteWithoutAnAddressIsReportedAsNotPerturbed) {
  Outcome O = runChild("3:1:flip", [] {
    Unit &U = TheUnit;
    (void)sleuth_def(&U.Tu, 3, 0); // a kept local of a build without --perturbable
  });
  ASSERT_EQ(O.Status, 0);
  EXPECT_EQ(field(O.Report, "hits"), "1");
  EXPECT_EQ(field(O.Report, "executions"), "0");
  EXPECT_EQ(field(O.Report, "applied"), "");
}

void testsWith(int First, int Second) {
  Unit &U = TheUnit;
  volatile int X = 1;
  sleuth_set(&U.Tu, 0, 0, &X, sizeof X);
  (void)sleuth_test(&U.Tu, 2, 0, First);
  (void)sleuth_test(&U.Tu, 2, 0, Second);
}

TEST(PerturbTest, ThePathIsTheSequenceOfNodesAndOutcomes) {
  std::string A = field(runChild("none", [] { testsWith(1, 0); }).Report, "path");
  std::string B = field(runChild("none", [] { testsWith(1, 0); }).Report, "path");
  // The same nodes as often, in another order of outcomes: another path.
  std::string C = field(runChild("none", [] { testsWith(0, 1); }).Report, "path");
  ASSERT_FALSE(A.empty());
  EXPECT_EQ(A.substr(0, 2), "3 ");
  EXPECT_EQ(A, B);
  EXPECT_NE(A, C);
}

TEST(PerturbTest, EveryNodeTakesTheSlowPathWhilePerturbing) {
  // Inline, a node whose edges are known only counts a hit: the runtime would not see it.
  Outcome O = runChild("none", [] {
    Unit &U = TheUnit;
    volatile int X = 1;
    for (int I = 0; I < 5; ++I)
      sleuth_set(&U.Tu, 0, 0, &X, sizeof X);
    require(sleuth_pending_reads.num_hits == 0, "the inline probes see no count");
  });
  ASSERT_EQ(O.Status, 0);
  EXPECT_EQ(field(O.Report, "path").substr(0, 2), "5 ");
}

TEST(PerturbTest, AMalformedRequestIsRefused) {
  for (const char *Bad :
       {"", "x", "1", "1:0:flip", "1:2", "1:2:xor", "-1:1:flip", "1:-2:add", "1:1:flip:extra"})
    EXPECT_FALSE(sleuth::rt::perturb::configure(Bad, nullptr)) << Bad;
  EXPECT_FALSE(sleuth::rt::perturb::active());
}

} // namespace
