#include "Probes.h"

#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace sleuth::instrumenter {

// Short-circuit operators and ?: inside a condition are CFG terminators too; statements they
// control are controlled by the condition's test.
static void mapInnerTerminators(const Stmt *S, unsigned Site, FunctionInstrumenter &F) {
  if (!S)
    return;
  if (const auto *B = dyn_cast<BinaryOperator>(S); B && B->isLogicalOp())
    F.mapTerminator(S, Site);
  if (isa<AbstractConditionalOperator>(S))
    F.mapTerminator(S, Site);
  for (const Stmt *C : S->children())
    mapInnerTerminators(C, Site, F);
}

bool ConditionProbe::instrument(const Stmt *S, FunctionInstrumenter &F) {
  const Expr *Cond = nullptr;
  SourceLocation Keyword;
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    if (If->getConditionVariable() || If->isConstexpr() || If->isConsteval())
      return false;
    Cond = If->getCond();
    Keyword = If->getIfLoc();
  } else if (const auto *W = dyn_cast<WhileStmt>(S)) {
    if (W->getConditionVariable())
      return false;
    Cond = W->getCond();
    Keyword = W->getWhileLoc();
  } else if (const auto *D = dyn_cast<DoStmt>(S)) {
    Cond = D->getCond();
    Keyword = D->getWhileLoc();
  } else if (const auto *For = dyn_cast<ForStmt>(S)) {
    if (For->getConditionVariable())
      return false;
    Cond = For->getCond();
    Keyword = For->getForLoc();
  } else if (const auto *Sw = dyn_cast<SwitchStmt>(S)) {
    if (Sw->getConditionVariable())
      return false;
    Cond = Sw->getCond();
    Keyword = Sw->getSwitchLoc();
  }
  // A statement written by a macro (glibc's assert is an `if` in GNU C mode) is not ours.
  if (!Cond || Keyword.isMacroID() || (Cond->isInstantiationDependent() && isa<SwitchStmt>(S)))
    return false;
  CharSourceRange R = F.Ctx.expansionRange(Cond);
  if (R.isInvalid())
    return false;
  std::string Prefix, Suffix;
  if (isa<SwitchStmt>(S)) {
    // The value must pass unchanged: through `unsigned long` and back to the promoted type.
    QualType T = Cond->getType().getCanonicalType();
    if (!T->isBuiltinType() || !T->isIntegerType() || F.Ctx.Ast.getTypeSize(T) > 64)
      return false;
    std::string TypeName = T.getUnqualifiedType().getAsString(F.Ctx.Ast.getPrintingPolicy());
    Prefix = "(" + TypeName + ")sleuth_switch(";
    Suffix = ")";
  } else {
    Prefix = "sleuth_test(";
    Suffix = ") ? 1 : 0)";
  }
  unsigned Site = F.addSite(SiteKind::Test, Cond, Keyword, "<test>");
  if (isa<SwitchStmt>(S))
    Prefix += F.Ctx.unitAndSite(Site) + ", (unsigned long)(";
  else
    Prefix += F.Ctx.unitAndSite(Site) + ", (";
  if (isa<SwitchStmt>(S))
    Suffix = ")" + Suffix;
  F.Ctx.wrap(R, Prefix, Suffix);
  F.mapTerminator(S, Site);
  mapInnerTerminators(Cond, Site, F);
  F.countProbe();
  return true;
}

} // namespace sleuth::instrumenter
