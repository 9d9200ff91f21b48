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
  std::string rewrittenCxxLine(const std::string &Body, const std::string &Marker) {
    return lineWith(rewrite("callbacks.cpp",
                            "#include <algorithm>\n"
                            "#include <functional>\n"
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
                    Marker);
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

} // namespace
