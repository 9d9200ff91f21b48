// Which CFG blocks coverage mode may take to be left through their out-edges
// (instrumenter/src/coverage/AbnormalExits.h): none that may crash for the exact placement,
// none that may throw or longjmp for the minimal one.
#include "coverage/AbnormalExits.h"

#include "clang/AST/Decl.h"
#include "clang/ASTMatchers/ASTMatchFinder.h"
#include "clang/ASTMatchers/ASTMatchers.h"
#include "clang/Tooling/Tooling.h"

#include <gtest/gtest.h>

using namespace clang;
using namespace clang::ast_matchers;
using sleuth::instrumenter::AbnormalExits;

namespace {

struct Verdict {
  bool MayDie = false, MayEscape = false;
};

/// Whether any block of function `f` in Code may die, or may be left by a throw or longjmp.
Verdict judge(const std::string &Code, bool Cxx) {
  std::vector<std::string> Args = {"-std=c99"};
  if (Cxx)
    Args = {"-std=c++20", "-fexceptions", "-fcxx-exceptions"};
  std::unique_ptr<ASTUnit> Unit =
      tooling::buildASTFromCodeWithArgs(Code, Args, Cxx ? "input.cpp" : "input.c");
  EXPECT_TRUE(Unit);
  ASTContext &Ast = Unit->getASTContext();
  auto Found = match(functionDecl(hasName("f"), isDefinition()).bind("f"), Ast);
  EXPECT_EQ(Found.size(), 1u);
  const auto *F = Found[0].getNodeAs<FunctionDecl>("f");
  CFG::BuildOptions Options;
  Options.setAllAlwaysAdd();
  std::unique_ptr<CFG> Graph = CFG::buildCFG(F, F->getBody(), &Ast, Options);
  EXPECT_TRUE(Graph);
  AbnormalExits Exits(Ast);
  Verdict V;
  for (const CFGBlock *B : *Graph) {
    V.MayDie |= Exits.mayDie(*B);
    V.MayEscape |= Exits.mayEscape(*B);
  }
  // A block that may throw or longjmp may also end the run there.
  EXPECT_TRUE(!V.MayEscape || V.MayDie);
  return V;
}

TEST(AbnormalExitsTest, ArithmeticOnLocalsCannotDie) {
  Verdict V =
      judge("int f(int a, int b) { int c = a * b + 1; if (c < 0) c = -c; return c; }", false);
  EXPECT_FALSE(V.MayDie);
  EXPECT_FALSE(V.MayEscape);
  EXPECT_FALSE(judge("double f(double a, double b) { return a / b; }", false).MayDie);
  EXPECT_FALSE(judge("long f(long a) { return __builtin_expect(a, 0) ? 1 : 2; }", false).MayDie);
}

TEST(AbnormalExitsTest, FaultsDieButDoNotEscape) {
  for (const char *Code :
       {"int f(int *p) { return *p; }", "int f(int *p, int i) { return p[i]; }",
        "struct s { int x; }; int f(struct s *p) { return p->x; }",
        "int f(int a, int b) { return a / b; }", "int f(int a, int b) { a %= b; return a; }"}) {
    Verdict V = judge(Code, false);
    EXPECT_TRUE(V.MayDie) << Code;
    EXPECT_FALSE(V.MayEscape) << Code;
  }
  Verdict V = judge("int f(int &r) { return r + 1; }", true); // read through a reference
  EXPECT_TRUE(V.MayDie);
  EXPECT_FALSE(V.MayEscape);
}

TEST(AbnormalExitsTest, CallsInC) {
  // An unknown function may longjmp.
  EXPECT_TRUE(judge("int g(int); int f(int a) { return g(a); }", false).MayEscape);
  // glibc's __THROW in C: nothrow and leaf, it never calls back into the program.
  Verdict Leaf = judge(
      "int g(int) __attribute__((__nothrow__, __leaf__)); int f(int a) { return g(a); }", false);
  EXPECT_TRUE(Leaf.MayDie);
  EXPECT_FALSE(Leaf.MayEscape);
  // A function whose body the unit has and that calls nothing that may jump returns.
  EXPECT_FALSE(judge("static int h(int x) { return x + 1; } int f(int a) { return h(a); }", false)
                   .MayEscape);
  EXPECT_TRUE(
      judge("int g(int); static int h(int x) { return g(x); } int f(int a) { return h(a); }", false)
          .MayEscape);
  // setjmp returns twice: a longjmp comes back into its block.
  EXPECT_TRUE(judge("typedef long jmp_buf[8]; int setjmp(jmp_buf); jmp_buf b;"
                    "int f(void) { return setjmp(b); }",
                    false)
                  .MayEscape);
}

TEST(AbnormalExitsTest, CallsAndThrowsInCxx) {
  EXPECT_TRUE(judge("int g(int); int f(int a) { return g(a); }", true).MayEscape);
  EXPECT_FALSE(judge("int g(int) noexcept; int f(int a) { return g(a); }", true).MayEscape);
  EXPECT_TRUE(judge("void f(int a) { if (a) throw a; }", true).MayEscape);
  EXPECT_TRUE(
      judge("struct S { virtual int v(); }; int f(S &s) { return s.v(); }", true).MayEscape);
  EXPECT_FALSE(judge("struct S { virtual int v() noexcept; }; int f(S &s) { return s.v(); }", true)
                   .MayEscape);
  EXPECT_TRUE(judge("int *f() { return new int(3); }", true).MayEscape); // std::bad_alloc
  EXPECT_TRUE(judge("int f(int (*g)(int)) { return g(1); }", true).MayEscape);
  // A constructor whose body throws, and one that cannot.
  EXPECT_TRUE(judge("struct T { T(int a) { if (a) throw a; } }; void f(int a) { T t(a); }", true)
                  .MayEscape);
  EXPECT_FALSE(
      judge("struct T { int x; T(int a) : x(a) {} }; void f(int a) { T t(a); }", true).MayEscape);
  // A `try`'s handlers are entered from anywhere in it.
  EXPECT_TRUE(judge("void f(int a) { try { a++; } catch (...) { a--; } }", true).MayEscape);
}

} // namespace
