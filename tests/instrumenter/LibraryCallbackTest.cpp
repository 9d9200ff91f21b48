// Library calls that may call the program's code back while they run (LibraryCallbackProbe): a
// callable among the arguments (qsort's comparator, a lambda given to an algorithm) or kept by
// the container called (a std::set's comparator of the program's). The call passes its control
// to the functions the library enters meanwhile (sleuth_library_call, sleuth::LibraryCall in
// C++) and puts the enclosing control back once it returns (sleuth_library_returned). Other
// library calls get nothing.
#include "RewriteFixture.h"

#include <regex>

using namespace sleuth;

namespace {

class LibraryCallbackTest : public RewriteFixture {
protected:
  /// The rewritten line of a C program's with Marker, in a function that calls under a test.
  std::string rewrittenCLine(const std::string &Body, const std::string &Marker) {
    return lineWith(rewrite("callbacks.c",
                            "#include <stdlib.h>\n"
                            "static int order(const void *a, const void *b) {\n"
                            "  return *(const int *)a - *(const int *)b;\n"
                            "}\n"
                            "int main(int argc, char **argv) {\n"
                            "  int v[3] = {3, 1, 2}, key = 2;\n"
                            "  (void)argv;\n"
                            "  if (argc > 0) {\n" +
                                Body +
                                "\n  }\n"
                                "  return v[0];\n"
                                "}\n",
                            {"-std=gnu99"}),
                    Marker);
  }
  /// The same for a C++ program's.
  std::string rewrittenCxxLine(const std::string &Body, const std::string &Marker,
                               const std::string &Probe = "sleuth_tu") {
    return lineWith(rewrite("callbacks.cpp",
                            "#include <algorithm>\n"
                            "#include <functional>\n"
                            "#include <map>\n"
                            "#include <queue>\n"
                            "#include <set>\n"
                            "#include <vector>\n"
                            "struct ByMagnitude {\n"
                            "  bool operator()(int a, int b) const { return a * a < b * b; }\n"
                            "};\n"
                            "int main(int argc, char **) {\n"
                            "  std::vector<int> v{3, -1, 2};\n"
                            "  std::set<int, ByMagnitude> near;\n"
                            "  std::set<int> plain;\n"
                            "  std::function<int(int)> twice = [](int x) { return 2 * x; };\n"
                            "  if (argc > 0) {\n" +
                                Body +
                                "\n  }\n"
                                "  return v[0];\n"
                                "}\n",
                            {"-std=c++20"}),
                    Marker, Probe);
  }
};

TEST_F(LibraryCallbackTest, QsortPassesItsControlToTheComparatorUntilItReturns) {
  // Without it the comparator entered with no record: its statements had no control.
  std::string Line = rewrittenCLine("    qsort(v, 3, sizeof *v, order);", "qsort(");
  std::smatch M;
  ASSERT_TRUE(std::regex_search(
      Line, M,
      std::regex("__extension__ \\(\\{ unsigned (__sleuth_lb[0-9]+) = sleuth_library_call\\("
                 "\\(__sleuth_tu\\.base \\+ [0-9]+u\\)\\); .*qsort\\(v, 3, sizeof \\*v, order\\)"
                 ".*; sleuth_library_returned\\((__sleuth_lb[0-9]+)\\); \\}\\)")))
      << Line;
  EXPECT_EQ(M[1], M[2]) << "the control put back is the one the call found";
}

TEST_F(LibraryCallbackTest, BsearchKeepsItsValue) {
  std::string Line = rewrittenCLine("    int *hit = bsearch(&key, v, 3, sizeof *v, order);\n"
                                    "    if (hit) v[0] = 0;",
                                    "bsearch(");
  EXPECT_TRUE(std::regex_search(
      Line, std::regex("__auto_type (__sleuth_lv[0-9]+) = bsearch\\(&key, v, 3, sizeof \\*v, "
                       "order\\); sleuth_library_returned\\(__sleuth_lb[0-9]+\\); \\1; \\}\\)")))
      << Line;
}

TEST_F(LibraryCallbackTest, AnAlgorithmWithALambdaOrAFunctionObjectPassesItsControl) {
  for (const char *Call : {"std::sort(v.begin(), v.end(), [](int a, int b) { return a > b; });",
                           "std::sort(v.begin(), v.end(), ByMagnitude{});",
                           "std::for_each(v.begin(), v.end(), twice);"}) {
    std::string Text = Call;
    std::string Line = rewrittenCxxLine("    " + Text, Text.substr(0, Text.find('(') + 1));
    EXPECT_TRUE(std::regex_search(
        Line, std::regex("\\(\\(void\\)sleuth::LibraryCall\\(\\(__sleuth_tu\\.base \\+ "
                         "[0-9]+u\\)\\), [(]*std::(sort|for_each)\\(")))
        << Call << ": " << Line;
  }
}

TEST_F(LibraryCallbackTest, AContainerWithTheProgramsComparatorPassesItsControl) {
  std::string Line = rewrittenCxxLine("    near.insert(argc);", "near.insert");
  EXPECT_NE(Line.find("sleuth::LibraryCall("), std::string::npos) << Line;
  // An emplace forwards its arguments to the element's constructor, and compares too.
  Line = rewrittenCxxLine("    near.emplace(argc);", "near.emplace");
  EXPECT_NE(Line.find("sleuth::LibraryCall("), std::string::npos) << Line;
  // Its size is no comparison; a set ordered by the library's std::less calls no program code.
  Line = rewrittenCxxLine("    v[0] = static_cast<int>(near.size());", "near.size");
  EXPECT_EQ(Line.find("sleuth::LibraryCall("), std::string::npos) << Line;
  Line = rewrittenCxxLine("    plain.insert(argc);", "plain.insert");
  EXPECT_EQ(Line.find("sleuth::LibraryCall("), std::string::npos) << Line;
}

TEST_F(LibraryCallbackTest, CallsWithoutACallableGetNothing) {
  std::string Line = rewrittenCxxLine("    std::sort(v.begin(), v.end());", "std::sort");
  EXPECT_EQ(Line.find("sleuth::LibraryCall("), std::string::npos) << Line;
  Line = rewrittenCxxLine("    v.push_back(argc);", "push_back");
  EXPECT_EQ(Line.find("sleuth::LibraryCall("), std::string::npos) << Line;
  // A std::function's own call is forwarded to its callee, with a record of its own; an
  // assignment of one calls nothing.
  Line = rewrittenCxxLine("    v[0] = twice(argc);", "twice(");
  EXPECT_EQ(Line.find("sleuth::LibraryCall("), std::string::npos) << Line;
  Line = rewrittenCxxLine("    twice = [](int x) { return x; };", "twice =");
  EXPECT_EQ(Line.find("sleuth::LibraryCall("), std::string::npos) << Line;
}

TEST_F(LibraryCallbackTest, AContainerBuiltWithTheProgramsComparatorPassesItsControl) {
  // Without it the constructor's comparisons entered the comparator with no control. The probe
  // is a temporary made in an argument (a declaration has no expression to wrap), in a braced
  // list's first element that means what it meant.
  const std::string Probe = "((void)sleuth::LibraryCall(";
  std::string Line =
      rewrittenCxxLine("    std::set<int, ByMagnitude> made(v.begin(), v.end());", "made(");
  EXPECT_NE(Line.find("made(" + Probe), std::string::npos) << Line;
  Line = rewrittenCxxLine("    std::map<int, int, ByMagnitude> m{{argc, 1}, {2, 3}};", "m{");
  EXPECT_NE(Line.find("m{{" + Probe), std::string::npos) << Line;
  Line = rewrittenCxxLine("    std::priority_queue<int, std::vector<int>, ByMagnitude> "
                          "q(ByMagnitude{}, v);",
                          "q(");
  EXPECT_NE(Line.find("q(" + Probe), std::string::npos) << Line;
  // A constant that the list narrows stays a constant: the next element carries the probe.
  Line = rewrittenCxxLine("    std::set<char, ByMagnitude> c{65, (char)argc};", "c{");
  EXPECT_NE(Line.find("c{65, " + Probe), std::string::npos) << Line;
  // A default or copy construction, or one from the comparator alone, compares nothing; a set
  // ordered by the library's std::less calls no program code.
  for (auto [Declaration, Marker] : std::vector<std::pair<std::string, std::string>>{
           {"std::set<int, ByMagnitude> none;", "> none"},
           {"std::set<int, ByMagnitude> copy(near);", "> copy("},
           {"std::set<int, ByMagnitude> by(ByMagnitude{});", "> by("},
           {"std::set<int> plainly(v.begin(), v.end());", "> plainly("}}) {
    Line = rewrittenCxxLine("    " + Declaration, Marker, "");
    ASSERT_FALSE(Line.empty()) << Declaration;
    EXPECT_EQ(Line.find("sleuth::LibraryCall("), std::string::npos) << Line;
  }
}

TEST_F(LibraryCallbackTest, AContainerOfDependentTypeBuiltInATemplatePassesItsControl) {
  // In the pattern the declaration's type waits for the instantiation; every instantiation
  // builds it from a range with the program's comparator, so the pattern carries the probe. A
  // template whose instantiation orders by std::less gets none.
  std::string Text =
      rewrite("template_callbacks.cpp",
              "#include <set>\n"
              "#include <vector>\n"
              "struct ByMagnitude {\n"
              "  bool operator()(int a, int b) const { return a * a < b * b; }\n"
              "};\n"
              "template <class T, class Less> unsigned distinct(const std::vector<T> &v) {\n"
              "  std::set<T, Less> s(v.begin(), v.end()); // ordered\n"
              "  return unsigned(s.size());\n"
              "}\n"
              "template <class T> unsigned plain(const std::vector<T> &v) {\n"
              "  std::set<T> s(v.begin(), v.end()); // plain\n"
              "  return unsigned(s.size());\n"
              "}\n"
              "int main() {\n"
              "  std::vector<int> v{3, -3, 2};\n"
              "  return int(distinct<int, ByMagnitude>(v) + plain(v));\n"
              "}\n",
              {"-std=c++20"});
  std::string Line = lineWith(Text, "// ordered", "");
  EXPECT_NE(Line.find("s(((void)sleuth::LibraryCall("), std::string::npos) << Line;
  Line = lineWith(Text, "// plain", "");
  EXPECT_EQ(Line.find("sleuth::LibraryCall("), std::string::npos) << Line;
}

TEST_F(LibraryCallbackTest, TheLibraryComparingAClassWithItsOwnOperatorsPassesItsControl) {
  // No callable is given: the library calls Point's operator< or operator== of the program's.
  auto Rewritten = [&](const std::string &Body, const std::string &Marker) {
    return lineWith(
        rewrite("operators.cpp",
                "#include <algorithm>\n"
                "#include <set>\n"
                "#include <vector>\n"
                "struct Point {\n"
                "  int x;\n"
                "  bool operator<(const Point &o) const { return x < o.x; }\n"
                "};\n"
                "bool operator==(const Point &a, const Point &b) { return a.x == b.x; }\n"
                "struct Plain { int x; };\n"
                "int main(int argc, char **) {\n"
                "  std::vector<Point> v{{3}, {1}};\n"
                "  std::vector<int> w{3, 1};\n"
                "  std::vector<Plain> p{{3}, {1}};\n"
                "  std::set<Point> s;\n"
                "  bool found = false;\n"
                "  if (argc > 0) {\n" +
                    Body +
                    "\n  }\n"
                    "  return found;\n"
                    "}\n",
                {"-std=c++20"}),
        Marker);
  };
  auto Probes = [](const std::string &Line) {
    size_t Count = 0;
    for (size_t At = Line.find("sleuth::LibraryCall("); At != std::string::npos;
         At = Line.find("sleuth::LibraryCall(", At + 1))
      ++Count;
    return Count;
  };
  // One probe for std::find: the comparison of the iterator it returns compares no Point.
  for (auto [Call, Marker] : std::vector<std::pair<std::string, std::string>>{
           {"std::sort(v.begin(), v.end());", "std::sort("},
           {"s.insert(v[0]);", "s.insert("},
           {"bool hit = std::find(v.begin(), v.end(), Point{2}) != v.end();", "hit"},
           {"bool same = v == v;", "same"}}) {
    std::string Line = Rewritten("    " + Call, Marker);
    EXPECT_EQ(Probes(Line), 1u) << Call << ": " << Line;
  }
  // Built-in types and a class with no operators of the program's pay nothing.
  for (auto [Call, Marker] : std::vector<std::pair<std::string, std::string>>{
           {"std::sort(w.begin(), w.end());", "std::sort("},
           {"bool same = w == w;", "same"},
           {"v.push_back(Point{4});", "push_back("},
           {"bool many = s.size() > 1;", "many"},
           {"std::reverse(p.begin(), p.end());", "std::reverse("}}) {
    std::string Line = Rewritten("    " + Call, Marker);
    ASSERT_FALSE(Line.empty()) << Call;
    EXPECT_EQ(Probes(Line), 0u) << Call << ": " << Line;
  }
}

TEST_F(LibraryCallbackTest, ACallInATemplatePassesItsControlIfAnInstantiationMayCallBack) {
  // The pattern's callee waits for the instantiation; the unit's instantiations say it is
  // std::sort with the program's comparator (or with std::less<int>, which calls nothing).
  auto Rewritten = [&](const std::string &Use) {
    return rewrite("templates.cpp",
                   "#include <algorithm>\n"
                   "#include <functional>\n"
                   "#include <set>\n"
                   "#include <vector>\n"
                   "struct ByMagnitude {\n"
                   "  bool operator()(int a, int b) const { return a * a < b * b; }\n"
                   "};\n"
                   "template <class T, class Less> void sortAll(std::vector<T> &v, Less less) {\n"
                   "  std::sort(v.begin(), v.end(), less);\n"
                   "}\n"
                   "template <class T, class Less> void keep(std::set<T, Less> &s, T x) {\n"
                   "  s.insert(x);\n"
                   "}\n"
                   "int main() {\n"
                   "  std::vector<int> v{3, -1, 2};\n" +
                       Use +
                       "\n  return v[0];\n"
                       "}\n",
                   {"-std=c++20"});
  };
  std::string Text = Rewritten("  sortAll(v, ByMagnitude{});\n"
                               "  std::set<int, ByMagnitude> s;\n"
                               "  keep(s, 4);");
  EXPECT_NE(lineWith(Text, "std::sort(").find("((void)sleuth::LibraryCall("), std::string::npos)
      << Text;
  EXPECT_NE(lineWith(Text, "s.insert(").find("((void)sleuth::LibraryCall("), std::string::npos)
      << Text;
  Text = Rewritten("  sortAll(v, std::less<int>{});\n"
                   "  std::set<int> s;\n"
                   "  keep(s, 4);");
  EXPECT_EQ(lineWith(Text, "std::sort(").find("sleuth::LibraryCall("), std::string::npos) << Text;
  EXPECT_EQ(lineWith(Text, "s.insert(").find("sleuth::LibraryCall("), std::string::npos) << Text;
}

TEST_F(LibraryCallbackTest, ACallInAHeadersTemplateIsJudgedByWhatItSpellsToo) {
  // The header cache gives the header's instrumented text to units that instantiate it with
  // the program's comparator: this unit's std::less<int> alone does not decide.
  llvm::SmallString<256> Header(Root);
  llvm::sys::path::append(Header, "sorting.h");
  std::ofstream(std::string(Header)) << "#include <algorithm>\n"
                                        "#include <vector>\n"
                                        "template <class T, class Less>\n"
                                        "void sortAll(std::vector<T> &v, Less less) {\n"
                                        "  std::sort(v.begin(), v.end(), less);\n"
                                        "}\n"
                                        "template <class T> void reverseAll(std::vector<T> &v) {\n"
                                        "  std::reverse(v.begin(), v.end());\n"
                                        "}\n";
  std::string Text = rewrite("header.cpp",
                             "#include \"sorting.h\"\n"
                             "#include <functional>\n"
                             "int main() {\n"
                             "  std::vector<int> v{3, -1, 2};\n"
                             "  sortAll(v, std::less<int>{});\n"
                             "  reverseAll(v);\n"
                             "  return v[0];\n"
                             "}\n",
                             {"-std=c++20"});
  EXPECT_NE(lineWith(Text, "std::sort(").find("((void)sleuth::LibraryCall("), std::string::npos)
      << Text;
  std::string Reverse = lineWith(Text, "std::reverse(");
  ASSERT_FALSE(Reverse.empty()) << Text;
  EXPECT_EQ(Reverse.find("sleuth::LibraryCall("), std::string::npos) << Reverse;
}

} // namespace
