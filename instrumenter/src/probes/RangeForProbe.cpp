#include "Probes.h"

#include "clang/AST/DeclCXX.h"
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
  // The element's copy is written: the loop variable, or each name of a structured binding
  // (`for (auto [key, value] : pairs)`, whose variable has no name), which is what the body
  // reads; a bit-field's binding has no address.
  std::vector<std::pair<std::string, SourceLocation>> Written;
  if (const auto *Bindings = dyn_cast<DecompositionDecl>(Var)) {
    for (const BindingDecl *B : Bindings->bindings()) {
      const Expr *Bound = B->getBinding();
      if (!B->getDeclName().isEmpty() && Bound && !Bound->refersToBitField())
        Written.emplace_back(B->getNameAsString(), B->getLocation());
    }
  } else if (!Var->getDeclName().isEmpty()) {
    Written.emplace_back(Var->getNameAsString(), Var->getLocation());
  }
  if (Written.empty())
    return false;
  std::string R = F.Ctx.text(RangeText);
  std::string Probe = " sleuth_get(__builtin_addressof(" + R + "), sizeof(" + R + "));";
  for (const auto &[Name, Location] : Written) {
    unsigned Site = F.addSite(SiteKind::Var, Body, Location, Name);
    Probe += " (void)sleuth_decl(" + F.Ctx.unitAndSite(Site) + ", " + F.control(Site) +
             ", __builtin_addressof(" + Name + "), sizeof(" + Name + "));";
  }
  if (const auto *Block = dyn_cast<CompoundStmt>(Body))
    F.Ctx.insertAfterToken(F.Ctx.SM.getFileLoc(Block->getLBracLoc()), Probe);
  else
    F.Ctx.wrap(BodyRange, "{" + Probe + " ", " }");
  F.countProbe();
  return true;
}

} // namespace sleuth::instrumenter
