// Sources that GCC compiles with warnings and Clang 19 rejects by default (old C's implicit
// int and `return;` in a non-void function, C++'s `register`): the parse accepts them as the
// real compiler does, the user's warning options decide as they do for it, and a return
// statement records a return value only where the function has one.
#include "RewriteFixture.h"

#include <regex>

using namespace sleuth;

namespace {

using OldCodeTest = RewriteFixture;

bool hasSite(const std::string &Text, const std::string &Name) {
  return Text.find("\"" + Name + "\"") != std::string::npos;
}

TEST_F(OldCodeTest, AReturnWithoutValueInAFunctionOfImplicitIntRecordsNoValue) {
  InstrumentResult R = instrumentSource("kr.c", "f() { return; }\n"
                                                "g(a) int a; { return a + 1; }\n"
                                                "int main(void) { f(); return g(1) - 2; }\n");
  ASSERT_TRUE(R.Ok) << R.Error;
  EXPECT_EQ(R.Functions, 3u);
  EXPECT_FALSE(hasSite(R.Text, "<f() return value>")) << R.Text;
  EXPECT_TRUE(hasSite(R.Text, "<g() return value>")) << R.Text;
  EXPECT_TRUE(hasSite(R.Text, "<main() return value>")) << R.Text;
}

TEST_F(OldCodeTest, AValueReturnedFromAVoidFunctionIsNoReturnValue) {
  // GCC evaluates the value and drops it; a temporary of the function's type would be void.
  InstrumentResult R = instrumentSource("void_return.c", "int count;\n"
                                                         "void bump(int d) {\n"
                                                         "  count += d;\n"
                                                         "  return count;\n"
                                                         "}\n");
  ASSERT_TRUE(R.Ok) << R.Error;
  EXPECT_EQ(R.Functions, 1u);
  EXPECT_FALSE(hasSite(R.Text, "<bump() return value>")) << R.Text;
  EXPECT_EQ(R.Text.find("__typeof__(void)"), std::string::npos) << R.Text;
  // Evaluated in the frame, its reads dropped there, not left pending for the caller.
  EXPECT_TRUE(std::regex_search(
      R.Text, std::regex("\\{ \\(void\\)\\([^;]*count[^;]*; sleuth_discard\\(\\); "
                         "sleuth_leave\\(__builtin_frame_address\\(0\\)\\); return; \\}")))
      << R.Text;
}

TEST_F(OldCodeTest, OldCThatGccOnlyWarnsOfIsParsed) {
  InstrumentResult R = instrumentSource("old.c", "#include <stdio.h>\n"
                                                 "scale(x, k) int x; { return x * k; }\n"
                                                 "int main(void) {\n"
                                                 "  int *p = 1;\n"
                                                 "  char *c = p;\n"
                                                 "  report(scale(2, 3));\n"
                                                 "  return c == 0;\n"
                                                 "}\n"
                                                 "report(n) { printf(\"%d\\n\", n); }\n");
  ASSERT_TRUE(R.Ok) << R.Error;
  EXPECT_EQ(R.Functions, 3u);
}

TEST_F(OldCodeTest, CxxThatGccOnlyWarnsOfIsParsed) {
  InstrumentResult R = instrumentSource("old.cpp",
                                        "#include <cinttypes>\n"
                                        "#include <cstdio>\n"
                                        "#include <string>\n"
                                        "static int ignore(int n, ...) { return n; }\n"
                                        "int main() {\n"
                                        "  register std::int64_t t = 55;\n"
                                        "  std::printf(\"%\"PRId64\"\\n\", t);\n"
                                        "  return ignore(0, std::string(\"x\"));\n"
                                        "}\n",
                                        {"-std=c++17"});
  ASSERT_TRUE(R.Ok) << R.Error;
  EXPECT_EQ(R.Functions, 2u);
}

TEST_F(OldCodeTest, TheUsersWarningOptionsDecideAsForTheRealCompiler) {
  const std::string OldC = "f() { return; }\n";
  EXPECT_TRUE(instrumentSource("a.c", OldC, {"-Wall"}).Ok);
  InstrumentResult Rejected = instrumentSource("b.c", OldC, {"-Werror=return-type"});
  EXPECT_FALSE(Rejected.Ok);
  EXPECT_NE(Rejected.Error.find("should return a value"), std::string::npos) << Rejected.Error;

  // Clang (not GCC) accepts a constexpr function that never yields a constant when told to.
  const std::string NeverConstant = "int next();\n"
                                    "constexpr int twice() { return 2 * next(); }\n";
  EXPECT_FALSE(instrumentSource("c.cpp", NeverConstant, {"-std=c++20"}).Ok);
  InstrumentResult Accepted =
      instrumentSource("d.cpp", NeverConstant, {"-std=c++20", "-Wno-invalid-constexpr"});
  EXPECT_TRUE(Accepted.Ok) << Accepted.Error;
}

} // namespace
