// Each operator on small inputs, with the mutants it must produce written out in full; what
// must not be mutated (macros, constexpr, constant expressions, headers); stable ids.
#include "TestUtil.h"

namespace sleuth::mutator::test {
namespace {

TEST(Operators, AreListedWithNameAndDescription) {
  Lines Names;
  for (const OperatorInfo &I : mutationOperators()) {
    Names.push_back(std::string(I.Name));
    EXPECT_FALSE(I.Description.empty()) << I.Name;
  }
  EXPECT_EQ(Names, (Lines{"ror", "aor", "lcr", "obo", "neg", "sdl"}));
  EXPECT_TRUE(isMutationOperator("ror"));
  EXPECT_FALSE(isMutationOperator("xyz"));
}

//===--- ror ---------------------------------------------------------------===//

TEST(Ror, ReplacesARelationalOperatorByEachOther) {
  EXPECT_EQ(
      mutants("bool f(int a, int b) { return a < b; }", "ror"),
      (Lines{"bool f(int a, int b) { return a <= b; }", "bool f(int a, int b) { return a > b; }",
             "bool f(int a, int b) { return a >= b; }", "bool f(int a, int b) { return a == b; }",
             "bool f(int a, int b) { return a != b; }"}));
}

TEST(Ror, KeepsPointerEqualityAnEquality) {
  // `p < nullptr` does not compile; `p < q` does.
  EXPECT_EQ(mutants("bool f(int *p) { return p == nullptr; }", "ror"),
            (Lines{"bool f(int *p) { return p != nullptr; }"}));
  EXPECT_EQ(mutants("bool f(int *p, int *q) { return p >= q; }", "ror").size(), 5u);
}

//===--- aor ---------------------------------------------------------------===//

TEST(Aor, ReplacesAnIntegerOperatorByEachOther) {
  EXPECT_EQ(
      mutants("int f(int a, int b) { return a * b; }", "aor"),
      (Lines{"int f(int a, int b) { return a + b; }", "int f(int a, int b) { return a - b; }",
             "int f(int a, int b) { return a / b; }", "int f(int a, int b) { return a % b; }"}));
}

TEST(Aor, HasNoRemainderForFloatingPoint) {
  EXPECT_EQ(mutants("double f(double a, double b) { return a - b; }", "aor"),
            (Lines{"double f(double a, double b) { return a + b; }",
                   "double f(double a, double b) { return a * b; }",
                   "double f(double a, double b) { return a / b; }"}));
}

TEST(Aor, ReplacesCompoundAssignments) {
  EXPECT_EQ(mutants("void f(double &a) { a += 2.0; }", "aor"),
            (Lines{"void f(double &a) { a -= 2.0; }", "void f(double &a) { a *= 2.0; }",
                   "void f(double &a) { a /= 2.0; }"}));
}

TEST(Aor, SwapsOnlyPlusAndMinusInPointerArithmetic) {
  EXPECT_EQ(mutants("int *f(int *p, int n) { return p + n; }", "aor"),
            (Lines{"int *f(int *p, int n) { return p - n; }"}));
  EXPECT_EQ(mutants("void f(char *&p) { p -= 2; }", "aor"),
            (Lines{"void f(char *&p) { p += 2; }"}));
  // Neither `n - p` nor `p + q` exist.
  EXPECT_EQ(mutants("int *f(int *p, int n) { return n + p; }", "aor"), Lines{});
  EXPECT_EQ(mutants("long f(int *p, int *q) { return p - q; }", "aor"), Lines{});
}

TEST(Aor, KeepsTokensApart) {
  // `a*-b` with `-` for `*` would read `a--b`; `/` before `*p` would open a comment.
  Lines M = mutants("int f(int a, int *p) { return a*-*p; }", "aor");
  ASSERT_EQ(M.size(), 4u);
  EXPECT_EQ(M[0], "int f(int a, int *p) { return a+ -*p; }");
  EXPECT_EQ(M[1], "int f(int a, int *p) { return a- -*p; }");
  EXPECT_EQ(M[2], "int f(int a, int *p) { return a/ -*p; }");
}

//===--- lcr ---------------------------------------------------------------===//

TEST(Lcr, SwapsAndAndOr) {
  EXPECT_EQ(mutants("bool f(bool a, bool b, bool c) { return a && (b || c); }", "lcr"),
            (Lines{"bool f(bool a, bool b, bool c) { return a || (b || c); }",
                   "bool f(bool a, bool b, bool c) { return a && (b && c); }"}));
}

//===--- obo ---------------------------------------------------------------===//

TEST(Obo, AddsAndSubtractsOne) {
  EXPECT_EQ(mutants("int f(int a) { return a + 10; }", "obo"),
            (Lines{"int f(int a) { return a + 11; }", "int f(int a) { return a + 9; }"}));
}

TEST(Obo, KeepsRadixAndSuffix) {
  EXPECT_EQ(mutants("unsigned f() { return 0x1Fu; }", "obo"),
            (Lines{"unsigned f() { return 0x20u; }", "unsigned f() { return 0x1Eu; }"}));
  EXPECT_EQ(mutants("long f() { return 010L; }", "obo"),
            (Lines{"long f() { return 011L; }", "long f() { return 07L; }"}));
  EXPECT_EQ(mutants("int f() { return 1'000; }", "obo"),
            (Lines{"int f() { return 1001; }", "int f() { return 999; }"}));
}

TEST(Obo, WritesMinusOneInParentheses) {
  // Parentheses keep `a-0` from becoming `a--1`; an unsigned 0 has no minus one.
  EXPECT_EQ(mutants("int f(int a) { return a-0; }", "obo"),
            (Lines{"int f(int a) { return a-1; }", "int f(int a) { return a-(-1); }"}));
  EXPECT_EQ(mutants("unsigned f() { return 0u; }", "obo"), (Lines{"unsigned f() { return 1u; }"}));
}

TEST(Obo, LeavesNullPointersCaseLabelsAndArrayBoundsAlone) {
  EXPECT_EQ(
      mutants("int f(int x) {\n"
              "  int *p = 0;\n"
              "  int a[4] = {};\n"
              "  switch (x) { case 3: return a[0] + (p != 0); }\n"
              "  return sizeof(int[5]);\n"
              "}\n",
              "obo"),
      (Lines{"int f(int x) {\n  int *p = 0;\n  int a[4] = {};\n"
             "  switch (x) { case 3: return a[1] + (p != 0); }\n  return sizeof(int[5]);\n}\n",
             "int f(int x) {\n  int *p = 0;\n  int a[4] = {};\n"
             "  switch (x) { case 3: return a[(-1)] + (p != 0); }\n"
             "  return sizeof(int[5]);\n}\n"}));
}

//===--- neg ---------------------------------------------------------------===//

TEST(Neg, NegatesEveryKindOfCondition) {
  EXPECT_EQ(mutants("int f(int n) {\n"
                    "  if (n) n++;\n"
                    "  while (n > 3) n--;\n"
                    "  for (; n;) break;\n"
                    "  do n++; while (n < 2);\n"
                    "  return n ? 1 : 2;\n"
                    "}\n",
                    "neg"),
            (Lines{"int f(int n) {\n  if (!(n)) n++;\n  while (n > 3) n--;\n  for (; n;) break;\n"
                   "  do n++; while (n < 2);\n  return n ? 1 : 2;\n}\n",
                   "int f(int n) {\n  if (n) n++;\n  while (!(n > 3)) n--;\n  for (; n;) break;\n"
                   "  do n++; while (n < 2);\n  return n ? 1 : 2;\n}\n",
                   "int f(int n) {\n  if (n) n++;\n  while (n > 3) n--;\n  for (; !(n);) break;\n"
                   "  do n++; while (n < 2);\n  return n ? 1 : 2;\n}\n",
                   "int f(int n) {\n  if (n) n++;\n  while (n > 3) n--;\n  for (; n;) break;\n"
                   "  do n++; while (!(n < 2));\n  return n ? 1 : 2;\n}\n",
                   "int f(int n) {\n  if (n) n++;\n  while (n > 3) n--;\n  for (; n;) break;\n"
                   "  do n++; while (n < 2);\n  return !(n) ? 1 : 2;\n}\n"}));
}

TEST(Neg, LeavesDeclaredConditionsAlone) {
  EXPECT_EQ(mutants("int g();\nint f() { if (int x = g()) return x; return 0; }", "neg"), Lines{});
}

//===--- sdl ---------------------------------------------------------------===//

TEST(Sdl, DeletesStatementsWithEffects) {
  EXPECT_EQ(mutants("void g();\n"
                    "void f(int &x) {\n"
                    "  x = 1;\n"
                    "  g();\n"
                    "  x;\n"
                    "  int y = x;\n"
                    "  if (y) return;\n"
                    "  x++;\n"
                    "  return;\n"
                    "}\n",
                    "sdl"),
            (Lines{"void g();\nvoid f(int &x) {\n  ;\n  g();\n  x;\n  int y = x;\n"
                   "  if (y) return;\n  x++;\n  return;\n}\n",
                   "void g();\nvoid f(int &x) {\n  x = 1;\n  ;\n  x;\n  int y = x;\n"
                   "  if (y) return;\n  x++;\n  return;\n}\n",
                   // the body of an `if` becomes `{}`: `if (y) ;` trips -Wempty-body
                   "void g();\nvoid f(int &x) {\n  x = 1;\n  g();\n  x;\n  int y = x;\n"
                   "  if (y) {}\n  x++;\n  return;\n}\n",
                   "void g();\nvoid f(int &x) {\n  x = 1;\n  g();\n  x;\n  int y = x;\n"
                   "  if (y) return;\n  ;\n  return;\n}\n"}));
}

TEST(Sdl, DeletesBreakAndContinueButNotValueReturns) {
  EXPECT_EQ(mutants("int f(int n) {\n"
                    "  for (;;) { if (n) continue; break; }\n"
                    "  return n;\n"
                    "}\n",
                    "sdl"),
            (Lines{"int f(int n) {\n  for (;;) { if (n) {} break; }\n  return n;\n}\n",
                   "int f(int n) {\n  for (;;) { if (n) continue; ; }\n  return n;\n}\n"}));
}

//===--- what is not mutated ----------------------------------------------===//

TEST(NotMutated, MacroBodiesAndArguments) {
  MutateResult R = parse("#define BIG(x) ((x) > 100)\n"
                         "#define LIMIT 10\n"
                         "#define CALL(f, a) f(a + 1)\n"
                         "int g(int);\n"
                         "int f(int a) { return BIG(a - 1) + LIMIT + CALL(g, a); }\n");
  ASSERT_TRUE(R.Ok) << R.Error;
  // Only the two `+` written outside the macros.
  Lines Found;
  for (const Mutant &M : R.Mutants)
    Found.push_back(M.Operator + " " + M.Original + " " + std::to_string(M.Column));
  EXPECT_EQ(Found, (Lines{"aor + 34", "aor + 34", "aor + 34", "aor + 34", "aor + 42", "aor + 42",
                          "aor + 42", "aor + 42"}));
}

TEST(NotMutated, ConstexprAndConstantExpressions) {
  MutateResult R = parse("constexpr int sq(int x) { return x * x; }\n"
                         "consteval int cube(int x) { return x * x * x; }\n"
                         "template <int N> int get() { return N; }\n"
                         "int f(int x) {\n"
                         "  static_assert(sq(2) == 4);\n"
                         "  constexpr int k = 3 + 1;\n"
                         "  auto l = [](int y) constexpr { return y - 1; };\n"
                         "  if constexpr (sizeof(int) > 2) {}\n"
                         "  return get<2 + 1>() + sizeof(x + 1) + k + l(0);\n"
                         "}\n");
  ASSERT_TRUE(R.Ok) << R.Error;
  Lines Found;
  for (const Mutant &M : R.Mutants)
    Found.push_back(std::to_string(M.Line) + ":" + std::to_string(M.Column) + " " + M.Operator +
                    " " + M.Original);
  // Only the `+`s of line 9 that add run-time values, and the literal 0 passed to l.
  Lines Expected;
  for (int Column : {23, 39, 43})
    for (int I = 0; I < 4; ++I)
      Expected.push_back("9:" + std::to_string(Column) + " aor +");
  Expected.push_back("9:47 obo 0");
  Expected.push_back("9:47 obo 0");
  EXPECT_EQ(Found, Expected);
}

TEST(NotMutated, HeadersAndGlobalInitializers) {
  std::filesystem::path Dir = scratchDir();
  writeFile(Dir / "h.h", "inline int h(int a) { return a + 1; }\n");
  MutateRequest Request;
  Request.File = writeFile(Dir / "m.cpp", "#include \"h.h\"\n"
                                          "int g = 2 + 3;\n"
                                          "int f() { return h(g) > 0; }\n");
  Request.Arguments = {"-std=c++20"};
  MutateResult R = findMutants(Request);
  ASSERT_TRUE(R.Ok) << R.Error;
  for (const Mutant &M : R.Mutants)
    EXPECT_EQ(M.Line, 3u) << M.Operator << " " << M.Original;
  EXPECT_EQ(R.Mutants.size(), 5u + 1u + 1u); // ror x5, obo 0 -> 1 and -> (-1)
}

TEST(Templates, AreMutatedOnceByTheirWrittenPattern) {
  MutateResult R = parse("template <class T> T mx(T a, T b) { return a < b ? b : a; }\n"
                         "int f() { return mx(1, 2) + int(mx(1.0, 2.0)); }\n");
  ASSERT_TRUE(R.Ok) << R.Error;
  unsigned OnLine1 = 0;
  for (const Mutant &M : R.Mutants)
    OnLine1 += M.Line == 1;
  EXPECT_EQ(OnLine1, 5u + 1u); // ror x5 and neg, not once per instantiation
}

TEST(Bodies, LambdasAndLocalClassesAreMutatedOnce) {
  MutateResult R = parse("auto gl = [](int x) { return x + 1; };\n"
                         "int f(int a) {\n"
                         "  struct Local { int m(int b) { return b - 1; } };\n"
                         "  auto l = [](int y) { return y * 2; };\n"
                         "  return Local().m(a) + l(a) + gl(a);\n"
                         "}\n");
  ASSERT_TRUE(R.Ok) << R.Error;
  Lines Found;
  for (const Mutant &M : R.Mutants)
    if (M.Operator == "aor" && M.Replacement == "/")
      Found.push_back(std::to_string(M.Line) + ":" + std::to_string(M.Column) + " " + M.Function);
  // A lambda inside a function belongs to that function's body.
  EXPECT_EQ(Found, (Lines{"1:32 lambda at 1:11", "3:42 f(int)::Local::m", "4:33 f", "5:23 f",
                          "5:30 f"}));
}

TEST(C, MutatesC89) {
  Lines M = mutants("int f(int *p, int n) {\n"
                    "  int i, s = 0;\n"
                    "  for (i = 0; i < n; i++)\n"
                    "    s += p[i];\n"
                    "  return s;\n"
                    "}\n",
                    "sdl", "input.c");
  EXPECT_EQ(M, (Lines{"int f(int *p, int n) {\n  int i, s = 0;\n  for (i = 0; i < n; i++)\n"
                      "    {}\n  return s;\n}\n"}));
}

//===--- ids, locations, errors ------------------------------------------===//

TEST(Ids, AreStableAndInSourceOrder) {
  const char *Source = "int f(int a, int b) {\n  if (a < b)\n    return a - 1;\n  return b;\n}\n";
  MutateResult First = parse(Source), Second = parse(Source);
  ASSERT_TRUE(First.Ok && Second.Ok);
  ASSERT_EQ(First.Mutants.size(), Second.Mutants.size());
  for (std::size_t I = 0; I < First.Mutants.size(); ++I) {
    const Mutant &A = First.Mutants[I], &B = Second.Mutants[I];
    EXPECT_EQ(A.Id, I + 1);
    EXPECT_EQ(std::tie(A.Id, A.Offset, A.Operator, A.Replacement),
              std::tie(B.Id, B.Offset, B.Operator, B.Replacement));
    if (I > 0) {
      EXPECT_LE(First.Mutants[I - 1].Offset, A.Offset);
    }
  }
  const Mutant &Neg = First.Mutants[0];
  EXPECT_EQ(Neg.Operator, "neg");
  EXPECT_EQ(Neg.Line, 2u);
  EXPECT_EQ(Neg.Column, 7u);
  EXPECT_EQ(Neg.Function, "f");
}

TEST(Errors, MissingFile) {
  MutateRequest R;
  R.File = "/nonexistent/x.c";
  MutateResult Result = findMutants(R);
  EXPECT_FALSE(Result.Ok);
  EXPECT_EQ(Result.Error, "/nonexistent/x.c: no such file");
}

TEST(Errors, UnparsableFileNamesThePosition) {
  MutateResult R = parse("int f( { return 1 }\n");
  EXPECT_FALSE(R.Ok);
  EXPECT_TRUE(R.Mutants.empty());
  EXPECT_NE(R.Error.find("input.cpp:1:"), std::string::npos) << R.Error;
  EXPECT_EQ(R.Error.find('\n'), std::string::npos) << R.Error;
}

TEST(Apply, ReplacesTheRange) {
  Mutant M;
  M.Offset = 2;
  M.Length = 1;
  M.Replacement = "<=";
  EXPECT_EQ(applyMutant("a < b", M), "a <= b");
}

} // namespace
} // namespace sleuth::mutator::test
