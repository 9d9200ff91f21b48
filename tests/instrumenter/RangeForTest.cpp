// Range-based `for` in dependence mode (RangeForProbe): the loop's implicit test is a <test>
// node made where the body begins, reading the range's object; the body's sites are controlled
// by it; a copy of an lvalue element is taken from a reference of the instrumentation's, so that
// the loop variable's write reads the element's bytes. Also in template patterns, where the loop
// over a dependent range has no implicit statements yet.
#include "RewriteFixture.h"

#include <regex>

using namespace sleuth;

namespace {

class RangeForTest : public RewriteFixture {
protected:
  std::string rewrite(const std::string &Source) {
    return RewriteFixture::rewrite("loop.cpp", Source, {"-std=c++20"},
                                   [](InstrumentRequest &R) { R.StaticReads = false; });
  }

  /// The site of the test node made at the start of the body that follows Header (the loop's
  /// header as rewritten, a regular expression), or -1.
  static int testSite(const std::string &Text, const std::string &Header) {
    std::smatch M;
    std::regex Test(Header +
                    "\\s*\\{(?: sleuth_getc(?:_hot)?\\([^;]*\\);)? \\(void\\)\\(?"
                    "sleuth_test(?:_hot)?\\(&__sleuth_tu, ([0-9]+)u, [^;]*\\(1\\) \\? 1 : 0");
    return std::regex_search(Text, M, Test) ? std::stoi(M[1]) : -1;
  }
};

/// Rows of the site table: kind, flags, line, column, function, first controller, controllers.
struct SiteRow {
  unsigned Kind, Flags, Line, Column, FirstController, Controllers;
  std::string Name;
};
std::vector<SiteRow> sites(const std::string &Text) {
  std::vector<SiteRow> Rows;
  size_t At = Text.find("__sleuth_sites[] = {");
  std::string Table = Text.substr(At, Text.find("};", At) - At);
  std::regex Row("\\{([0-9]+), ([0-9]+), ([0-9]+), ([0-9]+), [0-9]+, ([0-9]+), ([0-9]+), "
                 "\"([^\"]*)\"\\}");
  for (auto It = std::sregex_iterator(Table.begin(), Table.end(), Row);
       It != std::sregex_iterator(); ++It)
    Rows.push_back({unsigned(std::stoul((*It)[1])), unsigned(std::stoul((*It)[2])),
                    unsigned(std::stoul((*It)[3])), unsigned(std::stoul((*It)[4])),
                    unsigned(std::stoul((*It)[5])), unsigned(std::stoul((*It)[6])), (*It)[7]});
  return Rows;
}

TEST_F(RangeForTest, TheLoopIsATestThatControlsItsBody) {
  // Without the test node the body's write had no controller and passed the quiet control.
  std::string Text = rewrite("#include <vector>\n"
                             "int f(const std::vector<int> &v) {\n"
                             "  int s = 0;\n"
                             "  for (int y : v)\n"
                             "    s += y;\n"
                             "  return s;\n"
                             "}\n");
  int Test = testSite(Text, "for \\(auto &&__sleuth_e[0-9]+_[0-9]+ : v\\)");
  ASSERT_GE(Test, 0) << Text;
  // The test reads the vector's object, checked against its own node.
  EXPECT_TRUE(std::regex_search(
      Text,
      std::regex("sleuth_getc(?:_hot)?\\(&__sleuth_tu, &__sleuth_rc\\[[0-9]+\\], " +
                 std::to_string(Test) +
                 "u, __builtin_addressof\\(v\\), sizeof\\(v\\)\\); \\(void\\)\\(?sleuth_test")))
      << Text;
  std::vector<SiteRow> Rows = sites(Text);
  ASSERT_LT(unsigned(Test), Rows.size());
  EXPECT_EQ(Rows[Test].Name, "<test>");
  EXPECT_EQ(Rows[Test].Line, 4u);
  // s += y (line 5) and the write of y (line 4) each have one controller, the loop's test,
  // which always ran before them: a static edge (the probe passes 0u).
  bool Body = false, Variable = false;
  for (const SiteRow &R : Rows) {
    if (R.Line == 5 && R.Name == "s") {
      Body = true;
      EXPECT_EQ(R.Controllers, 1u);
      EXPECT_NE(R.Flags & 4u, 0u) << "static control (SLEUTH_FLAG_STATIC_CONTROL)";
    }
    if (R.Line == 4 && R.Name == "y") {
      Variable = true;
      EXPECT_EQ(R.Controllers, 1u);
    }
  }
  EXPECT_TRUE(Body && Variable) << Text;
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("sleuth_def(?:_nopending)?(?:_hot)?\\(&__sleuth_tu, [0-9]+u, 0u\\)")))
      << Text;
}

TEST_F(RangeForTest, ACopyOfAnElementReadsTheElement) {
  // `int y` is declared at the body's start from a reference to the element, which the write of
  // y reads (checked against y's node), with the vector's object.
  std::string Text = rewrite("#include <vector>\n"
                             "int f(const std::vector<int> &v) {\n"
                             "  int s = 0;\n"
                             "  for (const int y : v) { s += y; }\n"
                             "  return s;\n"
                             "}\n");
  std::smatch M;
  ASSERT_TRUE(
      std::regex_search(Text, M, std::regex("for \\(auto &&(__sleuth_e[0-9]+_[0-9]+) : v\\)")))
      << Text;
  std::string Reference = M[1];
  EXPECT_NE(Text.find("const int y = " + Reference + ";"), std::string::npos) << Text;
  EXPECT_TRUE(std::regex_search(
      Text,
      std::regex("sleuth::rdc(?:_hot)?\\(&__sleuth_tu, &__sleuth_rc\\[[0-9]+\\], ([0-9]+)u, " +
                 Reference +
                 "\\); \\(void\\)sleuth_decl(?:_hot)?\\(&__sleuth_tu, \\1u, "
                 "[^;]*__builtin_addressof\\(y\\), sizeof\\(y\\)\\)")))
      << Text;
}

TEST_F(RangeForTest, EachBindingOfAMapReadsTheMap) {
  // By value: both names are written, each reading the map and the element (a node consumes
  // the pending reads, so the second name read nothing when they were pushed). By reference:
  // no copy, but the loop still tests, reading the map.
  std::string Text = rewrite("#include <map>\n"
                             "#include <string>\n"
                             "int f(const std::map<std::string, int> &m) {\n"
                             "  int s = 0;\n"
                             "  for (auto [k, x] : m)\n"
                             "    s += x + int(k.size());\n"
                             "  for (const auto &[k, x] : m)\n"
                             "    s += x;\n"
                             "  return s;\n"
                             "}\n");
  for (const char *Name : {"k", "x"})
    EXPECT_TRUE(std::regex_search(
        Text,
        std::regex("sleuth_getc(?:_hot)?\\(&__sleuth_tu, &__sleuth_rc\\[[0-9]+\\], ([0-9]+)u, "
                   "__builtin_addressof\\(m\\), sizeof\\(m\\)\\); sleuth::rdc(?:_hot)?\\("
                   "&__sleuth_tu, &__sleuth_rc\\[[0-9]+\\], \\1u, __sleuth_e[0-9_]+\\); "
                   "\\(void\\)sleuth_decl(?:_hot)?\\(&__sleuth_tu, \\1u, [^;]*"
                   "__builtin_addressof\\(" +
                   std::string(Name) + "\\)")))
        << Name << "\n"
        << Text;
  EXPECT_GE(testSite(Text, "for \\(const auto &\\[k, x\\] : m\\)"), 0) << Text;
}

TEST_F(RangeForTest, ArraysAndReferences) {
  // A reference is the element: no copy, the body's write goes to the element. An array's
  // bound is fixed: its test reads nothing of it.
  std::string Text = rewrite("int f() {\n"
                             "  int a[3] = {1, 2, 3};\n"
                             "  for (auto &e : a)\n"
                             "    e *= 2;\n"
                             "  int s = 0;\n"
                             "  for (int e : a)\n"
                             "    s += e;\n"
                             "  return s;\n"
                             "}\n");
  EXPECT_GE(testSite(Text, "for \\(auto &e : a\\)"), 0) << Text;
  EXPECT_GE(testSite(Text, "for \\(auto &&__sleuth_e[0-9_]+ : a\\)"), 0) << Text;
  EXPECT_FALSE(std::regex_search(Text, std::regex("sleuth_getc[^;]*__builtin_addressof\\(a\\)")))
      << Text;
}

TEST_F(RangeForTest, DependentLoopsInTemplatesTestAndControlTheirBody) {
  // The pattern's loop has no implicit statements: its test is made all the same, and the
  // control of the body comes from the instantiation's CFG. C may be an array (it is, here):
  // its object is not read. Its element is an lvalue in every instantiation: the copy is made
  // from a reference to it.
  std::string Text = rewrite("template <class C> int f(const C &c) {\n"
                             "  int s = 0;\n"
                             "  for (auto y : c)\n"
                             "    if (y > 1)\n"
                             "      s += y;\n"
                             "  return s;\n"
                             "}\n"
                             "int g() { int a[2] = {1, 2}; return f(a); }\n");
  std::smatch M;
  ASSERT_TRUE(
      std::regex_search(Text, M, std::regex("for \\(auto &&(__sleuth_e[0-9]+_[0-9]+) : c\\)")))
      << Text;
  std::string Reference = M[1];
  int Test = testSite(Text, "for \\(auto &&" + Reference + " : c\\)");
  ASSERT_GE(Test, 0) << Text;
  EXPECT_NE(Text.find("auto y = " + Reference + ";"), std::string::npos) << Text;
  EXPECT_FALSE(std::regex_search(Text, std::regex("sleuth_getc[^;]*__builtin_addressof\\(c\\)")))
      << Text;
  // The `if` (line 4) and the write of y (line 3) are controlled by the loop's test; s += y
  // (line 5) by the `if`, whose site is another.
  std::vector<SiteRow> Rows = sites(Text);
  bool If = false, Variable = false, Body = false;
  for (const SiteRow &R : Rows) {
    If |= R.Line == 4 && R.Name == "<test>" && R.Controllers == 1;
    Variable |= R.Line == 3 && R.Name == "y" && R.Controllers == 1;
    Body |= R.Line == 5 && R.Name == "s" && R.Controllers == 1;
  }
  EXPECT_TRUE(If && Variable && Body) << Text;
}

TEST_F(RangeForTest, DependentLoopsTakeTheControlOfEveryInstantiation) {
  // Each instantiation keeps one branch of the `if constexpr`: the call in the branch only the
  // second keeps (line 6, `y.size()`) has no statement in the first's CFG, and had no
  // controller when the control came from the first instantiation alone. Both branches are
  // controlled by the loop's test.
  std::string Text =
      rewrite("#include <string>\n"
              "#include <vector>\n"
              "template <class T> int f(const std::vector<T> &c) {\n"
              "  int s = 0, t = 0;\n"
              "  for (const T &y : c) {\n"
              "    if constexpr (std::is_integral_v<T>) s += y;\n"
              "    else t += int(y.size());\n"
              "  }\n"
              "  return s + t;\n"
              "}\n"
              "int g(const std::vector<int> &a, const std::vector<std::string> &d) {\n"
              "  return f(a) + f(d);\n"
              "}\n");
  int Test = testSite(Text, "for \\(const T &y : c\\)");
  ASSERT_GE(Test, 0) << Text;
  bool First = false, Second = false, Call = false;
  for (const SiteRow &R : sites(Text)) {
    First |= R.Line == 6 && R.Name == "s" && R.Controllers == 1;
    Second |= R.Line == 7 && R.Name == "t" && R.Controllers == 1;
    Call |= R.Line == 7 && R.Name == "<call>" && R.Controllers == 1;
  }
  EXPECT_TRUE(First && Second && Call) << Text;
}

TEST_F(RangeForTest, BindingsOfADependentRangeAreWrittenAndRead) {
  // The bindings of a map's elements, in a pattern: each is declared from the forwarded
  // element, and the body reads them (before, `weight` was read by no probe).
  std::string Text =
      rewrite("#include <map>\n"
              "#include <string>\n"
              "template <class K, class V> V heaviest(const std::map<K, V> &m) {\n"
              "  V best{};\n"
              "  for (auto [key, weight] : m)\n"
              "    if (weight > best)\n"
              "      best = weight;\n"
              "  return best;\n"
              "}\n"
              "int f(const std::map<std::string, int> &m) { return heaviest(m); }\n");
  EXPECT_TRUE(std::regex_search(
      Text,
      std::regex("for \\(auto &&(__sleuth_e[0-9_]+) : m\\)\\s*\\{[^\\n]*auto \\[key, weight\\] = "
                 "\\1;")))
      << Text;
  for (const char *Name : {"key", "weight"})
    EXPECT_NE(Text.find("__builtin_addressof(" + std::string(Name) + "), sizeof(" + Name + "))"),
              std::string::npos)
        << Name << "\n"
        << Text;
  EXPECT_TRUE(std::regex_search(Text, std::regex("sleuth::rdc(?:_hot)?\\([^;]*, weight\\) > ")))
      << Text;
}

TEST_F(RangeForTest, APrvalueElementInAnInstantiationIsNotReferenced) {
  // vector<bool>'s elements are proxies made by `*__begin`: a copy through a reference would
  // move from the proxy where the loop builds the variable in place. The variable stays as
  // written, declared at the body's start (reading the range's object), as outside templates.
  std::string Text = rewrite("#include <vector>\n"
                             "template <class B> int raised(const B &bits) {\n"
                             "  int n = 0;\n"
                             "  for (bool b : bits)\n"
                             "    n += b ? 2 : 1;\n"
                             "  return n;\n"
                             "}\n"
                             "int f(const std::vector<bool> &v) { return raised(v); }\n");
  EXPECT_EQ(Text.find("__sleuth_e"), std::string::npos) << Text;
  EXPECT_GE(testSite(Text, "for \\(bool b : bits\\)"), 0) << Text;
  EXPECT_NE(Text.find("__builtin_addressof(b), sizeof(b))"), std::string::npos) << Text;
}

TEST_F(RangeForTest, ADependentContainerIsReadByTheTest) {
  // `std::vector<T>` is a class in every instantiation: the test reads its object. A reference
  // variable is the element: the declaration stays as written.
  std::string Text = rewrite("#include <vector>\n"
                             "template <class T> T f(const std::vector<T> &v) {\n"
                             "  T s = 0;\n"
                             "  for (const T &x : v)\n"
                             "    s += x;\n"
                             "  return s;\n"
                             "}\n"
                             "long g(const std::vector<long> &w) { return f(w); }\n");
  int Test = testSite(Text, "for \\(const T &x : v\\)");
  ASSERT_GE(Test, 0) << Text;
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("sleuth_getc(?:_hot)?\\(&__sleuth_tu, &__sleuth_rc\\[[0-9]+\\], " +
                       std::to_string(Test) + "u, __builtin_addressof\\(v\\), sizeof\\(v\\)\\)")))
      << Text;
  bool Body = false;
  for (const SiteRow &R : sites(Text))
    Body |= R.Line == 5 && R.Name == "s" && R.Controllers == 1;
  EXPECT_TRUE(Body) << Text;
}

} // namespace
