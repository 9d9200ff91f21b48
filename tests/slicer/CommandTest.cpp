// `sleuth slice` as a user runs it: options, formats, errors, `-o`.
#include "SlicerTestSupport.h"

#include <nlohmann/json.hpp>

#include <cstdlib>

using namespace sleuth;
using namespace sleuth::test;

TEST(CommandTest, DefaultIsTheCodeViewOfTheWholeRun) {
  MiddleRun Run;
  CommandResult R = runSlice({Run.Deps});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_EQ(R.Err, "");
  EXPECT_TRUE(R.Out.starts_with("     1 int middle(int x, int y, int z) {\n"
                                "*    2     if (y < z) {          // <= y (1), "
                                "z (1)\n"))
      << R.Out;
  EXPECT_NE(R.Out.find("*   18     return m;"), std::string::npos) << R.Out;
}

TEST(CommandTest, CriterionAndOptionsInAnyOrder) {
  MiddleRun Run;
  CommandResult R = runSlice({"--format", "deps", Run.Deps, "--depth=1", "middle:return"});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_EQ(R.Out, "middle():\n"
                   "    <middle() return value> (6) <= y (1); <- <test> (5)\n");
}

TEST(CommandTest, ForwardDataOnly) {
  MiddleRun Run;
  CommandResult R =
      runSlice({Run.Deps, "middle.cpp:1:y", "--forward", "--data-only", "--format=deps"});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_EQ(R.Out, "middle():\n"
                   "    y (1) => <test> (2), <test> (3), <middle() return "
                   "value> (6)\n"
                   "    <middle() return value> (6) => m (main:17)\n"
                   "\n"
                   "main():\n"
                   "    m (17) => <main() return value> (18)\n");
}

TEST(CommandTest, ControlOnly) {
  MiddleRun Run;
  CommandResult R = runSlice({Run.Deps, "crash", "--control-only", "--format", "json"});
  EXPECT_EQ(R.Code, 0) << R.Err;
  nlohmann::json J = nlohmann::json::parse(R.Out);
  EXPECT_EQ(J["criterion"], "crash");
  // main's return value is controlled by nothing.
  ASSERT_EQ(J["nodes"].size(), 1u);
  EXPECT_EQ(J["nodes"][0]["id"], 11);
}

TEST(CommandTest, DotFormat) {
  MiddleRun Run;
  CommandResult R = runSlice({Run.Deps, "m@main", "--format", "dot"});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_TRUE(R.Out.starts_with("digraph slice {\n")) << R.Out;
  EXPECT_NE(R.Out.find("  n7 -> n10;\n"), std::string::npos) << R.Out;
  EXPECT_NE(R.Out.find("  n6 -> n7 [style=dashed, color=grey50];\n"), std::string::npos) << R.Out;
}

TEST(CommandTest, SvgThroughGraphviz) {
  if (std::system("command -v dot >/dev/null 2>&1") != 0)
    GTEST_SKIP() << "Graphviz's dot is not installed";
  MiddleRun Run;
  CommandResult R = runSlice({Run.Deps, "middle:return", "--format", "svg"});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_NE(R.Out.find("<svg"), std::string::npos) << R.Out.substr(0, 200);
  EXPECT_NE(R.Out.find("&lt;middle() return value&gt;"), std::string::npos);
}

TEST(CommandTest, SvgWithoutGraphviz) {
  MiddleRun Run;
  std::string OldPath = std::getenv("PATH") ? std::getenv("PATH") : "";
  ::setenv("PATH", Run.Dir.Path.c_str(), 1);
  std::string Out = Run.Dir.file("out.svg");
  CommandResult R = runSlice({Run.Deps, "middle:return", "--format", "svg", "-o", Out});
  ::setenv("PATH", OldPath.c_str(), 1);
  EXPECT_EQ(R.Code, 1);
  EXPECT_EQ(R.Err, "sleuth slice: --format svg needs Graphviz's 'dot', which is "
                   "not on PATH; install graphviz (e.g. apt-get install "
                   "graphviz)\n");
  EXPECT_FALSE(std::filesystem::exists(Out));
}

TEST(CommandTest, OutputFileIsWrittenAtomically) {
  MiddleRun Run;
  std::string Out = Run.Dir.write("slice.txt", "old contents\n");
  CommandResult R = runSlice({Run.Deps, "middle:return", "-o", Out});
  EXPECT_EQ(R.Code, 0) << R.Err;
  EXPECT_EQ(R.Out, "");
  EXPECT_TRUE(readFile(Out).starts_with("     1 int middle("));
  EXPECT_NE(readFile(Out).find("*    6             return y;     // <= y (1); "
                               "<- <test> (5)\n"),
            std::string::npos);
  // No temporary file is left beside it.
  EXPECT_EQ(Run.Dir.entries(), (std::vector<std::string>{"middle.cpp", "run.deps", "slice.txt"}));
  // Readable like any file the user creates, not 0600 like a temp file.
  auto Perms = std::filesystem::status(Out).permissions();
  EXPECT_NE(Perms & std::filesystem::perms::group_read, std::filesystem::perms::none);
}

TEST(CommandTest, UnwritableOutputLeavesNothing) {
  MiddleRun Run;
  std::string Out = Run.Dir.file("no/such/dir/slice.txt");
  CommandResult R = runSlice({Run.Deps, "-o", Out});
  EXPECT_EQ(R.Code, 1);
  EXPECT_EQ(R.Err, "sleuth slice: cannot write '" + Out + "': No such file or directory\n");
  EXPECT_EQ(Run.Dir.entries(), (std::vector<std::string>{"middle.cpp", "run.deps"}));

  // A directory in the way: the rename fails and the temporary is removed.
  std::filesystem::create_directory(Run.Dir.file("taken"));
  R = runSlice({Run.Deps, "-o", Run.Dir.file("taken")});
  EXPECT_EQ(R.Code, 1);
  EXPECT_TRUE(R.Err.starts_with("sleuth slice: cannot write '" + Run.Dir.file("taken") + "': "))
      << R.Err;
  EXPECT_EQ(Run.Dir.entries(), (std::vector<std::string>{"middle.cpp", "run.deps", "taken"}));
  EXPECT_TRUE(std::filesystem::is_empty(Run.Dir.file("taken")));
}

TEST(CommandTest, Help) {
  CommandResult R = runSlice({"--help"});
  EXPECT_EQ(R.Code, 0);
  EXPECT_TRUE(R.Out.starts_with("usage: sleuth slice DEPS [CRITERION]"));
  EXPECT_NE(R.Out.find("--control-only"), std::string::npos);
  EXPECT_EQ(R.Err, "");
}

TEST(CommandTest, UsageErrors) {
  MiddleRun Run;
  auto Error = [](std::vector<std::string> Args) {
    CommandResult R = runSlice(std::move(Args));
    EXPECT_EQ(R.Code, 2);
    EXPECT_EQ(R.Out, "");
    return R.Err;
  };
  EXPECT_EQ(Error({Run.Deps, "--frobnicate"}),
            "sleuth slice: unknown option '--frobnicate' (see --help)\n");
  EXPECT_EQ(Error({Run.Deps, "--format", "png"}),
            "sleuth slice: unknown format 'png' (expected code, deps, dot, "
            "svg or json)\n");
  EXPECT_EQ(Error({Run.Deps, "x@main", "--depth", "-1"}),
            "sleuth slice: --depth needs a non-negative number, not '-1'\n");
  EXPECT_EQ(Error({Run.Deps, "--depth", "2"}),
            "sleuth slice: --depth needs a criterion to count from\n");
  EXPECT_EQ(Error({Run.Deps, "--data-only", "--control-only"}),
            "sleuth slice: --data-only and --control-only exclude each "
            "other\n");
  EXPECT_EQ(Error({}), "sleuth slice: missing dependence file (usage: "
                       "sleuth slice DEPS [CRITERION] [options])\n");
  EXPECT_EQ(Error({Run.Deps, "a:1", "b:2"}), "sleuth slice: unexpected argument 'b:2'\n");
  EXPECT_EQ(Error({Run.Deps, "-o"}), "sleuth slice: option '-o' needs a value\n");
  EXPECT_EQ(Error({Run.Deps, "--forward=yes"}),
            "sleuth slice: option '--forward' takes no value\n");
}

TEST(CommandTest, LoadAndCriterionErrors) {
  MiddleRun Run;
  std::string Bad =
      Run.Dir.write("bad.deps", "sleuth-deps 1\nprogram p\nstatus exit 0\nfile 0 /a.c\n"
                                "func 0 0 1 3 f\nsite 0 var 0 1 1 x\ndata 0 42\nend\n");
  CommandResult R = runSlice({Bad});
  EXPECT_EQ(R.Code, 1);
  EXPECT_EQ(R.Out, "");
  EXPECT_EQ(R.Err, "sleuth slice: " + Bad + ":7: edge names undeclared site 42\n");

  std::string Truncated = Run.Dir.write("cut.deps", middleDeps(Run.Source).substr(0, 300));
  R = runSlice({Truncated, "crash"});
  EXPECT_EQ(R.Code, 1);
  EXPECT_EQ(R.Err,
            "sleuth slice: " + Truncated + ": truncated dependence file (no 'end' record)\n");

  R = runSlice({Run.Dir.file("missing.deps")});
  EXPECT_EQ(R.Code, 1);
  EXPECT_EQ(R.Err, "sleuth slice: " + Run.Dir.file("missing.deps") +
                       ": cannot open dependence file: No such file or "
                       "directory\n");

  R = runSlice({Run.Deps, "middel:return"});
  EXPECT_EQ(R.Code, 1);
  EXPECT_EQ(R.Out, "");
  EXPECT_EQ(R.Err, "sleuth slice: criterion 'middel:return': no function 'middel' "
                   "(functions: middle, main)\n");
}

TEST(CommandTest, UnexecutedCriterionIsNoted) {
  MiddleRun Run;
  CommandResult R = runSlice({Run.Deps, "middle.cpp:4", "--format", "deps"});
  EXPECT_EQ(R.Code, 0);
  EXPECT_EQ(R.Out, "");
  EXPECT_EQ(R.Err, "sleuth slice: note: criterion 'middle.cpp:4' never executed "
                   "in this run\n");
}

TEST(CommandTest, MissingSourceWarnsOnStderr) {
  MiddleRun Run;
  std::filesystem::remove(Run.Source);
  CommandResult R = runSlice({Run.Deps, "m@main"});
  EXPECT_EQ(R.Code, 0);
  EXPECT_EQ(R.Err, "sleuth slice: cannot read source file " + Run.Source +
                       " (No such file or directory); showing annotations "
                       "only\n");
  EXPECT_NE(R.Out.find("*   17 [m]   // <= <middle() return value> "
                       "(middle:6)\n"),
            std::string::npos)
      << R.Out;
}
