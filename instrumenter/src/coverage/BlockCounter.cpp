#include "Counters.h"

#include "CoverageTable.h"

#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace sleuth::instrumenter {
namespace {

/// A statement's text range in the main file: a plain file range, or whole macro expansions
/// (`FREE(p);`) but never text inside a macro argument, which the macro may stringize.
CharSourceRange statementText(Context &Ctx, const Stmt *S) {
  CharSourceRange R = Ctx.fileRange(S);
  if (R.isValid())
    return R;
  SourceLocation B = S->getBeginLoc(), E = S->getEndLoc();
  if (Ctx.SM.isMacroArgExpansion(B) || Ctx.SM.isMacroArgExpansion(E))
    return {};
  return Ctx.expansionRange(S);
}

bool isLabel(const Stmt *S) { return isa<CaseStmt, DefaultStmt, LabelStmt>(S); }

} // namespace

std::string BlockCounter::increment(const Context &Ctx, unsigned Counter) {
  return "++" + Ctx.CounterName + "[" + std::to_string(Counter) + "]";
}

std::string BlockCounter::evaluationPrefix(const Context &Ctx, unsigned Counter) {
  // A comma is the only way to count before an expression runs. Its left operand cast to void
  // says it is meant (-Wcomma), with a C++ cast where old-style casts may warn (a void operand
  // also keeps any overloaded comma operator out).
  std::string Increment = increment(Ctx, Counter);
  return (Ctx.isC() ? "(void)" + Increment : "static_cast<void>(" + Increment + ")") + ", ";
}

bool BlockCounter::instrumentEvaluations(Context &Ctx, const Expr *E, unsigned Counter) {
  CharSourceRange R = Ctx.fileRange(E);
  if (R.isInvalid())
    return false;
  Ctx.wrap(R, "(" + evaluationPrefix(Ctx, Counter), ")");
  return true;
}

bool BlockCounter::instrumentEntry(Context &Ctx, const CompoundStmt *Body, unsigned Counter) {
  CharSourceRange R = Ctx.fileRange(Body);
  if (R.isInvalid())
    return false;
  SourceLocation AfterBrace = R.getBegin().getLocWithOffset(1);
  // In C a declaration is allowed where statements are not yet (C89); the variable is
  // function-scoped, so its name only has to differ from the program's.
  if (Ctx.isC())
    Ctx.insertBefore(AfterBrace, " __attribute__((unused)) unsigned long __sleuth_cov_entry = " +
                                     increment(Ctx, Counter) + ";");
  else
    Ctx.insertBefore(AfterBrace, " " + increment(Ctx, Counter) + ";");
  return true;
}

bool BlockCounter::canInstrument(Context &Ctx, const Stmt *T, const Stmt *Parent) {
  if (statementText(Ctx, T).isInvalid())
    return false;
  if (isa<CompoundStmt>(Parent) || isLabel(Parent))
    return !isa<DeclStmt>(T) || isa<CompoundStmt>(Parent);
  if (isa<IfStmt, WhileStmt, ForStmt, DoStmt, CXXForRangeStmt>(Parent))
    return !isa<DeclStmt>(T);
  return false;
}

bool BlockCounter::instrument(Context &Ctx, const Stmt *T, const Stmt *Parent, unsigned Counter) {
  CharSourceRange R = statementText(Ctx, T);
  if (R.isInvalid())
    return false;
  if (isa<CompoundStmt>(Parent) || isLabel(Parent)) {
    if (isa<DeclStmt>(T)) {
      if (!isa<CompoundStmt>(Parent))
        return false; // C before C23 has no declarations after labels
      if (Ctx.isC()) {
        Ctx.insertBefore(R.getBegin(), "__attribute__((unused)) unsigned long __sleuth_cov_b" +
                                           std::to_string(Counter) + " = " +
                                           increment(Ctx, Counter) + "; ");
        return true;
      }
    }
    Ctx.insertBefore(R.getBegin(), increment(Ctx, Counter) + "; ");
    return true;
  }
  if (isa<IfStmt, WhileStmt, ForStmt, DoStmt, CXXForRangeStmt>(Parent)) {
    if (isa<DeclStmt>(T))
      return false;
    CharSourceRange Whole = Ctx.withSemicolon(R);
    Ctx.wrap(Whole, "{ " + increment(Ctx, Counter) + "; ", " }");
    return true;
  }
  return false;
}

} // namespace sleuth::instrumenter
