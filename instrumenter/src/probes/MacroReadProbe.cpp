#include "Probes.h"

using namespace clang;

namespace sleuth::instrumenter {

// The variable a read of a local or parameter names, if the read can be repeated by name
// before the macro: declared outside any macro (so the name means it there too) in this
// function, and addressable unless its origin lives in a companion.
static const VarDecl *repeatableVariable(const Expr *L, FunctionInstrumenter &F) {
  const auto *Ref = dyn_cast<DeclRefExpr>(L->IgnoreParens());
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || V->getLocation().isMacroID() ||
      V->getDeclContext() != static_cast<const DeclContext *>(F.Function) ||
      Ref->refersToEnclosingVariableOrCapture() || Ref->isNonOdrUse() != NOUR_None)
    return nullptr;
  if (F.Locals.companion(V))
    return V;
  QualType T = V->getType();
  if (T->isReferenceType() || T->isAtomicType() || T->isVariablyModifiedType() ||
      T.isVolatileQualified() || !hasAddress(Ref) || (!F.isCxx() && typeOfC(T, F.Ctx.Ast).empty()))
    return nullptr;
  return V;
}

void MacroReadProbe::record(const ImplicitCastExpr *Read, FunctionInstrumenter &F) {
  if (F.Function->isTemplated())
    return;
  const VarDecl *V = repeatableVariable(Read->getSubExpr(), F);
  if (!V || !Read->getBeginLoc().isMacroID())
    return;
  // The nearest enclosing expression with text of its own is the whole expansion (or one that
  // contains a macro argument's use): widen it over implicit nodes of the same extent.
  const Stmt *Top = Read;
  CharSourceRange R;
  while (true) {
    const Stmt *P = F.Ctx.parent(Top);
    if (!P || !isa<Expr>(P))
      return;
    Top = P;
    R = F.Ctx.expansionRange(Top);
    if (R.isValid())
      break;
  }
  while (const Stmt *P = F.Ctx.parent(Top)) {
    if (!isa<Expr>(P) || F.Ctx.expansionRange(P).getAsRange() != R.getAsRange())
      break;
    Top = P;
  }
  std::vector<const VarDecl *> &Vars = F.MacroReads[cast<Expr>(Top)];
  if (std::find(Vars.begin(), Vars.end(), V) == Vars.end())
    Vars.push_back(V);
}

bool MacroReadProbe::instrument(const Expr *E, FunctionInstrumenter &F) {
  auto Found = F.MacroReads.find(E);
  // A glvalue stays one: in C a comma expression is no lvalue (`TOP(L) = v`, `&FIELD(p)`).
  if (Found == F.MacroReads.end() || E->isGLValue())
    return false;
  CharSourceRange R = F.Ctx.expansionRange(E);
  if (R.isInvalid())
    return false;
  std::string Prefix = "(";
  for (const VarDecl *V : Found->second) {
    std::string Name = V->getNameAsString();
    if (const std::string *Origin = F.Locals.companion(V))
      Prefix += "sleuth_use(" + *Origin + "), ";
    else if (F.isCxx())
      Prefix += "(void)sleuth_get(__builtin_addressof(" + Name + "), sizeof(" + Name + ")), ";
    else
      Prefix +=
          "(void)sleuth_get(" + addressOfC(V->getType()) + Name + "), sizeof(" + Name + ")), ";
  }
  F.Ctx.wrap(R, Prefix, ")");
  F.countProbe();
  return true;
}

} // namespace sleuth::instrumenter
