//===- Arithmetic.cpp - aor: arithmetic operator replacement -------------===//
#include "Operator.h"

using namespace clang;

namespace sleuth::mutator {
namespace {

class ArithmeticVisitor : public BodyVisitor<ArithmeticVisitor> {
public:
  using BodyVisitor::BodyVisitor;

  bool VisitBinaryOperator(BinaryOperator *B) {
    BinaryOperatorKind Op = B->getOpcode();
    bool Compound = B->isCompoundAssignmentOp();
    if (Compound)
      Op = BinaryOperator::getOpForCompoundAssignment(Op);
    if (!BinaryOperator::isAdditiveOp(Op) && !BinaryOperator::isMultiplicativeOp(Op))
      return true;
    auto S = C.token(B->getOperatorLoc());
    if (!S)
      return true;
    QualType L = B->getLHS()->IgnoreParenImpCasts()->getType();
    QualType R = B->getRHS()->IgnoreParenImpCasts()->getType();
    std::vector<BinaryOperatorKind> Others;
    if (L->isAnyPointerType() || R->isAnyPointerType()) {
      // Pointer arithmetic: only `p + n` and `p - n` (or `+=`, `-=`) have a counterpart.
      if (L->isAnyPointerType() && R->isIntegralOrUnscopedEnumerationType())
        Others.push_back(Op == BO_Add ? BO_Sub : BO_Add);
    } else {
      QualType T =
          Compound ? cast<CompoundAssignOperator>(B)->getComputationResultType() : B->getType();
      // `%` needs integers; dependent operands get the operators every arithmetic type has.
      bool Integer = !T->isDependentType() && T->isIntegerType();
      for (BinaryOperatorKind K : {BO_Add, BO_Sub, BO_Mul, BO_Div, BO_Rem})
        if (K != Op && (K != BO_Rem || Integer))
          Others.push_back(K);
    }
    for (BinaryOperatorKind K : Others) {
      std::string Text(BinaryOperator::getOpcodeStr(K));
      C.addGuarded("aor", *S, Compound ? Text + "=" : Text, GuardKind::Expression,
                   C.guardSpan(B->getSourceRange()), dependentOperands(B));
    }
    return true;
  }
};

class ArithmeticOperator : public MutationOperator {
public:
  const char *name() const override { return "aor"; }
  const char *description() const override {
    return "arithmetic operator replacement: each of + - * / % (and +=, ...) by the others";
  }
  void collect(BodyContext &C, Stmt *Body) const override {
    ArithmeticVisitor(C).TraverseStmt(Body);
  }
};

} // namespace

void addArithmeticOperator(OperatorList &L) { L.push_back(std::make_unique<ArithmeticOperator>()); }

} // namespace sleuth::mutator
