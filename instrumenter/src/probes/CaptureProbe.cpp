#include "Probes.h"

#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace sleuth::instrumenter {

// True if the lambda is part of a constexpr variable's initializer, which no probe may enter.
static bool initializesConstexpr(const LambdaExpr *Lambda, FunctionInstrumenter &F) {
  const Stmt *S = Lambda;
  for (const Stmt *P = F.Ctx.parent(S); P; S = P, P = F.Ctx.parent(P)) {
    if (const auto *D = dyn_cast<DeclStmt>(P)) {
      for (const Decl *Dc : D->decls())
        if (const auto *V = dyn_cast<VarDecl>(Dc); V && V->isConstexpr() && V->getInit() == S)
          return true;
      return false;
    }
    if (!isa<Expr>(P))
      return false;
  }
  return false;
}

bool CaptureProbe::instrument(const LambdaExpr *Lambda, FunctionInstrumenter &F) {
  CharSourceRange R = F.Ctx.fileRange(Lambda);
  if (R.isInvalid() || Lambda->isInstantiationDependent() || initializesConstexpr(Lambda, F))
    return false;
  std::string Reads, Names;
  std::vector<const VarDecl *> Copied;
  for (const LambdaCapture &Capture : Lambda->captures()) {
    if (!Capture.capturesVariable() || Capture.getCaptureKind() != LCK_ByCopy)
      continue;
    const auto *V = dyn_cast<VarDecl>(Capture.getCapturedVar());
    if (!V || V->getDeclName().isEmpty() || V->isInitCapture() || V->isConstexpr() ||
        V->getType()->isDependentType() || V->getType()->isIncompleteType())
      continue;
    std::string Name = V->getNameAsString();
    FunctionInstrumenter::ReadForms Forms = ReadProbe::cxxRead(F);
    if (const std::string *Origin = F.Locals.companion(V))
      Forms = ReadProbe::keptRead(*Origin, F);
    else if (const std::string *Captured = F.captureOrigin(V)) // a lambda's in a lambda
      Forms = ReadProbe::keptRead(*Captured, F);
    auto [Prefix, Suffix] = F.addRead({}, std::move(Forms));
    Reads += "(void)" + Prefix + Name + Suffix + ", ";
    Names += (Names.empty() ? "" : ", ") + Name;
    Copied.push_back(V);
  }
  if (Reads.empty())
    return false;
  // The closure is a node of its own, which reads the captures and which what takes the
  // closure reads (sleuth::made pushes it): the call it is passed to, the variable it
  // initializes.
  unsigned Site = F.addSite(SiteKind::Var, Lambda, Lambda->getBeginLoc(), "[" + Names + "]");
  F.claimReads(Lambda, Site);
  F.Ctx.wrap(R, "sleuth::made(" + F.Ctx.unitAndSite(Site) + ", " + F.control(Site) + ", (" + Reads,
             "))");
  if (!Lambda->isMutable())
    for (const VarDecl *V : Copied)
      F.Ctx.ClosureSites[{Lambda->getLambdaClass(), V}] = {F.Ctx.Sites, Site};
  F.countProbe();
  return true;
}

} // namespace sleuth::instrumenter
