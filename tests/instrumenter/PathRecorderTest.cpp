// Coverage mode's path recording (instrumenter/src/coverage/PathRecorder.cpp): the site table
// that describes each recorded statement in the trace IR's text form (docs/path-format.md), and
// what the IR leaves to the recorded value.
#include "RewriteFixture.h"

#include <gtest/gtest.h>

#include <regex>

namespace sleuth {
namespace {

class PathRecorderTest : public RewriteFixture {
protected:
  std::string recorded(const std::string &Name, const std::string &Source) {
    return rewrite(Name, Source, {Name.ends_with(".c") ? "-std=c99" : "-std=c++20"},
                   [](InstrumentRequest &R) {
                     R.Mode = InstrumentMode::Coverage;
                     R.RecordPath = true;
                   });
  }

  /// The table's lines, from the pieces of `__sleuth_path_text[]`.
  static std::vector<std::string> table(const std::string &Text) {
    std::smatch Table;
    EXPECT_TRUE(
        std::regex_search(Text, Table, std::regex("__sleuth_path_text\\[\\] = \\{([^}]*)\\}")));
    std::string Joined, Body = Table[1].str();
    std::regex Literal("\"((?:[^\"\\\\]|\\\\.)*)\"");
    for (auto It = std::sregex_iterator(Body.begin(), Body.end(), Literal);
         It != std::sregex_iterator(); ++It)
      Joined += std::regex_replace((*It)[1].str(), std::regex("\\\\(n|012)"), "\n");
    std::vector<std::string> Lines;
    std::size_t From = 0;
    for (std::size_t To; (To = Joined.find('\n', From)) != std::string::npos; From = To + 1)
      Lines.push_back(Joined.substr(From, To - From));
    return Lines;
  }
};

using Lines = std::vector<std::string>;

TEST_F(PathRecorderTest, StatementsAreDescribedInTheIr) {
  std::string Text = recorded("fill.c", "#include <stdio.h>\n"
                                        "#include <stdlib.h>\n"
                                        "static int twice(int x) { return x + x; }\n"
                                        "int main(int argc, char **argv) {\n"
                                        "  int a[4], n = 0;\n"
                                        "  while (n < argc - 1 && n < 4)\n"
                                        "    a[n++] = atoi(argv[n + 1]);\n"
                                        "  n += twice(a[0]);\n"
                                        "  printf(\"%d\\n\", n);\n"
                                        "  return 0;\n"
                                        "}\n");
  EXPECT_EQ(
      table(Text),
      (Lines{"var 0 0 x scalar i32", "site 2 0 3 22 param 0", "func 0 twice 0",
             "site 3 0 3 27 return (cast i32 (b + (v 0) (v 0)))", "var 4 0 argc scalar i32",
             "site 6 4 4 14 param 0", "func 4 main 0 -", "var 4 2 n scalar i32",
             "site 8 4 5 13 assign (v 2) (cast i32 (c i32 0))",
             "site 9 4 6 10 cond (b && (b < (v 2) (b - (v 0) (c i32 1))) (b < (v 2) (c i32 4)))",
             // Variables are declared on first use: the array has no initializer.
             "var 4 3 a array i32 4",
             // atoi is a library call, argv a char ** the IR has no type for.
             "site 10 4 7 5 assign (e 3 (v 2)) (cast i32 (call atoi (deref (b + (x) (b + "
             "(v 2) (c i32 1))))))",
             "site 11 4 7 5 assign (v 2) (cast i32 (b + (v 2) (c i32 1)))",
             "site 12 4 8 3 assign (v 2) (cast i32 (b + (v 2) (call twice (e 3 (c i32 0)))))",
             "site 13 4 9 3 print %25d%0A 1", "site 14 4 9 18 arg 0 (cast i32 (v 2))",
             "site 15 4 10 3 return (cast i32 (c i32 0))"}));
  // Each function reports its entry, its exit (a cleanup) and its parameters.
  EXPECT_NE(Text.find("__attribute__((unused, cleanup(sleuth_path_leave))) unsigned "
                      "__sleuth_path_frame = sleuth_path_enter(&__sleuth_path_unit, 0u);"),
            std::string::npos);
  EXPECT_NE(Text.find("#include \"sleuth/path.h\""), std::string::npos);
}

TEST_F(PathRecorderTest, GlobalsStructsAndFloatsAreLeftToTheRecordedValue) {
  std::string Text = recorded("g.c", "int g;\n"
                                     "struct P { int x; };\n"
                                     "int f(struct P p, double d) {\n"
                                     "  int y = g + p.x;\n"
                                     "  int z = (int)d;\n"
                                     "  return y + z;\n"
                                     "}\n");
  Lines T = table(Text);
  // Neither parameter has a variable (ids go to every local asked about, held or not).
  EXPECT_NE(std::find(T.begin(), T.end(), "func 0 f - -"), T.end());
  EXPECT_NE(std::find(T.begin(), T.end(), "site 4 0 4 7 assign (v 2) (cast i32 (b + (x) (x)))"),
            T.end());
  EXPECT_NE(std::find(T.begin(), T.end(), "site 5 0 5 7 assign (v 4) (cast i32 (x))"), T.end());
}

TEST_F(PathRecorderTest, StatementsWithTemporariesAreRecorded) {
  std::string Text = recorded("t.cpp", "#include <cstdio>\n"
                                       "#include <string>\n"
                                       "int main() {\n"
                                       "  std::string s = \"a\";\n"
                                       "  std::printf(\"%s %d\\n\", s.c_str(), 3);\n"
                                       "}\n");
  Lines T = table(Text);
  EXPECT_NE(std::find(T.begin(), T.end(), "site 2 0 5 3 print %25s%20%25d%0A 2"), T.end());
  EXPECT_NE(std::find(T.begin(), T.end(), "site 4 0 5 37 arg 1 (cast i32 (c i32 3))"), T.end());
}

TEST_F(PathRecorderTest, WithoutTheOptionNothingIsRecorded) {
  std::string Text = rewrite("n.c", "int f(int x) { return x; }\n", {"-std=c99"},
                             [](InstrumentRequest &R) { R.Mode = InstrumentMode::Coverage; });
  EXPECT_EQ(Text.find("sleuth_path"), std::string::npos);
}

} // namespace
} // namespace sleuth
