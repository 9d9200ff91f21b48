// Exceptions in dependence mode (ExceptionProbe): a `throw` is a <throw> node made once its
// operand is evaluated; each handler begins with a <catch> test whose control is what
// sleuth_caught returns (the throw that reached it), and which controls the handler's
// statements; a library call that may throw inside a try block pushes what it reads, for the
// handler to depend on when the library throws.
#include "RewriteFixture.h"

#include <regex>
#include <sstream>

using namespace sleuth;

namespace {

class ExceptionTest : public RewriteFixture {
protected:
  std::string rewrite(const std::string &Source) {
    return RewriteFixture::rewrite("throws.cpp", Source, {"-std=c++20"});
  }
};

/// A row of the site table, with its controllers.
struct SiteRow {
  unsigned Line;
  std::string Name;
  std::vector<unsigned> Controllers;
};
std::vector<SiteRow> sites(const std::string &Text) {
  size_t At = Text.find("__sleuth_cds[] = {");
  std::vector<unsigned> Cds;
  std::string List = Text.substr(At, Text.find("};", At) - At);
  std::regex Number("([0-9]+), ");
  for (auto It = std::sregex_iterator(List.begin(), List.end(), Number);
       It != std::sregex_iterator(); ++It)
    Cds.push_back(unsigned(std::stoul((*It)[1])));
  std::vector<SiteRow> Rows;
  At = Text.find("__sleuth_sites[] = {");
  std::string Table = Text.substr(At, Text.find("};", At) - At);
  std::regex Row("\\{[0-9]+, [0-9]+, ([0-9]+), [0-9]+, [0-9]+, ([0-9]+), ([0-9]+), "
                 "\"([^\"]*)\"\\}");
  for (auto It = std::sregex_iterator(Table.begin(), Table.end(), Row);
       It != std::sregex_iterator(); ++It) {
    unsigned First = unsigned(std::stoul((*It)[2])), Count = unsigned(std::stoul((*It)[3]));
    Rows.push_back({unsigned(std::stoul((*It)[1])), (*It)[4],
                    std::vector<unsigned>(Cds.begin() + First, Cds.begin() + First + Count)});
  }
  return Rows;
}

int siteOf(const std::vector<SiteRow> &Rows, unsigned Line, const std::string &Name) {
  for (size_t I = 0; I < Rows.size(); ++I)
    if (Rows[I].Line == Line && Rows[I].Name == Name)
      return int(I);
  return -1;
}

TEST_F(ExceptionTest, AThrowIsANodeUnderItsTest) {
  std::string Text = rewrite("#include <stdexcept>\n"
                             "int check(int v) {\n"
                             "  if (v < 0)\n"
                             "    throw std::invalid_argument(\"negative\");\n"
                             "  return v;\n"
                             "}\n"
                             "void again() {\n"
                             "  throw;\n"
                             "}\n");
  std::vector<SiteRow> Rows = sites(Text);
  int Throw = siteOf(Rows, 4, "<throw>"), Test = siteOf(Rows, 3, "<test>");
  ASSERT_GE(Throw, 0) << Text;
  ASSERT_GE(Test, 0) << Text;
  EXPECT_EQ(Rows[Throw].Controllers, std::vector<unsigned>{unsigned(Test)});
  // The operand stays the thrown prvalue, after a void call.
  EXPECT_NE(Text.find("throw (sleuth_throwing(&__sleuth_tu, " + std::to_string(Throw) +
                      "u, 0u), std::invalid_argument(\"negative\"))"),
            std::string::npos)
      << Text;
  // A rethrow is a throw expression of its own.
  int Rethrow = siteOf(Rows, 8, "<throw>");
  ASSERT_GE(Rethrow, 0) << Text;
  EXPECT_TRUE(
      std::regex_search(Text, std::regex("\\(sleuth_throwing\\(&__sleuth_tu, " +
                                         std::to_string(Rethrow) + "u, [^)]*\\), throw\\);")))
      << Text;
}

TEST_F(ExceptionTest, TheCatchControlsTheHandler) {
  // Without the <catch> test the handler's statements had the controllers Clang's CFG gives a
  // try's dispatch (none), as if they ran on every call.
  std::string Text = rewrite("int parse(int);\n"
                             "int f(int x, int y) {\n"
                             "  int r = 0;\n"
                             "  if (y > 0) {\n"
                             "    try {\n"
                             "      r = parse(x);\n"
                             "    } catch (int e) {\n"
                             "      r = -1;\n"
                             "      if (e > 2)\n"
                             "        r = -2;\n"
                             "    } catch (...) {\n"
                             "      r = -3;\n"
                             "    }\n"
                             "  }\n"
                             "  return r;\n"
                             "}\n");
  std::vector<SiteRow> Rows = sites(Text);
  int Outer = siteOf(Rows, 4, "<test>"), First = siteOf(Rows, 7, "<catch>"),
      Second = siteOf(Rows, 11, "<catch>"), Inner = siteOf(Rows, 9, "<test>");
  ASSERT_GE(Outer, 0) << Text;
  ASSERT_GE(First, 0) << Text;
  ASSERT_GE(Second, 0) << Text;
  ASSERT_GE(Inner, 0) << Text;
  // Each <catch> runs under what the try block is entered under.
  EXPECT_EQ(Rows[First].Controllers, std::vector<unsigned>{unsigned(Outer)});
  EXPECT_EQ(Rows[Second].Controllers, std::vector<unsigned>{unsigned(Outer)});
  EXPECT_EQ(Rows[siteOf(Rows, 8, "r")].Controllers, std::vector<unsigned>{unsigned(First)});
  EXPECT_EQ(Rows[Inner].Controllers, std::vector<unsigned>{unsigned(First)});
  EXPECT_EQ(Rows[siteOf(Rows, 10, "r")].Controllers, std::vector<unsigned>{unsigned(Inner)});
  EXPECT_EQ(Rows[siteOf(Rows, 12, "r")].Controllers, std::vector<unsigned>{unsigned(Second)});
  // The statement after the try statement is no handler's.
  for (const SiteRow &R : Rows) {
    if (R.Line != 15)
      continue;
    for (unsigned C : R.Controllers)
      EXPECT_TRUE(C != unsigned(First) && C != unsigned(Second)) << R.Name;
  }
  // The handler begins with its test, controlled by what sleuth_caught returns.
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("catch \\(int e\\) \\{ \\(void\\)\\(?sleuth_test\\(&__sleuth_tu, " +
                       std::to_string(First) + "u, sleuth_caught\\(")))
      << Text;
  // Not a constant control (0u, whose one controller's edge the runtime writes for every
  // execution): a throw of the program's that reached the handler is its only controller.
  EXPECT_EQ(Text.find("sleuth_caught(0u)"), std::string::npos) << Text;
}

TEST_F(ExceptionTest, ALibraryCallInATryBlockPushesWhatItReads) {
  // std::stoi may throw: `text` is pushed (sleuth::rd), where a throw finds it, not checked
  // against the write of n (sleuth::rdc). Outside the try block it is checked as before.
  std::string Text = rewrite("#include <string>\n"
                             "int f(const std::string &text) {\n"
                             "  int n = 0;\n"
                             "  try {\n"
                             "    n = std::stoi(text);\n"
                             "  } catch (...) {\n"
                             "    n = -1;\n"
                             "  }\n"
                             "  int m = std::stoi(text);\n"
                             "  return n + m;\n"
                             "}\n");
  std::istringstream Lines(Text);
  std::string Line, Inside, Outside;
  while (std::getline(Lines, Line)) {
    if (Line.find("n = ") != std::string::npos && Line.find("stoi") != std::string::npos)
      Inside = Line;
    if (Line.find("int m = ") != std::string::npos)
      Outside = Line;
  }
  EXPECT_TRUE(
      std::regex_search(Inside, std::regex("std::stoi\\(sleuth::rd(_all)?(_hot)?\\(text\\)")))
      << Inside;
  EXPECT_TRUE(std::regex_search(Outside, std::regex("std::stoi\\(sleuth::rdc(_all)?(_hot)?\\(")))
      << Outside;
}

} // namespace
