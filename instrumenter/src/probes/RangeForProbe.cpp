#include "Probes.h"

#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace sleuth::instrumenter {

bool RangeForProbe::instrument(const CXXForRangeStmt *For, FunctionInstrumenter &F) {
  const VarDecl *Var = For->getLoopVariable();
  const Expr *Range = For->getRangeInit();
  const Stmt *Body = For->getBody();
  if (!Var || !Range || !Body || Var->getType()->isReferenceType() ||
      Var->getType()->isDependentType() || Range->isInstantiationDependent() ||
      !Range->isLValue() || !isRepeatable(Range, F.Ctx.Ast) || !hasAddress(Range))
    return false;
  CharSourceRange RangeText = F.Ctx.fileRange(Range), BodyRange = F.Ctx.statementRange(Body);
  if (RangeText.isInvalid() || BodyRange.isInvalid() ||
      F.Ctx.fileRange(Var->getSourceRange()).isInvalid())
    return false;
  std::string R = F.Ctx.text(RangeText);
  std::string Name = Var->getNameAsString();
  unsigned Site = F.addSite(SiteKind::Var, Body, Var->getLocation(), Name);
  std::string Probe = " sleuth_get(__builtin_addressof(" + R + "), sizeof(" + R +
                      ")); (void)sleuth_decl(" + F.Ctx.unitAndSite(Site) + ", " + F.control(Site) +
                      ", __builtin_addressof(" + Name + "), sizeof(" + Name + "));";
  if (const auto *Block = dyn_cast<CompoundStmt>(Body))
    F.Ctx.insertAfterToken(F.Ctx.SM.getFileLoc(Block->getLBracLoc()), Probe);
  else
    F.Ctx.wrap(BodyRange, "{" + Probe + " ", " }");
  F.countProbe();
  return true;
}

} // namespace sleuth::instrumenter
