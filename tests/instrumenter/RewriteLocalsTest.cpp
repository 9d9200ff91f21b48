// Which locals keep their origins in companion locals (instrumenter/src/LocalOrigins.h; a
// companion's read is `(sleuth_chk(..., __sleuth_o...), x)` or `(sleuth_use(__sleuth_o...), x)`)
// and which stay in the shadow memory (a shadowed one takes the variable's address).
#include "RewriteTest.h"

#include <regex>

using namespace sleuth;

TEST_F(RewriteTest, PlainLocalsAndParametersAreKept) {
  std::string Text = rewrite("a.c", "int f(int n, int *a, int unused) {\n"
                                    "  (void)unused;\n"
                                    "  int s = 0;\n"
                                    "  for (int i = 0; i < n; i++) s += a[i];\n"
                                    "  register int r = s; r = r * 2;\n"
                                    "  return r;\n"
                                    "}\n");
  expectPlaces(Text, {"n", "a", "s", "i", "r"}, {});
  // Every parameter is kept: one fused entry probe, the origins computed from the unit's base.
  EXPECT_NE(Text.find("sleuth_enter_params(&__sleuth_tu, 0u, "), std::string::npos);
  EXPECT_TRUE(
      std::regex_search(Text, std::regex("__sleuth_o0_0 = __sleuth_tu\\.base \\+ [0-9]+u")));
  EXPECT_EQ(Text.find("sleuth_param("), std::string::npos);
  EXPECT_EQ(Text.find("sleuth_param_origin("), std::string::npos);
  // The compound write checks the old origin against its own node first; the declaration
  // and the plain write read no old value.
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("sleuth_chk\\(&__sleuth_tu, &__sleuth_rc\\[[0-9]+\\], ([0-9]+)u, "
                       "(__sleuth_o0_[0-9]+)\\), \\(void\\)\\(\\2 = "
                       "sleuth_def(?:_nopending)?(?:_hot)?\\(&__sleuth_tu, "
                       "\\1u, ")))
      << Text;
  EXPECT_TRUE(std::regex_search(Text, std::regex("int s = 0; int __sleuth_d[0-9]+ __attribute__"
                                                 "\\(\\(unused\\)\\) = \\(\\(void\\)\\("
                                                 "__sleuth_o0_[0-9]+ = sleuth_def")))
      << Text;
}

TEST_F(RewriteTest, ParametersMixKeptAndShadowed) {
  std::string Text =
      rewrite("m.c", "static void touch(int *p) { *p += 1; }\n"
                     "int f(int kept, int taken) { touch(&taken); return kept + taken; }\n");
  std::string F = Text.substr(Text.find("int f(")); // touch's one parameter is kept: fused
  EXPECT_EQ(F.find("sleuth_enter_params("), std::string::npos) << Text;
  EXPECT_NE(F.find("sleuth_param_origin(&__sleuth_tu, "), std::string::npos);
  EXPECT_NE(F.find("sleuth_param(&__sleuth_tu, "), std::string::npos);
  EXPECT_TRUE(kept(Text, "kept"));
  EXPECT_TRUE(shadowed(Text, "taken"));
}

TEST_F(RewriteTest, LocalsReachableUnderOtherNamesStayInTheShadow) {
  std::string Text = rewrite("b.c", "#include <setjmp.h>\n"
                                    "static void use(int *p) { *p = 1; }\n"
                                    "static void done(int *p) { (void)p; }\n"
                                    "int g(void) {\n"
                                    "  int taken = 0, vol_src = 2, cleaned = 3, plain = 4;\n"
                                    "  volatile int vol = vol_src;\n"
                                    "  int __attribute__((cleanup(done))) guarded = cleaned;\n"
                                    "  use(&taken);\n"
                                    "  return taken + vol + guarded + plain;\n"
                                    "}\n");
  expectPlaces(Text, {"plain", "cleaned"}, {"taken", "vol", "guarded"});
}

TEST_F(RewriteTest, CxxReferencesCapturesAndRangeVariablesStayInTheShadow) {
  std::string Text = rewrite("c.cpp",
                             "#include <vector>\n"
                             "int h(std::vector<int> &v, int k) {\n"
                             "  int bound = 0, captured = 1, counted = 2, plain = 3;\n"
                             "  int &alias = bound;\n"
                             "  alias = k;\n"
                             "  auto add = [&captured](int x) { captured += x; };\n"
                             "  add(k);\n"
                             "  for (int e : v) counted += e;\n"
                             "  ++plain;\n"
                             "  return bound + captured + counted + plain;\n"
                             "}\n",
                             {"-std=c++17"});
  // The lambda's own parameter x has a companion of the lambda's body, not of h's.
  expectPlaces(Text, {"counted", "plain", "k", "x"}, {"bound", "captured", "e"});
}

TEST_F(RewriteTest, TemplatesKeepTheLocalsWhoseUsesClangResolved) {
  // n, i and k are read and written only where the pattern's types are known; bound goes to a
  // call that waits for the instantiation (which may bind a reference to it), m to an operator
  // that may be overloaded; v's type is the template parameter.
  std::string Text = rewrite("d.cpp",
                             "struct Acc {\n"
                             "  int s = 0;\n"
                             "  void add(int &x) { s += x; }\n"
                             "  Acc operator*(int f) const { return Acc{s * f}; }\n"
                             "};\n"
                             "template <class T> T twice(T v, int k) {\n"
                             "  int n = 2, m = 3;\n"
                             "  for (int i = 0; i < k; ++i) n += i;\n"
                             "  int bound = n;\n"
                             "  v.add(bound);\n"
                             "  return v * m;\n"
                             "}\n"
                             "int use() { return twice(Acc{}, 3).s; }\n",
                             {"-std=c++17"});
  expectPlaces(Text, {"n", "i", "k"}, {"bound", "m"});
}

TEST_F(RewriteTest, TemplateLocalsThatBuiltinOperatorsOfDependentPointersReadAreKept) {
  // `mem[i]`, `mem + n` and `static_cast<T *>(raw)` wait for T, but whatever T is they are
  // builtin and read the local's value; `c[j]` may call an operator[] of T's, which may take
  // j by reference.
  std::string Text = rewrite("e.cpp",
                             "template <class T> struct Pool {\n"
                             "  T *mem;\n"
                             "  T &at(int i) { return mem[i]; }\n"
                             "  T *past(int n) { return mem + n; }\n"
                             "  T *item(void *raw) { return static_cast<T *>(raw); }\n"
                             "};\n"
                             "template <class T> int pick(const T &c, int j) { return c[j]; }\n"
                             "int use() {\n"
                             "  int a[2] = {1, 2};\n"
                             "  Pool<int> p{a};\n"
                             "  return p.at(1) + *p.past(0) + *p.item(a) + pick(a, 1);\n"
                             "}\n",
                             {"-std=c++17"});
  expectPlaces(Text, {"i", "n", "raw"}, {"j"});
}

TEST_F(RewriteTest, CxxLocalsWrittenThroughAnAssignmentsResultStayInTheShadow) {
  // In C++ `++i` and `k = 5` are the variables themselves: writing or binding the result writes
  // or aliases them past a companion. Only a result whose value is read keeps a local kept.
  std::string Text = rewrite("w.cpp",
                             "int f(int a) {\n"
                             "  int i = a, k = 1, m = 2, n = 0;\n"
                             "  (++i) += 2;\n"
                             "  (k = 5)++;\n"
                             "  n = (m += 3) * 2;\n"
                             "  return i + k + m + n;\n"
                             "}\n",
                             {"-std=c++17"});
  expectPlaces(Text, {"m", "n", "a"}, {"i", "k"});
}
