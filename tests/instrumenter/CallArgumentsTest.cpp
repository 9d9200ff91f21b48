// How arguments reach what the callee reads (CallProbe, VariadicProbe): an argument that writes
// is fenced, so that its write leaves the reads of the arguments evaluated before it to their
// parameters, in either evaluation order; a prvalue bound to a const reference parameter writes
// the temporary it materializes; a va_arg reads the call's next extra argument.
#include "RewriteFixture.h"

#include <regex>
#include <sstream>

using namespace sleuth;

namespace {

class CallArgumentsTest : public RewriteFixture {
protected:
  /// The rewritten line of Source's (file Name) that contains Marker.
  std::string rewrittenLine(const std::string &Name, const std::string &Source,
                            const std::string &Marker, std::vector<std::string> Arguments) {
    return lineWith(rewrite(Name, Source, std::move(Arguments)), Marker);
  }
};

const char *Pick = "int g;\n"
                   "int pick(int a, int b, int c) { return a + b + c; }\n"
                   "int f(int x, int y, int z) {\n"
                   "  return pick((g &= x), y, z);\n"
                   "}\n";

TEST_F(CallArgumentsTest, AnArgumentThatWritesIsFenced) {
  // Without the fence, `g &= x`'s node took the reads of y and z that GCC evaluated before it,
  // and pick's b and c had no origin.
  std::string Line = rewrittenLine("pick.c", Pick, "pick((", {"-std=c99"});
  std::smatch M;
  ASSERT_TRUE(std::regex_search(Line, M, std::regex("sleuth_callv?\\(&__sleuth_tu, ([0-9]+)u")))
      << Line;
  std::string Site = M[1];
  EXPECT_TRUE(std::regex_search(
      Line, std::regex("pick\\(\\(sleuth_arg_fenced\\(&__sleuth_tu, " + Site + "u, 1\\), ")))
      << Line;
  // The others are marked as ever.
  EXPECT_TRUE(
      std::regex_search(Line, std::regex("\\(sleuth_arg\\(&__sleuth_tu, " + Site + "u, 2\\), ")))
      << Line;
}

TEST_F(CallArgumentsTest, NoFenceWithoutAWriteAndOneThatComesDownThroughAPointer) {
  std::string Line = rewrittenLine("plain.c",
                                   "int pick(int a, int b) { return a - b; }\n"
                                   "int f(int *p, int (*fp)(int)) {\n"
                                   "  return pick(p[0], fp(*p = 2));\n"
                                   "}\n",
                                   "pick((sleuth", {"-std=c99"});
  // pick's second argument writes inside fp's call: fenced; its first reads only: not. fp's
  // callee is unknown (only an entry lowers the fence, which a library function has not): its
  // argument lowers the fence once evaluated, its value kept in a statement expression.
  EXPECT_TRUE(
      std::regex_search(Line, std::regex("pick\\(\\(sleuth_arg\\(&__sleuth_tu, [0-9]+u, 1\\)")))
      << Line;
  EXPECT_TRUE(
      std::regex_search(Line, std::regex("\\(sleuth_arg_fenced\\(&__sleuth_tu, [0-9]+u, 2\\)")))
      << Line;
  EXPECT_TRUE(std::regex_search(
      Line, std::regex("fp\\)\\(__extension__ \\(\\{ __auto_type (__sleuth_av[0-9]+_1) = "
                       "\\(sleuth_arg_fenced\\(&__sleuth_tu, ([0-9]+)u, 1\\), .*\\); "
                       "sleuth_arg_unfenced\\(&__sleuth_tu, \\2u\\); \\1; \\}\\)")))
      << Line;
}

TEST_F(CallArgumentsTest, AFenceComesDownAfterItsArgumentForACalleeDefinedElsewhere) {
  // Compiled in another unit, ext may not be instrumented: its entry, which lowers a fence,
  // might never come, and the fence would hide y's read from the call's value. The argument
  // lowers it once evaluated.
  std::string Line = rewrittenLine("extern.c",
                                   "int ext(int a, int b);\n"
                                   "int f(int x, int y) {\n"
                                   "  return ext((x += 1), y);\n"
                                   "}\n",
                                   "ext(", {"-std=c99"});
  EXPECT_NE(Line.find("ext(__extension__ ({ __auto_type __sleuth_av"), std::string::npos) << Line;
  EXPECT_NE(Line.find("sleuth_arg_unfenced("), std::string::npos) << Line;
  EXPECT_NE(Line.find("(sleuth_arg(&__sleuth_tu, "), std::string::npos) << Line;
  // In C++ only a scalar's copy is the argument's value.
  std::string Cxx = rewrittenLine("extern.cpp",
                                  "struct Big { int v[4]; };\n"
                                  "int ext(int a, Big b);\n"
                                  "int f(int x, Big y) {\n"
                                  "  return ext((x += 1), (x = 2, y));\n"
                                  "}\n",
                                  "ext(", {"-std=c++20"});
  EXPECT_NE(Cxx.find("ext(__extension__ ({ auto __sleuth_av"), std::string::npos) << Cxx;
  EXPECT_EQ(Cxx.find("auto __sleuth_av", Cxx.find("auto __sleuth_av") + 1), std::string::npos)
      << Cxx;
}

const char *Ring = "struct Ring {\n"
                   "  long total = 0;\n"
                   "  void push(const long &v) { total += v; }\n"
                   "  void widen(const long &v) { total += v; }\n"
                   "};\n"
                   "long f(Ring &r, long base, int i, long kept, int small) {\n"
                   "  r.push(base * i);\n"
                   "  r.push(kept);\n"
                   "  r.widen(small);\n"
                   "  return r.total;\n"
                   "}\n";

TEST_F(CallArgumentsTest, ATemporaryBoundToAConstReferenceIsWritten) {
  // Without the write, push read through v a temporary that nothing wrote: no origin. The
  // argument only computes: its reads are checked against the node, which takes no pending
  // read, and no fence is needed.
  std::string Line = rewrittenLine("ring.cpp", Ring, "base *", {"-std=c++20"});
  EXPECT_TRUE(std::regex_search(
      Line, std::regex("r\\.push\\(\\(sleuth_arg\\(&__sleuth_tu, [0-9]+u, 1\\), "
                       "sleuth::materialized_nopending\\(&__sleuth_tu, [0-9]+u, [^,]+, ")))
      << Line;
  // The node is named after the parameter.
  std::string Text = rewrite("ring.cpp", Ring, {"-std=c++20"});
  EXPECT_TRUE(
      std::regex_search(Text, std::regex("\\{0, [0-9]+, 7, 10, [0-9]+, [0-9]+, [0-9]+, \"v\"\\}")))
      << Text.substr(0, 2000);
}

TEST_F(CallArgumentsTest, ATemporaryThatCallsTakesItsOwnPendingReads) {
  // A call inside the argument pushes its value: the node takes it, behind a fence that keeps
  // the other arguments' reads out.
  std::string Line = rewrittenLine("calls.cpp",
                                   "static long twice(long x) { return 2 * x; }\n"
                                   "static long add(long a, const long &b) { return a + b; }\n"
                                   "long f(long y, long z) {\n"
                                   "  return add(y, twice(z) + 1);\n"
                                   "}\n",
                                   "add((", {"-std=c++20"});
  EXPECT_TRUE(
      std::regex_search(Line, std::regex("\\(sleuth_arg_fenced\\(&__sleuth_tu, [0-9]+u, 2\\), "
                                         "sleuth::materialized\\(&__sleuth_tu, ")))
      << Line;
}

TEST_F(CallArgumentsTest, NoTemporaryForAnLvalue) {
  // `kept` binds v directly: it is no temporary, and its write is its own.
  std::istringstream Lines(rewrite("ring.cpp", Ring, {"-std=c++20"}));
  std::string Line;
  unsigned Seen = 0;
  while (std::getline(Lines, Line))
    if (Line.find("r.push(kept") != std::string::npos) {
      EXPECT_EQ(Line.find("materialized"), std::string::npos) << Line;
      ++Seen;
    }
  EXPECT_EQ(Seen, 1u);
}

TEST_F(CallArgumentsTest, AConvertedTemporaryNamesItsType) {
  // `small` is converted to a long before v binds it: the probe's parameter is a long, so that
  // the temporary it writes is the one v binds, not the int the argument's text gives.
  std::string Line = rewrittenLine("ring.cpp", Ring, "r.widen(", {"-std=c++20"});
  EXPECT_TRUE(
      std::regex_search(Line, std::regex("r\\.widen\\(\\(sleuth_arg\\([^)]*\\), "
                                         "sleuth::materialized_nopending<long>\\(&__sleuth_tu, ")))
      << Line;
}

const char *Variadic = "#include <stdarg.h>\n"
                       "static long vsum(int n, va_list ap) {\n"
                       "  long t = 0;\n"
                       "  while (n-- > 0)\n"
                       "    t += va_arg(ap, int);\n"
                       "  return t;\n"
                       "}\n"
                       "long sum(int n, ...) {\n"
                       "  va_list ap, again;\n"
                       "  long t;\n"
                       "  va_start(ap, n);\n"
                       "  va_copy(again, ap);\n"
                       "  t = vsum(n, ap) + va_arg(again, int);\n"
                       "  va_end(again);\n"
                       "  va_end(ap);\n"
                       "  return t;\n"
                       "}\n";

TEST_F(CallArgumentsTest, VaArgReadsTheNextExtraArgument) {
  // Without the probes, a va_arg read nothing: the extra arguments' origins, which the call
  // gives the callee's entry, reached no node.
  std::string Text = rewrite("variadic.c", Variadic, {"-std=c99"});
  // The walk starts at the first argument after the one named parameter.
  EXPECT_NE(Text.find("(sleuth_va_start((ap), 2u), va_start(ap, n))"), std::string::npos) << Text;
  EXPECT_NE(Text.find("(sleuth_va_copy((again), (ap)), va_copy(again, ap))"), std::string::npos)
      << Text;
  EXPECT_NE(Text.find("(sleuth_va_arg((again)), va_arg(again, int))"), std::string::npos) << Text;
  // In the helper, `ap` is a pointer to the caller's va_list: the same key.
  EXPECT_NE(Text.find("(sleuth_va_arg((ap)), va_arg(ap, int))"), std::string::npos) << Text;
  // The write that takes a va_arg's value consumes what it pushed.
  EXPECT_TRUE(std::regex_search(Text, std::regex("va_arg\\(ap, int\\)\\)+, [^;]*sleuth_def\\(")))
      << Text;
  // The entry of a variadic function keeps its extra arguments' origins: the runtime's entry.
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("long sum\\(int n, \\.\\.\\.\\) \\{[^\\n]*sleuth_enter\\(&")))
      << Text;
}

} // namespace
