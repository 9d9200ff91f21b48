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

std::pair<std::string, std::string> ConditionProbe::testText(unsigned Site, const std::string &Unit,
                                                             const std::string &ValueFlow,
                                                             const Stmt *Full,
                                                             FunctionInstrumenter &F) {
  // Once the outcome is known the test sets the locals of the groups of controllers it belongs
  // to, and passes what it read on into the enclosing expression's value (ValueFlow, for tests
  // of `&&`, `||`, `?:` inside expressions): `(sleuth_test(...) ? (EFFECTS, 1) : (EFFECTS, 0))`;
  // the outcome is 0 or 1 already.
  std::string Probe = F.nodeProbe("sleuth_test", Full);
  return {F.defer([&F, Site, Unit, ValueFlow, Probe] {
            bool Plain = F.testEffects(Site).empty() && ValueFlow.empty();
            return std::string(Plain ? "" : "(") + Probe + "(" + Unit + ", (";
          }),
          F.defer([&F, Site, ValueFlow] {
            std::string Effects = F.testEffects(Site);
            if (Effects.empty() && ValueFlow.empty())
              return std::string(") ? 1 : 0)");
            // Each a cast to void: clang's -Wcomma takes nothing else before a comma.
            std::string Both = ValueFlow.empty() ? "" : "(void)(" + ValueFlow + ")";
            if (!Effects.empty())
              Both += (Both.empty() ? "" : ", ") + std::string("(void)(") + Effects + ")";
            return ") ? 1 : 0) ? (" + Both + ", 1) : (" + Both + ", 0))";
          })};
}

void ConditionProbe::wrapTest(CharSourceRange R, unsigned Site, const std::string &Unit,
                              const std::string &ValueFlow, const Stmt *Full,
                              FunctionInstrumenter &F) {
  auto [Prefix, Suffix] = testText(Site, Unit, ValueFlow, Full, F);
  F.Ctx.wrap(R, Prefix, Suffix);
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
  // A constant decides nothing (Clang's CFG has no edge for the other outcome, so no site
  // depends on it), and behind a probe the compiler would no longer see it: `while (true)`
  // without a return after it would "reach the end of a non-void function" (-Wreturn-type,
  // on by default in C++; pugixml's parsers).
  if (!Cond->isValueDependent() && Cond->isIntegerConstantExpr(F.Ctx.Ast))
    return false;
  CharSourceRange R = F.Ctx.expansionRange(Cond);
  if (R.isInvalid())
    return false;
  if (isa<SwitchStmt>(S)) {
    // The value must pass unchanged: through `unsigned long` and back to the promoted type.
    QualType T = Cond->getType().getCanonicalType();
    if (!T->isBuiltinType() || !T->isIntegerType() || F.Ctx.Ast.getTypeSize(T) > 64)
      return false;
  }
  unsigned Site = F.addSite(SiteKind::Test, Cond, Keyword, "<test>");
  F.claimReads(Cond, Site);
  std::string Unit = F.Ctx.unitAndSite(Site) + ", " + F.control(Site);
  if (isa<SwitchStmt>(S)) {
    // A switch's value is needed after the probe has set its groups' locals (testEffects): it
    // is kept in a local of the function for that moment.
    std::string Value = F.switchValue();
    // In C++ no old-style cast (-Wold-style-cast) and no cast of a value to its own type
    // (-Wuseless-cast): `switch (n)` of a size_t needs none.
    auto Cast = [&F](QualType From, QualType To) -> std::string {
      std::string Name = To.getAsString(F.Ctx.Ast.getPrintingPolicy());
      if (F.Ctx.isC())
        return "(" + Name + ")";
      if (From.getCanonicalType().getUnqualifiedType() == To.getCanonicalType())
        return "";
      return "static_cast<" + Name + ">";
    };
    QualType Long = F.Ctx.Ast.UnsignedLongTy;
    std::string Outer = Cast(Long, Cond->getType().getCanonicalType().getUnqualifiedType());
    std::string Inner = Cast(Cond->IgnoreImpCasts()->getType(), Long);
    F.Ctx.wrap(R, Outer + "((void)(" + Value + " = sleuth_switch(" + Unit + ", " + Inner + "(",
               F.defer([&F, Site, Value] {
                 std::string Effects = F.testEffects(Site);
                 return ")))" + (Effects.empty() ? "" : ", (void)(" + Effects + ")") + ", " +
                        Value + ")";
               }));
  } else {
    wrapTest(R, Site, Unit, "", F.fullExpression(Cond), F);
  }
  F.mapTerminator(S, Site);
  mapInnerTerminators(Cond, Site, F);
  F.countProbe();
  return true;
}

} // namespace sleuth::instrumenter
