// The probes of reads: static edges of reads that one write reaches, the `_nopending` twins of
// nodes that consume no pushed read, reads checked against their node, and hot loops' twins.
#include "RewriteTest.h"

#include "HotLoops.h"

#include <regex>
#include <utility>
#include <vector>

using namespace sleuth;

namespace {

/// The number of reads checked against companion Companion.
size_t checks(const std::string &Text, const std::string &Companion) {
  std::regex Check("sleuth_chk(?:_hot)?\\(&__sleuth_tu, &__sleuth_rc\\[[0-9]+\\], [0-9]+u, " +
                   Companion + "\\)");
  return size_t(
      std::distance(std::sregex_iterator(Text.begin(), Text.end(), Check), std::sregex_iterator()));
}

/// The unit's static data edges (sleuth_tu::static_data): pairs (site, origin | witness flag).
std::vector<std::pair<unsigned long, unsigned long>> staticEdges(const std::string &Text) {
  std::vector<std::pair<unsigned long, unsigned long>> Pairs;
  size_t At = Text.find("__sleuth_sd[] = {");
  if (At == std::string::npos)
    return Pairs;
  std::string Table = Text.substr(At, Text.find('}', At) - At);
  std::regex Pair("([0-9]+)u, ([0-9]+)u, ");
  for (auto It = std::sregex_iterator(Table.begin(), Table.end(), Pair);
       It != std::sregex_iterator(); ++It)
    Pairs.emplace_back(std::stoul((*It)[1]), std::stoul((*It)[2]));
  return Pairs;
}

/// The site of the node that sets companion Companion to `base + site`.
unsigned parameterSite(const std::string &Text, const std::string &Companion) {
  std::smatch M;
  std::regex Entry(Companion + " = __sleuth_tu\\.base \\+ ([0-9]+)u");
  return std::regex_search(Text, M, Entry) ? unsigned(std::stoul(M[1])) : ~0u;
}

} // namespace

// A read of a kept local that one write reaches on every path reads the same node in every
// run: it has no probe, and its edge goes into the unit's table (StaticOrigins.h), provided the
// node consuming it runs only after it (not in the right operand of && nor the target of a
// write) or it reads the value of the write right before it.
// A node of a full expression that calls nothing and whose every read is checked (or static)
// has no pending read to consume: its probe is the `_nopending` twin, which does not look.
// Where the expression calls anything (the arguments are pushed, a library call's probe pushes
// what it reads) or pushes a read, the node keeps the probe that consumes them.
TEST_F(RewriteTest, NodesOfStatementsThatPushNothingTakeTheNopendingTwins) {
  std::string Text = rewrite("np.c", "unsigned long strlen(const char *);\n"
                                     "int f(int a);\n"
                                     "int g[4];\n"
                                     "int h(int a, int n, const char *s) {\n"
                                     "  int x = a + n;\n"
                                     "  int y = f(a);\n"
                                     "  int z = 0, w = f(n);\n"
                                     "  x = x * 2;\n"
                                     "  y = n > 0 ? f(n) : 0;\n"
                                     "  g[n] = x;\n"
                                     "  g[0] = (int)strlen(s);\n"
                                     "  if (__builtin_expect(x > 3, 1))\n"
                                     "    z = 1;\n"
                                     "  if (strlen(s) > 3)\n"
                                     "    w = 2;\n"
                                     "  return x + y + z + w;\n"
                                     "}\n");
  auto Line = [&Text](const std::string &Needle) {
    size_t At = Text.find(Needle);
    if (At == std::string::npos)
      return std::string();
    size_t Begin = Text.rfind('\n', At) + 1;
    return Text.substr(Begin, Text.find('\n', At) - Begin);
  };
  EXPECT_NE(Line("int x = ").find("sleuth_def_nopending("), std::string::npos) << Text;
  EXPECT_NE(Line("(x = ").find("sleuth_def_nopending("), std::string::npos) << Text;
  EXPECT_NE(Line("((void)(g[(").find("sleuth_set_nopending("), std::string::npos) << Text;
  EXPECT_NE(Line("__builtin_expect").find("sleuth_test_nopending("), std::string::npos) << Text;
  EXPECT_NE(Line("(z = 1)").find("sleuth_def_nopending("), std::string::npos) << Text;
  // Calls: an instrumented callee's, in a ?: arm, a library call's; one declarator's call
  // keeps the probes of the whole declaration.
  EXPECT_NE(Line("int y = ").find("sleuth_def("), std::string::npos) << Text;
  EXPECT_EQ(Line("int y = ").find("_nopending"), std::string::npos) << Text;
  EXPECT_EQ(Line("int z = ").find("_nopending"), std::string::npos) << Text;
  EXPECT_EQ(Line("(y = ").find("_nopending"), std::string::npos) << Text;
  EXPECT_NE(Line("((void)(g[0] =").find("sleuth_set("), std::string::npos) << Text;
  EXPECT_EQ(Line("((void)(g[0] =").find("_nopending"), std::string::npos) << Text;
  EXPECT_NE(Line("(strlen((").find("sleuth_test("), std::string::npos) << Text;
  EXPECT_EQ(Line("(strlen((").find("_nopending"), std::string::npos) << Text;
}

TEST_F(RewriteTest, ReadsThatOneWriteReachesHaveStaticEdges) {
  StaticReads = true;
  std::string Text = rewrite("st.c", "int f(int a, int n, int *p) {\n"
                                     "  int k = a * 2;\n"
                                     "  int i, s = 0;\n"
                                     "  for (i = 0; i < n; i++)\n"
                                     "    s += k + a;\n"
                                     "  if (n > 0 && k > 3)\n"
                                     "    s = 1;\n"
                                     "  *p = s;\n"
                                     "  return s + k;\n"
                                     "}\n"
                                     "int g(int x) { int y; return (y = x + 1) * 2; }\n"
                                     "int h(void) { int c = 0; c += 1; c += 2; return c; }\n");
  std::string F = Text.substr(Text.find("int f("), Text.find("int g(") - Text.find("int f("));
  // a and n are never written; k once, before every read, but `k > 3` runs only if n > 0.
  EXPECT_EQ(checks(F, "__sleuth_o0_0"), 0u) << F;
  EXPECT_EQ(checks(F, "__sleuth_o0_1"), 0u) << F;
  EXPECT_EQ(checks(F, "__sleuth_o0_3"), 1u) << F;
  // i and s have several writes that reach their reads; p is the target of a write, whose
  // store through a null pointer would fault before the node completes.
  EXPECT_GE(checks(F, "__sleuth_o0_4"), 2u) << F;
  EXPECT_GE(checks(F, "__sleuth_o0_5"), 3u) << F;
  EXPECT_EQ(checks(F, "__sleuth_o0_2"), 1u) << F;
  auto Edges = staticEdges(Text);
  unsigned A = parameterSite(Text, "__sleuth_o0_0");
  EXPECT_TRUE(llvm::any_of(Edges, [A](auto E) { return E.second == A; })) << Text;
  // g: the value of `y = x + 1` is the write's, shown to be read whenever the write ran.
  EXPECT_TRUE(llvm::any_of(Edges, [](auto E) { return E.second >= 0x80000000ul; })) << Text;
  // h: each compound write reads the one before it, the return the last.
  std::string H = Text.substr(Text.find("int h("));
  EXPECT_EQ(H.find("sleuth_chk"), std::string::npos) << H;
  // A kept parameter beside one in the shadow memory gets its origin from the runtime, which
  // gives its node too: its reads are static as well.
  std::string Mixed = rewrite("mixed.c", "static void touch(int *p) { *p += 1; }\n"
                                         "int m(int kept, int taken) {\n"
                                         "  touch(&taken);\n"
                                         "  return kept + taken;\n"
                                         "}\n");
  std::string M = Mixed.substr(Mixed.find("int m("));
  EXPECT_NE(M.find("sleuth_param_origin("), std::string::npos) << M;
  EXPECT_EQ(M.find("sleuth_chk"), std::string::npos) << M;

  // --checked-reads: every read of a kept local is checked, and the table is empty. The three
  // reads that have no probe otherwise are no probes in the statistics either.
  std::string Small = "int f(int a) { int k = a * 2; return k + a; }\n";
  rewrite("st1.c", Small);
  unsigned StaticProbes = LastProbes;
  StaticReads = false;
  std::string Checked = rewrite("st2.c", Small);
  EXPECT_EQ(checks(Checked, "__sleuth_o0_0"), 2u) << Checked;
  EXPECT_EQ(checks(Checked, "__sleuth_o0_1"), 1u) << Checked;
  EXPECT_TRUE(staticEdges(Checked).empty()) << Checked;
  EXPECT_EQ(LastProbes, StaticProbes + 3) << Checked;
}

TEST_F(RewriteTest, ProbesOfSmallLoopsInlineTheirFastPaths) {
  // A small loop nest's probes (the tests, reads and writes of both loops) call the inlined
  // twins; the code outside loops keeps the calls of the file's one copy.
  std::string Text = rewrite("hot.c", "int g;\n"
                                      "int f(const unsigned char *a, int n) {\n"
                                      "  int i, j, s = 0;\n"
                                      "  for (i = 0; i < n; i++)\n"
                                      "    for (j = 0; j < i; j++)\n"
                                      "      s += a[j];\n"
                                      "  g = s;\n"
                                      "  while (g > 100)\n"
                                      "    g /= 2;\n"
                                      "  return s;\n"
                                      "}\n");
  auto Line = [](const std::string &In, const std::string &Needle) { // the line holding Needle
    size_t At = In.find(Needle);
    if (At == std::string::npos)
      return std::string();
    size_t Begin = In.rfind('\n', At) + 1;
    return In.substr(Begin, In.find('\n', At) - Begin);
  };
  std::string Outer = Line(Text, "(i = 0)"), Inner = Line(Text, "(j = 0)"),
              Body = Line(Text, "(s += "), After = Line(Text, "(g = "),
              Second = Line(Text, "while ("), SecondBody = Line(Text, "(g /= 2)");
  // (Nodes of statements that call nothing: the `_nopending` twins, see NodesOfStatements...)
  EXPECT_NE(Outer.find("sleuth_test_nopending_hot("), std::string::npos) << Text;
  EXPECT_NE(Inner.find("sleuth_test_nopending_hot("), std::string::npos) << Text;
  EXPECT_EQ(Inner.find("sleuth_test_nopending("), std::string::npos) << Text;
  EXPECT_NE(Body.find("sleuth_getc_hot("), std::string::npos) << Text;
  EXPECT_NE(Body.find("sleuth_def_nopending_hot("), std::string::npos) << Text;
  EXPECT_NE(After.find("sleuth_set_nopending("), std::string::npos) << Text;
  EXPECT_NE(Second.find("sleuth_getc_hot("), std::string::npos) << Text;
  EXPECT_NE(SecondBody.find("sleuth_set_nopending_hot("), std::string::npos) << Text;
  // A loop with more edits than HotLoops::MaxEditsPerLoop keeps the calls, but for a small loop
  // inside it.
  std::string Long = "int h(int *v, int n) {\n  int k, t = 0;\n  for (k = 0; k < n; k++) {\n";
  for (int I = 0; I < 40; ++I)
    Long += "    t += v[k] * " + std::to_string(I) + "; v[k] = t;\n";
  Long += "    while (t > 1000) t /= 3;\n  }\n  return t;\n}\n";
  std::string LongText = rewrite("long.c", Long);
  EXPECT_EQ(Line(LongText, "(k = 0)").find("_hot("), std::string::npos) << LongText;
  EXPECT_EQ(Line(LongText, "* 0)").find("_hot("), std::string::npos) << LongText;
  EXPECT_NE(Line(LongText, "* 0)").find("sleuth_getc("), std::string::npos) << LongText;
  EXPECT_NE(Line(LongText, "(t /= 3)").find("sleuth_test_nopending_hot("), std::string::npos)
      << LongText;
  // Reads whose edges are static leave empty edits, which do not count: a loop of many of them
  // and a few probes is small.
  StaticReads = true;
  std::string Sum = "int g(int a, int n) {\n  int i, s = 0;\n  for (i = 0; i < n; i++)\n    s += a";
  for (int I = 0; I < 150; ++I)
    Sum += " + a";
  Sum += ";\n  return s;\n}\n";
  std::string SumText = rewrite("sum.c", Sum);
  EXPECT_NE(Line(SumText, "(s += ").find("sleuth_def_nopending_hot("), std::string::npos)
      << SumText;
}

TEST_F(RewriteTest, InlinedTwinsAreNamedOnlyForWholeProbeNames) {
  EXPECT_EQ(instrumenter::HotLoops::inlined("sleuth_getc(a), sleuth_getcp(b), sleuth::rdc(c), "
                                            "sleuth::rd(d), sleuth_get_slow(e), xsleuth_set(f)"),
            "sleuth_getc_hot(a), sleuth_getcp_hot(b), sleuth::rdc_hot(c), sleuth::rd_hot(d), "
            "sleuth_get_slow(e), xsleuth_set(f)");
  EXPECT_EQ(instrumenter::HotLoops::inlined("sleuth_def_nopending(a), sleuth_test_nopending(b), "
                                            "sleuth_set_nopending(c), sleuth_def(d)"),
            "sleuth_def_nopending_hot(a), sleuth_test_nopending_hot(b), "
            "sleuth_set_nopending_hot(c), sleuth_def_hot(d)");
}

TEST_F(RewriteTest, ReadsAreCheckedAgainstTheNodeThatConsumesThem) {
  std::string Text = rewrite("r.c", "int g(int v);\n"
                                    "int f(int a, int *p) {\n"
                                    "  int x = a + *p;\n"
                                    "  if (x > a)\n"
                                    "    x = g(a + *p);\n"
                                    "  return x;\n"
                                    "}\n");
  // The declaration's reads flow into its node: checked there, against that node's site.
  std::smatch M;
  ASSERT_TRUE(std::regex_search(
      Text, M,
      std::regex(
          "int x = \\(" + checked("sleuth_chk", "([0-9]+)") + "__sleuth_o0_0\\), a\\) \\+ \\(" +
          checked("sleuth_getc", "\\1") + "&\\(\\*p\\), sizeof\\(\\*p\\)\\), \\*\\(" +
          checked("sleuth_chk", "\\1") +
          "__sleuth_o0_1\\), p\\)\\); int __sleuth_d\\1 __attribute__\\(\\(unused\\)\\) = "
          "\\(\\(void\\)\\(__sleuth_o0_2 = sleuth_def(?:_nopending)?\\(&__sleuth_tu, \\1u, ")))
      << Text;
  // The condition's reads, against the test.
  EXPECT_TRUE(std::regex_search(
      Text,
      std::regex("sleuth_test(?:_nopending)?\\(&__sleuth_tu, ([0-9]+)u, __sleuth_cq0, \\(\\(" +
                 checked("sleuth_chk", "\\1") + "__sleuth_o0_2\\), x\\) > \\(" +
                 checked("sleuth_chk", "\\1") + "__sleuth_o0_0\\), a\\)\\)")))
      << Text;
  // An argument's reads are pushed: whether they flow into a parameter the run decides.
  EXPECT_NE(Text.find("sleuth_arg(&__sleuth_tu, "), std::string::npos) << Text;
  EXPECT_NE(Text.find("(sleuth_use(__sleuth_o0_0), a) + (sleuth_get(&(*p), sizeof(*p)), "
                      "*(sleuth_use(__sleuth_o0_1), p))"),
            std::string::npos)
      << Text;
}

// A conditional whose operands are lvalues of different types (`char *const` and
// `const char *const`) is an lvalue for Clang, which converts the first's qualifiers, and a
// value for GCC, where sleuth::rdc(T &) around it does not compile: each operand is read.
TEST_F(RewriteTest, AConditionalOfLvaluesOfTwoTypesReadsEachOperand) {
  std::string Text = rewrite("c.cpp",
                             "int f(int n, char *const a) {\n"
                             "  const char *const b = \"b\";\n"
                             "  const char *s(n == 1 ? a : b);\n"
                             "  return s[0];\n"
                             "}\n",
                             {"-std=c++20"});
  EXPECT_TRUE(std::regex_search(Text, std::regex("n\\) == 1 \\? sleuth::rdc\\([^?]*, a\\) : "
                                                 "sleuth::rdc\\([^?]*, b\\)\\)")))
      << Text;
}
