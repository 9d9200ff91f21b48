#include "Probes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/Stmt.h"

using namespace clang;

namespace sleuth::instrumenter {

// Effects whose execution depends on the decision: calls and writes (reads only flow as data).
static bool hasEffects(const Stmt *S) {
  if (!S || isa<UnaryExprOrTypeTraitExpr, LambdaExpr>(S))
    return false;
  if (isa<CallExpr>(S))
    return true;
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isAssignmentOp())
    return true;
  if (const auto *U = dyn_cast<UnaryOperator>(S); U && U->isIncrementDecrementOp())
    return true;
  for (const Stmt *C : S->children())
    if (hasEffects(C))
      return true;
  return false;
}

// True if E is (part of) the condition of an if/while/for/do/switch: then ConditionProbe's test
// covers it.
static bool isInStatementCondition(const Expr *E, FunctionInstrumenter &F) {
  const Stmt *Child = E;
  for (const Stmt *P = F.Ctx.parent(E); P; Child = P, P = F.Ctx.parent(P)) {
    if (const auto *If = dyn_cast<IfStmt>(P))
      return Child == If->getCond();
    if (const auto *W = dyn_cast<WhileStmt>(P))
      return Child == W->getCond();
    if (const auto *D = dyn_cast<DoStmt>(P))
      return Child == D->getCond();
    if (const auto *For = dyn_cast<ForStmt>(P))
      return Child == For->getCond();
    if (const auto *Sw = dyn_cast<SwitchStmt>(P))
      return Child == Sw->getCond();
    if (!isa<Expr>(P))
      return false;
  }
  return false;
}

bool BranchProbe::instrument(const Expr *E, FunctionInstrumenter &F) {
  const Expr *Decision = nullptr;
  bool Effects = false;
  if (const auto *B = dyn_cast<BinaryOperator>(E); B && B->isLogicalOp()) {
    Decision = B->getLHS();
    Effects = hasEffects(B->getRHS());
  } else if (const auto *C = dyn_cast<ConditionalOperator>(E)) {
    Decision = C->getCond();
    Effects = hasEffects(C->getTrueExpr()) || hasEffects(C->getFalseExpr());
  }
  if (!Decision || !Effects || E->isInstantiationDependent() || isInStatementCondition(E, F))
    return false;
  CharSourceRange R = F.Ctx.fileRange(Decision);
  if (R.isInvalid() || F.Ctx.fileRange(E).isInvalid())
    return false;
  unsigned Site = F.addSite(SiteKind::Test, Decision, Decision->getBeginLoc(), "<test>", ValueTest);
  F.claimReads(Decision, Site);
  // The expression's value reads the test: a read of the test's node, consumed by whatever
  // consumes the expression.
  std::string Node = F.Ctx.UnitName + ".base + " + std::to_string(Site) + "u";
  auto [Prefix, Suffix] =
      F.addRead({}, {"(sleuth_use(" + Node + "), ", ")",
                     "(" + F.Ctx.checkedRead("@CACHE@", "@SITE@", Node) + ", ", ")"});
  ConditionProbe::wrapTest(R, Site, F.Ctx.unitAndSite(Site) + ", " + F.control(Site),
                           Prefix + "0" + Suffix, F.fullExpression(E), F);
  F.mapTerminator(E, Site);
  F.countProbe();
  return true;
}

} // namespace sleuth::instrumenter
