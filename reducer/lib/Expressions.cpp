//===- Expressions.cpp - Transformations on expressions -------------------===//
#include "AstUtil.h"

#include "clang/AST/ExprCXX.h"

#include <set>

using namespace clang;

namespace sleuth::reducer {
namespace {

/// Collects expressions written in the main file, outermost first.
class ExprFinder : public RecursiveASTVisitor<ExprFinder> {
public:
  std::vector<Expr *> Found;
  std::set<const Expr *> Callees;
  bool VisitExpr(Expr *E) {
    if (auto *CE = dyn_cast<CallExpr>(E))
      if (Expr *Callee = CE->getCallee())
        Callees.insert(Callee->IgnoreImplicit());
    Found.push_back(E);
    return true;
  }
};

ExprFinder findExprs(const SourceUnit &U) {
  ExprFinder F;
  F.TraverseDecl(U.AST->getTranslationUnitDecl());
  return F;
}

/// Replaces `c ? a : b` by `a` or by `b`.
class TernaryToBranch : public Transformation {
public:
  const char *name() const override { return "ternary-to-branch"; }
  const char *description() const override { return "replace c ? a : b by a or by b"; }
  Level level() const override { return Expressions; }
  bool largestFirst() const override { return true; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    AstHelper H(U);
    for (Expr *E : findExprs(U).Found) {
      auto *CO = dyn_cast<ConditionalOperator>(E);
      if (!CO)
        continue;
      std::optional<Span> Whole = H.span(CO);
      if (!Whole)
        continue;
      for (Expr *Branch : {CO->getTrueExpr(), CO->getFalseExpr()})
        if (std::optional<Span> B = H.span(Branch))
          Out.push_back(replaceRange(Whole->Begin, Whole->End, std::string(H.text(*B))));
    }
  }
};

/// Replaces an expression by one of its operands: `a + b` by `a` or `b`,
/// `-x` by `x`, `(T)x` by `x`, `f(x, y)` by `x` or `y`, `a[i]` by `a`,
/// `s.m` by `s`.
class ExprToOperand : public Transformation {
public:
  const char *name() const override { return "expr-to-operand"; }
  const char *description() const override {
    return "replace an expression by one of its operands";
  }
  Level level() const override { return Expressions; }
  bool largestFirst() const override { return true; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    AstHelper H(U);
    for (Expr *E : findExprs(U).Found) {
      std::vector<Expr *> Operands;
      if (auto *BO = dyn_cast<BinaryOperator>(E))
        Operands = {BO->getLHS(), BO->getRHS()};
      else if (auto *UO = dyn_cast<UnaryOperator>(E))
        Operands = {UO->getSubExpr()};
      else if (auto *PE = dyn_cast<ParenExpr>(E))
        Operands = {PE->getSubExpr()};
      else if (auto *CE = dyn_cast<ExplicitCastExpr>(E))
        Operands = {CE->getSubExprAsWritten()};
      else if (auto *CE = dyn_cast<CallExpr>(E))
        Operands.assign(CE->arg_begin(), CE->arg_end());
      else if (auto *AS = dyn_cast<ArraySubscriptExpr>(E))
        Operands = {AS->getBase()};
      else if (auto *ME = dyn_cast<MemberExpr>(E)) {
        if (!ME->isImplicitAccess())
          Operands = {ME->getBase()};
      }
      if (Operands.empty())
        continue;
      std::optional<Span> Whole = H.span(E);
      if (!Whole)
        continue;
      for (Expr *Op : Operands) {
        if (!Op || isa<CXXDefaultArgExpr>(Op))
          continue;
        std::optional<Span> S = H.span(Op);
        if (S && S->size() < Whole->size() && S->Begin >= Whole->Begin && S->End <= Whole->End)
          Out.push_back(replaceRange(Whole->Begin, Whole->End, std::string(H.text(*S))));
      }
    }
  }
};

/// Replaces an expression by the constant `0`.
class ExprToZero : public Transformation {
public:
  const char *name() const override { return "expr-to-zero"; }
  const char *description() const override { return "replace an expression by 0"; }
  Level level() const override { return Expressions; }
  bool largestFirst() const override { return true; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    AstHelper H(U);
    ExprFinder F = findExprs(U);
    for (Expr *E : F.Found) {
      if (isa<ImplicitCastExpr, CXXDefaultArgExpr, CXXDefaultInitExpr, ImplicitValueInitExpr,
              OpaqueValueExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr, ExprWithCleanups>(
              E) ||
          F.Callees.count(E))
        continue;
      if (auto *DRE = dyn_cast<DeclRefExpr>(E))
        if (isa<FunctionDecl>(DRE->getDecl()))
          continue;
      std::optional<Span> S = H.span(E);
      if (!S || H.text(*S) == "0")
        continue;
      Out.push_back(replaceRange(S->Begin, S->End, "0"));
    }
  }
};

} // namespace

void addExpressionTransformations(TransformationList &L) {
  L.push_back(std::make_unique<TernaryToBranch>());
  L.push_back(std::make_unique<ExprToOperand>());
  L.push_back(std::make_unique<ExprToZero>());
}

} // namespace sleuth::reducer
