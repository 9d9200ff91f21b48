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
  std::string Reads;
  for (const LambdaCapture &Capture : Lambda->captures()) {
    if (!Capture.capturesVariable() || Capture.getCaptureKind() != LCK_ByCopy)
      continue;
    const auto *V = dyn_cast<VarDecl>(Capture.getCapturedVar());
    if (!V || V->getDeclName().isEmpty() || V->isInitCapture() || V->isConstexpr() ||
        V->getType()->isDependentType() || V->getType()->isIncompleteType())
      continue;
    std::string Name = V->getNameAsString();
    if (const std::string *Origin = F.Locals.companion(V))
      Reads += "sleuth_use(" + *Origin + "), ";
    else
      Reads += "sleuth_get(sleuth::address_of(" + Name + "), sizeof(" + Name + ")), ";
  }
  if (Reads.empty())
    return false;
  F.Ctx.wrap(R, "(" + Reads, ")");
  F.countProbe();
  return true;
}

} // namespace sleuth::instrumenter
