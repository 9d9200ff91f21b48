// Destructors that C++ runs implicitly take the control of the scope they end (ScopeProbe,
// sleuth/runtime/scopes.h): a local whose destruction runs the program's code gets a
// sleuth::Scope right before it, under the declaration's control, and the statement after an
// `if` of the block whose branch throws names that test's control; a destructor of the program's
// enters through sleuth::DestructorEntry. Locals whose destruction runs only the library's code
// get none.
#include "RewriteFixture.h"

#include <regex>

using namespace sleuth;

namespace {

class ScopeDestructorTest : public RewriteFixture {
protected:
  std::string rewritten(const std::string &Body) {
    return rewrite("scopes.cpp",
                   "#include <memory>\n"
                   "#include <string>\n"
                   "#include <vector>\n"
                   "struct Guard {\n"
                   "  int *count;\n"
                   "  ~Guard() { ++*count; }\n"
                   "};\n"
                   "struct Holder {\n"
                   "  Guard inner;\n"
                   "};\n"
                   "int released;\n"
                   "int f(int n) {\n" +
                       Body + "\n}\n",
                   {"-std=c++20"});
  }
};

TEST_F(ScopeDestructorTest, ALocalWithAProgramDestructorGetsAScope) {
  std::string Text = rewritten("  int s = 0;\n"
                               "  for (int i = 0; i < n; ++i) {\n"
                               "    Guard g{&released};\n"
                               "    if (i > 3)\n"
                               "      continue;\n"
                               "    s += i;\n"
                               "  }\n"
                               "  return s;");
  std::string Line = lineWith(Text, "Guard g{", "sleuth::Scope");
  std::smatch M;
  ASSERT_TRUE(std::regex_search(
      Line, M, std::regex("sleuth::Scope (__sleuth_s[0-9_]+)\\([^;]+\\); Guard g\\{")))
      << Line;
  // The body's cleanup runs on `continue` as at its end: under the declaration's control.
  EXPECT_EQ(Text.find(M[1].str() + ".end("), std::string::npos) << Text;
}

TEST_F(ScopeDestructorTest, AnIfWhoseBranchThrowsControlsTheScopesCleanup) {
  std::string Text = rewritten("  Guard g{&released};\n"
                               "  if (n > 8)\n"
                               "    throw n;\n"
                               "  n += 1;\n"
                               "  return n;");
  std::smatch M;
  std::string Line = lineWith(Text, "Guard g{", "sleuth::Scope");
  ASSERT_TRUE(std::regex_search(Line, M, std::regex("sleuth::Scope (__sleuth_s[0-9_]+)\\(")))
      << Line;
  std::string After = lineWith(Text, "n += 1", "");
  EXPECT_NE(After.find(M[1].str() + ".end((__sleuth_tu.base + "), std::string::npos)
      << "the statement after the throwing if names its test: " << After;
}

TEST_F(ScopeDestructorTest, TheLibraryOwningAProgramObjectCounts) {
  std::string Text = rewritten("  std::vector<Guard> guards;\n"
                               "  std::unique_ptr<Holder> h;\n"
                               "  std::string name = \"x\";\n"
                               "  return n;");
  EXPECT_NE(lineWith(Text, "std::vector<Guard> guards", "sleuth::Scope"), "") << Text;
  EXPECT_NE(lineWith(Text, "std::unique_ptr<Holder> h", "sleuth::Scope"), "") << Text;
  EXPECT_EQ(lineWith(Text, "std::string name", "sleuth::Scope"), "") << Text;
}

TEST_F(ScopeDestructorTest, ADestructorEntersAsOne) {
  std::string Text = rewritten("  return n;");
  std::string Line = lineWith(Text, "~Guard()", "sleuth::Frame");
  EXPECT_NE(Line.find("sleuth::DestructorEntry()"), std::string::npos) << Line;
  EXPECT_EQ(lineWith(Text, "int f(int n)", "sleuth::Frame").find("DestructorEntry"),
            std::string::npos);
}

} // namespace
