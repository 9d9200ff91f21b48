// Every form of slicing criterion, and what the user is told when one
// matches nothing.
#include "SlicerTestSupport.h"

using namespace sleuth;
using namespace sleuth::test;
using Nodes = std::vector<DependenceGraph::Node>;

namespace {

class CriterionTest : public testing::Test {
protected:
  MiddleRun Run;
  DependenceGraph G = Run.graph();

  Nodes resolve(std::string_view Criterion) {
    std::string Error;
    std::optional<Nodes> Result = resolveCriterion(G, Criterion, Error);
    EXPECT_TRUE(Result) << Error;
    return Result.value_or(Nodes{});
  }
  std::string error(std::string_view Criterion) {
    std::string Error;
    EXPECT_FALSE(resolveCriterion(G, Criterion, Error)) << "'" << Criterion << "' resolved";
    EXPECT_EQ(Error.find('\n'), std::string::npos);
    return Error;
  }
};

/// A graph whose functions have qualified names, in two directories.
DependenceGraph qualifiedGraph() {
  std::string Error;
  std::optional<DependenceGraph> G =
      DependenceGraph::parse("sleuth-deps 1\nprogram p\nstatus exit 0\n"
                             "file 0 /src/a/util.cpp\nfile 1 /src/b/util.cpp\n"
                             "func 0 0 1 3 ns::Cls::get\nfunc 1 1 1 3 other::get\n"
                             "func 2 1 5 9 ns::Cls::set\n"
                             "site 0 ret 0 2 5 <get()%20return%20value>\n"
                             "site 1 ret 1 2 5 <get()%20return%20value>\n"
                             "site 2 var 2 6 5 this->v\n"
                             "hit 0 1\nhit 1 1\nhit 2 1\nend\n",
                             "q.deps", Error);
  EXPECT_TRUE(G) << Error;
  return G ? std::move(*G) : DependenceGraph();
}

} // namespace

TEST_F(CriterionTest, FileAndLine) {
  EXPECT_EQ(resolve("middle.cpp:3"), (Nodes{4}));
  EXPECT_EQ(resolve(Run.Source + ":3"), (Nodes{4}));
  EXPECT_EQ(resolve("./middle.cpp:2"), (Nodes{3}));
  std::string Dir = Run.Dir.Path.filename().string();
  EXPECT_EQ(resolve(Dir + "/middle.cpp:5"), (Nodes{6}));
  // All three parameters share line 1.
  EXPECT_EQ(resolve("middle.cpp:1"), (Nodes{0, 1, 2}));
}

TEST_F(CriterionTest, FileLineAndVariable) {
  EXPECT_EQ(resolve("middle.cpp:1:y"), (Nodes{1}));
  EXPECT_EQ(resolve("middle.cpp:17:m"), (Nodes{10}));
  EXPECT_EQ(error("middle.cpp:1:q"), "criterion 'middle.cpp:1:q': no site named 'q' at line 1 of " +
                                         Run.Source + " (there: x, y, z)");
}

TEST_F(CriterionTest, PartialFileNameDoesNotMatch) {
  // `dle.cpp` is a suffix of the path but not a whole component.
  EXPECT_EQ(error("dle.cpp:3"), "criterion 'dle.cpp:3': no file 'dle.cpp' (files: middle.cpp)");
}

TEST_F(CriterionTest, FunctionReturn) {
  // Of the three `return` statements only line 6 ran.
  EXPECT_EQ(resolve("middle:return"), (Nodes{7}));
  EXPECT_EQ(resolve("middle():return"), (Nodes{7}));
  EXPECT_EQ(resolve("main:return"), (Nodes{11}));
}

TEST_F(CriterionTest, VariableInFunction) {
  EXPECT_EQ(resolve("x@middle"), (Nodes{0}));
  EXPECT_EQ(resolve("m@main"), (Nodes{10}));
  EXPECT_EQ(resolve("m@main:17"), (Nodes{10}));
  EXPECT_EQ(error("m@main:18"), "criterion 'm@main:18': 'm' is not written at "
                                "line 18 of main (it is at line 17)");
  EXPECT_EQ(error("q@middle"), "criterion 'q@middle': no write of 'q' in "
                               "middle (written there: x, y, z)");
  EXPECT_EQ(error("m@mian"), "criterion 'm@mian': no function 'mian' (functions: main, middle)");
  EXPECT_EQ(error("m@main:x"), "criterion 'm@main:x': 'x' is not a line number");
}

TEST_F(CriterionTest, CrashAndLast) {
  EXPECT_EQ(resolve("crash"), (Nodes{11}));
  EXPECT_EQ(resolve("last"), (Nodes{11}));
  std::string Error;
  std::optional<DependenceGraph> Empty =
      DependenceGraph::parse("sleuth-deps 1\nprogram p\nstatus signal 11\nend\n", "e.deps", Error);
  ASSERT_TRUE(Empty) << Error;
  EXPECT_FALSE(resolveCriterion(*Empty, "crash", Error));
  EXPECT_EQ(Error, "criterion 'crash': the dependence file records no last "
                   "node for thread 0 (nothing executed?)");
}

TEST_F(CriterionTest, CrashAddsWhatTheSignalCutShort) {
  // Site 2, a loop test, read `start` (site 0) and died before it completed: no hit, one data
  // edge. Site 1 completed last.
  auto Run = [](std::string_view Status) {
    std::string Error;
    std::optional<DependenceGraph> G = DependenceGraph::parse(
        "sleuth-deps 1\nprogram p\nstatus " + std::string(Status) +
            "\nfile 0 /src/walk.c\nfunc 0 0 1 9 main\n"
            "site 0 var 0 2 8 start\nsite 1 var 0 3 7 length\nsite 2 test 0 4 3 <test>\n"
            "site 3 var 0 5 5 start\n"
            "hit 0 1\nhit 1 1\ndata 2 0\nlast 0 1\nend\n",
        "walk.deps", Error);
    EXPECT_TRUE(G) << Error;
    return G ? std::move(*G) : DependenceGraph();
  };
  std::string Error;
  DependenceGraph Crashed = Run("signal 11");
  EXPECT_EQ(resolveCriterion(Crashed, "crash", Error), (Nodes{1, 2})) << Error;
  EXPECT_EQ(resolveCriterion(Crashed, "last", Error), (Nodes{1})) << Error;
  Slice S = computeSlice(Crashed, {1, 2}, SliceOptions{});
  EXPECT_TRUE(S.contains(0)); // what the dying test read
  // After a normal exit a node without hits is no crash.
  DependenceGraph Exited = Run("exit 0");
  EXPECT_EQ(resolveCriterion(Exited, "crash", Error), (Nodes{1})) << Error;
}

TEST_F(CriterionTest, UnexecutedCriterionIsKept) {
  // Line 4's `return y;` did not run; slicing from it is still allowed.
  EXPECT_EQ(resolve("middle.cpp:4"), (Nodes{5}));
}

TEST_F(CriterionTest, UnknownCriteria) {
  EXPECT_EQ(error("middel:return"), "criterion 'middel:return': no function "
                                    "'middel' (functions: middle, main)");
  EXPECT_EQ(error("nosuch.cpp:3"), "criterion 'nosuch.cpp:3': no file "
                                   "'nosuch.cpp' (files: middle.cpp)");
  EXPECT_EQ(error("middle.cpp:12"), "criterion 'middle.cpp:12': no site at line 12 of " +
                                        Run.Source +
                                        " (nearest lines with sites: 5, 6, 8, 13, 17, 18)");
  EXPECT_EQ(error("middle.cpp:0"), "criterion 'middle.cpp:0': '0' is not a line number");
  EXPECT_EQ(error("bogus"), "criterion 'bogus': not understood; expected FILE:LINE[:VAR], "
                            "FUNCTION:return, VAR@FUNCTION[:LINE], crash or last");
  EXPECT_EQ(error("middle"), "criterion 'middle': not understood (did you mean "
                             "'middle:return'?); expected FILE:LINE[:VAR], FUNCTION:return, "
                             "VAR@FUNCTION[:LINE], crash or last");
  EXPECT_EQ(error("middle:17:m"), "criterion 'middle:17:m': no file 'middle'; for a variable in a "
                                  "function write m@middle:17");
  EXPECT_EQ(error(""), "criterion '': empty criterion");
}

TEST(CallLineCriterionTest, ALineThatOnlyCallsTheProgramNamesTheParameters) {
  // `report(total);` has no node (the call of a program's function is none): the error says
  // which criteria name what its arguments flowed into. Keywords and library calls are no hint.
  std::filesystem::path Dir = std::filesystem::path(testing::TempDir()) / "sleuth-call-hint";
  std::filesystem::create_directories(Dir);
  std::string Source = (Dir / "calls.c").string();
  std::ofstream(Source) << "static void report(int value, int scale) { (void)value; }\n"
                           "int main(void) {\n"
                           "  int total = 3;\n"
                           "  if (total) report(total, 2);\n"
                           "  puts(\"x\");\n"
                           "  return 0;\n"
                           "}\n";
  std::string Error;
  std::optional<DependenceGraph> G = DependenceGraph::parse(
      "sleuth-deps 1\nprogram p\nstatus exit 0\nfile 0 " + Source +
          "\nfunc 0 0 1 1 report\nfunc 1 0 2 7 main\n"
          "site 0 param 0 1 24 value\nsite 1 param 0 1 35 scale\nsite 2 var 1 3 7 total\n"
          "site 3 ret 1 6 3 <main()%20return%20value>\nend\n",
      "calls.deps", Error);
  ASSERT_TRUE(G) << Error;
  EXPECT_FALSE(resolveCriterion(*G, "calls.c:4", Error));
  EXPECT_EQ(Error, "criterion 'calls.c:4': no site at line 4 of " + Source +
                       " (nearest lines with sites: 1, 3, 6); the line calls report(), whose "
                       "parameters are value@report, scale@report");
  EXPECT_FALSE(resolveCriterion(*G, "calls.c:5", Error));
  EXPECT_EQ(Error, "criterion 'calls.c:5': no site at line 5 of " + Source +
                       " (nearest lines with sites: 1, 3, 6)");
}

TEST(QualifiedCriterionTest, QualifiedFunctionNames) {
  DependenceGraph G = qualifiedGraph();
  std::string Error;
  auto Resolve = [&](std::string_view C) {
    return resolveCriterion(G, C, Error).value_or(Nodes{999});
  };
  EXPECT_EQ(Resolve("ns::Cls::get:return"), (Nodes{0}));
  EXPECT_EQ(Resolve("Cls::get:return"), (Nodes{0}));
  // The unqualified name matches both functions called get.
  EXPECT_EQ(Resolve("get:return"), (Nodes{0, 1}));
  EXPECT_EQ(Resolve("this->v@ns::Cls::set"), (Nodes{2}));
  EXPECT_EQ(Resolve("this->v@set:6"), (Nodes{2}));
  // Only whole components match: `s::get` is not a qualifier of ns::Cls::get.
  EXPECT_FALSE(resolveCriterion(G, "s::get:return", Error));
  EXPECT_EQ(Error, "criterion 's::get:return': no function 's::get' "
                   "(functions: other::get, ns::Cls::get, ns::Cls::set)");
}

TEST(QualifiedCriterionTest, AmbiguousFile) {
  DependenceGraph G = qualifiedGraph();
  std::string Error;
  EXPECT_FALSE(resolveCriterion(G, "util.cpp:2", Error));
  EXPECT_EQ(Error, "criterion 'util.cpp:2': 'util.cpp' matches several files "
                   "(/src/a/util.cpp, /src/b/util.cpp); give more of its path");
  EXPECT_EQ(resolveCriterion(G, "b/util.cpp:2", Error), (Nodes{1}));
}
