//===- Expressions.cpp - Transformations on expressions -------------------===//
#include "AstUtil.h"

#include "clang/AST/ExprCXX.h"

#include <map>
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

/// Inlines a function that is used once and whose body is `return EXPR;`:
/// the call becomes `(EXPR)` with each parameter replaced by its argument
/// (parenthesized), and the definition goes. A crash often sits behind a
/// helper that only forwards to something else; inlining it lets the
/// declaration passes drop the helper.
class InlineFunction : public Transformation {
public:
  const char *name() const override { return "inline-function"; }
  const char *description() const override {
    return "inline a function used by one call whose body is a single return";
  }
  Level level() const override { return Expressions; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    AstHelper H(U);
    struct Finder : RecursiveASTVisitor<Finder> {
      std::map<const FunctionDecl *, std::vector<CallExpr *>> Calls;
      std::map<const FunctionDecl *, unsigned> Refs; ///< Every mention by name.
      std::vector<FunctionDecl *> Defs;
      bool VisitFunctionDecl(FunctionDecl *FD) {
        if (!FD->isImplicit() && FD->doesThisDeclarationHaveABody())
          Defs.push_back(FD);
        return true;
      }
      bool VisitDeclRefExpr(DeclRefExpr *E) {
        if (auto *FD = dyn_cast<FunctionDecl>(E->getDecl()))
          ++Refs[FD->getCanonicalDecl()];
        return true;
      }
      bool VisitOverloadExpr(OverloadExpr *E) {
        // A dependent call may resolve to any of these: count them as used.
        for (NamedDecl *D : E->decls())
          if (auto *FD = dyn_cast<FunctionDecl>(D->getUnderlyingDecl()))
            Refs[FD->getCanonicalDecl()] += 2;
        return true;
      }
      bool VisitCallExpr(CallExpr *CE) {
        if (FunctionDecl *FD = CE->getDirectCallee())
          Calls[FD->getCanonicalDecl()].push_back(CE);
        return true;
      }
    } F;
    F.TraverseDecl(U.AST->getTranslationUnitDecl());
    for (FunctionDecl *FD : F.Defs) {
      const FunctionDecl *Key = FD->getCanonicalDecl();
      if (isa<CXXMethodDecl>(FD) || FD->isMain() || FD->isVariadic() ||
          FD->getTemplatedKind() != FunctionDecl::TK_NonTemplate || F.Refs[Key] != 1 ||
          F.Calls[Key].size() != 1)
        continue;
      auto *Body = dyn_cast_or_null<CompoundStmt>(FD->getBody());
      auto *Ret = Body && Body->size() == 1 ? dyn_cast<ReturnStmt>(Body->body_front()) : nullptr;
      CallExpr *Call = F.Calls[Key].front();
      std::optional<Span> Def = H.span(FD), CallSpan = H.span(Call);
      if (!Ret || !Ret->getRetValue() || !Def || !CallSpan ||
          Call->getNumArgs() != FD->getNumParams() ||
          (CallSpan->Begin < Def->End && Def->Begin < CallSpan->End))
        continue;
      std::optional<Span> Value = H.span(Ret->getRetValue());
      if (!Value)
        continue;
      std::vector<std::string> Args;
      for (Expr *A : Call->arguments()) {
        std::optional<Span> S = isa<CXXDefaultArgExpr>(A) ? std::nullopt : H.span(A);
        if (!S)
          break;
        Args.push_back("(" + std::string(H.text(*S)) + ")");
      }
      if (Args.size() != Call->getNumArgs())
        continue;
      // The parameters' uses in the returned expression, by offset.
      struct ParamUses : RecursiveASTVisitor<ParamUses> {
        const FunctionDecl *FD;
        std::map<std::size_t, std::pair<std::size_t, unsigned>> At; ///< Begin -> (End, param).
        const AstHelper *H;
        bool Ok = true;
        bool VisitDeclRefExpr(DeclRefExpr *E) {
          auto *P = dyn_cast<ParmVarDecl>(E->getDecl());
          if (!P || P->getDeclContext() != FD)
            return true;
          std::optional<Span> S = H->span(E);
          if (!S)
            Ok = false;
          else
            At[S->Begin] = {S->End, P->getFunctionScopeIndex()};
          return true;
        }
      } Uses;
      Uses.FD = FD;
      Uses.H = &H;
      Uses.TraverseStmt(Ret->getRetValue());
      if (!Uses.Ok)
        continue;
      std::string Inlined = "(";
      std::size_t Pos = Value->Begin;
      for (auto &[Begin, EndAndParam] : Uses.At) {
        Inlined += U.Text.substr(Pos, Begin - Pos);
        Inlined += Args[EndAndParam.second];
        Pos = EndAndParam.first;
      }
      Inlined += U.Text.substr(Pos, Value->End - Pos);
      Inlined += ")";
      Change C;
      Span Whole = H.withSemicolon(*Def);
      C.Edits.push_back({Whole.Begin, Whole.size(), ""});
      C.Edits.push_back({CallSpan->Begin, CallSpan->size(), Inlined});
      Out.push_back(std::move(C));
    }
  }
};

} // namespace

void addExpressionTransformations(TransformationList &L) {
  L.push_back(std::make_unique<TernaryToBranch>());
  L.push_back(std::make_unique<ExprToOperand>());
  L.push_back(std::make_unique<ExprToZero>());
  L.push_back(std::make_unique<InlineFunction>());
}

} // namespace sleuth::reducer
