// Every transformation with its input and expected output side by side, as
// clang_delta's --transformation=X --counter=N would print them.
#include "Edit.h"
#include "Transformation.h"

#include <gtest/gtest.h>

#include <set>

using namespace sleuth::reducer;

namespace {

LanguageOptions lang(bool Cxx) {
  LanguageOptions L;
  L.CPlusPlus = Cxx;
  L.FileName = Cxx ? "t.cpp" : "t.c";
  return L;
}

std::vector<Change> instances(const char *Pass, const std::string &In, bool Cxx) {
  const Transformation *T = findTransformation(Pass);
  EXPECT_NE(T, nullptr) << Pass;
  return T ? collectInstances(*T, In, lang(Cxx)) : std::vector<Change>{};
}

/// The text after applying instance N (1-based) of Pass to In.
std::string apply(const char *Pass, const std::string &In, std::size_t N = 1, bool Cxx = true) {
  std::vector<Change> I = instances(Pass, In, Cxx);
  if (N == 0 || N > I.size())
    return "<no instance " + std::to_string(N) + " of " + std::to_string(I.size()) + ">";
  return applyChanges(In, {&I[N - 1]});
}

std::size_t count(const char *Pass, const std::string &In, bool Cxx = true) {
  return instances(Pass, In, Cxx).size();
}

} // namespace

TEST(TransformationTest, RegistryHasUniqueDescribedPasses) {
  std::set<std::string> Names;
  for (const Transformation *T : allTransformations()) {
    EXPECT_TRUE(Names.insert(T->name()).second) << T->name();
    EXPECT_GT(std::string(T->description()).size(), 5u) << T->name();
    EXPECT_EQ(findTransformation(T->name()), T);
  }
  EXPECT_GE(Names.size(), 25u);
  // Coarse levels come first.
  unsigned Last = 0;
  for (const Transformation *T : allTransformations()) {
    EXPECT_GE(unsigned(T->level()), Last) << T->name();
    Last = T->level();
  }
}

TEST(TransformationTest, ApplyChangesSkipsOverlaps) {
  std::string Base = "0123456789";
  Change Outer = replaceRange(2, 8), Inner = replaceRange(4, 5, "x"),
         Other = replaceRange(8, 9, "y");
  EXPECT_EQ(applyChanges(Base, {&Outer, &Inner, &Other}), "01y9");
  EXPECT_EQ(applyChanges(Base, {&Inner, &Outer}), "0123x56789");
}

TEST(TransformationTest, RemoveUnusedDecl) {
  EXPECT_EQ(count("remove-unused-decl", "int used;\nint unused;\nint f() { return used; }\n"), 2u);
  EXPECT_EQ(apply("remove-unused-decl", "int used;\nint unused;\nint f() { return used; }\n"),
            "int used;\n\nint f() { return used; }\n");
}

TEST(TransformationTest, RemoveDecl) {
  const char *In = "int a;\nnamespace n { int b; int c; }\n";
  EXPECT_EQ(count("remove-decl", In), 4u);
  EXPECT_EQ(apply("remove-decl", In, 2), "int a;\n\n");
  EXPECT_EQ(apply("remove-decl", In, 3), "int a;\nnamespace n {  int c; }\n");
  // `int x, y;` is one declaration group.
  EXPECT_EQ(apply("remove-decl", "int x, y;\nint z;\n", 1, false), "\nint z;\n");
}

TEST(TransformationTest, RemoveMember) {
  EXPECT_EQ(apply("remove-member", "struct S { int a; int b; };"), "struct S {  int b; };");
}

TEST(TransformationTest, EmptyFunctionBody) {
  EXPECT_EQ(apply("empty-function-body", "int f() { return 1; }"), "int f() {}");
}

TEST(TransformationTest, FunctionBodyToDecl) {
  EXPECT_EQ(apply("function-body-to-decl", "int f() { return 1; }"), "int f() ;");
  EXPECT_EQ(apply("function-body-to-decl", "struct S { int x; S() : x(1) { x++; } };"),
            "struct S { int x; S() ; };");
}

TEST(TransformationTest, RemoveStmt) {
  EXPECT_EQ(apply("remove-stmt", "void f() { int a = 1; a++; }", 2), "void f() { int a = 1;  }");
}

TEST(TransformationTest, IfToBranch) {
  const char *In = "int f(int x) { if (x) return 1; else return 2; }";
  EXPECT_EQ(apply("if-to-branch", In, 1), "int f(int x) { return 1; }");
  EXPECT_EQ(apply("if-to-branch", In, 2), "int f(int x) { return 2; }");
}

TEST(TransformationTest, LoopToBody) {
  EXPECT_EQ(apply("loop-to-body", "void g(); void f() { while (1) { g(); } }"),
            "void g(); void f() { { g(); } }");
  EXPECT_EQ(apply("loop-to-body", "void g(int); void f() { for (int i = 0; i < 3; i++) g(1); }"),
            "void g(int); void f() { g(1); }");
}

TEST(TransformationTest, StmtToNull) {
  EXPECT_EQ(apply("stmt-to-null", "void g(); void f(int x) { if (x) g(); }"),
            "void g(); void f(int x) { if (x) ; }");
}

TEST(TransformationTest, TernaryToBranch) {
  EXPECT_EQ(apply("ternary-to-branch", "int f(int c) { return c ? 10 : 20; }", 2),
            "int f(int c) { return 20; }");
}

TEST(TransformationTest, ExprToOperand) {
  const char *In = "int f(int a, int b) { return a + b * 2; }";
  EXPECT_EQ(apply("expr-to-operand", In, 1), "int f(int a, int b) { return a; }");
  // Largest reductions first: dropping the parentheses saves more than
  // dropping the minus.
  EXPECT_EQ(apply("expr-to-operand", "int f(int a) { return -(a); }", 1),
            "int f(int a) { return -a; }");
  EXPECT_EQ(apply("expr-to-operand", "int f(int a) { return -(a); }", 2),
            "int f(int a) { return (a); }");
}

TEST(TransformationTest, ExprToZero) {
  EXPECT_EQ(apply("expr-to-zero", "int f(int a) { return a * 3 + 1; }"),
            "int f(int a) { return 0; }");
}

TEST(TransformationTest, RemoveParam) {
  EXPECT_EQ(apply("remove-param", "int f(int a, int b) { return b; } "
                                  "int g() { return f(1, 2); }"),
            "int f(int b) { return b; } int g() { return f(2); }");
  // Every declaration of the function loses the parameter.
  EXPECT_EQ(apply("remove-param", "void h(int x);\nvoid h(int x) {}\nvoid k() { h(3); }\n"),
            "void h();\nvoid h() {}\nvoid k() { h(); }\n");
}

TEST(TransformationTest, RemoveDefaultArg) {
  EXPECT_EQ(apply("remove-default-arg", "int f(int a = 3) { return a; }"),
            "int f(int a) { return a; }");
  EXPECT_EQ(apply("remove-default-arg", "template <class T = int> struct S {};"),
            "template <class T> struct S {};");
}

TEST(TransformationTest, UnwrapNamespace) {
  EXPECT_EQ(apply("unwrap-namespace", "namespace n { int a; }\nint b = n::a;"),
            " int a; \nint b = n::a;");
  EXPECT_EQ(apply("unwrap-namespace", "namespace { struct A {}; }"), " struct A {}; ");
  // Nested namespaces one at a time, outer first; extern "C" blocks with braces only.
  EXPECT_EQ(apply("unwrap-namespace", "namespace a { namespace b { int x; } }", 2),
            "namespace a {  int x;  }");
  EXPECT_EQ(apply("unwrap-namespace", "extern \"C\" { int f(); }"), " int f(); ");
  EXPECT_EQ(count("unwrap-namespace", "extern \"C\" int f();"), 0u);
  EXPECT_EQ(count("unwrap-namespace", "int f();", /*Cxx=*/false), 0u);
}

TEST(TransformationTest, RemoveBase) {
  EXPECT_EQ(apply("remove-base",
                  "struct A {}; struct B {}; "
                  "struct C : A, public B {};",
                  2),
            "struct A {}; struct B {}; struct C : A {};");
  EXPECT_EQ(apply("remove-base", "struct A {}; struct C : public A {};"),
            "struct A {}; struct C  {};");
}

TEST(TransformationTest, ClassTemplateToClass) {
  EXPECT_EQ(
      apply("class-template-to-class", "template <class T> struct S { int x; };\nS<int> s;\n"),
      " struct S { int x; };\nS s;\n");
}

TEST(TransformationTest, RemoveTemplateParam) {
  EXPECT_EQ(apply("remove-template-param",
                  "template <class T, class U> struct P { T t; };\n"
                  "P<int, char> p;\n",
                  2),
            "template <class T> struct P { T t; };\nP<int> p;\n");
}

TEST(TransformationTest, InlineTypedef) {
  EXPECT_EQ(apply("inline-typedef", "typedef unsigned long ul;\nul x;\nul f(ul a);\n"),
            "\nunsigned long x;\nunsigned long f(unsigned long a);\n");
  // A typedef whose name sits inside its type cannot be pasted.
  EXPECT_EQ(count("inline-typedef", "typedef int A[3];\nA a;\n"), 0u);
}

TEST(TransformationTest, ShortenNames) {
  EXPECT_EQ(apply("shorten-names", "int counter;\nint next_value() { return ++counter; }\n"),
            "int a;\nint next_value() { return ++a; }\n");
  EXPECT_EQ(apply("shorten-names",
                  "struct point { int x; };\nstruct point origin;\n"
                  "int get() { return origin.x; }\n",
                  2),
            "struct b { int x; };\nstruct b origin;\n"
            "int get() { return origin.x; }\n");
}

TEST(TransformationTest, LexicalPassesWorkWithoutParsing) {
  const char *Broken = "int a; garbage ( ; ) here; void f() { }";
  EXPECT_EQ(apply("lexical-decls", Broken, 2), "int a;  void f() { }");
  EXPECT_EQ(apply("lexical-stmts", "void f() { a(); b; }", 2), "void f() { a();  }");
  EXPECT_EQ(apply("remove-directives", "# 1 \"x.h\"\nint a;\n#define X 1\n"),
            "\nint a;\n#define X 1\n");
  EXPECT_EQ(apply("balanced-braces", "struct S { int a; };"), "struct S ;");
  EXPECT_EQ(apply("empty-braces", "void f() { int a; }"), "void f() {}");
  EXPECT_EQ(apply("balanced-parens", "int x = f(1, 2);"), "int x = f;");
  EXPECT_EQ(apply("empty-parens", "int x = f(1, 2);"), "int x = f();");
  EXPECT_EQ(apply("unwrap-parens", "int x = (1 + 2);"), "int x = 1 + 2;");
  EXPECT_EQ(apply("unwrap-braces", "void f() { { g(); } }", 2), "void f() {  g();  }");
  EXPECT_EQ(apply("balanced-angles", "template <class T> struct S;"), "template  struct S;");
  EXPECT_EQ(apply("lines", "int a;\n\nint b;\n", 2), "int a;\n\n");
  EXPECT_EQ(apply("tokens", "int a;", 2), "int ;");
  // Neighbours that touched the token stay apart.
  EXPECT_EQ(apply("tokens", "requires(T)", 2), "requires T)");
  EXPECT_EQ(apply("token-runs", "a+(-b)", 6), "a b)"); // `+(-` went.
  // Runs of 4, then 3, then 2 tokens, each at every offset: `= 0` goes in one piece.
  EXPECT_EQ(count("token-runs", "int a = 0;", false), 2u + 3u + 4u);
  EXPECT_EQ(apply("token-runs", "int a = 0;", 8), "int a ;");
  EXPECT_EQ(apply("whitespace", "int   a ;\n\n\nint b;", 1), "int a ;\n\n\nint b;");
}

TEST(TransformationTest, AstPassesTolerateErrors) {
  // Clang's error recovery still yields both declarations.
  EXPECT_EQ(count("remove-decl", "int f() { return 1 +; }\nint g;\n", false), 2u);
}

TEST(TransformationTest, RemoveIncludedFile) {
  // A preprocessed file: a.h includes b.h. Each included file is one
  // instance, markers included, the largest (outermost) first.
  const char *In = "# 1 \"t.cpp\"\n"
                   "# 1 \"a.h\" 1\n"
                   "int a;\n"
                   "# 1 \"b.h\" 1 3\n"
                   "int b;\n"
                   "# 3 \"a.h\" 2\n"
                   "# 2 \"t.cpp\" 2\n"
                   "int main() { return a; }\n";
  EXPECT_EQ(count("remove-included-file", In), 2u);
  EXPECT_EQ(apply("remove-included-file", In, 1), "# 1 \"t.cpp\"\n"
                                                  "int main() { return a; }\n");
  EXPECT_EQ(apply("remove-included-file", In, 2), "# 1 \"t.cpp\"\n"
                                                  "# 1 \"a.h\" 1\n"
                                                  "int a;\n"
                                                  "# 2 \"t.cpp\" 2\n"
                                                  "int main() { return a; }\n");
  // Without line markers there is nothing to remove.
  EXPECT_EQ(count("remove-included-file", "#include <x.h>\nint a;\n"), 0u);
}

TEST(TransformationTest, InlineFunction) {
  EXPECT_EQ(apply("inline-function", "int sq(int x) { return x * x; }\n"
                                     "int main() { return sq(2 + 1); }\n"),
            "\nint main() { return ((2 + 1) * (2 + 1)); }\n");
  // Used twice, or other than by a call: not inlined.
  EXPECT_EQ(count("inline-function", "int f(int x) { return x; }\n"
                                     "int g() { return f(1) + f(2); }\n"),
            0u);
  EXPECT_EQ(count("inline-function", "int f(int x) { return x; }\n"
                                     "int (*p)(int) = f;\nint g() { return f(1); }\n"),
            0u);
}

TEST(TransformationTest, EmptyStructToInt) {
  EXPECT_EQ(apply("empty-struct-to-int", "struct A {};\nA a;\nstruct A b;\n"
                                         "int f(A x) { return sizeof(x); }\n"),
            "\nint a;\nint b;\nint f(int x) { return sizeof(x); }\n");
  // Not empty, or empty only in name (a base): not replaced.
  EXPECT_EQ(count("empty-struct-to-int", "struct B { int x; };\nB b;\n"), 0u);
  EXPECT_EQ(count("empty-struct-to-int", "struct B { int x; };\nstruct C : B {};\nC c;\n"), 0u);
}
