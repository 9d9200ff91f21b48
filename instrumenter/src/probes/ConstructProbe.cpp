#include "Probes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace sleuth::instrumenter {

// True if the constructor's body is the project's, instrumented where it is defined: a
// constructor the user wrote, outside the system headers, not constexpr.
static bool isInstrumentedConstructor(const CXXConstructorDecl *Ctor, FunctionInstrumenter &F) {
  if (!Ctor || !Ctor->isUserProvided() || Ctor->isDeleted() || F.isLeftUninstrumented(Ctor))
    return false;
  SourceLocation Declared = Ctor->getCanonicalDecl()->getLocation();
  return Declared.isValid() && !F.Ctx.SM.isInSystemHeader(Declared);
}

// True if `(probe, Arg)` means what Arg meant. Not so for a braced list (no expression), a null
// pointer constant (the comma's value is none), a function name (an overload set the
// parameter's type picks from), an argument of a list-initialization that is a constant (the
// comma's value is none: a narrowing conversion of it would be an error), or a pack expansion.
static bool isWrappable(const Expr *Arg, const CXXConstructExpr *Construct,
                        FunctionInstrumenter &F) {
  if (isa<CXXDefaultArgExpr, PackExpansionExpr>(Arg) || isa<InitListExpr>(Arg->IgnoreImplicit()))
    return false;
  const Expr *Bare = Arg->IgnoreParenImpCasts();
  if (isa<OverloadExpr>(Bare))
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Bare); Ref && isa<FunctionDecl>(Ref->getDecl()))
    return false;
  if (const auto *AddrOf = dyn_cast<UnaryOperator>(Bare);
      AddrOf && AddrOf->getOpcode() == UO_AddrOf &&
      isa<DeclRefExpr, OverloadExpr>(AddrOf->getSubExpr()->IgnoreParens()))
    return false;
  if (Arg->isNullPointerConstant(F.Ctx.Ast, Expr::NPC_ValueDependentIsNotNull))
    return false;
  if (Construct->isListInitialization() && Arg->isEvaluatable(F.Ctx.Ast))
    return false;
  CharSourceRange R = F.Ctx.fileRange(Arg);
  return R.isValid() && F.Ctx.text(R).rfind('{', 0) != 0;
}

bool ConstructProbe::instrument(const CXXConstructExpr *Construct, FunctionInstrumenter &F) {
  const CXXConstructorDecl *Ctor = Construct->getConstructor();
  // An elidable copy or move never runs where the compiler elides it (GCC and Clang do by
  // default): its record would wait for an entry that never comes.
  if (Construct->isInstantiationDependent() || Construct->isElidable() ||
      Construct->getNumArgs() == 0 || !isInstrumentedConstructor(Ctor, F))
    return false;
  // The arguments that reading something may carry the probe; with none, the first one that can
  // (the call's control still goes into the constructor's body).
  std::vector<unsigned> Carriers;
  for (unsigned I = 0; I < Construct->getNumArgs(); ++I)
    if (F.hasProbesInside(Construct->getArg(I)) && isWrappable(Construct->getArg(I), Construct, F))
      Carriers.push_back(I);
  if (Carriers.empty())
    for (unsigned I = 0; I < Construct->getNumArgs(); ++I) {
      const Expr *Arg = Construct->getArg(I);
      if (Arg->getType()->isScalarType() && isWrappable(Arg, Construct, F)) {
        Carriers.push_back(I);
        break;
      }
    }
  if (Carriers.empty())
    return false;
  unsigned Site = F.addSite(SiteKind::Call, Construct, Construct->getBeginLoc(), "<call>");
  std::string Probe = "(sleuth_construct_arg(" + F.Ctx.unitAndSite(Site) + ", " +
                      F.callSiteControl(Site) + ", " +
                      std::to_string(FunctionInstrumenter::calleeKey(Ctor)) + "u, ";
  for (unsigned I : Carriers)
    F.Ctx.wrap(F.Ctx.fileRange(Construct->getArg(I)), Probe + std::to_string(I + 1) + "u), ", ")");
  // Where the arguments' reads go the run decides: into the constructor's parameters.
  F.pushReads(Construct);
  F.countProbe();
  return true;
}

} // namespace sleuth::instrumenter
