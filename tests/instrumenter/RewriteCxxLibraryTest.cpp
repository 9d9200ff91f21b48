// C++ library calls: containers read whole, inserts and erases, stores into containers,
// mutating members whose value is used, std::swap, std::exchange and member swaps.
#include "RewriteTest.h"

#include <regex>

using namespace sleuth;

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
