//===- Logical.cpp - lcr: logical connector replacement ------------------===//
#include "Operator.h"

using namespace clang;

namespace sleuth::mutator {
namespace {

class LogicalVisitor : public BodyVisitor<LogicalVisitor> {
public:
  using BodyVisitor::BodyVisitor;

  bool VisitBinaryOperator(BinaryOperator *B) {
    if (!B->isLogicalOp())
      return true;
    if (auto S = C.token(B->getOperatorLoc()))
      C.addGuarded("lcr", *S, B->getOpcode() == BO_LAnd ? "||" : "&&", GuardKind::Expression,
                   C.guardSpan(B->getSourceRange()), dependentOperands(B));
    return true;
  }
};

class LogicalOperator : public MutationOperator {
public:
  const char *name() const override { return "lcr"; }
  const char *description() const override {
    return "logical connector replacement: && by ||, || by &&";
  }
  void collect(BodyContext &C, Stmt *Body) const override { LogicalVisitor(C).TraverseStmt(Body); }
};

} // namespace

void addLogicalOperator(OperatorList &L) { L.push_back(std::make_unique<LogicalOperator>()); }

} // namespace sleuth::mutator
