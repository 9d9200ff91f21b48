#include "Probes.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace sleuth::instrumenter {

// Constants that C++ treats as values rather than objects: taking their address would odr-use
// them (a link error for a static constexpr member without definition) and buys nothing.
static bool isConstantUse(const Expr *L) {
  L = L->IgnoreParens();
  if (const auto *D = dyn_cast<DeclRefExpr>(L)) {
    if (D->isNonOdrUse() != NOUR_None)
      return true;
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
      return V->isConstexpr();
  }
  if (const auto *M = dyn_cast<MemberExpr>(L))
    return M->isNonOdrUse() != NOUR_None;
  return false;
}

FunctionInstrumenter::ReadForms ReadProbe::keptRead(const std::string &Origin,
                                                    FunctionInstrumenter &F) {
  return {"(sleuth_use(" + Origin + "), ", ")",
          "(sleuth_chk(&" + F.Ctx.UnitName + ", @CACHE@, @SITE@, " + Origin + "), ", ")"};
}

FunctionInstrumenter::ReadForms ReadProbe::memoryRead(const Expr *L, const std::string &Text,
                                                      FunctionInstrumenter &F) {
  std::string Object = addressOfC(L->getType()) + Text + "), " + sizeofLvalue(L, Text) + ")";
  return {"((void)sleuth_get(" + Object + ", ", ")",
          "((void)sleuth_getc(&" + F.Ctx.UnitName + ", @CACHE@, @SITE@, " + Object + ", ", ")"};
}

FunctionInstrumenter::ReadForms ReadProbe::cxxRead(FunctionInstrumenter &F) {
  return {"sleuth::rd(", ")", "sleuth::rdc(&" + F.Ctx.UnitName + ", @CACHE@, @SITE@, ", ")"};
}

bool ReadProbe::instrument(const ImplicitCastExpr *Cast, FunctionInstrumenter &F) {
  const Expr *L = Cast->getSubExpr();
  QualType T = L->getType();
  if (const std::string *Origin = F.Locals.companion(L); Origin && !isConstantUse(L)) {
    CharSourceRange R = F.Ctx.fileRange(L);
    if (R.isInvalid()) {
      MacroReadProbe::record(Cast, F);
      return false;
    }
    F.addRead(R, keptRead(*Origin, F));
    F.countProbe();
    return true;
  }
  if (!hasAddress(L) || T->isAtomicType() || T->isVariablyModifiedType() || isConstantUse(L) ||
      L->isInstantiationDependent())
    return false;
  CharSourceRange R = F.Ctx.fileRange(L);
  if (R.isInvalid()) {
    MacroReadProbe::record(Cast, F);
    return false;
  }
  std::string Text = F.Ctx.text(R);
  if (F.isCxx()) {
    F.addRead(R, cxxRead(F));
  } else if (isRepeatable(L, F.Ctx.Ast)) {
    F.addRead(R, memoryRead(L, Text, F));
  } else {
    // a[i++], *p++: evaluate the lvalue once and read through the pointer the probe returns.
    std::string Type = typeOfC(T, F.Ctx.Ast);
    if (Type.empty())
      return false;
    std::string Unit = "&" + F.Ctx.UnitName;
    F.addRead(R, {"(*(" + Type + " *)sleuth_getp(" + addressOfC(T), "), sizeof(" + Type + ")))",
                  "(*(" + Type + " *)sleuth_getcp(" + Unit + ", @CACHE@, @SITE@, " + addressOfC(T),
                  "), sizeof(" + Type + ")))"});
  }
  F.countProbe();
  return true;
}

bool ReadProbe::instrumentDependent(const DeclRefExpr *Ref, FunctionInstrumenter &F) {
  if (!F.isCxx() || !Ref->isTypeDependent() || Ref->containsUnexpandedParameterPack())
    return false;
  const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
  if (!Var || !Var->hasLocalStorage() || Var->isConstexpr() || isa<DecompositionDecl>(Var))
    return false;
  // Uses that are not reads of the value: written, address taken, member access, called,
  // returned (FrameProbe records that one without wrapping it).
  const Stmt *Child = Ref;
  const Stmt *Parent = F.Ctx.parent(Ref);
  while (Parent && isa<ParenExpr>(Parent)) {
    Child = Parent;
    Parent = F.Ctx.parent(Parent);
  }
  if (Parent) {
    if (const auto *U = dyn_cast<UnaryOperator>(Parent))
      if (U->getOpcode() == UO_AddrOf || U->isIncrementDecrementOp())
        return false;
    if (const auto *B = dyn_cast<BinaryOperator>(Parent))
      if (B->isAssignmentOp() && B->getLHS()->IgnoreParens() == Ref)
        return false;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Parent))
      if (Op->getNumArgs() > 0 && Op->getArg(0)->IgnoreParens() == Ref &&
          (Op->isAssignmentOp() || Op->getOperator() == OO_PlusPlus ||
           Op->getOperator() == OO_MinusMinus || Op->getOperator() == OO_Amp))
        return false;
    if (const auto *C = dyn_cast<CallExpr>(Parent))
      if (C->getCallee()->IgnoreParens() == Ref)
        return false;
    if (isa<MemberExpr, CXXDependentScopeMemberExpr, ReturnStmt, PackExpansionExpr, CXXForRangeStmt,
            UnaryExprOrTypeTraitExpr, DeclStmt>(Parent))
      return false;
  }
  (void)Child;
  CharSourceRange R = F.Ctx.fileRange(Ref);
  if (R.isInvalid())
    return false;
  F.addRead(R, cxxRead(F));
  F.countProbe();
  return true;
}

} // namespace sleuth::instrumenter
