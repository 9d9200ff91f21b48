#include "Probes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace sleuth::instrumenter {

// A class-type object the probe may take the address of and name again.
static bool isTrackableObject(const Expr *E, FunctionInstrumenter &F) {
  if (!E || !E->isLValue() || E->isInstantiationDependent())
    return false;
  // A temporary bound to a `const T&` parameter is an lvalue, but its text (`std::string("b")`)
  // is a prvalue that sleuth::rd(T&) cannot take; it has no earlier writes to read anyway. So
  // is the object of a conversion of a returned proxy (`static_cast<int>(bits[0])`), under a
  // no-op cast that adds `const`.
  // (IgnoreParenImpCasts skips the temporary too: the prvalue under it is what is left.)
  const Expr *Core = E->IgnoreParenImpCasts();
  if (isa<MaterializeTemporaryExpr>(Core) || !Core->isLValue())
    return false;
  QualType T = E->getType();
  if (!T->isRecordType() || T->isIncompleteType() || !hasAddress(E))
    return false;
  return F.Ctx.fileRange(E).isValid();
}

static void readObject(const Expr *E, FunctionInstrumenter &F) {
  if (!isTrackableObject(E, F))
    return;
  F.addRead(F.Ctx.fileRange(E), ReadProbe::cxxRead(F));
  F.countProbe();
}

static bool isCompoundOperator(OverloadedOperatorKind K) {
  switch (K) {
  case OO_PlusEqual:
  case OO_MinusEqual:
  case OO_StarEqual:
  case OO_SlashEqual:
  case OO_PercentEqual:
  case OO_AmpEqual:
  case OO_PipeEqual:
  case OO_CaretEqual:
  case OO_LessLessEqual:
  case OO_GreaterGreaterEqual:
    return true;
  default:
    return false;
  }
}

bool LibraryCallProbe::instrument(const CallExpr *Call, FunctionInstrumenter &F) {
  if (!F.isCxx())
    return false;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !F.Ctx.SM.isInSystemHeader(Callee->getCanonicalDecl()->getLocation()))
    return false;
  if (F.Ctx.fileRange(Call).isInvalid())
    return true; // a library call spelled in a macro: nothing to mark

  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
    OverloadedOperatorKind K = Op->getOperator();
    bool Assigns = K == OO_Equal || isCompoundOperator(K);
    for (unsigned I = 0; I < Op->getNumArgs(); ++I)
      if (!(Assigns && I == 0 && K == OO_Equal))
        readObject(Op->getArg(I), F);
    const Expr *Target = Op->getNumArgs() ? Op->getArg(0) : nullptr;
    if (Assigns && isTrackableObject(Target, F) && Call->isLValue() &&
        F.Ctx.Ast.hasSameUnqualifiedType(Call->getType(), Target->getType())) {
      unsigned Site = F.addSite(SiteKind::Var, Call, Target->getBeginLoc(), F.Ctx.text(Target),
                                K == OO_Equal ? 0 : CompoundWrite);
      F.claimReads(Call, Site);
      F.Ctx.wrap(Call, "sleuth::wrote(" + F.Ctx.unitAndSite(Site) + ", " + F.control(Site) + ", ",
                 ")");
      F.markConsumed(Call);
      F.countProbe();
    }
    return true;
  }

  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
    for (const Expr *Arg : Member->arguments())
      readObject(Arg, F);
    const Expr *Object = Member->getImplicitObjectArgument();
    const auto *Method = Member->getMethodDecl();
    if (!Object || !Method || isa<CXXThisExpr>(Object->IgnoreParenImpCasts()))
      return true;
    if (Method->isConst() || !F.Ctx.isDiscarded(Call) || !isRepeatable(Object, F.Ctx.Ast) ||
        !isTrackableObject(Object, F)) {
      readObject(Object, F);
      return true;
    }
    // out.push_back(c): the object now depends on the arguments and on its old contents.
    std::string Text = F.Ctx.text(Object);
    unsigned Site = F.addSite(SiteKind::Var, Call, Object->getBeginLoc(), Text, CompoundWrite);
    F.claimReads(Call, Site);
    F.Ctx.wrapWithWriteAfter(F.Ctx.fileRange(Call), Site, F.control(Site), Text,
                             Call->getType()->isVoidType());
    F.markConsumed(Call);
    F.countProbe();
    return true;
  }

  for (const Expr *Arg : Call->arguments())
    readObject(Arg, F);
  return false; // a free function: CallProbe decides (it leaves library calls alone)
}

} // namespace sleuth::instrumenter
