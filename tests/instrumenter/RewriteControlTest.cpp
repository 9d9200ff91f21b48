// Control dependences: the static controllers of each site in the unit's table, the control
// each node's probe passes, and where the call's quiet control stands for it.
#include "RewriteTest.h"

#include <array>
#include <map>
#include <regex>
#include <set>

using namespace sleuth;

namespace {

/// The lines of the static controllers of each site in the unit's table, by the site's line
/// (sites on one line merged).
std::map<unsigned, std::set<unsigned>> controllerLines(const std::string &Text) {
  std::regex SiteRe(R"(\{(\d+), (\d+), (\d+), (\d+), (\d+), (\d+), (\d+), "[^"]*"\})");
  std::vector<std::array<unsigned, 3>> Sites; // line, cd_begin, cd_count
  for (std::sregex_iterator I(Text.begin(), Text.end(), SiteRe), E; I != E; ++I)
    Sites.push_back({unsigned(std::stoul((*I)[3])), unsigned(std::stoul((*I)[6])),
                     unsigned(std::stoul((*I)[7]))});
  std::smatch Cds;
  EXPECT_TRUE(std::regex_search(Text, Cds, std::regex(R"(__sleuth_cds\[\] = \{([^}]*)\})")));
  std::vector<unsigned> Table;
  std::string List = Cds[1];
  std::regex Number(R"(\d+)");
  for (std::sregex_iterator I(List.begin(), List.end(), Number), E; I != E; ++I)
    Table.push_back(unsigned(std::stoul(I->str())));
  std::map<unsigned, std::set<unsigned>> Result;
  for (const auto &[Line, Begin, Count] : Sites) {
    std::set<unsigned> &Lines = Result[Line];
    for (unsigned I = Begin; I < Begin + Count; ++I)
      Lines.insert(Sites.at(Table.at(I))[0]);
  }
  return Result;
}

} // namespace

TEST_F(RewriteTest, SitesListTheTestsThatControlThemDirectly) {
  // A write inside `if` inside `while` is controlled by the `if` alone (the runtime's inline
  // writes need a single controller); a multi-block condition stands for its controllers; a
  // loop's test is controlled by itself (its previous iteration), and by what controls the
  // loop (nothing here).
  std::string Text = rewrite("cd.c", "int f(int a, int b, int c) {\n"   // 1
                                     "  int x = 0;\n"                   // 2
                                     "  while (a > 0) {\n"              // 3
                                     "    if (b > 0) {\n"               // 4
                                     "      x = 1;\n"                   // 5
                                     "    }\n"                          // 6
                                     "    a--;\n"                       // 7
                                     "    if ((b > 1 || c > 1) && x)\n" // 8
                                     "      x = 2;\n"                   // 9
                                     "  }\n"                            // 10
                                     "  if (c) return x;\n"             // 11
                                     "  x = 3;\n"                       // 12
                                     "  return x;\n"                    // 13
                                     "}\n");
  std::map<unsigned, std::set<unsigned>> Controllers = controllerLines(Text);
  using Lines = std::set<unsigned>;
  EXPECT_EQ(Controllers[2], Lines{});
  EXPECT_EQ(Controllers[3], Lines{3});
  EXPECT_EQ(Controllers[4], Lines{3});
  EXPECT_EQ(Controllers[5], Lines{4});
  EXPECT_EQ(Controllers[7], Lines{3});
  EXPECT_EQ(Controllers[8], Lines{3});
  EXPECT_EQ(Controllers[9], Lines{8});
  EXPECT_EQ(Controllers[12], Lines{11});
}

TEST_F(RewriteTest, NodesPassTheTestThatControlsThem) {
  std::string Text = rewrite("ctl.c", "int f(int a, int b) {\n"
                                      "  int x = 0;\n"
                                      "  if (b > 0)\n"
                                      "    x = 1;\n"
                                      "  while (a > 0) {\n"
                                      "    if (b > a)\n"
                                      "      break;\n"
                                      "    a--;\n"
                                      "  }\n"
                                      "  return x;\n"
                                      "}\n");
  // No test of f controls the declaration or the return: the call's control, from the entry,
  // or none once f returned under it (the quiet control).
  EXPECT_NE(Text.find("__sleuth_cc0 = sleuth_enter_params("), std::string::npos) << Text;
  EXPECT_NE(
      Text.find("(void)(__sleuth_cq0 = sleuth_quiet_control(&__sleuth_tu, 0u, __sleuth_cc0))"),
      std::string::npos)
      << Text;
  EXPECT_TRUE(std::regex_search(
      Text,
      std::regex(
          "int x = 0; int __sleuth_d[0-9]+ __attribute__\\(\\(unused\\)\\) = "
          "\\(\\(void\\)\\(__sleuth_o0_2 = sleuth_def(?:_nopending)?\\(&__sleuth_tu, [0-9]+u, "
          "__sleuth_cq0\\)\\)")))
      << Text;
  EXPECT_TRUE(
      std::regex_search(Text, std::regex("sleuth_ret\\(&__sleuth_tu, [0-9]+u, "
                                         "__sleuth_cq0, __builtin_frame_address\\(0\\)\\)")))
      << Text;
  // `x = 1` runs only after `b > 0`, on every path: the edge from that test holds for each of
  // its executions, so its probe passes no control and its site says so (the runtime writes
  // the edge if it ran).
  EXPECT_TRUE(std::regex_search(
      Text,
      std::regex(
          "if \\(sleuth_test(?:_nopending)?\\(&__sleuth_tu, ([0-9]+)u, __sleuth_cq0, [^\\n]*\\n"
          "[^\\n]*sleuth_def(?:_nopending)?\\(&__sleuth_tu, [0-9]+u, 0u\\)\\)")))
      << Text;
  EXPECT_TRUE(std::regex_search(Text, std::regex("\\{0, 4, 4, 5, 0, [0-9]+, 1, \"x\"\\}"))) << Text;
  // The loop's test runs first when the loop is entered, before `b > a`, which controls it
  // through the back edge: a local that `b > a` sets, the call's control until it does (not
  // the quiet one: a site inside a test's condition runs before the test's probe, with the
  // group as it started, but not on every call).
  std::smatch M;
  ASSERT_TRUE(
      std::regex_search(Text, M,
                        std::regex("while \\(sleuth_test(?:_nopending)?(?:_hot)?\\(&__sleuth_tu, "
                                   "[0-9]+u, (__sleuth_g0_[0-9]+), ")))
      << Text;
  std::string Group = M[1];
  EXPECT_NE(Text.find("unsigned " + Group + " = 0u;"), std::string::npos) << Text;
  EXPECT_NE(Text.find("(void)(" + Group + " = __sleuth_cc0)"), std::string::npos) << Text;
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("if \\(\\(sleuth_test(?:_nopending)?(?:_hot)?\\(&__sleuth_tu, ([0-9]+)u, "
                       "[^\\n]*\\? \\(\\(void\\)\\(" +
                       Group + " = __sleuth_tu\\.base \\+ \\1u\\), 1\\) : \\(\\(void\\)\\(" +
                       Group + " = __sleuth_tu\\.base \\+ \\1u\\), 0\\)\\)\\)")))
      << Text;
}

TEST_F(RewriteTest, OnlySitesThatRunOnEveryCallTakeTheQuietControl) {
  // The quiet control stands for the call's only where a normal return implies the site ran:
  // not for calls (the callee takes the call's control), not for the groups of controllers
  // (sites inside a test's condition), not under a branch that is no test site (a macro's
  // `if`), not in a function with a try statement (the CFG has no edges for exceptions) nor one
  // that calls setjmp.
  std::string C = rewrite("quiet.c", "int g(int);\n"
                                     "#define WHEN(c, s) if (c) s\n"
                                     "int f(int a) {\n"
                                     "  int x = g(a);\n"
                                     "  while (g(a) > 0) {\n"
                                     "    if (x > a) break;\n"
                                     "    a--;\n"
                                     "  }\n"
                                     "  WHEN(a == 2, x = 7);\n"
                                     "  return x;\n"
                                     "}\n");
  // The first call runs on every call of f, but passes the call's control on.
  EXPECT_TRUE(std::regex_search(
      C, std::regex("int x = \\(sleuth_call_pairs\\(&__sleuth_tu, [0-9]+u, __sleuth_cc0,")))
      << C;
  // The call in the loop's test: the test's group local, which starts out as the call's
  // control (the call runs before the test's probe, but not on every call of f).
  std::smatch M;
  ASSERT_TRUE(std::regex_search(
      C, M, std::regex("sleuth_call_pairs\\(&__sleuth_tu, [0-9]+u, (__sleuth_g0_[0-9]+),")))
      << C;
  EXPECT_NE(C.find("(void)(" + std::string(M[1]) + " = __sleuth_cc0)"), std::string::npos) << C;
  // `x = 7` runs only if the macro's condition holds: the call's control.
  EXPECT_TRUE(std::regex_search(C, std::regex("x = 7\\), \\(void\\)\\(__sleuth_o0_[0-9]+ = "
                                              "sleuth_def(?:_nopending)?\\(&__sleuth_tu, [0-9]+u, "
                                              "__sleuth_cc0\\)\\)")))
      << C;
  EXPECT_TRUE(
      std::regex_search(C, std::regex("sleuth_ret\\(&__sleuth_tu, [0-9]+u, __sleuth_cq0, ")))
      << C;

  // A function calling setjmp keeps the call's control: GCC's -Wclobbered (in -Wextra) would
  // warn about one more local live across setjmp's second return.
  std::string Jump = rewrite("jump.c", "#include <setjmp.h>\n"
                                       "static jmp_buf env;\n"
                                       "int f(int a) {\n"
                                       "  int x = a + 1;\n"
                                       "  if (setjmp(env) == 0)\n"
                                       "    x = 2;\n"
                                       "  return x;\n"
                                       "}\n");
  EXPECT_EQ(Jump.find("__sleuth_cq0"), std::string::npos) << Jump;
  EXPECT_TRUE(
      std::regex_search(Jump, std::regex("sleuth_ret\\(&__sleuth_tu, [0-9]+u, __sleuth_cc0, ")))
      << Jump;

  std::string Cxx = rewrite("quiet.cpp", "int g(int);\n"
                                         "int f(int a) {\n"
                                         "  int x = a + 1;\n"
                                         "  try { x = g(x); } catch (...) { x = 0; }\n"
                                         "  return x;\n"
                                         "}\n"
                                         "int h(int a) {\n"
                                         "  int y = a + 1;\n"
                                         "  return y;\n"
                                         "}\n");
  EXPECT_EQ(Cxx.find("__sleuth_cq0"), std::string::npos) << Cxx;
  EXPECT_TRUE(std::regex_search(
      Cxx,
      std::regex(
          "int x = [^;]*; int __sleuth_d[0-9]+ __attribute__\\(\\(unused\\)\\) = "
          "\\(\\(void\\)\\(__sleuth_o0_[0-9]+ = sleuth_def(?:_nopending)?\\(&__sleuth_tu, [0-9]+u, "
          "__sleuth_cc0\\)\\)")))
      << Cxx;
  EXPECT_NE(
      Cxx.find("unsigned __sleuth_cq1 = sleuth_quiet_control(&__sleuth_tu, 1u, __sleuth_cc1);"),
      std::string::npos)
      << Cxx;
  EXPECT_TRUE(std::regex_search(
      Cxx, std::regex("sleuth_def(?:_nopending)?\\(&__sleuth_tu, [0-9]+u, __sleuth_cq1\\)")))
      << Cxx;
}
