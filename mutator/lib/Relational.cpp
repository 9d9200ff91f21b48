//===- Relational.cpp - ror: relational operator replacement -------------===//
#include "Operator.h"

using namespace clang;

namespace sleuth::mutator {
namespace {

bool isPointerLike(QualType T) {
  return T->isAnyPointerType() || T->isMemberPointerType() || T->isNullPtrType() ||
         T->isBlockPointerType();
}

class RelationalVisitor : public BodyVisitor<RelationalVisitor> {
public:
  using BodyVisitor::BodyVisitor;

  bool VisitBinaryOperator(BinaryOperator *B) {
    if (!B->isComparisonOp())
      return true;
    auto S = C.token(B->getOperatorLoc());
    if (!S)
      return true;
    static const BinaryOperatorKind All[] = {BO_LT, BO_LE, BO_GT, BO_GE, BO_EQ, BO_NE};
    QualType L = B->getLHS()->IgnoreParenImpCasts()->getType();
    QualType R = B->getRHS()->IgnoreParenImpCasts()->getType();
    // `p == NULL` has no ordered counterpart (an ordered comparison with a null pointer
    // constant is ill-formed in C++ and a pedantic warning in C): equality stays equality.
    bool EqualityOnly = B->isEqualityOp() && (isPointerLike(L) || isPointerLike(R)) &&
                        !L->isDependentType() && !R->isDependentType();
    for (BinaryOperatorKind K : All) {
      if (K == B->getOpcode() || (EqualityOnly && !BinaryOperator::isEqualityOp(K)))
        continue;
      C.addGuarded("ror", *S, std::string(BinaryOperator::getOpcodeStr(K)), GuardKind::Expression,
                   C.guardSpan(B->getSourceRange()), dependentOperands(B));
    }
    return true;
  }
};

class RelationalOperator : public MutationOperator {
public:
  const char *name() const override { return "ror"; }
  const char *description() const override {
    return "relational operator replacement: each of < <= > >= == != by the others";
  }
  void collect(BodyContext &C, Stmt *Body) const override {
    RelationalVisitor(C).TraverseStmt(Body);
  }
};

} // namespace

void addRelationalOperator(OperatorList &L) { L.push_back(std::make_unique<RelationalOperator>()); }

} // namespace sleuth::mutator
