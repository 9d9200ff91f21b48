// End-to-end runs of `reduce` on several files through sleuth_reduce_cli: a
// scripted compiler whose crash needs two files, a directory as the
// argument, Ctrl-C in the middle, includes seen by the parse, bad input.
#include "TestUtil.h"

#include <gtest/gtest.h>

#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <sstream>
#include <sys/wait.h>

using namespace sleuth::reducer::testing;

namespace {

namespace fs = std::filesystem;

/// The scripted compiler: "crashes" (exit 0) while the header declares the
/// marker and the source, which includes the header, uses it. Neither file
/// alone is enough, so inlining the header is not either.
std::string twoFileCrashScript(const std::string &Header, const std::string &Source,
                               const std::string &Include, const char *Delay = "") {
  return std::string("#!/bin/sh\n") + Delay + "grep -q 'int crash_marker' " + Header +
         " && grep -q '^#include \"" + Include + "\"' " + Source +
         " && grep -q 'use(crash_marker' " + Source + "\n";
}

const char *const Header = R"(#pragma once
struct point { int x; int y; };
int crash_marker = 3;
static inline int square(int v) { return v * v; }
int unrelated(int a, int b);
)";

const char *const Source = R"(#include "a.h"
#include "b.h"
int use(int v) { return v + 1; }
int distance(point a, point b) {
  int dx = a.x - b.x;
  return square(dx) + unrelated(dx, dx);
}
int main() {
  point p{1, 2};
  return use(crash_marker) + distance(p, p);
}
)";

const char *const OtherHeader = "int helper(int a, int b);\nint helper2(int a);\n";
const char *const OtherSource = "#include \"b.h\"\nint helper(int a, int b) { return a * b; }\n";

std::size_t totalSize(const TempDir &D, const std::vector<std::string> &Files) {
  std::size_t N = 0;
  for (const std::string &F : Files)
    N += readFile(D / F).size();
  return N;
}

void writeProject(const TempDir &D) {
  writeFile(D / "a.h", Header);
  writeFile(D / "b.h", OtherHeader);
  writeFile(D / "main.cpp", Source);
  writeFile(D / "other.cpp", OtherSource);
}

} // namespace

TEST(CliMultiFileTest, ReducesAFailureThatNeedsTwoFiles) {
  TempDir D;
  writeProject(D);
  writeFile(D / "crash.sh", twoFileCrashScript("a.h", "main.cpp", "a.h"), true);
  std::vector<std::string> Files = {"a.h", "b.h", "main.cpp", "other.cpp"};
  CliResult R = cli(D, "reduce ./crash.sh a.h b.h main.cpp other.cpp --jobs 2 --timeout 10");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_NE(R.Err.find("done: "), std::string::npos) << R.Err;
  // Still interesting, and much smaller.
  EXPECT_EQ(std::system(("cd '" + D.Path + "' && ./crash.sh").c_str()), 0);
  EXPECT_LT(totalSize(D, Files) * 4,
            totalSize(D, {"a.h.orig", "b.h.orig", "main.cpp.orig", "other.cpp.orig"}));
  EXPECT_EQ(readFile(D / "a.h.orig"), Header);
  EXPECT_EQ(readFile(D / "b.h.orig"), OtherHeader);
  EXPECT_EQ(readFile(D / "main.cpp.orig"), Source);
  EXPECT_EQ(readFile(D / "other.cpp.orig"), OtherSource);
  // The files the failure does not need are emptied, not deleted.
  EXPECT_EQ(readFile(D / "b.h"), "");
  EXPECT_EQ(readFile(D / "other.cpp"), "");
  EXPECT_LT(readFile(D / "a.h").size(), 30u) << readFile(D / "a.h");
  EXPECT_LT(readFile(D / "main.cpp").size(), 40u) << readFile(D / "main.cpp");
  for (auto &E : fs::directory_iterator(D.Path))
    EXPECT_EQ(E.path().string().find("sleuth-tmp"), std::string::npos);
}

TEST(CliMultiFileTest, KeepsAnExistingOrigOfEachFile) {
  TempDir D;
  writeProject(D);
  writeFile(D / "a.h.orig", "the true original\n");
  writeFile(D / "crash.sh", twoFileCrashScript("a.h", "main.cpp", "a.h"), true);
  CliResult R = cli(D, "reduce ./crash.sh a.h main.cpp --jobs 2 --original-runs 1");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_EQ(readFile(D / "a.h.orig"), "the true original\n");
  EXPECT_EQ(readFile(D / "main.cpp.orig"), Source);
  EXPECT_NE(R.Err.find("keeping the existing 'a.h.orig'"), std::string::npos) << R.Err;
}

TEST(CliMultiFileTest, ReducesEverySourceUnderADirectory) {
  TempDir D;
  fs::create_directories(D / "proj/include");
  fs::create_directories(D / "proj/src");
  writeFile(D / "proj/include/a.h", Header);
  writeFile(D / "proj/src/main.cpp", std::string("#include \"../include/a.h\"\n") +
                                         (Source + std::strlen("#include \"a.h\"\n")));
  writeFile(D / "proj/src/b.h", OtherHeader);
  writeFile(D / "proj/README.txt", "not a source\n");
  writeFile(D / "crash.sh",
            twoFileCrashScript("proj/include/a.h", "proj/src/main.cpp", "../include/a.h"), true);
  CliResult R = cli(D, "reduce ./crash.sh proj --jobs 2 --original-runs 1");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_EQ(std::system(("cd '" + D.Path + "' && ./crash.sh").c_str()), 0);
  EXPECT_EQ(readFile(D / "proj/include/a.h.orig"), Header);
  EXPECT_TRUE(fs::exists(D / "proj/src/main.cpp.orig"));
  EXPECT_EQ(readFile(D / "proj/src/b.h"), ""); // main.cpp no longer includes it.
  EXPECT_EQ(readFile(D / "proj/README.txt"), "not a source\n");
  EXPECT_FALSE(fs::exists(D / "proj/README.txt.orig"));
}

TEST(CliMultiFileTest, CtrlCKeepsEveryFileWhole) {
  TempDir D;
  writeProject(D);
  // Slow tests, one at a time, so that the reduction is still running when SIGINT comes.
  writeFile(D / "crash.sh", twoFileCrashScript("a.h", "main.cpp", "a.h", "sleep 0.1\n"), true);
  pid_t Pid = fork();
  if (Pid == 0) {
    chdir(D.Path.c_str());
    int Null = open("/dev/null", O_WRONLY);
    dup2(Null, 2);
    execl(SLEUTH_REDUCE_CLI, SLEUTH_REDUCE_CLI, "reduce", "./crash.sh", "a.h", "b.h", "main.cpp",
          "other.cpp", "--jobs", "1", "--original-runs", "1", nullptr);
    _exit(127);
  }
  // Interrupt as soon as a first reduction has been written back (the whole
  // run takes over a hundred tests of 0.1 s each).
  std::vector<std::string> Files = {"a.h", "b.h", "main.cpp", "other.cpp"};
  const std::size_t OriginalSize = std::strlen(Header) + std::strlen(OtherHeader) +
                                   std::strlen(Source) + std::strlen(OtherSource);
  for (int Waited = 0; Waited < 600 && totalSize(D, Files) == OriginalSize; ++Waited)
    usleep(50000);
  usleep(200000);
  kill(Pid, SIGINT);
  int Status;
  waitpid(Pid, &Status, 0);
  ASSERT_TRUE(WIFEXITED(Status));
  EXPECT_EQ(WEXITSTATUS(Status), 130);
  // Every file is whole: together they are the original or a best set, which
  // the test still finds interesting; the originals are in .orig.
  EXPECT_EQ(std::system(("cd '" + D.Path + "' && ./crash.sh").c_str()), 0);
  EXPECT_EQ(readFile(D / "a.h.orig"), Header);
  EXPECT_EQ(readFile(D / "b.h.orig"), OtherHeader);
  EXPECT_EQ(readFile(D / "main.cpp.orig"), Source);
  EXPECT_EQ(readFile(D / "other.cpp.orig"), OtherSource);
  EXPECT_LT(totalSize(D, Files), OriginalSize);
  for (auto &E : fs::directory_iterator(D.Path))
    EXPECT_EQ(E.path().string().find("sleuth-tmp"), std::string::npos);
}

TEST(CliMultiFileTest, TheParseOfAFileSeesTheOthers) {
  // The braces of make() come from macros of inc/a.h, so an AST pass finds
  // its statements only if the parse of main.cpp finds the header: through
  // the base directory, or --include-dir.
  const char *const Macros = "#define BEGIN {\n#define END }\n";
  for (const char *Include : {"inc/a.h", "a.h"}) {
    TempDir D;
    fs::create_directories(D / "inc");
    fs::create_directories(D / "src");
    writeFile(D / "inc/a.h", Macros);
    writeFile(D / "src/main.cpp", std::string("#include \"") + Include +
                                      "\"\nint make() BEGIN\n  int b = 0;\n  b = 1;\n"
                                      "  b += 2;\n  return b;\nEND\n");
    writeFile(D / "t.sh",
              "#!/bin/sh\ngrep -q BEGIN inc/a.h && grep -q 'int b = 0;' src/main.cpp && "
              "grep -q 'return b;' src/main.cpp\n",
              true);
    std::string Args = "reduce ./t.sh inc/a.h src/main.cpp --passes remove-stmt --original-runs 1";
    if (std::string(Include) == "a.h")
      Args += " --include-dir inc";
    CliResult R = cli(D, Args);
    ASSERT_EQ(R.Exit, 0) << R.Err;
    EXPECT_EQ(readFile(D / "src/main.cpp").find("b = 1"), std::string::npos)
        << Include << ":\n"
        << readFile(D / "src/main.cpp");
    EXPECT_EQ(readFile(D / "src/main.cpp").find("b += 2"), std::string::npos);
  }
}

/// What the test saw of each candidate, in the order it ran: the sizes of
/// a.h and main.cpp, whether main.cpp held the header's text, and whether
/// main.cpp still held its own function distance() (which the crash does not
/// need). One line per run, written by the test script.
struct CandidateLog {
  struct Run {
    std::size_t Header, Source;
    bool Inlined, SourceWhole;
    /// main.cpp has lost some of its own code, not all of it.
    bool sourceReduced() const { return Source != 0 && !SourceWhole; }
  };
  std::vector<Run> Runs;
  explicit CandidateLog(const std::string &Text) {
    std::istringstream In(Text);
    Run R;
    int Inlined, Whole;
    while (In >> R.Header >> R.Source >> Inlined >> Whole) {
      R.Inlined = Inlined > 0;
      R.SourceWhole = Whole > 0;
      Runs.push_back(R);
    }
  }
  /// Index of the first run that satisfies P, or Runs.size().
  template <typename Pred> std::size_t first(Pred P) const {
    for (std::size_t I = 0; I < Runs.size(); ++I)
      if (P(Runs[I]))
        return I;
    return Runs.size();
  }
};

/// A test script that logs every candidate into Log, then runs Check.
std::string loggingScript(const std::string &Log, const std::string &Check) {
  return "#!/bin/sh\necho \"$(wc -c < a.h) $(wc -c < main.cpp) "
         "$(grep -c 'int crash_marker' main.cpp) "
         "$(grep -c 'int distance' main.cpp)\" >> '" +
         Log + "'\n" + Check + "\n";
}

TEST(CliMultiFileTest, ReducesASourceBeforeTheHeadersItIncludes) {
  // The header comes first on the command line, yet its own passes wait
  // until the source has been reduced: while the source is whole it uses
  // most of what a header declares (in a real project, nearly all of it).
  TempDir D;
  writeProject(D);
  std::string Log = D / "runs.log";
  writeFile(D / "crash.sh",
            loggingScript(Log, "grep -q 'int crash_marker' a.h && grep -q '^#include \"a.h\"' "
                               "main.cpp && grep -q 'use(crash_marker' main.cpp"),
            true);
  CliResult R = cli(D, "reduce ./crash.sh a.h main.cpp --jobs 1 --original-runs 1");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  CandidateLog L(readFile(Log));
  const std::size_t HeaderSize = std::strlen(Header);
  std::size_t SourceReduced =
      L.first([](const CandidateLog::Run &Run) { return Run.sourceReduced(); });
  std::size_t HeaderPart = L.first(
      [&](const CandidateLog::Run &Run) { return Run.Header != 0 && Run.Header < HeaderSize; });
  ASSERT_LT(SourceReduced, L.Runs.size()) << readFile(Log);
  ASSERT_LT(HeaderPart, L.Runs.size()) << readFile(Log);
  EXPECT_LT(SourceReduced, HeaderPart) << readFile(Log);
  EXPECT_LT(readFile(D / "a.h").size(), 30u) << readFile(D / "a.h");
}

TEST(CliMultiFileTest, JoinsAHeaderToItsIncluderOnlyAfterReducingBoth) {
  // Here the marker may be declared in main.cpp or in the a.h it includes,
  // as a compiler sees it, so inline-header applies; it waits for the passes
  // of each file, which see the header apart.
  TempDir D;
  writeProject(D);
  std::string Log = D / "runs.log";
  writeFile(D / "crash.sh",
            loggingScript(Log, "grep -q 'use(crash_marker' main.cpp && { grep -q 'int "
                               "crash_marker' main.cpp || { grep -q '^#include \"a.h\"' "
                               "main.cpp && grep -q 'int crash_marker' a.h; }; }"),
            true);
  CliResult R = cli(D, "reduce ./crash.sh a.h main.cpp --jobs 1 --original-runs 1");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  CandidateLog L(readFile(Log));
  const std::size_t HeaderSize = std::strlen(Header);
  std::size_t Joined = L.first([](const CandidateLog::Run &Run) { return Run.Inlined; });
  std::size_t BothReduced = L.first([&](const CandidateLog::Run &Run) {
    return Run.sourceReduced() && Run.Header != 0 && Run.Header < HeaderSize;
  });
  ASSERT_LT(Joined, L.Runs.size()) << readFile(Log);
  EXPECT_LT(BothReduced, Joined) << readFile(Log);
  // The marker ends in one file or the other, and the result still crashes.
  EXPECT_EQ(std::system(("cd '" + D.Path + "' && ./crash.sh").c_str()), 0);
}

TEST(CliMultiFileTest, MovesADeclarationOfASharedHeaderToItsUser) {
  // Both sources must keep including a.h, so inline-header cannot apply; the
  // marker moves into main.cpp and the header ends empty.
  TempDir D;
  writeProject(D);
  writeFile(D / "other.cpp", "#include \"a.h\"\nint helper(int a) { return a; }\n");
  writeFile(D / "crash.sh",
            "#!/bin/sh\ngrep -q '^#include \"a.h\"' main.cpp && grep -q '^#include \"a.h\"' "
            "other.cpp && grep -q 'use(crash_marker' main.cpp && { grep -q 'int crash_marker' "
            "main.cpp || grep -q 'int crash_marker' a.h; }\n",
            true);
  CliResult R = cli(D, "reduce ./crash.sh a.h main.cpp other.cpp --jobs 2 --original-runs 1");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  EXPECT_EQ(readFile(D / "a.h"), "");
  EXPECT_NE(readFile(D / "main.cpp").find("int crash_marker"), std::string::npos)
      << readFile(D / "main.cpp");
  EXPECT_EQ(std::system(("cd '" + D.Path + "' && ./crash.sh").c_str()), 0);
}

TEST(CliMultiFileTest, ARoundThatOnlyMovedTextIsFollowedByAnother) {
  // Only remove-include and move-decl: the first round moves the marker into main.cpp and
  // gains no token, so without another round main.cpp would keep its include of a.h, which
  // other.cpp still needs.
  TempDir D;
  writeProject(D);
  writeFile(D / "other.cpp", "#include \"a.h\"\nint helper(point p) { return p.x; }\n");
  // Nothing else to remove in the first round (main.cpp's include of b.h would be).
  writeFile(D / "main.cpp", "#include \"a.h\"\nint main() { return use(crash_marker); }\n");
  writeFile(D / "crash.sh",
            "#!/bin/sh\ngrep -q 'use(crash_marker' main.cpp && { grep -q 'int crash_marker' "
            "main.cpp || { grep -q '^#include \"a.h\"' main.cpp && grep -q 'int crash_marker' "
            "a.h; }; } && grep -q '^#include \"a.h\"' other.cpp && grep -q 'struct point' a.h\n",
            true);
  CliResult R = cli(D, "reduce ./crash.sh a.h main.cpp other.cpp --passes remove-include,move-decl "
                       "--jobs 1 --original-runs 1");
  ASSERT_EQ(R.Exit, 0) << R.Err;
  std::string Main = readFile(D / "main.cpp");
  EXPECT_NE(Main.find("int crash_marker"), std::string::npos) << Main;
  EXPECT_EQ(Main.find("#include \"a.h\""), std::string::npos) << Main;
  EXPECT_EQ(std::system(("cd '" + D.Path + "' && ./crash.sh").c_str()), 0);
}

TEST(CliMultiFileTest, BadInputIsOneLineAndAUsageError) {
  TempDir D, Elsewhere;
  writeProject(D);
  writeFile(Elsewhere / "x.h", "int x;\n");
  writeFile(D / "t.sh", "#!/bin/sh\nexit 0\n", true);
  CliResult R = cli(D, "reduce ./t.sh a.h '" + (Elsewhere / "x.h") + "'");
  EXPECT_EQ(R.Exit, 2);
  EXPECT_EQ(R.Err, "sleuth reduce: '" + (Elsewhere / "x.h") +
                       "' is outside the current directory, the base of the files' copies; "
                       "run from a directory that holds every FILE\n");
  R = cli(D, "reduce ./t.sh a.h '" + Elsewhere.Path + "'"); // A directory: named itself.
  EXPECT_EQ(R.Exit, 2);
  EXPECT_EQ(R.Err, "sleuth reduce: '" + Elsewhere.Path +
                       "' is outside the current directory, the base of the files' copies; "
                       "run from a directory that holds every FILE\n");
  fs::create_directory(D / "empty");
  R = cli(D, "reduce ./t.sh a.h empty");
  EXPECT_EQ(R.Exit, 2);
  EXPECT_EQ(R.Err, "sleuth reduce: no C/C++ sources or headers under 'empty'\n");
  R = cli(D, "reduce ./t.sh a.h main.cpp --include-dir nowhere");
  EXPECT_EQ(R.Exit, 2);
  EXPECT_EQ(R.Err, "sleuth reduce: --include-dir 'nowhere' is not a directory\n");
  R = cli(D, "reduce ./t.sh a.h missing.cpp");
  EXPECT_EQ(R.Exit, 1);
  EXPECT_NE(R.Err.find("cannot read 'missing.cpp'"), std::string::npos) << R.Err;
  EXPECT_EQ(readFile(D / "a.h"), Header);
  EXPECT_FALSE(fs::exists(D / "a.h.orig"));
}
