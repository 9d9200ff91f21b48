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

bool ReadProbe::instrument(const ImplicitCastExpr *Cast, FunctionInstrumenter &F) {
  const Expr *L = Cast->getSubExpr();
  QualType T = L->getType();
  if (!hasAddress(L) || T->isAtomicType() || T->isVariablyModifiedType() ||
      isConstantUse(L) || L->isInstantiationDependent())
    return false;
  CharSourceRange R = F.Ctx.fileRange(L);
  if (R.isInvalid())
    return false;
  std::string Text = F.Ctx.text(R);
  if (F.isCxx()) {
    F.Ctx.wrap(R, "sleuth::rd(", ")");
  } else if (isRepeatable(L, F.Ctx.Ast)) {
    F.Ctx.wrap(R, "((void)sleuth_get(&(" + Text + "), sizeof(" + Text + ")), ", ")");
  } else {
    // a[i++], *p++: evaluate the lvalue once and read through the pointer the probe returns.
    F.Ctx.wrap(R, "(*(__typeof__(" + Text + ") *)sleuth_getp(&(",
               "), sizeof(" + Text + ")))");
  }
  F.countProbe();
  return true;
}

} // namespace sleuth::instrumenter
