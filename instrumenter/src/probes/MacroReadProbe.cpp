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
  // contains a macro argument's use): widen it over implicit nodes of the same extent. In C,
  // not a macro argument that is an lvalue (`state->check`, read through its conversion): the
  // expansion may assign the same text elsewhere (zlib's `CRC2(state->check, hold)` expands to
  // `check = crc32(check, ...)`), which a comma expression around it would break; the reads go
  // before an enclosing expression instead.
  const Stmt *Top = Read;
  while (true) {
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
    if (F.isCxx() || !cast<Expr>(Top)->IgnoreParenImpCasts()->isGLValue())
      break;
  }
  std::vector<const VarDecl *> &Vars = F.MacroReads[cast<Expr>(Top)];
  if (std::find(Vars.begin(), Vars.end(), V) == Vars.end())
    Vars.push_back(V);
}

bool MacroReadProbe::instrument(const Expr *E, FunctionInstrumenter &F) {
  auto Found = F.MacroReads.find(E);
  // A glvalue stays one: in C a comma expression is no lvalue (`TOP(L) = v`, `&FIELD(p)`). So
  // does a macro argument read here (the conversion of `state->check` has the argument's text)
  // and written in another place of the same expansion (zlib's `CRC2(state->check, hold)`
  // assigns `check = crc32(check, ...)`): the text is the argument's, for both.
  if (Found == F.MacroReads.end() || E->isGLValue() || E->IgnoreParenImpCasts()->isGLValue())
    return false;
  CharSourceRange R = F.Ctx.expansionRange(E);
  if (R.isInvalid())
    return false;
  // Each read is one of the expression's reads: checked against the node that consumes the
  // expression, or pushed.
  std::string Prefix = "(";
  std::string Unit = "&" + F.Ctx.UnitName;
  for (const VarDecl *V : Found->second) {
    std::string Name = V->getNameAsString();
    FunctionInstrumenter::ReadForms Forms;
    if (const std::string *Origin = F.Locals.companion(V)) {
      Forms = {"sleuth_use(" + *Origin + "), ", "",
               "sleuth_chk(" + Unit + ", @CACHE@, @SITE@, " + *Origin + "), ", ""};
    } else {
      std::string Object =
          F.isCxx() ? "__builtin_addressof(" + Name + ")" : addressOfC(V->getType()) + Name + ")";
      Object += ", sizeof(" + Name + ")";
      Forms = {"(void)sleuth_get(" + Object + "), ", "",
               "(void)sleuth_getc(" + Unit + ", @CACHE@, @SITE@, " + Object + "), ", ""};
    }
    auto [Before, After] = F.addRead({}, std::move(Forms));
    Prefix += Before + After;
  }
  F.Ctx.wrap(R, Prefix, ")");
  F.countProbe();
  return true;
}

} // namespace sleuth::instrumenter
