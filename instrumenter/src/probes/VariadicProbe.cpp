#include "Probes.h"

#include "clang/Basic/Builtins.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace sleuth::instrumenter {

// The probes' key of the va_list that E (an operand of va_start, va_arg or va_copy) names: its
// address. Where va_list is an array type (x86-64), E is the array decayed to a pointer or a
// parameter of type va_list, itself a pointer to the caller's array: E's value, the same in a
// helper the va_list is passed to. Elsewhere `&(E)`. Empty if E's text cannot be repeated (not
// spelled in the file, or with side effects).
static std::string vaListKey(const Expr *E, FunctionInstrumenter &F) {
  if (E->HasSideEffects(F.Ctx.Ast))
    return "";
  const Expr *Operand = E->IgnoreImpCasts();
  CharSourceRange R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(Operand->getSourceRange()), F.Ctx.SM, F.Ctx.Ast.getLangOpts());
  if (R.isInvalid() || !F.Ctx.instrumentable(R.getBegin()))
    return "";
  std::string Text = F.Ctx.text(R);
  if (Text.empty())
    return "";
  if (F.Ctx.Ast.getBuiltinVaListType()->isArrayType())
    return "(" + Text + ")";
  return "&(" + Text + ")";
}

// The expansion of the invocation `va_start(...)`, `va_arg(...)` (or the builtin spelled as it
// is), where the probe goes before it.
static CharSourceRange invocationRange(const Expr *E, FunctionInstrumenter &F) {
  return F.Ctx.expansionRange(E->getSourceRange());
}

bool VariadicProbe::instrument(const VAArgExpr *Arg, FunctionInstrumenter &F) {
  if (Arg->isMicrosoftABI())
    return false;
  std::string Key = vaListKey(Arg->getSubExpr(), F);
  CharSourceRange R = invocationRange(Arg, F);
  if (Key.empty() || R.isInvalid())
    return false;
  F.Ctx.wrap(R, "(sleuth_va_arg(" + Key + "), ", ")");
  F.countProbe();
  return true;
}

bool VariadicProbe::instrument(const CallExpr *Call, FunctionInstrumenter &F) {
  unsigned Builtin = Call->getBuiltinCallee();
  std::string Probe;
  if (Builtin == Builtin::BI__builtin_va_start) {
    if (Call->getNumArgs() < 1 || !F.Function->isVariadic())
      return false;
    std::string Key = vaListKey(Call->getArg(0), F);
    if (Key.empty())
      return false;
    // The extra arguments come after the named parameters, whose positions are 1..N.
    Probe = "sleuth_va_start(" + Key + ", " + std::to_string(F.Function->getNumParams() + 1) + "u)";
  } else if (Builtin == Builtin::BI__builtin_va_copy) {
    if (Call->getNumArgs() != 2)
      return false;
    std::string Destination = vaListKey(Call->getArg(0), F), Source = vaListKey(Call->getArg(1), F);
    if (Destination.empty() || Source.empty())
      return false;
    Probe = "sleuth_va_copy(" + Destination + ", " + Source + ")";
  } else {
    return false;
  }
  CharSourceRange R = invocationRange(Call, F);
  if (R.isInvalid())
    return false;
  F.Ctx.wrap(R, "(" + Probe + ", ", ")");
  F.countProbe();
  return true;
}

} // namespace sleuth::instrumenter
