//===- Conditions.cpp - neg: negated conditions --------------------------===//
#include "Operator.h"

using namespace clang;

namespace sleuth::mutator {
namespace {

class ConditionVisitor : public BodyVisitor<ConditionVisitor> {
public:
  using BodyVisitor::BodyVisitor;

  // `if (T x = f())` declares its condition: there is no expression to negate.
  bool VisitIfStmt(IfStmt *S) {
    if (!S->getConditionVariable())
      negate(S->getCond());
    return true;
  }
  bool VisitWhileStmt(WhileStmt *S) {
    if (!S->getConditionVariable())
      negate(S->getCond());
    return true;
  }
  bool VisitForStmt(ForStmt *S) {
    if (!S->getConditionVariable())
      negate(S->getCond());
    return true;
  }
  bool VisitDoStmt(DoStmt *S) {
    negate(S->getCond());
    return true;
  }
  bool VisitConditionalOperator(ConditionalOperator *E) {
    negate(E->getCond());
    return true;
  }

private:
  void negate(Expr *Cond) {
    if (!Cond)
      return;
    // The written condition, without the implicit conversions Clang wraps around it.
    Expr *Written = Cond->IgnoreImplicit();
    if (auto S = C.span(Written->getSourceRange()))
      C.addGuarded("neg", *S, "!(" + std::string(C.text(*S)) + ")", GuardKind::Condition, S);
  }
};

class ConditionOperator : public MutationOperator {
public:
  const char *name() const override { return "neg"; }
  const char *description() const override {
    return "negated conditions: the condition C of if/while/for/do/?: by !(C)";
  }
  void collect(BodyContext &C, Stmt *Body) const override {
    ConditionVisitor(C).TraverseStmt(Body);
  }
};

} // namespace

void addConditionOperator(OperatorList &L) { L.push_back(std::make_unique<ConditionOperator>()); }

} // namespace sleuth::mutator
