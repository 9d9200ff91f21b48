// Frames and returns: functions with a return spelled inside a macro leave their frame by a
// cleanup and name their return node, and the functions left as they were, counted by reason.
#include "RewriteTest.h"

#include <fstream>
#include <regex>

using namespace sleuth;

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
                     "cleanup\\(sleuth_leave_at_exit\\)\\)\\) = \\{0, 0, 0, 0, 0\\}; "
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
  // CHECK's statement names its return node while it runs, and the test node after it, which
  // controls the return if the macro returns; REQUIRE returns no value.
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("__sleuth_frame.site = [0-9]+u \\+ 1u; __sleuth_frame.ctl = [^;]*; "
                       "__sleuth_frame.test = ([0-9]+)u \\+ 1u; CHECK\\(.*\\); \\} "
                       "__sleuth_frame.site = 0; (\\(void\\)\\(|if \\()"
                       "sleuth_test\\(&__sleuth_tu, \\1u, [^;]*, 1\\)")))
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
                                         "__sleuth_frame.ctl = [^;]*; "
                                         "__sleuth_frame.test = [0-9]+u \\+ 1u; NEXT\\(a\\); \\} "
                                         "__sleuth_frame.site = 0; (\\(void\\)\\(|if \\()"
                                         "sleuth_test\\(&__sleuth_tu, [0-9]+u, [^;]*, 1\\)")))
      << Text;
  EXPECT_NE(Text.find("\n    TAKE(b);\n"), std::string::npos) << Text;
}

// A statement that names a return node and holds another such statement (a loop without braces
// around a block with a REQUIRE, whose other branch returns through TRY): after the inner one
// the frame names the loop's node again, for the branch's return in a later iteration; after
// the outer one, none. In C++ the same through the frame's `hidden`. Each such statement gets
// braces of its own, so that what follows the loop's last line is no statement that Clang's
// -Wmisleading-indentation takes for a second one of the loop.
TEST_F(RewriteTest, AfterAnInnerStatementThatMayReturnTheFrameNamesTheOuterNodeAgain) {
  const std::string Source =
      "#define REQUIRE(c, e) if (!(c)) return (e)\n"
      "#define TRY(x) __extension__ ({ int v_ = (x); if (v_ < 0) return v_; v_; })\n"
      "int f(int k, int a, int b) {\n"
      "  while (k--)\n"
      "    if (k % 2) {\n"
      "      REQUIRE(a > k, -1);\n"
      "    } else\n"
      "      b = TRY(b - k);\n"
      "  return 0;\n"
      "}\n";
  std::string C = rewrite("nested.c", Source);
  std::smatch Outer;
  ASSERT_TRUE(std::regex_search(C, Outer,
                                std::regex("\\{ __sleuth_frame.site = ([0-9]+)u \\+ 1u; "
                                           "__sleuth_frame.ctl = ([^;]*); "
                                           "__sleuth_frame.test = ([0-9]+)u \\+ 1u; while")))
      << C;
  std::string Again = "__sleuth_frame.site = " + Outer[1].str() +
                      "u \\+ 1u; __sleuth_frame.ctl = " + Outer[2].str() +
                      "; __sleuth_frame.test = " + Outer[3].str() + "u \\+ 1u;";
  EXPECT_TRUE(std::regex_search(C, std::regex("a > k\\), -1\\); \\} " + Again))) << C;
  EXPECT_TRUE(std::regex_search(C, std::regex("sleuth_def\\([^;]*\\)\\)\\); \\} "
                                              "__sleuth_frame.site = 0;")))
      << C;
  std::string Cxx = rewrite("nested.cpp", Source);
  ASSERT_TRUE(std::regex_search(
      Cxx, Outer,
      std::regex("__sleuth_frame0.hidden\\(([0-9]+)u \\+ 1u, ([^,]*), ([^)]*)\\); while")))
      << Cxx;
  EXPECT_TRUE(std::regex_search(
      Cxx, std::regex("a > k\\), -1\\); \\} __sleuth_frame0.hidden\\(" + Outer[1].str() +
                      "u \\+ 1u, " + Outer[2].str() + ", " +
                      std::regex_replace(Outer[3].str(), std::regex("\\+"), "\\+") + "\\);")))
      << Cxx;
}

// A macro's invocation that is a branch written without braces (`else REQUIRE(b > k, -2);`)
// names a return node of its own, under its own test: the braces put around it hold what
// follows it too (the frame's reset and the test's probe), so that it stays the branch.
TEST_F(RewriteTest, AMacroThatIsABranchWithoutBracesNamesItsOwnNode) {
  std::string C = rewrite("branch.c", "#define REQUIRE(c, e) if (!(c)) return (e)\n"
                                      "int f(int k, int b) {\n"
                                      "  if (k % 2)\n"
                                      "    k = 1;\n"
                                      "  else\n"
                                      "    REQUIRE(b > k, -2);\n"
                                      "  return k;\n"
                                      "}\n");
  EXPECT_TRUE(std::regex_search(
      C, std::regex("else\\n    \\{ __sleuth_frame.site = [0-9]+u \\+ 1u; __sleuth_frame.ctl = "
                    "[^;]*; __sleuth_frame.test = ([0-9]+)u \\+ 1u; REQUIRE\\(.*, -2\\); "
                    "__sleuth_frame.site = 0; (\\(void\\)\\(|if \\()sleuth_test\\(&__sleuth_tu, "
                    "\\1u, [^;]*, 1\\)[^\\n]*\\}\\n  \\{ __extension__")))
      << C;
}

// A value of a macro that may return from inside (TRY, a GNU statement expression) is tested as
// soon as it is known: the invocation becomes a statement expression that keeps the value and
// makes the macro's test node (sleuth_test_keep, which leaves the value's reads to the
// assignment), and the frame names that test for a return through the macro. The call in the
// macro's argument has its call probe, so that the callee gets its control.
TEST_F(RewriteTest, AMacroValueThatMayReturnIsTestedOnceItIsKnown) {
  const std::string Source =
      "#define TRY(e) __extension__ ({ int r_ = (e); if (r_ < 0) return r_; r_; })\n"
      "static int digit(int c) { return c - 48; }\n"
      "int pair(int a) {\n"
      "  int sum;\n"
      "  sum = TRY(digit(a));\n"
      "  return sum * 2;\n"
      "}\n";
  std::string C = rewrite("try.c", Source);
  std::smatch Test;
  ASSERT_TRUE(std::regex_search(
      C, Test,
      std::regex("__sleuth_frame.test = ([0-9]+)u \\+ 1u; \\(\\(void\\)\\(sum = __extension__ "
                 "\\(\\{ __auto_type __sleuth_mv([0-9]+) = TRY\\(.*sleuth_call.*digit\\(a\\)\\)+; "
                 "(\\(void\\)\\(|if \\()sleuth_test_keep\\(&__sleuth_tu, ([0-9]+)u, [^;]*, 1\\)")))
      << C;
  EXPECT_EQ(Test[1], Test[2]);
  EXPECT_EQ(Test[1], Test[4]);
  std::string Cxx = rewrite("try.cpp", Source);
  ASSERT_TRUE(std::regex_search(
      Cxx, Test,
      std::regex("hidden\\([0-9]+u \\+ 1u, [^,]*, ([0-9]+)u \\+ 1u\\); .*sum = __extension__ "
                 "\\(\\{ auto __sleuth_mv([0-9]+) = TRY\\(.*sleuth_call.*digit\\(a\\)")))
      << Cxx;
  EXPECT_EQ(Test[1], Test[2]);
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

// `return x;` of a class-type object is recorded before the statement, by the object's name: a
// local's own, anything else's as written, which its unqualified name may not reach
// (`return ::std::cerr;` in a function of a namespace that has its own `cerr`, or none).
TEST_F(RewriteTest, AReturnedObjectIsNamedAsWrittenUnlessItIsALocal) {
  std::string Text = rewrite("r.cpp",
                             "#include <iostream>\n"
                             "struct Log {\n"
                             "  std::ostream &stream() { return ::std::cerr; }\n"
                             "};\n"
                             "std::string copy(std::string s) { return s; }\n",
                             {"-std=c++20"});
  EXPECT_NE(lineWith(Text, "stream()")
                .find("__builtin_addressof(::std::cerr), "
                      "sizeof(::std::cerr));"),
            std::string::npos)
      << Text;
  EXPECT_NE(lineWith(Text, "copy(").find("__builtin_addressof(s), sizeof(s));"), std::string::npos)
      << Text;
}
