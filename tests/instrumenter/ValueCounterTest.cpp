// Coverage mode's value sites (instrumenter/src/coverage/ValueCounter.cpp): which assignments,
// declarations and returns get one, which other scalars each value is compared with, and that
// the counting text keeps the statement's meaning where it is the body of an `if`.
#include "RewriteFixture.h"

#include <gtest/gtest.h>

#include <regex>
#include <sstream>

namespace sleuth {
namespace {

class ValueCounterTest : public RewriteFixture {
protected:
  std::string coverage(const std::string &Name, const std::string &Source) {
    return rewrite(Name, Source, {Name.ends_with(".c") ? "-std=c99" : "-std=c++20"},
                   [](InstrumentRequest &R) { R.Mode = InstrumentMode::Coverage; });
  }

  /// The value sites of the rewritten Text, each "LINE:COL LEFT RIGHT", in table order.
  static std::vector<std::string> sites(const std::string &Text) {
    std::smatch Table, Names;
    EXPECT_TRUE(
        std::regex_search(Text, Table, std::regex("__sleuth_cov_values\\[\\] = \\{([^}]*)\\}")));
    EXPECT_TRUE(std::regex_search(
        Text, Names, std::regex("__sleuth_cov_value_names\\[\\] = \\{([^}]*)SLEUTH_COV_NULL\\}")));
    std::vector<unsigned> Numbers;
    std::istringstream In(std::regex_replace(Table[1].str(), std::regex(","), " "));
    for (unsigned N; In >> N;)
      Numbers.push_back(N);
    Numbers.pop_back(); // the terminating 0
    std::vector<std::string> Strings;
    std::string NameText = Names[1].str();
    std::regex Literal("\"([^\"]*)\"");
    for (auto It = std::sregex_iterator(NameText.begin(), NameText.end(), Literal);
         It != std::sregex_iterator(); ++It)
      Strings.push_back((*It)[1].str());
    std::vector<std::string> Out;
    EXPECT_EQ(Numbers.size() % 5, 0u);
    for (size_t I = 0; I + 4 < Numbers.size(); I += 5)
      Out.push_back(std::to_string(Numbers[I]) + ":" + std::to_string(Numbers[I + 1]) + " " +
                    Strings.at(Numbers[I + 2]) + " " + Strings.at(Numbers[I + 3]));
    return Out;
  }
};

using Sites = std::vector<std::string>;

TEST_F(ValueCounterTest, AssignmentsDeclarationsAndReturnsHaveSites) {
  std::string Text = coverage("sum.c", "int sum(int n) {\n"
                                       "  int s = 0;\n"
                                       "  for (int i = 0; i < n; ++i)\n"
                                       "    s += i;\n"
                                       "  s++;\n"
                                       "  return s - 1;\n"
                                       "}\n");
  // `s` is compared with 0 and the parameter n; in the loop's body also with i, the most recent
  // first.
  EXPECT_EQ(sites(Text), (Sites{"2:7 s 0", "2:7 s n", "4:5 s 0", "4:5 s i", "4:5 s n", "5:3 s 0",
                                "5:3 s n", "6:3 return 0"}));
  // The loop's body is braced with its counts; the return goes through a statement expression.
  EXPECT_NE(Text.find("{ s += i;"), std::string::npos) << Text;
  EXPECT_NE(Text.find("__extension__ ({ int __sleuth_rv"), std::string::npos) << Text;
}

TEST_F(ValueCounterTest, PartnersHaveTheSameTypeAUniqueNameAndAValue) {
  std::string Text = coverage("p.c", "int f(int a, unsigned u, long l) {\n"
                                     "  int b;\n"
                                     "  int c = a;\n"
                                     "  { int d = 1; d = c; }\n"
                                     "  { int d = 2; (void)d; }\n"
                                     "  b = c;\n"
                                     "  return b;\n"
                                     "}\n");
  // Not u or l (other types), not b before it has a value, not d (declared twice), not
  // unsigned u against 0 by sign.
  Sites S = sites(Text);
  EXPECT_EQ(S, (Sites{"3:7 c 0", "3:7 c a", "4:9 d 0", "4:9 d c", "4:9 d a", "4:16 d 0", "4:16 d c",
                      "4:16 d a", "5:9 d 0", "5:9 d c", "5:9 d a", "6:3 b 0", "6:3 b c", "6:3 b a",
                      "7:3 return 0"}));
}

TEST_F(ValueCounterTest, AtMostFourPartnersMostRecentFirst) {
  std::string Text = coverage("m.c", "int f(int a, int b, int c, int d, int e) {\n"
                                     "  int x = a + b + c + d + e;\n"
                                     "  return x;\n"
                                     "}\n");
  EXPECT_EQ(sites(Text),
            (Sites{"2:7 x 0", "2:7 x e", "2:7 x d", "2:7 x c", "2:7 x b", "3:3 return 0"}));
}

TEST_F(ValueCounterTest, NoSitesForWhatCannotBeComparedOrNamed) {
  std::string Text = coverage("n.c", "struct P { int x; };\n"
                                     "struct P g(volatile int v, int *p) {\n"
                                     "  struct P s = {1};\n"
                                     "  v = 2;\n"
                                     "  *p = 3;\n"
                                     "  s.x = 4;\n"
                                     "  return s;\n"
                                     "}\n"
                                     "int h(int k) {\n"
                                     "  switch (k) { case 0: { int j = 1; return j; } }\n"
                                     "  return 0;\n"
                                     "}\n");
  // Only h's declaration of j and its returns: not a volatile, not a write through a pointer
  // or to a member, not a struct's return.
  EXPECT_EQ(sites(Text), (Sites{"10:30 j 0", "10:30 j k", "10:37 return 0", "11:3 return 0"}));
}

TEST_F(ValueCounterTest, PointersAndUnsignedNumbersAreComparedWithZeroOnly) {
  std::string Text = coverage("z.c", "unsigned f(const char *s, unsigned n) {\n"
                                     "  const char *p = s;\n"
                                     "  unsigned m = n;\n"
                                     "  return m + (p != 0);\n"
                                     "}\n");
  // A pointer is compared with 0 only (pointers are ordered within one object alone); an
  // unsigned number with 0 as zero or not, and with another unsigned variable by order.
  EXPECT_EQ(sites(Text), (Sites{"2:15 p 0", "3:12 m 0", "3:12 m n", "4:3 return 0"}));
  // Zero or not: `!!(p)` indexes "equal" + 1 for a pointer that is not null.
  EXPECT_NE(Text.find("+ !!(p)]"), std::string::npos) << Text;
}

} // namespace
} // namespace sleuth
