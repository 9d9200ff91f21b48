// Calls and their arguments: records of kept arguments' origins, callees treated as library
// calls (constexpr, static functions outside the project), operators and constructor calls.
#include "RewriteTest.h"

#include <algorithm>
#include <fstream>
#include <regex>

using namespace sleuth;

TEST_F(RewriteTest, CallsOfFiveToEightKeptArgumentsUseTheEightPairRecord) {
  std::string Text = rewrite("p.c", "static int g(int a, int b, int c, int d, int e) {\n"
                                    "  return a + b + c + d + e;\n"
                                    "}\n"
                                    "int f(int n, int m) {\n"
                                    "  int five = g(n, m, n, m, n);\n"
                                    "  int four = g(n, m, n, m, 1);\n"
                                    "  return five + four;\n"
                                    "}\n");
  // A pair per argument that reads a kept local: four fit sleuth_call_pairs, five need
  // sleuth_call_pairs8; the unused pairs are zeros. None goes through the runtime's variadic
  // sleuth_call_args.
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("sleuth_call_pairs8\\(&__sleuth_tu, [0-9]+u, __sleuth_cc1, [0-9]+u, "
                       "[0-9]+u, &__sleuth_rc\\[[0-9]+\\], 5u, 1u, (__sleuth_o1_0), "
                       "2u, (__sleuth_o1_1), 3u, \\1, 4u, \\2, 5u, \\1, 0u, 0u, 0u, 0u, 0u, "
                       "0u\\), g\\(n, m, n, m, n\\)")))
      << Text;
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("sleuth_call_pairs\\(&__sleuth_tu, [0-9]+u, __sleuth_cc1, [0-9]+u, "
                       "[0-9]+u, &__sleuth_rc\\[[0-9]+\\], 4u, 1u, (__sleuth_o1_0), "
                       "2u, (__sleuth_o1_1), 3u, \\1, 4u, \\2\\), g\\(n, m, n, m, 1\\)")))
      << Text;
  EXPECT_EQ(Text.find("sleuth_call_args"), std::string::npos) << Text;
}

TEST_F(RewriteTest, CallsWhoseArgumentsReadOnlyKeptLocalsCarryTheirOrigins) {
  std::string Text = rewrite("k.c", "static int g(int a, int b) { return a - b; }\n"
                                    "int f(int n, int *p) {\n"
                                    "  int direct = g(n, n - 1);\n"
                                    "  int memory = g(*p, n);\n"
                                    "  int effect = g(n++, 2);\n"
                                    "  return direct + memory + effect;\n"
                                    "}\n");
  // The declaration consumes the call's value: the callee's return checks its node against it.
  // Two pairs fit the inline record (sleuth_call_pairs); the unused ones are zeros.
  EXPECT_TRUE(std::regex_search(
      Text,
      std::regex("sleuth_call_pairs\\(&__sleuth_tu, [0-9]+u, __sleuth_cc1, [0-9]+u, "
                 "([0-9]+)u, &__sleuth_rc\\[[0-9]+\\], 2u, 1u, (__sleuth_o1_0), 2u, \\2, 0u, 0u, "
                 "0u, 0u\\), g\\(n, n - 1\\)\\); int __sleuth_d\\1 ")))
      << Text;
  // Reading memory or writing a local: a mark per argument, as before (fenced where the
  // argument writes, see CallArgumentsTest).
  size_t Args = 0;
  for (size_t At = Text.find("sleuth_arg"); At != std::string::npos;
       At = Text.find("sleuth_arg", At + 1))
    ++Args;
  EXPECT_EQ(Args, 3u); // g(*p, n): two; g(n++, 2): one
  EXPECT_NE(Text.find("g((sleuth_arg_fenced("), std::string::npos) << Text;
}

TEST_F(RewriteTest, CallsOfConstexprFunctionsAreLibraryCalls) {
  // A constexpr function's body is left as it is (it cannot call the runtime), so a call of it
  // pushes no record that would wait for its entry: its value depends on its arguments' reads,
  // as a library call's. A lambda, implicitly constexpr, is instrumented and called as any.
  std::string Text = rewrite("constexpr.cpp",
                             "constexpr int twice(int v) { return 2 * v; }\n"
                             "struct C { int k; constexpr C(int a) : k(a) {} };\n"
                             "int f(int x) {\n"
                             "  auto inc = [](int v) { return v + 1; };\n"
                             "  int y = twice(x);\n"
                             "  C c(x);\n"
                             "  return inc(y) + c.k;\n"
                             "}\n",
                             {"-std=c++17"});
  std::string Body = Text.substr(std::min(Text.find("int f(int x)"), Text.size()));
  EXPECT_EQ(Body.find("sleuth_construct_arg("), std::string::npos) << Body;
  EXPECT_TRUE(std::regex_search(Body, std::regex("int y = [^;]*twice\\(")) &&
              !std::regex_search(Body, std::regex("int y = [^;]*sleuth_call")))
      << Body;
  EXPECT_TRUE(std::regex_search(Body, std::regex("sleuth_call\\w*\\([^;]*inc\\("))) << Body;
}

TEST_F(RewriteTest, CallsOfStaticFunctionsOutsideTheProjectAreLibraryCalls) {
  // A static function defined in a header that is not instrumented (outside the included
  // roots, as Csmith's safe_math.h is outside a project) is called as a library function: no
  // record for an entry that never comes. The unit's own static functions keep theirs.
  llvm::SmallString<256> Outside(Root), Source(Root);
  llvm::sys::path::append(Outside, "outside");
  llvm::sys::path::append(Source, "src");
  llvm::sys::fs::create_directories(Outside);
  llvm::sys::fs::create_directories(Source);
  std::ofstream(std::string(Outside) + "/safe.h")
      << "static int safe_add(int a, int b) { return a + b; }\n";
  std::ofstream(std::string(Source) + "/main.c") << "#include \"../outside/safe.h\"\n"
                                                    "static int twice(int v) { return 2 * v; }\n"
                                                    "int f(int x) {\n"
                                                    "  int y = safe_add(x, 1);\n"
                                                    "  return twice(y);\n"
                                                    "}\n";
  InstrumentRequest R;
  R.File = std::string(Source) + "/main.c";
  R.ShowDiagnostics = false;
  R.IncludedRoots = {std::string(Source)};
  InstrumentResult Result = instrument(R);
  ASSERT_TRUE(Result.Ok) << Result.Error;
  std::string Body =
      Result.Text.substr(std::min(Result.Text.find("int f(int x)"), Result.Text.size()));
  EXPECT_TRUE(std::regex_search(Body, std::regex("int y = [^;]*safe_add\\(")) &&
              !std::regex_search(Body, std::regex("int y = [^;]*sleuth_call")))
      << Body;
  EXPECT_TRUE(std::regex_search(Body, std::regex("sleuth_call\\w*\\([^;]*twice\\("))) << Body;
}

TEST_F(RewriteTest, OperatorsTheProgramWroteAreCalls) {
  // `v[i]`, `a * k`, `++c` of the program's operators get a call record, each operand that is a
  // parameter a mark (not a member operator's object); `->`, `,`, a defaulted `==`, a `<`
  // rewritten from `<=>` and the library's operators do not.
  std::string Text = rewrite("operators.cpp",
                             "#include <compare>\n"
                             "#include <string>\n"
                             "struct V {\n"
                             "  int d[2];\n"
                             "  int &operator[](int i) { return d[i]; }\n"
                             "  V *operator->() { return this; }\n"
                             "  int operator,(int k) { return k; }\n"
                             "  bool operator==(const V &) const = default;\n"
                             "  auto operator<=>(const V &o) const { return d[0] <=> o.d[0]; }\n"
                             "};\n"
                             "struct M { int c; };\n"
                             "M operator*(M m, int k) { return M{m.c * k}; }\n"
                             "struct C { int n; C &operator++() { ++n; return *this; } };\n"
                             "int f(V v, V w, int i, int k) {\n"
                             "  int x = v[i];\n"
                             "  M t = M{1} * k;\n"
                             "  C c{0};\n"
                             "  ++c;\n"
                             "  int y = v->d[0] + (v, k);\n"
                             "  bool e = v == w, l = v < w;\n"
                             "  std::string s = std::string(\"a\") + \"b\";\n"
                             "  return x + t.c + c.n + y + e + l + int(s.size());\n"
                             "}\n",
                             {"-std=c++20"});
  const std::string Call = "\\(sleuth_call(?:v)?\\(&__sleuth_tu, \\d+u, [^,]+, \\d+u[^)]*\\), ";
  EXPECT_TRUE(std::regex_search(
      Text, std::regex(Call + "v\\[\\(sleuth_arg\\(&__sleuth_tu, \\d+u, 1\\), [^\\]]*i\\)+\\]\\)")))
      << Text;
  EXPECT_TRUE(std::regex_search(
      Text,
      std::regex(Call + "M\\{1\\} \\* \\(sleuth_arg\\(&__sleuth_tu, \\d+u, 2\\), [^;]*k\\)\\)")))
      << Text;
  EXPECT_TRUE(std::regex_search(Text, std::regex(Call + "\\+\\+c\\)"))) << Text;
  // Three calls in f: the subscript, the product and the increment.
  std::string Body = Text.substr(std::min(Text.find("int f(V v"), Text.size()));
  size_t Calls = 0;
  for (size_t At = Body.find("sleuth_call"); At != std::string::npos;
       At = Body.find("sleuth_call", At + 1))
    ++Calls;
  EXPECT_EQ(Calls, 3u) << Body;
}

TEST_F(RewriteTest, ConstructorCallsPassTheirArgumentsOn) {
  // A constructor the program wrote gets a call record from the arguments that read something
  // (sleuth_construct_arg on each: their order is unspecified), in a declaration, a new
  // expression and a temporary. Not on a null pointer constant or a braced constant (the comma
  // would make them none), nor for the library's constructors or the compiler's.
  std::string Text =
      rewrite("construct.cpp", "#include <string>\n"
                               "struct P {\n"
                               "  P(int a, const char *s, char c) : v(a + c + !s) {}\n"
                               "  int v;\n"
                               "};\n"
                               "struct Q { int w; };\n"
                               "int f(int x, int y) {\n"
                               "  P p(x, nullptr, 'c');\n"
                               "  P *q = new P(y + 1, 0, 'd');\n"
                               "  int t = P(x, \"s\", 'e').v;\n"
                               "  P b{y, nullptr, 65};\n"
                               "  std::string s(3, 'a');\n"
                               "  Q w{x};\n"
                               "  Q z(w);\n"
                               "  int r = p.v + q->v + t + b.v + z.w + int(s.size());\n"
                               "  delete q;\n"
                               "  return r;\n"
                               "}\n");
  auto Carried = [&](const std::string &Argument, const char *Position) {
    return std::regex_search(Text,
                             std::regex("\\(sleuth_construct_arg\\(&__sleuth_tu, \\d+u, [^,]+, "
                                        "\\d+u, " +
                                        std::string(Position) + "u\\), " + Argument));
  };
  // (x read through the shadow or kept in a companion: either form of read.)
  const std::string X = "(?:sleuth::rd\\(x\\)|\\(sleuth_use\\(__sleuth_o\\d+_\\d+\\), x\\))";
  EXPECT_TRUE(Carried(X + "\\), nullptr, 'c'\\);", "1")) << Text;
  EXPECT_TRUE(Carried("\\(sleuth_use\\(__sleuth_o\\d+_\\d+\\), y\\) \\+ 1\\), 0, 'd'\\)", "1"))
      << Text;
  EXPECT_TRUE(Carried(X + "\\), \"s\", 'e'\\)\\.v", "1")) << Text;
  EXPECT_TRUE(Carried("\\(sleuth_use\\(__sleuth_o\\d+_\\d+\\), y\\)\\), nullptr, 65\\}", "1"))
      << Text;
  // Every construction of P has one record, and nothing else has one.
  size_t Probes = 0;
  for (size_t At = Text.find("sleuth_construct_arg("); At != std::string::npos;
       At = Text.find("sleuth_construct_arg(", At + 1))
    ++Probes;
  EXPECT_EQ(Probes, 4u) << Text;
}

TEST_F(RewriteTest, InitializerListConstructorsTakeTheParametersNodes) {
  // A base's, a delegated-to and a member's constructor run before the body, before the entry
  // that makes the parameters' nodes: each argument that reads parameters pushes their nodes
  // (the unit's base plus the parameter's site), or reads the object a reference names. Not an
  // argument reading no parameter, nor the library's constructors.
  std::string Text = rewrite("initializers.cpp", "#include <string>\n"
                                                 "struct Base {\n"
                                                 "  Base(int a, int b) : v(a + b) {}\n"
                                                 "  int v;\n"
                                                 "};\n"
                                                 "struct Part {\n"
                                                 "  explicit Part(int n) : n(n) {}\n"
                                                 "  int n;\n"
                                                 "};\n"
                                                 "struct D : Base {\n"
                                                 "  D(int x, const int &r, const std::string &s)\n"
                                                 "      : Base(x * 2, 7), part(r), name(s) {}\n"
                                                 "  explicit D(int y) : D(y, 3, \"d\") {}\n"
                                                 "  Part part;\n"
                                                 "  std::string name;\n"
                                                 "};\n"
                                                 "int f(int k) { return D(k).v; }\n");
  auto Carried = [&](const std::string &Origins, const char *Position, const std::string &Arg) {
    return std::regex_search(
        Text, std::regex("\\(sleuth_initializer_call\\(\\), sleuth_construct_arg\\(&__sleuth_tu, "
                         "\\d+u, 0u, \\d+u, " +
                         std::string(Position) + "u\\), " + Origins + Arg + "\\)"));
  };
  const std::string Node = "sleuth_use\\(__sleuth_tu\\.base \\+ \\d+u\\), ";
  EXPECT_TRUE(Carried(Node, "1", "x \\* 2")) << Text;
  EXPECT_TRUE(Carried("sleuth_get\\(sleuth::address_of\\(r\\), sizeof\\(r\\)\\), ", "1", "r"))
      << Text;
  EXPECT_TRUE(Carried(Node, "1", "y")) << Text;
  // 7, "d" and 3 read no parameter; std::string's constructor is the library's.
  size_t Probes = 0;
  for (size_t At = Text.find("sleuth_construct_arg("); At != std::string::npos;
       At = Text.find("sleuth_construct_arg(", At + 1))
    ++Probes;
  EXPECT_EQ(Probes, 4u) << Text; // and D(k) in f
}

TEST_F(RewriteTest, MemberInitializerCallsSendTheirValueToTheMembersWrite) {
  // A call of the program's in a member initializer gets a record whose value goes to the
  // member's write at the body's start (sleuth_callv with that write's site), its arguments the
  // parameters' nodes; the write reads the rest of the initializer (b), not the call's
  // arguments (a). A library call is left alone and its arguments read, as before.
  std::string Text = rewrite(
      "member_calls.cpp", "#include <cstdlib>\n"
                          "int add(int x, int y) { return x + y; }\n"
                          "struct M {\n"
                          "  M(int a, int b, int c) : sum_(add(a, 1) + b), abs_(std::abs(c)) {}\n"
                          "  int sum_;\n"
                          "  int abs_;\n"
                          "};\n"
                          "int f(int k) { return M(k, 2, -k).sum_; }\n");
  std::smatch Call;
  ASSERT_TRUE(std::regex_search(
      Text, Call,
      std::regex("\\(sleuth_initializer_call\\(\\), sleuth_callv\\(&__sleuth_tu, (\\d+)u, 0u, "
                 "\\d+u, (\\d+)u, &\\w+\\[\\d+\\]\\), "
                 "add\\(\\(sleuth_arg\\(&__sleuth_tu, \\1u, 1\\), "
                 "sleuth_use\\(__sleuth_tu\\.base \\+ \\d+u\\), a\\), 1\\)\\)")))
      << Text;
  std::string Consumer = Call[2];
  // The write of sum_ is that consumer; it reads b and not a.
  EXPECT_NE(Text.find("sleuth_set(&__sleuth_tu, " + Consumer + "u, "), std::string::npos) << Text;
  size_t Write = Text.find("sleuth_set(&__sleuth_tu, " + Consumer + "u, ");
  size_t Entry = Text.rfind("sleuth::Frame", Write);
  ASSERT_NE(Entry, std::string::npos) << Text;
  std::string Before = Text.substr(Entry, Write - Entry);
  EXPECT_TRUE(
      std::regex_search(Before, std::regex("address_of\\(b\\)|sleuth_use\\(__sleuth_o\\d+_1\\)")))
      << Before;
  EXPECT_FALSE(
      std::regex_search(Before, std::regex("address_of\\(a\\)|sleuth_use\\(__sleuth_o\\d+_0\\)")))
      << Before;
  EXPECT_EQ(Text.find("abs((sleuth"), std::string::npos) << Text;
}
