// The views, compared byte for byte: the code view must reproduce the figure
// of design brief §7.
#include "SlicerTestSupport.h"
#include "sleuth/slicer/views.h"

#include <nlohmann/json.hpp>

using namespace sleuth;
using namespace sleuth::test;

namespace {

Slice sliceFrom(const DependenceGraph &G, std::string_view Criterion, SliceOptions Opts = {}) {
  std::string Error;
  auto Criteria = resolveCriterion(G, Criterion, Error);
  EXPECT_TRUE(Criteria) << Error;
  Slice S = computeSlice(G, Criteria.value_or(std::vector<std::size_t>{}), Opts);
  S.Criterion = std::string(Criterion);
  return S;
}

const char *MiddleListing = "     1 int middle(int x, int y, int z) {\n"
                            "*    2     if (y < z) {          // <= y (1), z (1)\n"
                            "*    3         if (x < y)        // <= x (1), y (1); <- <test> (2)\n"
                            "     4             return y;\n"
                            "*    5         else if (x < z)   // <= x (1), z (1); <- <test> (3)\n"
                            "*    6             return y;     // <= y (1); <- <test> (5)\n"
                            "     7     } else {\n"
                            "     8         if (x > y)\n"
                            "     9             return y;\n"
                            "    10         else if (x > z)\n"
                            "    11             return x;\n"
                            "    12     }\n"
                            "    13     return z;\n"
                            "    14 }\n";

/// sum() has two writes of `i` on line 3, told apart by their columns.
const char *SumSource = "int sum(int n) {\n"
                        "    int s = 0;\n"
                        "    for (int i = 0; i < n; i++)\n"
                        "\ts += i;\n"
                        "    return s;\n"
                        "}\n";

std::string sumDeps(const std::string &Path) {
  return "sleuth-deps 1\nprogram ./sum\nstatus exit 0\n"
         "file 0 " +
         Path +
         "\n"
         "func 0 0 1 6 sum\n"
         "site 0 param 0 1 13 n\n"
         "site 1 var 0 2 9 s\n"
         "site 2 var 0 3 14 i\n"
         "site 3 test 0 3 21 <test>\n"
         "site 4 var 0 3 28 i\n"
         "site 5 var 0 4 9 s\n"
         "site 6 ret 0 5 5 <sum()%20return%20value>\n"
         "hit 0 1\nhit 1 1\nhit 2 1\nhit 3 3\nhit 4 2\nhit 5 2\nhit 6 1\n"
         "data 3 0\ndata 3 2\ndata 3 4\n"
         "data 4 2\ndata 4 4\nctrl 4 3\n"
         "data 5 1\ndata 5 2\ndata 5 4\ndata 5 5\nctrl 5 3\n"
         "data 6 1\ndata 6 5\n"
         "last 0 6\nend\n";
}

/// main() in main.cpp calls twice() in util.cpp.
std::string twoFileDeps(const std::string &Main, const std::string &Util) {
  return "sleuth-deps 1\nprogram ./two\nstatus exit 0\n"
         "file 0 " +
         Main + "\nfile 1 " + Util +
         "\n"
         "func 0 0 3 6 main\nfunc 1 1 1 3 twice\n"
         "site 0 var 0 4 9 a\n"
         "site 1 var 0 5 9 b\n"
         "site 2 param 1 1 15 v\n"
         "site 3 ret 1 2 5 <twice()%20return%20value>\n"
         "hit 0 1\nhit 1 1\nhit 2 1\nhit 3 1\n"
         "data 1 3\ndata 2 0\ndata 3 2\n"
         "last 0 1\nend\n";
}

} // namespace

TEST(CodeViewTest, ReproducesTheBriefFigure) {
  MiddleRun Run;
  DependenceGraph G = Run.graph();
  EXPECT_EQ(codeView(G, sliceFrom(G, "middle:return")), MiddleListing);
}

TEST(CodeViewTest, WholeGraphShowsCallerWithCrossFunctionReference) {
  MiddleRun Run;
  DependenceGraph G = Run.graph();
  std::vector<std::string> Warnings;
  std::string Expected = std::string(MiddleListing) +
                         "\n"
                         "    16 int main() {\n"
                         "*   17     int m = middle(2, 1, 3);   // <= <middle() "
                         "return value> (middle:6)\n"
                         "*   18     return m;                  // <= m (17)\n"
                         "    19 }\n";
  EXPECT_EQ(codeView(G, wholeGraph(G, {}), &Warnings), Expected);
  EXPECT_TRUE(Warnings.empty());
}

TEST(CodeViewTest, ForwardSliceUsesForwardArrows) {
  MiddleRun Run;
  DependenceGraph G = Run.graph();
  SliceOptions Opts;
  Opts.Forward = true;
  Slice S = sliceFrom(G, "y@middle", Opts);
  std::string Text = codeView(G, S);
  EXPECT_EQ(Text.substr(0, Text.find("     7 ")),
            "     1 int middle(int x, int y, int z) {   // => <test> (2), "
            "<test> (3), <middle() return value> (6)\n"
            "*    2     if (y < z) {                    // -> <test> (3)\n"
            "*    3         if (x < y)                  // -> <test> (5)\n"
            "     4             return y;\n"
            "*    5         else if (x < z)             // -> <middle() return "
            "value> (6)\n"
            "*    6             return y;               // => m (main:17)\n");
  EXPECT_NE(Text.find("*   17     int m = middle(2, 1, 3);   // => <main() "
                      "return value> (18)\n"),
            std::string::npos)
      << Text;
}

TEST(CodeViewTest, ColumnsTellSameNamedNodesApart) {
  TempDir Dir;
  std::string Source = Dir.write("sum.c", SumSource);
  std::string Error;
  auto G = DependenceGraph::parse(sumDeps(Source), "sum.deps", Error);
  ASSERT_TRUE(G) << Error;
  // The tab on line 4 expands to 8 columns.
  EXPECT_EQ(codeView(*G, wholeGraph(*G, {})),
            "     1 int sum(int n) {\n"
            "*    2     int s = 0;\n"
            "*    3     for (int i = 0; i < n; i++)   // <= n (1), i (3:14), "
            "i (3:28); <- <test> (3)\n"
            "*    4         s += i;                   // <= s (2), i (3:14), i "
            "(3:28), s (4); <- <test> (3)\n"
            "*    5     return s;                     // <= s (2), s (4)\n"
            "     6 }\n");
  EXPECT_EQ(depsView(*G, wholeGraph(*G, {})),
            "sum():\n"
            "    <test> (3) <= n (1), i (3:14), i (3:28)\n"
            "    i (3:28) <= i (3:14), i (3:28); <- <test> (3)\n"
            "    s (4) <= s (2), i (3:14), i (3:28), s (4); <- <test> (3)\n"
            "    <sum() return value> (5) <= s (2), s (4)\n");
}

TEST(CodeViewTest, CrossFileReferences) {
  TempDir Dir;
  std::string Main = Dir.write("main.cpp", "#include \"util.h\"\n"
                                           "\n"
                                           "int main() {\n"
                                           "    int a = 21;\n"
                                           "    int b = twice(a);\n"
                                           "}\n");
  std::string Util = Dir.write("util.cpp", "int twice(int v) {\n"
                                           "    return 2 * v;\n"
                                           "}\n");
  std::string Error;
  auto G = DependenceGraph::parse(twoFileDeps(Main, Util), "two.deps", Error);
  ASSERT_TRUE(G) << Error;
  Slice S = sliceFrom(*G, "main.cpp:5:b");
  // A slice across files names the file of each block, in every view.
  EXPECT_EQ(codeView(*G, S), "== main.cpp ==\n"
                             "     3 int main() {\n"
                             "*    4     int a = 21;\n"
                             "*    5     int b = twice(a);   // <= <twice() return value> "
                             "(util.cpp:2)\n"
                             "     6 }\n"
                             "\n"
                             "== util.cpp ==\n"
                             "     1 int twice(int v) {   // <= a (main.cpp:4)\n"
                             "*    2     return 2 * v;    // <= v (1)\n"
                             "     3 }\n");
  EXPECT_EQ(depsView(*G, S), "main() in main.cpp:\n"
                             "    b (5) <= <twice() return value> (util.cpp:2)\n"
                             "\n"
                             "twice() in util.cpp:\n"
                             "    v (1) <= a (main.cpp:4)\n"
                             "    <twice() return value> (2) <= v (1)\n");
  std::string Dot = dotView(*G, S);
  EXPECT_NE(Dot.find("  subgraph cluster_0 {\n    label=\"main.cpp\";"), std::string::npos) << Dot;
  EXPECT_NE(Dot.find("  subgraph cluster_1 {\n    label=\"util.cpp\";"), std::string::npos) << Dot;
  // One file: no names (the single-file examples' figures).
  Slice InMain = sliceFrom(*G, "main.cpp:4");
  EXPECT_EQ(codeView(*G, InMain).find("=="), std::string::npos);
  EXPECT_EQ(dotView(*G, InMain).find("subgraph"), std::string::npos);
}

// Files of the same name in different directories are told apart by their directories.
TEST(CodeViewTest, SameNamedFilesAreNamedByTheirDirectories) {
  TempDir Dir;
  std::filesystem::create_directories(Dir.Path / "app");
  std::filesystem::create_directories(Dir.Path / "lib");
  std::string Main = Dir.write("app/x.cpp", "#include \"util.h\"\n"
                                            "\n"
                                            "int main() {\n"
                                            "    int a = 21;\n"
                                            "    int b = twice(a);\n"
                                            "}\n");
  std::string Util = Dir.write("lib/x.cpp", "int twice(int v) {\n"
                                            "    return 2 * v;\n"
                                            "}\n");
  std::string Error;
  auto G = DependenceGraph::parse(twoFileDeps(Main, Util), "two.deps", Error);
  ASSERT_TRUE(G) << Error;
  std::string Code = codeView(*G, sliceFrom(*G, "app/x.cpp:5:b"));
  EXPECT_NE(Code.find("== app/x.cpp ==\n"), std::string::npos) << Code;
  EXPECT_NE(Code.find("== lib/x.cpp ==\n"), std::string::npos) << Code;
}

// A struct whose one-line member functions share a line: the line is listed once, with the
// nodes of both functions.
TEST(CodeViewTest, LinesSharedByFunctionsAreListedOnce) {
  TempDir Dir;
  std::string Source = Dir.write(
      "p.cpp", "struct P { int x; int get() const { return x; } void put(int v) { x = v; } };\n"
               "int main() {\n"
               "  P p;\n"
               "  p.put(3);\n"
               "  int r = p.get();\n"
               "  return r;\n"
               "}\n");
  std::string Error;
  auto G = DependenceGraph::parse("sleuth-deps 1\nprogram ./p\nstatus exit 0\n"
                                  "file 0 " +
                                      Source +
                                      "\n"
                                      "func 0 0 1 1 P::get\nfunc 1 0 1 1 P::put\n"
                                      "func 2 0 2 7 main\n"
                                      "site 0 ret 0 1 37 <P::get()%20return%20value>\n"
                                      "site 1 param 1 1 57 v\n"
                                      "site 2 var 1 1 67 x\n"
                                      "site 3 var 2 5 7 r\n"
                                      "hit 0 1\nhit 1 1\nhit 2 1\nhit 3 1\n"
                                      "data 0 2\ndata 2 1\ndata 3 0\n"
                                      "last 0 3\nend\n",
                                  "p.deps", Error);
  ASSERT_TRUE(G) << Error;
  EXPECT_EQ(codeView(*G, sliceFrom(*G, "p.cpp:5:r")),
            "*    1 struct P { int x; int get() const { return x; } void put(int v) { x = v; } };"
            "   // <= v (P::put:1), x (P::put:1)\n"
            "\n"
            "     2 int main() {\n"
            "     3   P p;\n"
            "     4   p.put(3);\n"
            "*    5   int r = p.get();   // <= <P::get() return value> (P::get:1)\n"
            "     6   return r;\n"
            "     7 }\n");
}

TEST(CodeViewTest, UnreadableSourceShowsAnnotationsOnly) {
  MiddleRun Run;
  DependenceGraph G = Run.graph();
  std::filesystem::remove(Run.Source);
  std::vector<std::string> Warnings;
  std::string Text = codeView(G, sliceFrom(G, "middle:return"), &Warnings);
  // The names stand in for the source; annotations align as usual.
  std::string Pad(20, ' ');
  EXPECT_EQ(Text, "     1 [x, y, z]\n"
                  "*    2 [<test>]" +
                      Pad +
                      "// <= y (1), z (1)\n"
                      "*    3 [<test>]" +
                      Pad +
                      "// <= x (1), y (1); <- <test> (2)\n"
                      "*    5 [<test>]" +
                      Pad +
                      "// <= x (1), z (1); <- <test> (3)\n"
                      "*    6 [<middle() return value>]   // <= y (1); <- <test> "
                      "(5)\n");
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_EQ(Warnings[0], "cannot read source file " + Run.Source +
                             " (No such file or directory); showing "
                             "annotations only");
}

TEST(CodeViewTest, ChangedSourceIsReported) {
  MiddleRun Run;
  DependenceGraph G = Run.graph();
  std::ofstream(Run.Source) << "int middle(int x, int y, int z) {\n";
  std::vector<std::string> Warnings;
  std::string Text = codeView(G, sliceFrom(G, "middle:return"), &Warnings);
  // Lines past the end of the file show their nodes' names instead.
  EXPECT_EQ(Text, "     1 int middle(int x, int y, int z) {\n"
                  "*    2 [<test>]                    // <= y (1), z (1)\n"
                  "*    3 [<test>]                    // <= x (1), y (1); <- "
                  "<test> (2)\n"
                  "*    5 [<test>]                    // <= x (1), z (1); <- "
                  "<test> (3)\n"
                  "*    6 [<middle() return value>]   // <= y (1); <- <test> "
                  "(5)\n");
  ASSERT_EQ(Warnings.size(), 1u);
  EXPECT_NE(Warnings[0].find("has 1 lines but the dependence file refers to "
                             "line 14"),
            std::string::npos)
      << Warnings[0];
}

TEST(CodeViewTest, UnknownLinesAreListedFirst) {
  TempDir Dir;
  std::string Source = Dir.write("f.c", "int f(int a) {\n"
                                        "    return a;\n"
                                        "}\n");
  std::string Error;
  auto G = DependenceGraph::parse("sleuth-deps 1\nprogram p\nstatus exit 0\nfile 0 " + Source +
                                      "\nfunc 0 0 1 3 f\n"
                                      "site 0 param 0 1 11 a\nsite 1 var 0 0 0 tmp\n"
                                      "site 2 ret 0 2 5 <f()%20return%20value>\n"
                                      "hit 0 1\nhit 1 1\nhit 2 1\ndata 1 0\ndata 2 1\nend\n",
                                  "f.deps", Error);
  ASSERT_TRUE(G) << Error;
  EXPECT_EQ(codeView(*G, wholeGraph(*G, {})), "*    0 [tmp]           // <= a (1)\n"
                                              "     1 int f(int a) {\n"
                                              "*    2     return a;   // <= tmp (0)\n"
                                              "     3 }\n");
}

TEST(DepsViewTest, ListsDependencesPerFunction) {
  MiddleRun Run;
  DependenceGraph G = Run.graph();
  EXPECT_EQ(depsView(G, wholeGraph(G, {})),
            "middle():\n"
            "    <test> (2) <= y (1), z (1)\n"
            "    <test> (3) <= x (1), y (1); <- <test> (2)\n"
            "    <test> (5) <= x (1), z (1); <- <test> (3)\n"
            "    <middle() return value> (6) <= y (1); <- <test> (5)\n"
            "\n"
            "main():\n"
            "    m (17) <= <middle() return value> (middle:6)\n"
            "    <main() return value> (18) <= m (17)\n");
}

TEST(DepsViewTest, ControlOnlyHasNoDataPart) {
  MiddleRun Run;
  DependenceGraph G = Run.graph();
  SliceOptions Opts;
  Opts.Data = false;
  EXPECT_EQ(depsView(G, sliceFrom(G, "middle:return", Opts)),
            "middle():\n"
            "    <test> (3) <- <test> (2)\n"
            "    <test> (5) <- <test> (3)\n"
            "    <middle() return value> (6) <- <test> (5)\n");
}

TEST(DotViewTest, DrawsSliceNodesAndEdges) {
  MiddleRun Run;
  DependenceGraph G = Run.graph();
  SliceOptions Opts;
  Opts.Depth = 1;
  EXPECT_EQ(dotView(G, sliceFrom(G, "middle:return", Opts)),
            "digraph slice {\n"
            "  // sleuth slice of middle:return (backward)\n"
            "  node [shape=box, style=rounded, fontname=\"Helvetica\", "
            "fontsize=10];\n"
            "  edge [arrowsize=0.7];\n"
            "  n1 [label=\"y\\nmiddle:1\", shape=box];\n"
            "  n6 [label=\"<test>\\nmiddle:5\", shape=diamond];\n"
            "  n7 [label=\"<middle() return value>\\nmiddle:6\", shape=box, "
            "peripheries=2, penwidth=2];\n"
            "  n1 -> n7;\n"
            "  n6 -> n7 [style=dashed, color=grey50];\n"
            "}\n");
}

TEST(DotViewTest, EffectNodesAreParallelograms) {
  // A discarded library call (`printf("%d", x);`) loads as an effect node and is drawn as
  // input/output is in flowcharts.
  std::string Error;
  auto G = DependenceGraph::parse("sleuth-deps 1\nprogram p\nstatus exit 0\nfile 0 /a.c\n"
                                  "func 0 0 1 9 main\nsite 0 var 0 2 3 x\n"
                                  "site 1 effect 0 3 3 <printf()>\nhit 0 1\nhit 1 1\n"
                                  "data 1 0\nend\n",
                                  "q.deps", Error);
  ASSERT_TRUE(G) << Error;
  EXPECT_EQ(G->site(1).Kind, SiteKind::Effect);
  EXPECT_EQ(siteKindName(SiteKind::Effect), "effect");
  std::string Dot = dotView(*G, computeSlice(*G, {1}, {}));
  EXPECT_NE(Dot.find("n1 [label=\"<printf()>\\nmain:3\", shape=parallelogram"), std::string::npos)
      << Dot;
  EXPECT_NE(Dot.find("n0 -> n1;"), std::string::npos) << Dot;
}

TEST(DotViewTest, EscapesNamesAndMarksUnexecutedNodes) {
  std::string Error;
  auto G = DependenceGraph::parse("sleuth-deps 1\nprogram p\nstatus exit 0\nfile 0 /a.c\n"
                                  "func 0 0 1 9 f\nsite 0 var 0 2 3 s[\"k\\\\\"]\nend\n",
                                  "q.deps", Error);
  ASSERT_TRUE(G) << Error;
  std::string Dot = dotView(*G, computeSlice(*G, {0}, {}));
  EXPECT_NE(Dot.find("n0 [label=\"s[\\\"k\\\\\\\\\\\"]\\nf:2\", shape=box, "
                     "penwidth=2, style=\"rounded,dashed\", "
                     "fontcolor=grey40];"),
            std::string::npos)
      << Dot;
}

TEST(JsonViewTest, RoundTripsThroughNlohmann) {
  MiddleRun Run;
  DependenceGraph G = Run.graph();
  SliceOptions Opts;
  Opts.Forward = true;
  std::string Text = jsonView(G, sliceFrom(G, "m@main", Opts));
  nlohmann::json J = nlohmann::json::parse(Text);
  EXPECT_EQ(J["version"], 1);
  EXPECT_EQ(J["criterion"], "m@main");
  EXPECT_EQ(J["direction"], "forward");
  ASSERT_EQ(J["nodes"].size(), 2u);
  EXPECT_EQ(J["nodes"][0],
            nlohmann::json::parse(R"({"id":10,"kind":"var","name":"m","file":")" + Run.Source +
                                  R"(","line":17,"column":9,"function":"main","executed":true,)"
                                  R"("hits":1})"));
  EXPECT_EQ(J["nodes"][1]["name"], "<main() return value>");
  ASSERT_EQ(J["edges"].size(), 1u);
  EXPECT_EQ(J["edges"][0], nlohmann::json::parse(R"({"from":10,"to":11,"kind":"data"})"));
  // One node or edge per line, in a fixed layout.
  EXPECT_EQ(Text, "{\n"
                  "  \"version\": 1,\n"
                  "  \"criterion\": \"m@main\",\n"
                  "  \"direction\": \"forward\",\n"
                  "  \"nodes\": [\n"
                  "    {\"id\":10,\"kind\":\"var\",\"name\":\"m\",\"file\":\"" +
                      Run.Source +
                      "\",\"line\":17,\"column\":9,\"function\":\"main\","
                      "\"executed\":true,\"hits\":1},\n"
                      "    {\"id\":11,\"kind\":\"ret\",\"name\":\"<main() return "
                      "value>\",\"file\":\"" +
                      Run.Source +
                      "\",\"line\":18,\"column\":5,\"function\":\"main\","
                      "\"executed\":true,\"hits\":1}\n"
                      "  ],\n"
                      "  \"edges\": [\n"
                      "    {\"from\":10,\"to\":11,\"kind\":\"data\"}\n"
                      "  ]\n"
                      "}\n");
  // Keys come in the documented order.
  EXPECT_LT(Text.find("\"version\""), Text.find("\"criterion\""));
  EXPECT_LT(Text.find("\"direction\""), Text.find("\"nodes\""));
  EXPECT_LT(Text.find("\"nodes\""), Text.find("\"edges\""));
}

TEST(JsonViewTest, WholeGraphHasNullCriterionAndSortedEdges) {
  MiddleRun Run;
  DependenceGraph G = Run.graph();
  nlohmann::json J = nlohmann::json::parse(jsonView(G, wholeGraph(G, {})));
  EXPECT_TRUE(J["criterion"].is_null());
  EXPECT_EQ(J["direction"], "backward");
  EXPECT_EQ(J["nodes"].size(), 9u);
  ASSERT_EQ(J["edges"].size(), 12u);
  std::vector<std::tuple<int, int, std::string>> Edges;
  for (const auto &E : J["edges"])
    Edges.emplace_back(E["from"], E["to"], E["kind"]);
  EXPECT_TRUE(std::is_sorted(Edges.begin(), Edges.end()));
  EXPECT_EQ(Edges.front(), std::make_tuple(0, 4, std::string("data")));
  EXPECT_EQ(Edges[7], std::make_tuple(3, 4, std::string("control")));
}

TEST(JsonViewTest, InvalidUtf8DoesNotThrow) {
  std::string Error;
  auto G = DependenceGraph::parse("sleuth-deps 1\nprogram p\nstatus exit 0\nfile 0 /a\xff.c\n"
                                  "func 0 0 1 9 f\nsite 0 var 0 2 3 \xc3\nhit 0 1\nend\n",
                                  "u.deps", Error);
  ASSERT_TRUE(G) << Error;
  std::string Text;
  EXPECT_NO_THROW(Text = jsonView(*G, wholeGraph(*G, {})));
  nlohmann::json Parsed;
  EXPECT_NO_THROW(Parsed = nlohmann::json::parse(Text));
  EXPECT_EQ(Parsed["nodes"].size(), 1u);
}
