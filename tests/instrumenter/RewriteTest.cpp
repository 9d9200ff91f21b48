// Probe rewrites seen in the rewritten text: which locals keep their origins in companion locals
// (instrumenter/src/LocalOrigins.h; a companion's read is `(sleuth_chk(..., __sleuth_o...), x)`
// or `(sleuth_use(__sleuth_o...), x)`, a shadowed one takes the variable's address), which reads
// are checked against the node consuming them and which are pushed, the control each node
// passes, calls that carry their arguments' origins, and reads hidden in macro expansions
// (MacroReadProbe).
#include "sleuth/instrumenter/instrumenter.h"

#include "HotLoops.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <array>
#include <fstream>
#include <gtest/gtest.h>
#include <map>
#include <regex>
#include <set>

using namespace sleuth;

namespace {

class RewriteTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("sleuth-rewrite-test", Root));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

  std::string rewrite(const std::string &Name, const std::string &Source,
                      std::vector<std::string> Args = {}) {
    llvm::SmallString<256> P(Root);
    llvm::sys::path::append(P, Name);
    std::ofstream(std::string(P), std::ios::binary) << Source;
    InstrumentRequest R;
    R.File = std::string(P);
    R.Arguments = std::move(Args);
    R.ShowDiagnostics = false;
    R.StaticReads = StaticReads;
    InstrumentResult Result = instrument(R);
    EXPECT_TRUE(Result.Ok) << Result.Error;
    LastProbes = Result.Probes;
    LastSkipped = Result.SkippedBy;
    return Result.Text;
  }

  /// The prefix of a read checked against node site N (any N if N is empty) with its cache
  /// (in an innermost loop, the probe's inlined twin: HotLoops).
  static std::string checked(const std::string &Probe, const std::string &N = "[0-9]+") {
    return Probe + "(?:_hot)?\\(&__sleuth_tu, &__sleuth_rc\\[[0-9]+\\], " + N + "u, ";
  }
  /// True if reads of Var go through a companion.
  static bool kept(const std::string &Text, const std::string &Var) {
    return std::regex_search(Text, std::regex("\\((sleuth_use\\(|" + checked("sleuth_chk") +
                                              ")__sleuth_o[0-9]+_[0-9]+\\), " + Var + "\\)"));
  }
  /// True if reads of Var go through the shadow memory.
  static bool shadowed(const std::string &Text, const std::string &Var) {
    return Text.find("sleuth_get(&(" + Var + ")") != std::string::npos ||
           Text.find("sleuth_get_hot(&(" + Var + ")") != std::string::npos ||
           Text.find("sleuth_getp((void *)(__UINTPTR_TYPE__)&(" + Var + ")") != std::string::npos ||
           Text.find("sleuth::rd(" + Var + ")") != std::string::npos ||
           Text.find("sleuth::rd_hot(" + Var + ")") != std::string::npos ||
           std::regex_search(Text, std::regex("(" + checked("sleuth_getc") + "&\\(" + Var + "\\)|" +
                                              checked("sleuth_getcp") +
                                              "\\(void \\*\\)\\(__UINTPTR_TYPE__\\)&\\(" + Var +
                                              "\\)|" + checked("sleuth::rdc") + Var + "\\))"));
  }

  /// Each of Kept reads through a companion; each of Shadowed through the shadow memory.
  static void expectPlaces(const std::string &Text, std::vector<std::string> Kept,
                           std::vector<std::string> Shadowed) {
    for (const std::string &Var : Kept)
      EXPECT_TRUE(kept(Text, Var) && !shadowed(Text, Var)) << Var << " not kept:\n" << Text;
    for (const std::string &Var : Shadowed)
      EXPECT_TRUE(shadowed(Text, Var) && !kept(Text, Var)) << Var << " not shadowed:\n" << Text;
  }

  llvm::SmallString<128> Root;
  /// Off unless a test says otherwise: these tests look at each read's probe, which a read with
  /// a static edge does not have (ReadsThatOneWriteReachesHaveStaticEdges turns it on).
  bool StaticReads = false;
  unsigned LastProbes = 0; // the last rewrite's count of probes (--stats)
  SkipCounts LastSkipped{}; // and of functions left as they were, by reason
};

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

TEST_F(RewriteTest, PlainLocalsAndParametersAreKept) {
  std::string Text = rewrite("a.c", "int f(int n, int *a, int unused) {\n"
                                    "  (void)unused;\n"
                                    "  int s = 0;\n"
                                    "  for (int i = 0; i < n; i++) s += a[i];\n"
                                    "  register int r = s; r = r * 2;\n"
                                    "  return r;\n"
                                    "}\n");
  expectPlaces(Text, {"n", "a", "s", "i", "r"}, {});
  // Every parameter is kept: one fused entry probe, the origins computed from the unit's base.
  EXPECT_NE(Text.find("sleuth_enter_params(&__sleuth_tu, 0u, "), std::string::npos);
  EXPECT_TRUE(
      std::regex_search(Text, std::regex("__sleuth_o0_0 = __sleuth_tu\\.base \\+ [0-9]+u")));
  EXPECT_EQ(Text.find("sleuth_param("), std::string::npos);
  EXPECT_EQ(Text.find("sleuth_param_origin("), std::string::npos);
  // The compound write checks the old origin against its own node first; the declaration
  // and the plain write read no old value.
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("sleuth_chk\\(&__sleuth_tu, &__sleuth_rc\\[[0-9]+\\], ([0-9]+)u, "
                       "(__sleuth_o0_[0-9]+)\\), \\(void\\)\\(\\2 = "
                       "sleuth_def(?:_nopending)?(?:_hot)?\\(&__sleuth_tu, "
                       "\\1u, ")))
      << Text;
  EXPECT_TRUE(std::regex_search(Text, std::regex("int s = 0; int __sleuth_d[0-9]+ __attribute__"
                                                 "\\(\\(unused\\)\\) = \\(\\(void\\)\\("
                                                 "__sleuth_o0_[0-9]+ = sleuth_def")))
      << Text;
}

// A C function with a return spelled inside a macro's body (no probe can go there) is still
// instrumented: its frame local holds the frame's address and has a cleanup that leaves the
// frame at scope exit unless a visible return left it (and zeroed the address). A statement
// that invokes a macro returning a value names, while it runs, the return node made for it.
TEST_F(RewriteTest, CFunctionsWithAReturnInsideAMacroLeaveTheirFrameByACleanup) {
  std::string Text = rewrite("a.c", "#define CHECK(c) if (!(c)) return -1\n"
                                    "#define REQUIRE(c) if (!(c)) return\n"
                                    "int parse(int n) {\n"
                                    "  int s = n * 2;\n"
                                    "  CHECK(s > 0);\n"
                                    "  if (s > 10)\n"
                                    "    return s;\n"
                                    "  s = s + 1;\n"
                                    "}\n"
                                    "void walk(int n) {\n"
                                    "  REQUIRE(n);\n"
                                    "  if (n > 2)\n"
                                    "    return;\n"
                                    "}\n"
                                    "int plain(int n) {\n"
                                    "  if (n)\n"
                                    "    return n;\n"
                                    "  return 0;\n"
                                    "}\n");
  std::regex Cleanup("struct sleuth_exit_frame __sleuth_frame __attribute__\\(\\("
                     "cleanup\\(sleuth_leave_at_exit\\)\\)\\) = \\{0, 0, 0, 0\\}; "
                     "int __sleuth_entered __attribute__\\(\\(unused\\)\\) = \\(\\(void\\)\\("
                     "__sleuth_cc([0-9]+) = sleuth_enter_params\\(");
  auto Begin = std::sregex_iterator(Text.begin(), Text.end(), Cleanup);
  std::vector<std::string> Functions;
  for (auto It = Begin; It != std::sregex_iterator(); ++It)
    Functions.push_back((*It)[1]);
  EXPECT_EQ(Functions, (std::vector<std::string>{"0", "1"})) << Text;
  // The local holds the frame's address, which sleuth_leave compares.
  EXPECT_NE(Text.find("(void)(__sleuth_frame.address = (unsigned long)__builtin_frame_address(0)), "
                      "0);"),
            std::string::npos)
      << Text;
  // CHECK's statement names its return node while it runs; REQUIRE returns no value.
  EXPECT_TRUE(
      std::regex_search(Text, std::regex("__sleuth_frame.site = [0-9]+u \\+ 1u; "
                                         "__sleuth_frame.ctl = [^;]*; CHECK\\(.*\\); \\} "
                                         "__sleuth_frame.site = 0; (\\(void\\)\\(|if \\()"
                                         "sleuth_test\\(&__sleuth_tu, [0-9]+u, [^;]*, 1\\)")))
      << Text;
  EXPECT_EQ(Text.find("__sleuth_frame.site = 0; REQUIRE"), std::string::npos) << Text;
  EXPECT_NE(Text.find("\n  REQUIRE("), std::string::npos) << Text;
  // parse's visible return completes the value's node, leaves the frame and zeroes the local.
  EXPECT_TRUE(
      std::regex_search(Text, std::regex("sleuth_ret\\(&__sleuth_tu, [0-9]+u, [^;]*, "
                                         "__builtin_frame_address\\(0\\)\\); "
                                         "__sleuth_frame.address = 0; return __sleuth_rv; \\}")))
      << Text;
  // walk's `return;` and the ends of both bodies are left to the cleanup; plain, whose returns
  // are all visible, keeps its probes at each return and no cleanup.
  size_t Walk = Text.find("void walk"), Plain = Text.find("int plain");
  ASSERT_NE(Walk, std::string::npos);
  ASSERT_NE(Plain, std::string::npos);
  EXPECT_EQ(Text.substr(0, Plain).find("sleuth_leave("), std::string::npos) << Text;
  std::string PlainText = Text.substr(Plain);
  EXPECT_EQ(PlainText.find("cleanup("), std::string::npos) << Text;
  EXPECT_EQ(PlainText.find("__sleuth_frame."), std::string::npos) << Text;
  EXPECT_NE(PlainText.find("int __sleuth_frame __attribute__((unused)) = "), std::string::npos);
}

// A macro that spells several statements, one of them a return of a value (bzip2's BZ_GET_FAST),
// is surrounded as one; not where a declaration is among them (C89 has no statement before a
// declaration) nor where a statement begins outside the macro and ends inside.
TEST_F(RewriteTest, MacrosOfSeveralStatementsThatReturnNameTheirReturnNode) {
  std::string Text =
      rewrite("m.c", "#define NEXT(out) if (pos >= len) return -1; out = pos; pos++\n"
                     "#define TAKE(out) int out = pos; if (!out) return -2\n"
                     "int f(int len) {\n"
                     "  int pos = 0, a;\n"
                     "  NEXT(a);\n"
                     "  {\n"
                     "    TAKE(b);\n"
                     "    a += b;\n"
                     "  }\n"
                     "  return a;\n"
                     "}\n");
  EXPECT_TRUE(
      std::regex_search(Text, std::regex("__sleuth_frame.site = [0-9]+u \\+ 1u; "
                                         "__sleuth_frame.ctl = [^;]*; NEXT\\(a\\); \\} "
                                         "__sleuth_frame.site = 0; (\\(void\\)\\(|if \\()"
                                         "sleuth_test\\(&__sleuth_tu, [0-9]+u, [^;]*, 1\\)")))
      << Text;
  EXPECT_NE(Text.find("\n    TAKE(b);\n"), std::string::npos) << Text;
}

// A statement that names a return node and holds another such statement (a loop without braces
// around a block with a REQUIRE): after the inner one the frame names the loop's node again,
// for the loop's own REQUIRE in a later iteration; after the outer one, none. In C++ the same
// through the frame's `hidden`. Each such statement gets braces of its own, so that what
// follows the loop's last line is no statement that Clang's -Wmisleading-indentation takes
// for a second one of the loop.
TEST_F(RewriteTest, AfterAnInnerStatementThatMayReturnTheFrameNamesTheOuterNodeAgain) {
  const std::string Source = "#define REQUIRE(c, e) if (!(c)) return (e)\n"
                             "int f(int k, int a, int b) {\n"
                             "  while (k--)\n"
                             "    if (k % 2) {\n"
                             "      REQUIRE(a > k, -1);\n"
                             "    } else\n"
                             "      REQUIRE(b > k, -2);\n"
                             "  return 0;\n"
                             "}\n";
  std::string C = rewrite("nested.c", Source);
  std::smatch Outer;
  ASSERT_TRUE(std::regex_search(C, Outer,
                                std::regex("\\{ __sleuth_frame.site = ([0-9]+)u \\+ 1u; "
                                           "__sleuth_frame.ctl = ([^;]*); while")))
      << C;
  std::string Again = "__sleuth_frame.site = " + Outer[1].str() +
                      "u \\+ 1u; __sleuth_frame.ctl = " + Outer[2].str() + ";";
  EXPECT_TRUE(std::regex_search(C, std::regex("a > k\\), -1\\); \\} " + Again))) << C;
  EXPECT_TRUE(std::regex_search(C, std::regex("b > k\\), -2\\); \\} __sleuth_frame.site = 0;")))
      << C;
  std::string Cxx = rewrite("nested.cpp", Source);
  ASSERT_TRUE(std::regex_search(
      Cxx, Outer, std::regex("__sleuth_frame0.hidden\\(([0-9]+)u \\+ 1u, ([^)]*)\\); while")))
      << Cxx;
  EXPECT_TRUE(
      std::regex_search(Cxx, std::regex("a > k\\), -1\\); \\} __sleuth_frame0.hidden\\(" +
                                        Outer[1].str() + "u \\+ 1u, " + Outer[2].str() + "\\);")))
      << Cxx;
}

// A C99 inline definition with external linkage may not refer to the file's static tables, so
// it is left as it was; but an inline definition that some other declaration in the file makes
// an external definition (extern, or not inline) is an ordinary function and is instrumented.
TEST_F(RewriteTest, OnlyInlineDefinitionsThatAreNotExternalAreLeftAsTheyWere) {
  std::string Text = rewrite("a.c",
                             "extern int shown(int v);\n"
                             "inline int shown(int v) { return v + 1; }\n"
                             "inline int hidden(int v) { return v + 2; }\n"
                             "int plain(int v);\n"
                             "inline int plain(int v) { return v + 3; }\n",
                             {"-std=c99"});
  auto Body = [&](const std::string &Name) {
    size_t At = Text.find("inline int " + Name);
    return At == std::string::npos ? std::string() : Text.substr(At, Text.find('}', At) - At);
  };
  EXPECT_NE(Body("shown").find("sleuth_enter_params("), std::string::npos) << Text;
  EXPECT_NE(Body("plain").find("sleuth_enter_params("), std::string::npos) << Text;
  EXPECT_EQ(Body("hidden"), "inline int hidden(int v) { return v + 2; ") << Text;
}

// Every function left as it was is counted under its reason (SLEUTH_STATS, --stats).
TEST_F(RewriteTest, FunctionsLeftAsTheyWereAreCountedByReason) {
  llvm::SmallString<256> Inc(Root);
  llvm::sys::path::append(Inc, "body.inc");
  std::ofstream(std::string(Inc)) << "{ return 4; }\n";
  rewrite("skips.cpp",
          "#include <coroutine>\n"
          "struct Task {\n"
          "  struct promise_type {\n"
          "    Task get_return_object() { return {}; }\n"
          "    std::suspend_never initial_suspend() noexcept { return {}; }\n"
          "    std::suspend_never final_suspend() noexcept { return {}; }\n"
          "    void return_void() {}\n"
          "    void unhandled_exception() {}\n"
          "  };\n"
          "};\n"
          "#define WHOLE(name) int name() { return 1; }\n"
          "constexpr int c1(int v) { return v + 1; }\n"
          "consteval int c2(int v) { return v + 2; }\n"
          "int tried(int v) try { return v / 2; } catch (...) { return 0; }\n"
          "Task coro() { co_return; }\n"
          "WHOLE(made)\n"
          "int included()\n"
          "#include \"body.inc\"\n"
          "int plain(int v) { return c1(v) + made() + included(); }\n",
          {"-std=c++20"});
  SkipCounts Expected{};
  Expected[unsigned(SkipReason::Constexpr)] = 2;
  Expected[unsigned(SkipReason::FunctionTryBlock)] = 1;
  Expected[unsigned(SkipReason::Coroutine)] = 1;
  Expected[unsigned(SkipReason::BodyFromMacro)] = 1;
  Expected[unsigned(SkipReason::BodyInAnotherFile)] = 1;
  EXPECT_EQ(LastSkipped, Expected) << describeSkipCounts(LastSkipped);
  EXPECT_EQ(describeSkipCounts(LastSkipped, " ", ", "),
            "constexpr 2, macro-body 1, body-in-other-file 1, function-try-block 1, coroutine 1");
  rewrite("inl.c", "inline int hidden(int v) { return v; }\nint shown(int v) { return v; }\n",
          {"-std=c99"});
  SkipCounts InlineOnly{};
  InlineOnly[unsigned(SkipReason::CInlineDefinition)] = 1;
  EXPECT_EQ(LastSkipped, InlineOnly) << describeSkipCounts(LastSkipped);
}

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

TEST_F(RewriteTest, ParametersMixKeptAndShadowed) {
  std::string Text =
      rewrite("m.c", "static void touch(int *p) { *p += 1; }\n"
                     "int f(int kept, int taken) { touch(&taken); return kept + taken; }\n");
  std::string F = Text.substr(Text.find("int f(")); // touch's one parameter is kept: fused
  EXPECT_EQ(F.find("sleuth_enter_params("), std::string::npos) << Text;
  EXPECT_NE(F.find("sleuth_param_origin(&__sleuth_tu, "), std::string::npos);
  EXPECT_NE(F.find("sleuth_param(&__sleuth_tu, "), std::string::npos);
  EXPECT_TRUE(kept(Text, "kept"));
  EXPECT_TRUE(shadowed(Text, "taken"));
}

TEST_F(RewriteTest, CallsOfFiveToEightKeptArgumentsUseTheEightPairRecord) {
  std::string Text = rewrite("p.c", "static int g(int a, int b, int c, int d, int e) {\n"
                                    "  return a + b + c + d + e;\n"
                                    "}\n"
                                    "int f(int n, int m) {\n"
                                    "  int five = g(n, m, n, m, n);\n"
                                    "  int four = g(n, m, n, m, 1);\n"
                                    "  return five + four;\n"
                                    "}\n");
  // A pair per argument that reads a kept local: four fit sleuth_call_pairs, five need
  // sleuth_call_pairs8; the unused pairs are zeros. None goes through the runtime's variadic
  // sleuth_call_args.
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("sleuth_call_pairs8\\(&__sleuth_tu, [0-9]+u, __sleuth_cc1, [0-9]+u, "
                       "[0-9]+u, &__sleuth_rc\\[[0-9]+\\], 5u, 1u, (__sleuth_o1_0), "
                       "2u, (__sleuth_o1_1), 3u, \\1, 4u, \\2, 5u, \\1, 0u, 0u, 0u, 0u, 0u, "
                       "0u\\), g\\(n, m, n, m, n\\)")))
      << Text;
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("sleuth_call_pairs\\(&__sleuth_tu, [0-9]+u, __sleuth_cc1, [0-9]+u, "
                       "[0-9]+u, &__sleuth_rc\\[[0-9]+\\], 4u, 1u, (__sleuth_o1_0), "
                       "2u, (__sleuth_o1_1), 3u, \\1, 4u, \\2\\), g\\(n, m, n, m, 1\\)")))
      << Text;
  EXPECT_EQ(Text.find("sleuth_call_args"), std::string::npos) << Text;
}

TEST_F(RewriteTest, CallsWhoseArgumentsReadOnlyKeptLocalsCarryTheirOrigins) {
  std::string Text = rewrite("k.c", "static int g(int a, int b) { return a - b; }\n"
                                    "int f(int n, int *p) {\n"
                                    "  int direct = g(n, n - 1);\n"
                                    "  int memory = g(*p, n);\n"
                                    "  int effect = g(n++, 2);\n"
                                    "  return direct + memory + effect;\n"
                                    "}\n");
  // The declaration consumes the call's value: the callee's return checks its node against it.
  // Two pairs fit the inline record (sleuth_call_pairs); the unused ones are zeros.
  EXPECT_TRUE(std::regex_search(
      Text,
      std::regex("sleuth_call_pairs\\(&__sleuth_tu, [0-9]+u, __sleuth_cc1, [0-9]+u, "
                 "([0-9]+)u, &__sleuth_rc\\[[0-9]+\\], 2u, 1u, (__sleuth_o1_0), 2u, \\2, 0u, 0u, "
                 "0u, 0u\\), g\\(n, n - 1\\)\\); int __sleuth_d\\1 ")))
      << Text;
  // Reading memory or writing a local: a mark per argument, as before (fenced where the
  // argument writes, see CallArgumentsTest).
  size_t Args = 0;
  for (size_t At = Text.find("sleuth_arg"); At != std::string::npos;
       At = Text.find("sleuth_arg", At + 1))
    ++Args;
  EXPECT_EQ(Args, 3u); // g(*p, n): two; g(n++, 2): one
  EXPECT_NE(Text.find("g((sleuth_arg_fenced("), std::string::npos) << Text;
}

TEST_F(RewriteTest, LocalsReachableUnderOtherNamesStayInTheShadow) {
  std::string Text = rewrite("b.c", "#include <setjmp.h>\n"
                                    "static void use(int *p) { *p = 1; }\n"
                                    "static void done(int *p) { (void)p; }\n"
                                    "int g(void) {\n"
                                    "  int taken = 0, vol_src = 2, cleaned = 3, plain = 4;\n"
                                    "  volatile int vol = vol_src;\n"
                                    "  int __attribute__((cleanup(done))) guarded = cleaned;\n"
                                    "  use(&taken);\n"
                                    "  return taken + vol + guarded + plain;\n"
                                    "}\n");
  expectPlaces(Text, {"plain", "cleaned"}, {"taken", "vol", "guarded"});
}

TEST_F(RewriteTest, CxxReferencesCapturesAndRangeVariablesStayInTheShadow) {
  std::string Text = rewrite("c.cpp",
                             "#include <vector>\n"
                             "int h(std::vector<int> &v, int k) {\n"
                             "  int bound = 0, captured = 1, counted = 2, plain = 3;\n"
                             "  int &alias = bound;\n"
                             "  alias = k;\n"
                             "  auto add = [&captured](int x) { captured += x; };\n"
                             "  add(k);\n"
                             "  for (int e : v) counted += e;\n"
                             "  ++plain;\n"
                             "  return bound + captured + counted + plain;\n"
                             "}\n",
                             {"-std=c++17"});
  // The lambda's own parameter x has a companion of the lambda's body, not of h's.
  expectPlaces(Text, {"counted", "plain", "k", "x"}, {"bound", "captured", "e"});
}

TEST_F(RewriteTest, TemplatesKeepTheLocalsWhoseUsesClangResolved) {
  // n, i and k are read and written only where the pattern's types are known; bound goes to a
  // call that waits for the instantiation (which may bind a reference to it), m to an operator
  // that may be overloaded; v's type is the template parameter.
  std::string Text = rewrite("d.cpp",
                             "struct Acc {\n"
                             "  int s = 0;\n"
                             "  void add(int &x) { s += x; }\n"
                             "  Acc operator*(int f) const { return Acc{s * f}; }\n"
                             "};\n"
                             "template <class T> T twice(T v, int k) {\n"
                             "  int n = 2, m = 3;\n"
                             "  for (int i = 0; i < k; ++i) n += i;\n"
                             "  int bound = n;\n"
                             "  v.add(bound);\n"
                             "  return v * m;\n"
                             "}\n"
                             "int use() { return twice(Acc{}, 3).s; }\n",
                             {"-std=c++17"});
  expectPlaces(Text, {"n", "i", "k"}, {"bound", "m"});
}

TEST_F(RewriteTest, TemplateLocalsThatBuiltinOperatorsOfDependentPointersReadAreKept) {
  // `mem[i]`, `mem + n` and `static_cast<T *>(raw)` wait for T, but whatever T is they are
  // builtin and read the local's value; `c[j]` may call an operator[] of T's, which may take
  // j by reference.
  std::string Text = rewrite("e.cpp",
                             "template <class T> struct Pool {\n"
                             "  T *mem;\n"
                             "  T &at(int i) { return mem[i]; }\n"
                             "  T *past(int n) { return mem + n; }\n"
                             "  T *item(void *raw) { return static_cast<T *>(raw); }\n"
                             "};\n"
                             "template <class T> int pick(const T &c, int j) { return c[j]; }\n"
                             "int use() {\n"
                             "  int a[2] = {1, 2};\n"
                             "  Pool<int> p{a};\n"
                             "  return p.at(1) + *p.past(0) + *p.item(a) + pick(a, 1);\n"
                             "}\n",
                             {"-std=c++17"});
  expectPlaces(Text, {"i", "n", "raw"}, {"j"});
}

TEST_F(RewriteTest, AMacroArgumentReadAndAssignedKeepsItsTextAnLvalue) {
  // zlib's CRC2(state->check, hold) expands to `check = crc32(check, ...)`: the argument's text
  // is read in one place and assigned in another. The reads of `s` and `s->n` inside it go
  // before the whole expansion; the argument stays as it was (a comma expression is no lvalue
  // in C).
  std::string Text = rewrite("arg.c", "#define BUMP(c) ((c) = (c) * 2 + 1)\n"
                                      "struct box { int n; };\n"
                                      "int f(struct box *s) {\n"
                                      "  int y;\n"
                                      "  y = BUMP(s->n);\n"
                                      "  return y;\n"
                                      "}\n");
  EXPECT_TRUE(
      std::regex_search(Text, std::regex("y = \\(" + checked("sleuth_chk") + "__sleuth_o0_0\\), " +
                                         checked("sleuth_getc") +
                                         "&\\(s->n\\), sizeof\\(s->n\\)\\), BUMP\\(s->n\\)\\)")))
      << Text;
}

TEST_F(RewriteTest, ReadsInsideAMacroExpansionAreReadBeforeIt) {
  std::string Text = rewrite("mac.c", "#define SQUARE(v) ((v) * (v))\n"
                                      "#define SCALED (x * factor)\n"
                                      "#define CELL(p) ((p)[index])\n"
                                      "int f(int x, int *cells) {\n"
                                      "  int factor = 3, index = 1, y, z;\n"
                                      "  int *where = &factor;\n"
                                      "  y = SQUARE(x);\n"
                                      "  z = SCALED + *where;\n"
                                      "  CELL(cells) = y;\n"
                                      "  return y + z;\n"
                                      "}\n");
  // SQUARE's argument is spelled once but read twice: one read of x before the expansion,
  // checked against the write of y.
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("y = \\(" + checked("sleuth_chk") + "__sleuth_o0_0\\), SQUARE\\(x\\)\\)")))
      << Text;
  // A macro body naming a kept local and one in the shadow memory (its address is taken).
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("\\(" + checked("sleuth_chk") + "__sleuth_o0_0\\), " +
                       checked("sleuth_getc") + "&\\(factor\\), sizeof\\(factor\\)\\), SCALED\\)")))
      << Text;
  // An lvalue expansion stays as it was: in C a comma expression is no lvalue.
  EXPECT_NE(Text.find("(CELL(cells) = "), std::string::npos) << Text;
}

TEST_F(RewriteTest, MacroArgumentsThatTheMacroQuotesKeepTheirText) {
  // SHOW makes a string of its argument, EXPECT passes its argument on to SHOW, NAME pastes
  // its argument to a suffix: a probe inside any of these arguments would change the program's
  // messages or names; the reads go before the whole invocation. TWICE quotes nothing: its
  // argument's read goes before it too.
  const std::string Source = "int printf(const char *, ...);\n"
                             "#define SHOW(e) printf(\"%s = %d\\n\", #e, (e))\n"
                             "#define EXPECT(c) SHOW(c)\n"
                             "#define NAME(p) p##_max\n"
                             "#define TWICE(v) ((v) + (v))\n"
                             "int f(int x) {\n"
                             "  int y_max = 3, y;\n"
                             "  SHOW(x > 0);\n"
                             "  EXPECT(x + 1 > 2);\n"
                             "  y = NAME(y) + TWICE(x);\n"
                             "  return y;\n"
                             "}\n";
  for (const char *Name : {"quoted.c", "quoted.cpp"}) {
    std::string Text = rewrite(Name, Source);
    EXPECT_NE(Text.find("SHOW(x > 0)"), std::string::npos) << Text;
    EXPECT_NE(Text.find("EXPECT(x + 1 > 2)"), std::string::npos) << Text;
    EXPECT_NE(Text.find(" NAME(y)"), std::string::npos) << Text;
    EXPECT_TRUE(std::regex_search(
        Text, std::regex("\\(" + checked("sleuth_chk") + "__sleuth_o0_0\\), TWICE\\(x\\)\\)")))
        << Text;
  }
}

TEST_F(RewriteTest, AVariableReadInsideAMacroArgumentIsReadAroundTheArgumentInCxx) {
  // REQUIRE's condition reads the parameter c: the read goes around the argument's expression
  // (not around `c` itself, whose text SWAP-like macros may take the type of), as in C.
  std::string Text = rewrite("require.cpp", "#define REQUIRE(c, err) if (!(c)) return (err)\n"
                                            "int digit(char c) {\n"
                                            "  REQUIRE(c >= '0', -1);\n"
                                            "  return c - '0';\n"
                                            "}\n");
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("REQUIRE\\(\\(sleuth_use\\(__sleuth_o0_0\\), c >= '0'\\), -1\\)")))
      << Text;
}

TEST_F(RewriteTest, MemoryReadsInsideMacroArgumentsAreReadBeforeTheExpansion) {
  // glibc's tolower() when optimizing is a statement expression naming its argument several
  // times (LOWER); MAX spells each argument twice. An lvalue written in an argument whose
  // address loads only variables is read by its text just before the expansion. Not one whose
  // address loads memory (the macro may test `p` before `p->next->len`), nor one naming a
  // macro's own local (`*t` in WITH_T), nor a local of a statement expression written in the
  // file, which is out of scope before it (STORE).
  std::string Text = rewrite(
      "args.c", "struct node { int len; struct node *next; };\n"
                "#define LOWER(c) (__extension__({ int r_; if (sizeof(c) > 1) r_ = (c) + 1; "
                "else r_ = (c); r_; }))\n"
                "#define MAX(a, b) ((a) > (b) ? (a) : (b))\n"
                "#define WITH_T(x) (__extension__({ int *t = g; (x); }))\n"
                "#define THEN(p, x) ((p) ? (x) : 0)\n"
                "#define STORE(x) do { h = (x); } while (0)\n"
                "int *g, h;\n"
                "int f(const char *s, struct node *p, int *t, int n) {\n"
                "  int v[3] = {1, 2, 3}, i = n & 1;\n"
                "  int a = LOWER(*s);\n"
                "  int b = MAX(p->len, n) + MAX(v[i], 0);\n"
                "  int c = WITH_T(*t);\n"
                "  int d = THEN(p, p->next->len);\n"
                "  int e = ({ int k = a; STORE(k); k; });\n"
                "  return a + b + c + d + e;\n"
                "}\n");
  auto ReadBefore = [&](const std::string &Lvalue, const std::string &Expansion) {
    return std::regex_search(Text, std::regex(checked("sleuth_getc") + "&\\(" + Lvalue +
                                              "\\), sizeof\\(" + Lvalue + "\\)\\), [^;]*" +
                                              Expansion + "\\)"));
  };
  EXPECT_TRUE(ReadBefore("\\*s", "LOWER\\(\\*s\\)")) << Text;
  // The pointer `s` is read before the expansion too (a kept parameter: its companion).
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("int a = \\(" + checked("sleuth_chk") + "__sleuth_o0_0\\), ")))
      << Text;
  EXPECT_TRUE(ReadBefore("p->len", "MAX\\(p->len, n\\)")) << Text;
  EXPECT_TRUE(ReadBefore("v\\[i\\]", "MAX\\(v\\[i\\], 0\\)")) << Text;
  EXPECT_EQ(Text.find("&(*t)"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("&(p->next->len)"), std::string::npos) << Text;
  EXPECT_NE(Text.find("int e = ({ int k = "), std::string::npos) << Text;
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

TEST_F(RewriteTest, MemoryCallsTakeTheRuntimesTwins) {
  // memcpy, memmove and memset call the runtime header's twins, which carry or clear the
  // bytes' origins; the arguments keep their read probes. A callee spelled by a macro (zlib's
  // zmemcpy) or called through a pointer is left as it was.
  std::string Text = rewrite("mem.c", "#include <string.h>\n"
                                      "#define zmemcpy memcpy\n"
                                      "struct p { int x, y; };\n"
                                      "void f(struct p *q, char *buf, int n) {\n"
                                      "  struct p a;\n"
                                      "  void *(*copy)(void *, const void *, size_t) = memcpy;\n"
                                      "  memcpy(&a, q, sizeof a);\n"
                                      "  memmove(buf, buf + 1, n);\n"
                                      "  memset(buf, n, 4);\n"
                                      "  zmemcpy(q, &a, sizeof a);\n"
                                      "  copy(q, &a, sizeof a);\n"
                                      "}\n");
  EXPECT_TRUE(std::regex_search(Text, std::regex("sleuth_memcpy\\(&a, [^;]*q\\), sizeof a\\)")))
      << Text;
  EXPECT_TRUE(
      std::regex_search(Text, std::regex("sleuth_memmove\\([^;]*buf\\) \\+ 1, [^;]*n\\)\\)")))
      << Text;
  EXPECT_TRUE(std::regex_search(Text, std::regex("sleuth_memset\\([^;]*n\\), 4\\)"))) << Text;
  EXPECT_NE(Text.find("zmemcpy("), std::string::npos) << Text;
  EXPECT_EQ(Text.find("sleuth_memcpy(q"), std::string::npos) << Text;
  EXPECT_NE(Text.find("= memcpy;"), std::string::npos) << Text;
  // C++: std::memcpy too.
  std::string Cxx = rewrite("mem.cpp", "#include <cstring>\n"
                                       "void g(int *d, const int *s) { std::memcpy(d, s, 8); }\n");
  EXPECT_TRUE(
      std::regex_search(Cxx, std::regex("[^:]sleuth_memcpy\\([^;]*, d\\), [^;]*, s\\), 8\\)")))
      << Cxx;
  EXPECT_EQ(Cxx.find("std::"), std::string::npos) << Cxx;
}

TEST_F(RewriteTest, FormattingCallsWriteTheirDestinationAsANodeOfTheirOwn) {
  // sprintf and snprintf call their twins with a write site named after the destination, whose
  // node the arguments' reads flow into (checked against it, not left to the assignment that
  // takes the call's value); the format's checks stay the call's. A callee spelled by a macro
  // is left alone.
  std::string Text = rewrite("fmt.c", "#include <stdio.h>\n"
                                      "#define PRINT_NUMBER sprintf\n"
                                      "int f(char *out, double d, int n) {\n"
                                      "  char buffer[32];\n"
                                      "  int k = sprintf(buffer, \"%g\", d);\n"
                                      "  k += snprintf(out + k, 8, \"%d\", n);\n"
                                      "  PRINT_NUMBER(buffer, \"%d\", n);\n"
                                      "  return k;\n"
                                      "}\n");
  std::smatch Sprintf, Snprintf;
  ASSERT_TRUE(
      std::regex_search(Text, Sprintf,
                        std::regex("sleuth_sprintf\\(&__sleuth_tu\\w*, (\\d+)u, [^,]+, buffer, "
                                   "\"%g\", \\(sleuth_chk\\([^;]*, (\\d+)u, __sleuth_o\\d+_1\\), "
                                   "d\\)\\)")))
      << Text;
  EXPECT_EQ(Sprintf[1], Sprintf[2]) << "d's read flows into the sprintf node\n" << Text;
  ASSERT_TRUE(std::regex_search(
      Text, Snprintf,
      std::regex(
          "sleuth_snprintf\\(&__sleuth_tu\\w*, (\\d+)u, [^;]*, (\\d+)u, __sleuth_o\\d+_0\\), "
          "out\\) \\+ [^;]*k\\), 8, ")))
      << Text;
  EXPECT_EQ(Snprintf[1], Snprintf[2]) << "out's read flows into the snprintf node\n" << Text;
  EXPECT_NE(Text.find("\"*buffer\"}"), std::string::npos) << Text;
  EXPECT_NE(Text.find("\"*(out + k)\"}"), std::string::npos) << Text;
  EXPECT_NE(Text.find("PRINT_NUMBER(buffer"), std::string::npos) << Text;
  // glibc's fortified sprintf is a macro in C as Clang parses it: the invocation is renamed.
  std::string Fortified = rewrite("fortified.c",
                                  "#include <stdio.h>\n"
                                  "int g(char *out, int n) { return sprintf(out, \"%d\", n); }\n",
                                  {"-O2", "-D_FORTIFY_SOURCE=2"});
  EXPECT_TRUE(std::regex_search(
      Fortified, std::regex("sleuth_sprintf\\(&__sleuth_tu\\w*, \\d+u, [^,]+, out, ")))
      << Fortified;
  EXPECT_NE(Fortified.find("\"*out\"}"), std::string::npos) << Fortified;
}

TEST_F(RewriteTest, DiscardedLibraryCallsAreEffectNodes) {
  // A call into the library whose value the statement discards is a node the call's reads flow
  // into, so that a slice can start at the line that printed a value; also without reads
  // (its control). Not a call whose probe made a node (sprintf), a call of an instrumented
  // function (its parameters take the reads), nor a compiler builtin.
  std::string Text = rewrite("effects.c", "#include <setjmp.h>\n"
                                          "#include <stdarg.h>\n"
                                          "#include <stdio.h>\n"
                                          "#include <stdlib.h>\n"
                                          "static jmp_buf env;\n"
                                          "static void note(int n) { (void)n; }\n"
                                          "int f(char *buf, int n, ...) {\n"
                                          "  va_list ap;\n"
                                          "  va_start(ap, n);\n"
                                          "  printf(\"%d\\n\", n);\n"
                                          "  (void)fflush(stdout);\n"
                                          "  sprintf(buf, \"%d\", n);\n"
                                          "  note(n);\n"
                                          "  va_end(ap);\n"
                                          "  if (n < 0)\n"
                                          "    exit(n);\n"
                                          "  if (n == 7)\n"
                                          "    longjmp(env, n);\n"
                                          "  return n;\n"
                                          "}\n");
  std::smatch Printf;
  ASSERT_TRUE(std::regex_search(
      Text, Printf,
      std::regex("printf\\(\"%d\\\\n\", \\(sleuth_getc\\(&__sleuth_tu, &__sleuth_rc\\[\\d+\\], "
                 "(\\d+)u, &\\(n\\), sizeof\\(n\\)\\), n\\)\\)\\), sleuth_effect\\(&__sleuth_tu, "
                 "(\\d+)u, ")))
      << Text;
  EXPECT_EQ(Printf[1], Printf[2]) << "n's read flows into the printf node\n" << Text;
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("\\(\\(void\\)\\(\\(void\\)fflush\\(stdout\\)\\), sleuth_effect\\(")))
      << Text;
  EXPECT_NE(Text.find("\"<printf()>\"}"), std::string::npos) << Text;
  EXPECT_NE(Text.find("{6, 0, 10, 3, "), std::string::npos) << "an effect site at 10:3\n" << Text;
  for (const char *Name : {"<sprintf()>", "<note()>", "<__builtin_va_end()>", "<longjmp()>"})
    EXPECT_EQ(Text.find(Name), std::string::npos) << Name << "\n" << Text;
  // A library call that does not return (exit) has its node before it: its status's reads are
  // checked against it as they are evaluated. Not longjmp, whose reads are setjmp's value's.
  std::smatch Exit;
  ASSERT_TRUE(std::regex_search(
      Text, Exit,
      std::regex("\\(sleuth_effect\\(&__sleuth_tu, (\\d+)u, [^)]*\\), exit\\(\\(sleuth_getc\\("
                 "&__sleuth_tu, &__sleuth_rc\\[\\d+\\], (\\d+)u, &\\(n\\)")))
      << Text;
  EXPECT_EQ(Exit[1], Exit[2]) << "n's read flows into the exit node\n" << Text;
  EXPECT_NE(Text.find("\"<exit()>\"}"), std::string::npos) << Text;
  // C++: `std::cout << n;` (a library operator), a void library call in a block of its own.
  std::string Cxx = rewrite("effects.cpp", "#include <cstdlib>\n"
                                           "#include <iostream>\n"
                                           "void g(int n, int *p) {\n"
                                           "  std::cout << n;\n"
                                           "  std::free(p);\n"
                                           "}\n");
  EXPECT_NE(Cxx.find("\"<operator<<()>\"}"), std::string::npos) << Cxx;
  EXPECT_TRUE(std::regex_search(
      Cxx, std::regex(
               "\\{ std::free\\([^;]*p\\)\\); sleuth_effect\\(&__sleuth_tu, \\d+u, [^;]*\\); \\}")))
      << Cxx;
}

TEST_F(RewriteTest, CompoundLiteralsWhoseAddressIsTakenAreWrites) {
  // `&(struct s){x, y}` and an array literal passed as a pointer: the literal's creation is a
  // write of its whole object whose node the initializer's reads flow into. A literal read by
  // value needs none, and one of an unnamed struct type, which no cast can spell, is left alone.
  std::string Text = rewrite("literals.c", "struct s { int a, b; };\n"
                                           "int use(const struct s *p);\n"
                                           "int total(const int *v, int n);\n"
                                           "int f(int x, int y) {\n"
                                           "  struct s v = (struct s){x, y};\n"
                                           "  int k = use(&(struct s){x, y});\n"
                                           "  k += total((int[]){x, y}, 2);\n"
                                           "  k += (struct s){x, y}.a;\n"
                                           "  k += (&(struct { int c; }){x})->c;\n"
                                           "  return k + v.a;\n"
                                           "}\n");
  std::smatch Struct;
  ASSERT_TRUE(std::regex_search(
      Text, Struct,
      std::regex(
          "use\\(\\(sleuth_arg\\([^;]*\\(\\*\\(struct s \\*\\)sleuth_created\\(&__sleuth_tu, "
          "(\\d+)u, [^,]+, &\\(struct s\\)\\{\\(sleuth_chk\\(&__sleuth_tu, "
          "&__sleuth_rc\\[\\d+\\], (\\d+)u, __sleuth_o\\d+_0\\), x\\), [^}]*\\}, "
          "sizeof\\(struct s\\)\\)\\)\\)")))
      << Text;
  EXPECT_EQ(Struct[1], Struct[2]) << "x's read flows into the literal's node\n" << Text;
  EXPECT_TRUE(std::regex_search(
      Text,
      std::regex(
          "total\\(\\(sleuth_arg\\(&__sleuth_tu, \\d+u, 1\\), \\(\\*\\(int \\(\\*\\)\\[2\\]\\)"
          "sleuth_created\\(&__sleuth_tu, \\d+u, [^;]*, sizeof\\(int\\[2\\]\\)\\)\\)\\), 2\\)")))
      << Text;
  EXPECT_NE(Text.find("\"(struct s){...}\"}"), std::string::npos) << Text;
  EXPECT_NE(Text.find("\"(int[]){...}\"}"), std::string::npos) << Text;
  size_t Count = 0;
  for (size_t At = Text.find("sleuth_created("); At != std::string::npos;
       At = Text.find("sleuth_created(", At + 1))
    ++Count;
  EXPECT_EQ(Count, 2u) << Text;
  // C++ has no address of a compound literal: nothing to record.
  std::string Cxx = rewrite("literals.cpp", "struct s { int a, b; };\n"
                                            "int f(int x) { return (struct s){x, 1}.a; }\n");
  EXPECT_EQ(Cxx.find("sleuth_created("), std::string::npos) << Cxx;
}

TEST_F(RewriteTest, StringCopiesTakeTheRuntimesTwins) {
  // strcpy, stpcpy, strncpy, strcat, strncat and mempcpy call their twins too; strlen and
  // strchr, which write nothing, and a local function that happens to be named like one of them
  // in C++ (no builtin) are left alone.
  std::string Text = rewrite("str.c", "#define _GNU_SOURCE\n"
                                      "#include <string.h>\n"
                                      "char *f(char *d, const char *s, unsigned long n) {\n"
                                      "  strcpy(d, s);\n"
                                      "  strncpy(d, s, n);\n"
                                      "  strcat(d, s);\n"
                                      "  strncat(d, s, n);\n"
                                      "  mempcpy(d, s, n);\n"
                                      "  n = strlen(d) + (strchr(d, 'a') != 0);\n"
                                      "  return stpcpy(d, s);\n"
                                      "}\n");
  for (const char *Twin : {"sleuth_strcpy(", "sleuth_strncpy(", "sleuth_strcat(", "sleuth_strncat(",
                           "sleuth_mempcpy(", "sleuth_stpcpy("})
    EXPECT_NE(Text.find(Twin), std::string::npos) << Twin << "\n" << Text;
  EXPECT_NE(Text.find(" strlen("), std::string::npos) << Text;
  EXPECT_NE(Text.find("strchr("), std::string::npos) << Text;
  EXPECT_EQ(Text.find("sleuth_strlen"), std::string::npos) << Text;
  std::string Cxx = rewrite("str.cpp", "namespace mine { char *strcpy(char *d, const char *) "
                                       "{ return d; } }\n"
                                       "char *g(char *d) { return mine::strcpy(d, \"x\"); }\n");
  EXPECT_NE(Cxx.find("mine::strcpy("), std::string::npos) << Cxx;
  EXPECT_EQ(Cxx.find("sleuth_strcpy"), std::string::npos) << Cxx;
}

TEST_F(RewriteTest, AStatementThatIsAMacroInvocationDropsTheReadsPushedBeforeIt) {
  // glibc's fortified snprintf is such a macro at -O2 (Clang has no __va_arg_pack): the reads
  // pushed before the expansion must not reach the next statement's node.
  std::string Text = rewrite("stmt.c", "int g(int, int);\n"
                                       "#define CALL(a, b) g((a), (b))\n"
                                       "int f(int x, int y) {\n"
                                       "  CALL(x, y);\n"
                                       "  (void)CALL(x, y + 1);\n"
                                       "  int o = 3;\n"
                                       "  return o;\n"
                                       "}\n");
  EXPECT_NE(Text.find("((void)((sleuth_use(__sleuth_o0_0), sleuth_use(__sleuth_o0_1), "
                      "CALL(x, y))), sleuth_discard());"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("((void)((void)(sleuth_use(__sleuth_o0_0), CALL(x, "
                      "(sleuth_use(__sleuth_o0_1), y + 1)))), sleuth_discard());"),
            std::string::npos)
      << Text;
}

} // namespace

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

TEST_F(RewriteTest, CxxLocalsWrittenThroughAnAssignmentsResultStayInTheShadow) {
  // In C++ `++i` and `k = 5` are the variables themselves: writing or binding the result writes
  // or aliases them past a companion. Only a result whose value is read keeps a local kept.
  std::string Text = rewrite("w.cpp",
                             "int f(int a) {\n"
                             "  int i = a, k = 1, m = 2, n = 0;\n"
                             "  (++i) += 2;\n"
                             "  (k = 5)++;\n"
                             "  n = (m += 3) * 2;\n"
                             "  return i + k + m + n;\n"
                             "}\n",
                             {"-std=c++17"});
  expectPlaces(Text, {"m", "n", "a"}, {"i", "k"});
}

TEST_F(RewriteTest, ClassTemplateMembersAreReadAndWrittenWhateverTheirTypes) {
  // In a template pattern Clang leaves out the conversions and operators that wait for the
  // instantiation: reads are taken by syntax where the operand is an lvalue in every
  // instantiation, and assignments that may call an operator= are recorded beside them.
  std::string Text = rewrite("t.cpp",
                             "template <class T, int N> struct Ring {\n"
                             "  T Items[N];\n"
                             "  int Next = 0;\n"
                             "  void push(const T &V) { Items[Next++ % N] = V; }\n"
                             "  void put(int I, const T &V) { Items[I] = V; }\n"
                             "  T &at(int I) { return Items[I]; }\n"
                             "  T copyAt(int I) const { return Items[I]; }\n"
                             "  T first() const { T F = Items[0]; return F; }\n"
                             "};\n"
                             "template <class C> bool any(C &Box) { return Box[0]; }\n"
                             "struct P { int V; };\n"
                             "P make();\n"
                             "int use() {\n"
                             "  Ring<int, 2> R;\n"
                             "  R.push(1);\n"
                             "  R.put(0, 2);\n"
                             "  int A[1] = {1};\n"
                             "  return R.at(0) + R.copyAt(1) + R.first() + any(A) + make().V;\n"
                             "}\n",
                             {"-std=c++17"});
  auto Has = [&](const std::string &Pattern) {
    return std::regex_search(Text, std::regex(Pattern));
  };
  // Members of the class template (typed through `this`, which is dependent).
  EXPECT_TRUE(Has("sleuth::wrote\\(&__sleuth_tu, [0-9]+u, [^,]+, Next\\)\\+\\+")) << Text;
  // A target with side effects: its address is kept by the runtime until the store is done.
  EXPECT_TRUE(Has("\\(\\(void\\)\\(sleuth::target\\(&__sleuth_tu, [0-9]+u, [^,]+, Items\\[.*"
                  "\\]\\) = " +
                  checked("sleuth::rdc") + "V\\)\\), \\(void\\)sleuth_commit\\(\\)\\)"))
      << Text;
  // A repeatable target is named again after the store.
  EXPECT_TRUE(Has("\\), sleuth_set(?:_nopending)?\\(&__sleuth_tu, [0-9]+u, [^,]+, "
                  "__builtin_addressof\\(Items\\[I\\]\\), sizeof\\(Items\\[I\\]\\)\\)\\)"))
      << Text;
  // Returned by reference: no read; by value, and copied into a variable: read.
  // (I, an int whose every use is builtin whatever T is, keeps its origin in a companion.)
  EXPECT_TRUE(Has("return Items\\[\\(" + checked("sleuth_chk") + "__sleuth_o2_0\\), I\\)\\]; \\}"))
      << Text;
  EXPECT_TRUE(Has("return " + checked("sleuth::rdc") + "Items\\[")) << Text;
  EXPECT_TRUE(Has("T F = " + checked("sleuth::rdc") + "Items\\[0\\]\\)")) << Text;
  // The object of a subscript that may be its class's operator[] is not read by it.
  EXPECT_TRUE(Has("return Box\\[0\\]")) << Text;
  // A member of a temporary is an xvalue: no read (sleuth::rd takes lvalues).
  EXPECT_TRUE(Has("make\\(\\)\\)?\\.V")) << Text;
  EXPECT_FALSE(Has("sleuth::rdc?\\([^;]*make\\(\\)\\)?\\.V\\)")) << Text;
}

TEST_F(RewriteTest, CopiesTheCompilerWritesReadTheirSource) {
  // A struct copied by the constructor or assignment the compiler writes has no
  // lvalue-to-rvalue conversion: the copy reads its source all the same, also as an argument
  // passed by value, and `latest = second` is a write of latest.
  std::string Text = rewrite("copies.cpp", "struct R { int a, b; };\n"
                                           "int use(R r) { return r.a; }\n"
                                           "int f(R first, R second) {\n"
                                           "  R copy = first;\n"
                                           "  R latest{0, 0};\n"
                                           "  latest = second;\n"
                                           "  return use(copy) + latest.b;\n"
                                           "}\n");
  EXPECT_TRUE(
      std::regex_search(Text, std::regex("R copy = " + checked("sleuth::rdc") + "first\\)")))
      << Text;
  EXPECT_TRUE(
      std::regex_search(Text, std::regex("sleuth::wrote\\(&__sleuth_tu, \\d+u, [^,]+, latest = " +
                                         checked("sleuth::rdc") + "second\\)\\)")))
      << Text;
  EXPECT_NE(Text.find("use((sleuth_arg(&__sleuth_tu, "), std::string::npos) << Text;
  EXPECT_NE(Text.find("sleuth::rd(copy)"), std::string::npos) << Text;
}

TEST_F(RewriteTest, ConstructorMemberInitializersAreWrites) {
  // Each member initializer (and a default member initializer) is a write at the body's start
  // that reads what its initializer read; a declaration constructed by the program's own
  // constructor makes a node without overwriting what the constructor wrote.
  std::string Text = rewrite("ctor.cpp", "struct C {\n"
                                         "  C(const int &raw, int offset) : value(raw - offset), "
                                         "copy(value) {}\n"
                                         "  int value;\n"
                                         "  int copy;\n"
                                         "  int count = 1;\n"
                                         "};\n"
                                         "int f(int x) {\n"
                                         "  C c(x, 2);\n"
                                         "  return c.copy;\n"
                                         "}\n");
  EXPECT_TRUE(std::regex_search(
      Text,
      std::regex(
          "sleuth_get\\(sleuth::address_of\\(raw\\), sizeof\\(raw\\)\\); "
          "sleuth_use\\(__sleuth_o\\d+_\\d+\\); sleuth_set(?:_nopending)?\\(&__sleuth_tu, \\d+u, "
          "[^,]+, sleuth::address_of\\(this->value\\), sizeof\\(this->value\\)\\); "
          "sleuth_get\\(sleuth::address_of\\(this->value\\), sizeof\\(this->value\\)"
          "\\); sleuth_set\\([^;]*this->copy[^;]*; sleuth_set\\([^;]*this->count")))
      << Text;
  for (const char *Site :
       {"2, 35, 0, 0, 0, \"value\"}", "2, 56, 0, 0, 0, \"copy\"}", "5, 7, 0, 0, 0, \"count\"}"})
    EXPECT_NE(Text.find(Site), std::string::npos) << Site << "\n" << Text;
  // The constructor call carries its record on the argument it can (x, bound to a reference,
  // reads nothing; 2 is no lvalue either): see ConstructorCallsPassTheirArgumentsOn.
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("C c\\(\\(sleuth_construct_arg\\(&__sleuth_tu, \\d+u, [^,]+, \\d+u, 1u\\), "
                       "x\\), 2\\); int __sleuth_d\\d+ "
                       "__attribute__\\(\\(unused\\)\\) = "
                       "\\(\\(void\\)sleuth_def\\(")))
      << Text;
}

TEST_F(RewriteTest, CallsOfConstexprFunctionsAreLibraryCalls) {
  // A constexpr function's body is left as it is (it cannot call the runtime), so a call of it
  // pushes no record that would wait for its entry: its value depends on its arguments' reads,
  // as a library call's. A lambda, implicitly constexpr, is instrumented and called as any.
  std::string Text = rewrite("constexpr.cpp",
                             "constexpr int twice(int v) { return 2 * v; }\n"
                             "struct C { int k; constexpr C(int a) : k(a) {} };\n"
                             "int f(int x) {\n"
                             "  auto inc = [](int v) { return v + 1; };\n"
                             "  int y = twice(x);\n"
                             "  C c(x);\n"
                             "  return inc(y) + c.k;\n"
                             "}\n",
                             {"-std=c++17"});
  std::string Body = Text.substr(std::min(Text.find("int f(int x)"), Text.size()));
  EXPECT_EQ(Body.find("sleuth_construct_arg("), std::string::npos) << Body;
  EXPECT_TRUE(std::regex_search(Body, std::regex("int y = [^;]*twice\\(")) &&
              !std::regex_search(Body, std::regex("int y = [^;]*sleuth_call")))
      << Body;
  EXPECT_TRUE(std::regex_search(Body, std::regex("sleuth_call\\w*\\([^;]*inc\\("))) << Body;
}

TEST_F(RewriteTest, CallsOfStaticFunctionsOutsideTheProjectAreLibraryCalls) {
  // A static function defined in a header that is not instrumented (outside the included
  // roots, as Csmith's safe_math.h is outside a project) is called as a library function: no
  // record for an entry that never comes. The unit's own static functions keep theirs.
  llvm::SmallString<256> Outside(Root), Source(Root);
  llvm::sys::path::append(Outside, "outside");
  llvm::sys::path::append(Source, "src");
  llvm::sys::fs::create_directories(Outside);
  llvm::sys::fs::create_directories(Source);
  std::ofstream(std::string(Outside) + "/safe.h")
      << "static int safe_add(int a, int b) { return a + b; }\n";
  std::ofstream(std::string(Source) + "/main.c") << "#include \"../outside/safe.h\"\n"
                                                    "static int twice(int v) { return 2 * v; }\n"
                                                    "int f(int x) {\n"
                                                    "  int y = safe_add(x, 1);\n"
                                                    "  return twice(y);\n"
                                                    "}\n";
  InstrumentRequest R;
  R.File = std::string(Source) + "/main.c";
  R.ShowDiagnostics = false;
  R.IncludedRoots = {std::string(Source)};
  InstrumentResult Result = instrument(R);
  ASSERT_TRUE(Result.Ok) << Result.Error;
  std::string Body =
      Result.Text.substr(std::min(Result.Text.find("int f(int x)"), Result.Text.size()));
  EXPECT_TRUE(std::regex_search(Body, std::regex("int y = [^;]*safe_add\\(")) &&
              !std::regex_search(Body, std::regex("int y = [^;]*sleuth_call")))
      << Body;
  EXPECT_TRUE(std::regex_search(Body, std::regex("sleuth_call\\w*\\([^;]*twice\\("))) << Body;
}

TEST_F(RewriteTest, OperatorsTheProgramWroteAreCalls) {
  // `v[i]`, `a * k`, `++c` of the program's operators get a call record, each operand that is a
  // parameter a mark (not a member operator's object); `->`, `,`, a defaulted `==`, a `<`
  // rewritten from `<=>` and the library's operators do not.
  std::string Text = rewrite("operators.cpp",
                             "#include <compare>\n"
                             "#include <string>\n"
                             "struct V {\n"
                             "  int d[2];\n"
                             "  int &operator[](int i) { return d[i]; }\n"
                             "  V *operator->() { return this; }\n"
                             "  int operator,(int k) { return k; }\n"
                             "  bool operator==(const V &) const = default;\n"
                             "  auto operator<=>(const V &o) const { return d[0] <=> o.d[0]; }\n"
                             "};\n"
                             "struct M { int c; };\n"
                             "M operator*(M m, int k) { return M{m.c * k}; }\n"
                             "struct C { int n; C &operator++() { ++n; return *this; } };\n"
                             "int f(V v, V w, int i, int k) {\n"
                             "  int x = v[i];\n"
                             "  M t = M{1} * k;\n"
                             "  C c{0};\n"
                             "  ++c;\n"
                             "  int y = v->d[0] + (v, k);\n"
                             "  bool e = v == w, l = v < w;\n"
                             "  std::string s = std::string(\"a\") + \"b\";\n"
                             "  return x + t.c + c.n + y + e + l + int(s.size());\n"
                             "}\n",
                             {"-std=c++20"});
  const std::string Call = "\\(sleuth_call(?:v)?\\(&__sleuth_tu, \\d+u, [^,]+, \\d+u[^)]*\\), ";
  EXPECT_TRUE(std::regex_search(
      Text, std::regex(Call + "v\\[\\(sleuth_arg\\(&__sleuth_tu, \\d+u, 1\\), [^\\]]*i\\)+\\]\\)")))
      << Text;
  EXPECT_TRUE(std::regex_search(
      Text,
      std::regex(Call + "M\\{1\\} \\* \\(sleuth_arg\\(&__sleuth_tu, \\d+u, 2\\), [^;]*k\\)\\)")))
      << Text;
  EXPECT_TRUE(std::regex_search(Text, std::regex(Call + "\\+\\+c\\)"))) << Text;
  // Three calls in f: the subscript, the product and the increment.
  std::string Body = Text.substr(std::min(Text.find("int f(V v"), Text.size()));
  size_t Calls = 0;
  for (size_t At = Body.find("sleuth_call"); At != std::string::npos;
       At = Body.find("sleuth_call", At + 1))
    ++Calls;
  EXPECT_EQ(Calls, 3u) << Body;
}

TEST_F(RewriteTest, ConstructorCallsPassTheirArgumentsOn) {
  // A constructor the program wrote gets a call record from the arguments that read something
  // (sleuth_construct_arg on each: their order is unspecified), in a declaration, a new
  // expression and a temporary. Not on a null pointer constant or a braced constant (the comma
  // would make them none), nor for the library's constructors or the compiler's.
  std::string Text =
      rewrite("construct.cpp", "#include <string>\n"
                               "struct P {\n"
                               "  P(int a, const char *s, char c) : v(a + c + !s) {}\n"
                               "  int v;\n"
                               "};\n"
                               "struct Q { int w; };\n"
                               "int f(int x, int y) {\n"
                               "  P p(x, nullptr, 'c');\n"
                               "  P *q = new P(y + 1, 0, 'd');\n"
                               "  int t = P(x, \"s\", 'e').v;\n"
                               "  P b{y, nullptr, 65};\n"
                               "  std::string s(3, 'a');\n"
                               "  Q w{x};\n"
                               "  Q z(w);\n"
                               "  int r = p.v + q->v + t + b.v + z.w + int(s.size());\n"
                               "  delete q;\n"
                               "  return r;\n"
                               "}\n");
  auto Carried = [&](const std::string &Argument, const char *Position) {
    return std::regex_search(Text,
                             std::regex("\\(sleuth_construct_arg\\(&__sleuth_tu, \\d+u, [^,]+, "
                                        "\\d+u, " +
                                        std::string(Position) + "u\\), " + Argument));
  };
  // (x read through the shadow or kept in a companion: either form of read.)
  const std::string X = "(?:sleuth::rd\\(x\\)|\\(sleuth_use\\(__sleuth_o\\d+_\\d+\\), x\\))";
  EXPECT_TRUE(Carried(X + "\\), nullptr, 'c'\\);", "1")) << Text;
  EXPECT_TRUE(Carried("\\(sleuth_use\\(__sleuth_o\\d+_\\d+\\), y\\) \\+ 1\\), 0, 'd'\\)", "1"))
      << Text;
  EXPECT_TRUE(Carried(X + "\\), \"s\", 'e'\\)\\.v", "1")) << Text;
  EXPECT_TRUE(Carried("\\(sleuth_use\\(__sleuth_o\\d+_\\d+\\), y\\)\\), nullptr, 65\\}", "1"))
      << Text;
  // Every construction of P has one record, and nothing else has one.
  size_t Probes = 0;
  for (size_t At = Text.find("sleuth_construct_arg("); At != std::string::npos;
       At = Text.find("sleuth_construct_arg(", At + 1))
    ++Probes;
  EXPECT_EQ(Probes, 4u) << Text;
}

TEST_F(RewriteTest, InitializerListConstructorsTakeTheParametersNodes) {
  // A base's, a delegated-to and a member's constructor run before the body, before the entry
  // that makes the parameters' nodes: each argument that reads parameters pushes their nodes
  // (the unit's base plus the parameter's site), or reads the object a reference names. Not an
  // argument reading no parameter, nor the library's constructors.
  std::string Text = rewrite("initializers.cpp", "#include <string>\n"
                                                 "struct Base {\n"
                                                 "  Base(int a, int b) : v(a + b) {}\n"
                                                 "  int v;\n"
                                                 "};\n"
                                                 "struct Part {\n"
                                                 "  explicit Part(int n) : n(n) {}\n"
                                                 "  int n;\n"
                                                 "};\n"
                                                 "struct D : Base {\n"
                                                 "  D(int x, const int &r, const std::string &s)\n"
                                                 "      : Base(x * 2, 7), part(r), name(s) {}\n"
                                                 "  explicit D(int y) : D(y, 3, \"d\") {}\n"
                                                 "  Part part;\n"
                                                 "  std::string name;\n"
                                                 "};\n"
                                                 "int f(int k) { return D(k).v; }\n");
  auto Carried = [&](const std::string &Origins, const char *Position, const std::string &Arg) {
    return std::regex_search(
        Text, std::regex("\\(sleuth_initializer_call\\(\\), sleuth_construct_arg\\(&__sleuth_tu, "
                         "\\d+u, 0u, \\d+u, " +
                         std::string(Position) + "u\\), " + Origins + Arg + "\\)"));
  };
  const std::string Node = "sleuth_use\\(__sleuth_tu\\.base \\+ \\d+u\\), ";
  EXPECT_TRUE(Carried(Node, "1", "x \\* 2")) << Text;
  EXPECT_TRUE(Carried("sleuth_get\\(sleuth::address_of\\(r\\), sizeof\\(r\\)\\), ", "1", "r"))
      << Text;
  EXPECT_TRUE(Carried(Node, "1", "y")) << Text;
  // 7, "d" and 3 read no parameter; std::string's constructor is the library's.
  size_t Probes = 0;
  for (size_t At = Text.find("sleuth_construct_arg("); At != std::string::npos;
       At = Text.find("sleuth_construct_arg(", At + 1))
    ++Probes;
  EXPECT_EQ(Probes, 4u) << Text; // and D(k) in f
}

TEST_F(RewriteTest, MemberInitializerCallsSendTheirValueToTheMembersWrite) {
  // A call of the program's in a member initializer gets a record whose value goes to the
  // member's write at the body's start (sleuth_callv with that write's site), its arguments the
  // parameters' nodes; the write reads the rest of the initializer (b), not the call's
  // arguments (a). A library call is left alone and its arguments read, as before.
  std::string Text = rewrite(
      "member_calls.cpp", "#include <cstdlib>\n"
                          "int add(int x, int y) { return x + y; }\n"
                          "struct M {\n"
                          "  M(int a, int b, int c) : sum_(add(a, 1) + b), abs_(std::abs(c)) {}\n"
                          "  int sum_;\n"
                          "  int abs_;\n"
                          "};\n"
                          "int f(int k) { return M(k, 2, -k).sum_; }\n");
  std::smatch Call;
  ASSERT_TRUE(std::regex_search(
      Text, Call,
      std::regex("\\(sleuth_initializer_call\\(\\), sleuth_callv\\(&__sleuth_tu, (\\d+)u, 0u, "
                 "\\d+u, (\\d+)u, &\\w+\\[\\d+\\]\\), "
                 "add\\(\\(sleuth_arg\\(&__sleuth_tu, \\1u, 1\\), "
                 "sleuth_use\\(__sleuth_tu\\.base \\+ \\d+u\\), a\\), 1\\)\\)")))
      << Text;
  std::string Consumer = Call[2];
  // The write of sum_ is that consumer; it reads b and not a.
  EXPECT_NE(Text.find("sleuth_set(&__sleuth_tu, " + Consumer + "u, "), std::string::npos) << Text;
  size_t Write = Text.find("sleuth_set(&__sleuth_tu, " + Consumer + "u, ");
  size_t Entry = Text.rfind("sleuth::Frame", Write);
  ASSERT_NE(Entry, std::string::npos) << Text;
  std::string Before = Text.substr(Entry, Write - Entry);
  EXPECT_TRUE(
      std::regex_search(Before, std::regex("address_of\\(b\\)|sleuth_use\\(__sleuth_o\\d+_1\\)")))
      << Before;
  EXPECT_FALSE(
      std::regex_search(Before, std::regex("address_of\\(a\\)|sleuth_use\\(__sleuth_o\\d+_0\\)")))
      << Before;
  EXPECT_EQ(Text.find("abs((sleuth"), std::string::npos) << Text;
}

TEST_F(RewriteTest, RangeForWithStructuredBindingsWritesEachName) {
  // `for (auto [k, v] : pairs)`: the variable has no name, its bindings are what the body
  // reads (before, the probe took the address of an empty name and the file compiled
  // uninstrumented).
  std::string Text = rewrite("bindings.cpp",
                             "struct P { int k, v; };\n"
                             "int f(P (&ps)[2]) {\n"
                             "  int s = 0;\n"
                             "  for (auto [k, v] : ps)\n"
                             "    s += k * v;\n"
                             "  return s;\n"
                             "}\n",
                             {"-std=c++17"});
  EXPECT_EQ(Text.find("__builtin_addressof()"), std::string::npos) << Text;
  EXPECT_NE(Text.find("__builtin_addressof(k), sizeof(k))"), std::string::npos) << Text;
  EXPECT_NE(Text.find("__builtin_addressof(v), sizeof(v))"), std::string::npos) << Text;
}

TEST_F(RewriteTest, LibraryCallsThatReadAContainerWholeReadItsElements) {
  // The elements of a vector or string are written one by one, apart from the object: a
  // library call that reads the container whole reads them too (sleuth::rdc_all); one that
  // reads its size, an element or an iterator into it reads the object alone, and so does a
  // binary search, a loop's iterator or a container whose elements are not in one array.
  std::string Text =
      rewrite("whole.cpp",
              "#include <algorithm>\n"
              "#include <iostream>\n"
              "#include <map>\n"
              "#include <numeric>\n"
              "#include <string>\n"
              "#include <string_view>\n"
              "#include <vector>\n"
              "int f(std::vector<int> v, std::string s, std::map<int, int> m) {\n"
              "  int sum = std::accumulate(v.begin(), v.end(), 0);\n"
              "  std::cout << s;\n"
              "  std::vector<int> w = v;\n"
              "  auto at = s.find('x');\n"
              "  int n = static_cast<int>(v.size());\n"
              "  int first = v[0];\n"
              "  auto low = std::lower_bound(v.begin(), v.end(), 3);\n"
              "  int total = std::accumulate(std::begin(w), std::end(w), 0);\n"
              "  for (auto it = v.begin(); it != v.end(); ++it)\n"
              "    ++n;\n"
              "  auto k = m.find(1);\n"
              "  s += 'c';\n"
              "  int second = *(v.begin() + 1);\n"
              "  std::string part = s.substr(1, 2);\n"
              "  std::string_view view = s;\n"
              "  bool none = std::empty(v);\n"
              "  return sum + n + first + total + int(at) + int(low - v.begin()) +\n"
              "         k->second + second + int(part.size() + view.size()) + none;\n"
              "}\n",
              {"-std=c++17"});
  auto Has = [&Text](const std::string &Pattern) {
    return std::regex_search(Text, std::regex(Pattern));
  };
  EXPECT_TRUE(Has(R"(std::accumulate\(sleuth::rdc_all\([^;]*, v\)\.begin\(\), )"
                  R"(sleuth::rdc\([^;]*, v\)\.end\(\))"))
      << Text;
  EXPECT_TRUE(Has(R"(<< sleuth::rdc_all\([^;]*, s\)\))")) << Text;
  EXPECT_TRUE(Has(R"(std::vector<int> w = sleuth::rdc_all\([^;]*, v\);)")) << Text;
  EXPECT_TRUE(Has(R"(sleuth::rdc_all\([^;]*, s\)\.find\()")) << Text;
  EXPECT_TRUE(Has(R"(static_cast<int>\(sleuth::rdc\([^;]*, v\)\.size\(\)\))")) << Text;
  EXPECT_TRUE(Has(R"(int first = [^;]*sleuth::rdc\([^;]*, v\)\[0\])")) << Text;
  EXPECT_TRUE(Has(R"(std::lower_bound\(sleuth::rdc\([^;]*, v\)\.begin\(\))")) << Text;
  EXPECT_TRUE(Has(R"(std::accumulate\(std::begin\(sleuth::rdc_all\([^;]*, w\)\))")) << Text;
  EXPECT_TRUE(Has(R"(auto it = sleuth::rd(_hot)?\(v\)\.begin\(\))")) << Text;
  EXPECT_TRUE(Has(R"(auto k = sleuth::rdc\([^;]*, m\)\.find\(1\))")) << Text;
  // Reads of a few elements: one step of a loop over them must not read them all.
  // `s += 'c'` may move the characters (sleuth::watch_all before, wrote_moved after).
  EXPECT_TRUE(Has(R"(sleuth::wrote_moved\([^;]*\(sleuth::watch_all\(s\), sleuth::rdc\([^;]*, s\) )"
                  R"(\+= 'c'\)\))"))
      << Text;
  EXPECT_TRUE(Has(R"(int second = [^;]*\*\(sleuth::rdc\([^;]*, v\)\.begin\(\) \+ 1\))")) << Text;
  EXPECT_TRUE(Has(R"(std::string part = sleuth::rdc\([^;]*, s\)\.substr\(1, 2\))")) << Text;
  EXPECT_TRUE(Has(R"(std::string_view view = sleuth::rdc\([^;]*, s\);)")) << Text;
  EXPECT_TRUE(Has(R"(bool none = std::empty\(sleuth::rdc\([^;]*, v\)\);)")) << Text;
  EXPECT_EQ(Text.find("rd_all(m"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("rdc_all(&__sleuth_tu, &__sleuth_rc[0], 0u, m"), std::string::npos) << Text;
}

TEST_F(RewriteTest, InsertsAndErasesRememberTheirPosition) {
  // An insert or erase shifts the elements after its position: the position is taken before
  // the call (an iterator's from begin(), or an index) and the origins shifted after it; a
  // position with side effects is not evaluated twice, and the call is a plain write.
  std::string Text = rewrite("shift.cpp", "#include <string>\n"
                                          "#include <vector>\n"
                                          "int next();\n"
                                          "void f(std::vector<int> &v, std::string &s, int i) {\n"
                                          "  v.erase(v.begin() + i);\n"
                                          "  for (auto it = v.begin(); it != v.end();)\n"
                                          "    it = v.erase(it);\n"
                                          "  s.erase(0, 1);\n"
                                          "  s.insert(s.begin(), 'x');\n"
                                          "  v.erase(v.begin() + next());\n"
                                          "}\n");
  auto Has = [&Text](const std::string &Pattern) {
    return std::regex_search(Text, std::regex(Pattern));
  };
  EXPECT_TRUE(Has(R"(\(sleuth::watch_at\(v, v\.begin\(\) \+ i\), \(void\)\(v\.erase\([^;]*\)\), )"
                  R"(sleuth_set\([^;]*\), sleuth::shifted_all\(&__sleuth_tu, \d+u, v\)\);)"))
      << Text;
  EXPECT_TRUE(Has(R"(it = sleuth::written_shifted\(\(sleuth::watch_at\(v, it\), v\.erase\()"))
      << Text;
  EXPECT_TRUE(Has(R"(\(sleuth::watch_index\(s, 0\), \(void\)\(s\.erase\(0, 1\)\))")) << Text;
  EXPECT_TRUE(Has(R"(\(sleuth::watch_at\(s, s\.begin\(\)\), )")) << Text;
  EXPECT_EQ(Text.find("watch_at(v, v.begin() + next())"), std::string::npos) << Text;
}

TEST_F(RewriteTest, LibraryCallsThatStoreIntoContainersWriteThem) {
  // A discarded non-const member call writes its object also when the full expression makes
  // temporaries (`v.push_back(a + 1)`, whose ExprWithCleanups hid that it was discarded); a
  // mutating algorithm writes the object its last iterator argument designates, discarded or
  // not; a non-mutating one (std::count) writes nothing.
  std::string Text = rewrite("containers.cpp",
                             "#include <algorithm>\n"
                             "#include <iterator>\n"
                             "#include <vector>\n"
                             "int f(int a, const std::vector<int> &in) {\n"
                             "  std::vector<int> v;\n"
                             "  v.push_back(a + 1);\n"
                             "  std::sort(v.begin(), v.end());\n"
                             "  std::vector<int> out;\n"
                             "  std::copy(in.begin(), in.end(), std::back_inserter(out));\n"
                             "  auto last = std::unique(v.begin(), v.end());\n"
                             "  int arr[3];\n"
                             "  std::fill(arr, arr + 3, a);\n"
                             "  return static_cast<int>(std::count(v.begin(), last, a)) + arr[0] + "
                             "out[0];\n"
                             "}\n");
  // push_back may move the elements: watched before, carried over after (sleuth::moved_all).
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("\\(sleuth::watch_all\\(v\\), v\\.push_back\\([^;]*\\), "
                       "sleuth::moved_all\\(v\\), sleuth_set(?:_nopending)?\\(&__sleuth_tu, \\d+u, "
                       "[^,]+, __builtin_addressof\\(v\\), sizeof\\(v\\)\\)\\)")))
      << Text;
  // A vector's elements are written too (sleuth::wrote_all): the library moved them unseen.
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("\\(\\(std::sort\\([^;]*\\)\\), sleuth::wrote_all\\(&__sleuth_tu, \\d+u, "
                       "[^,]+, v\\)\\)")))
      << Text;
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("std::back_inserter\\(out\\)\\)\\), sleuth::wrote_all\\([^;]*, out\\)\\)")))
      << Text;
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("auto last = sleuth::written_all\\(std::unique\\([^;]*\\), "
                       "&__sleuth_tu, \\d+u, [^,]+, v\\);")))
      << Text;
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("std::fill\\([^;]*\\)\\), sleuth_set\\([^;]*address_of\\(arr\\), "
                       "sizeof\\(arr\\)\\)\\)")))
      << Text;
  EXPECT_EQ(Text.find("written_value(std::count"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("\"<sort()>\""), std::string::npos) << "no effect node as well\n" << Text;
}

TEST_F(RewriteTest, LambdasReadWhatTheyCaptureByCopy) {
  // The closure copies `offset` and `p` when it is created: they are read by a node of the
  // closure's own (sleuth::made), which what takes the closure reads (the declaration of
  // `shift`); a capture by reference is not read. In the body, which cannot change its copies,
  // `offset` has that node for its origin whatever copy of the closure runs.
  // (A captured local stays in the shadow memory: the closure may outlive its companion.)
  std::string Text =
      rewrite("captures.cpp", "struct P { int a; };\n"
                              "int f(int offset, P p, int &total) {\n"
                              "  auto shift = [offset, p, &total](int v) {\n"
                              "    total += v;\n"
                              "    return v + offset + p.a;\n"
                              "  };\n"
                              "  auto count = [offset]() mutable { offset += 1; return offset; };\n"
                              "  return shift(1) + count();\n"
                              "}\n");
  // A mutable lambda's copies are its own variables: read through the shadow memory.
  EXPECT_TRUE(
      std::regex_search(Text, std::regex("return sleuth::rdc\\(&__sleuth_tu, [^;]*, offset\\);")))
      << Text;
  std::smatch Closure;
  ASSERT_TRUE(std::regex_search(
      Text, Closure,
      std::regex(
          "auto shift = sleuth::made\\(&__sleuth_tu, (\\d+)u, [^,]+, \\(\\(void\\)sleuth::rdc\\("
          "&__sleuth_tu, [^,]+, \\1u, offset\\), \\(void\\)sleuth::rdc\\(&__sleuth_tu, [^,]+, "
          "\\1u, p\\), \\[offset, p, &total\\]")))
      << Text;
  EXPECT_NE(Text.find("(__sleuth_tu.base + " + Closure[1].str() + "u)), offset)"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("\"[offset, p]\"}"), std::string::npos) << "the closure's site\n" << Text;
  EXPECT_EQ(Text.find("rdc(total)"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("address_of(total)"), std::string::npos) << Text;
}

TEST_F(RewriteTest, UsedValuesOfMutatingLibraryMembersWriteTheirObject) {
  // `seen.insert(k).second` and `s.append(a)` inside a chain change their object; `v.back()`
  // and `v.begin()`, non-const overloads that change nothing, read it.
  std::string Text = rewrite("members.cpp", "#include <set>\n"
                                            "#include <string>\n"
                                            "#include <vector>\n"
                                            "int f(int k, std::vector<int> &v) {\n"
                                            "  std::set<int> seen;\n"
                                            "  std::string s;\n"
                                            "  s.append(\"a\").append(\"b\");\n"
                                            "  int n = 0;\n"
                                            "  if (seen.insert(k).second)\n"
                                            "    n = v.back() + *v.begin();\n"
                                            "  return n + static_cast<int>(s.size());\n"
                                            "}\n");
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("sleuth::written_value\\(seen\\.insert\\([^;]*\\), &__sleuth_tu, \\d+u, "
                       "[^,]+, seen\\)\\.second")))
      << Text;
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("sleuth::written_value\\(s\\.append\\(\"a\"\\), &__sleuth_tu, \\d+u, [^,]+, "
                       "s\\)\\)\\.append\\(\"b\"\\)")))
      << Text;
  EXPECT_EQ(Text.find("written_value(v."), std::string::npos) << Text;
  EXPECT_TRUE(std::regex_search(Text, std::regex(checked("sleuth::rdc") + "v\\)\\.back\\(\\)")))
      << Text;
}

TEST_F(RewriteTest, QsortWritesTheWholeArray) {
  // The library permutes the array: after the call it is a compound write of its elements
  // (an array or a pointer with the count and size it was given), when the arguments may be
  // evaluated again; not `qsort(next(), ...)`.
  std::string Text = rewrite("sort.c", "#include <stdlib.h>\n"
                                       "int cmp(const void *a, const void *b);\n"
                                       "int *next(void);\n"
                                       "int f(int *p, int n) {\n"
                                       "  int a[4] = {4, 3, 2, 1};\n"
                                       "  qsort(a, 4, sizeof a[0], cmp);\n"
                                       "  qsort(p, n, sizeof *p, cmp);\n"
                                       "  qsort(next(), 2, sizeof(int), cmp);\n"
                                       "  return a[0] + p[0];\n"
                                       "}\n");
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("\\(\\(qsort\\(a, 4, sizeof a\\[0\\], cmp\\)\\), "
                       "sleuth_set(?:_nopending)?\\(&__sleuth_tu, "
                       "\\d+u, [^,]+, a, \\(unsigned long\\)\\(4\\) \\* \\(unsigned "
                       "long\\)\\(sizeof a\\[0\\]\\)\\)\\)")))
      << Text;
  EXPECT_TRUE(
      std::regex_search(Text, std::regex("sleuth_set\\([^;]*, p, \\(unsigned long\\)\\(n\\) "
                                         "\\* \\(unsigned long\\)\\(sizeof \\*p\\)\\)")))
      << Text;
  EXPECT_EQ(Text.find("(unsigned long)(2)"), std::string::npos) << Text;
  EXPECT_NE(Text.find("\"a\"}"), std::string::npos) << "a write named after the array\n" << Text;
}

TEST_F(RewriteTest, SwapCrossesOriginsAndExchangeReadsWhatItReplaces) {
  // std::swap(a, b): each object a write of the other's old value (sleuth_swapped, two sites);
  // `int old = std::exchange(x, 1)`: x a compound write whose node the value reads; the
  // functions that take an object only to refer to it (std::begin) write nothing.
  std::string Text = rewrite("swap.cpp", "#include <iterator>\n"
                                         "#include <utility>\n"
                                         "int f(int a, int b, int (&arr)[2]) {\n"
                                         "  std::swap(a, b);\n"
                                         "  int old = std::exchange(a, 1);\n"
                                         "  int *first = std::begin(arr);\n"
                                         "  return old + b + *first;\n"
                                         "}\n");
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("\\(\\(std::swap\\(a, b\\)\\), sleuth_swapped\\(&__sleuth_tu, (\\d+)u, "
                       "\\d+u, [^,]+, sleuth::address_of\\(a\\), sleuth::address_of\\(b\\), "
                       "sizeof\\(a\\)\\)\\)")))
      << Text;
  std::smatch Exchange;
  ASSERT_TRUE(std::regex_search(
      Text, Exchange,
      std::regex("int old = sleuth::written_value\\(std::exchange\\(a, 1\\), &__sleuth_tu, "
                 "(\\d+)u, [^,]+, a\\);")))
      << Text;
  EXPECT_NE(Text.find("{0, 1, 5, 27, 0, 0, 0, \"a\"}"), std::string::npos) << "a compound write\n"
                                                                           << Text;
  EXPECT_EQ(Text.find("written_value(std::begin"), std::string::npos) << Text;
}

TEST_F(RewriteTest, AMemberSwapCrossesOriginsAsStdSwapDoes) {
  // v.swap(w) as std::swap(v, w): two writes, each of the other's old value; not through a
  // pointer (whose object's text is not the object).
  std::string Text =
      rewrite("member_swap.cpp", "#include <vector>\n"
                                 "void f(std::vector<int> &v, std::vector<int> *p) {\n"
                                 "  std::vector<int> w(2);\n"
                                 "  v.swap(w);\n"
                                 "  p->swap(w);\n"
                                 "}\n");
  EXPECT_TRUE(std::regex_search(
      Text,
      std::regex("\\(\\(v\\.swap\\(w\\)\\), sleuth_swapped\\(&__sleuth_tu, \\d+u, \\d+u, [^,]+, "
                 "sleuth::address_of\\(v\\), sleuth::address_of\\(w\\), sizeof\\(v\\)\\)\\)")))
      << Text;
  EXPECT_EQ(Text.find("sleuth::address_of(p)"), std::string::npos) << Text;
}

TEST_F(RewriteTest, LibraryCallsReadTheStringsTheyRead) {
  // printf's plain `%s` arguments (after a `*` width's argument; not `%.*s`, whose buffer may
  // have no terminator, nor `%p`), puts and strcmp's strings are read to their '\0' before
  // the call; a literal is not; fwrite's buffer is no string.
  std::string Text = rewrite("strings.c", "#include <stdio.h>\n"
                                          "#include <string.h>\n"
                                          "int f(char *name, const char *tag, char *raw, int n) {\n"
                                          "  printf(\"%*d %s %.*s %p %%s %s\\n\", n, n, name, n, "
                                          "raw, (void *)raw, \"lit\");\n"
                                          "  puts(tag);\n"
                                          "  fwrite(raw, 1, 3, stdout);\n"
                                          "  return strcmp(name, tag);\n"
                                          "}\n");
  EXPECT_NE(Text.find("(sleuth_get_string(name), printf("), std::string::npos) << Text;
  EXPECT_EQ(Text.find("sleuth_get_string(raw)"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("sleuth_get_string(\"lit\")"), std::string::npos) << Text;
  EXPECT_NE(Text.find("(sleuth_get_string(tag), puts("), std::string::npos) << Text;
  EXPECT_NE(Text.find("(sleuth_get_string(name), sleuth_get_string(tag), strcmp("),
            std::string::npos)
      << Text;
}

TEST_F(RewriteTest, StrftimeWritesTheBytesItFormats) {
  // The call is wrapped: a write named after the buffer, whose node the arguments' reads (the
  // year's) flow into; not where the buffer's text has side effects.
  std::string Text =
      rewrite("stamp.c", "#include <time.h>\n"
                         "unsigned long f(struct tm *t, char *p) {\n"
                         "  char buf[32];\n"
                         "  unsigned long n = strftime(buf, sizeof buf, \"%Y\", t);\n"
                         "  n += strftime(p++, 8, \"%d\", t);\n"
                         "  return n + (unsigned long)buf[0];\n"
                         "}\n");
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("sleuth_time_formatted\\(&__sleuth_tu, \\d+u, [^,]+, buf, strftime\\(buf, "
                       "sizeof buf, \"%Y\", [^;]*t\\)\\)\\)")))
      << Text;
  EXPECT_NE(Text.find("\"*buf\"}"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("p++, strftime"), std::string::npos) << Text;
}

TEST_F(RewriteTest, FortifiedPrintfReadsOnlyStringsTheFileSpells) {
  // With _FORTIFY_SOURCE glibc's printf is a macro (as Clang parses it): its `%s` arguments
  // spelled in the invocation are read; one that a macro of the program's made (luac's
  // `S(x)`, whose `SS(x)` is `x` in the macro's body) is not: its text would name `x`.
  std::string Text = rewrite("fortified.c",
                             "#include <stdio.h>\n"
                             "#define SS(x) ((x == 1) ? \"\" : \"s\")\n"
                             "#define S(x) (int)(x), SS(x)\n"
                             "void f(int n, const char *w) {\n"
                             "  printf(\"%d thing%s %s\\n\", S(n), w);\n"
                             "}\n",
                             {"-O2", "-D_FORTIFY_SOURCE=2"});
  EXPECT_NE(Text.find("(sleuth_get_string(w), printf(\"%d thing%s %s\\n\", S(n), w))"),
            std::string::npos)
      << Text;
  EXPECT_EQ(Text.find("sleuth_get_string(x"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("sleuth_get_string(((x"), std::string::npos) << Text;
}
