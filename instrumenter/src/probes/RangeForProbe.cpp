#include "Probes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace sleuth::instrumenter {

// The implicit `*__begin` that initializes a range-for's variable, under the conversions and the
// copy that make the variable's value of it; null if there is none.
static const Expr *elementOf(const Expr *Init) {
  while (Init) {
    Init = Init->IgnoreImplicit();
    if (const auto *U = dyn_cast<UnaryOperator>(Init))
      return U->getOpcode() == UO_Deref ? U : nullptr;
    if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Init))
      return Op->getOperator() == OO_Star ? Op : nullptr;
    const auto *Construct = dyn_cast<CXXConstructExpr>(Init);
    if (!Construct || Construct->getNumArgs() != 1)
      return nullptr;
    Init = Construct->getArg(0);
  }
  return nullptr;
}

// True if every instantiation of a value of type T is of class type: a class, or a
// specialization of a class template, not a template parameter that may be an array.
static bool isClassInEveryInstantiation(QualType T) {
  T = T.getNonReferenceType();
  if (T->isRecordType() || T->getAs<InjectedClassNameType>())
    return true;
  const auto *Specialization = T->getAs<TemplateSpecializationType>();
  return Specialization && !Specialization->isTypeAlias();
}

// True if For, a range-for of a template pattern over a dependent range, names an lvalue
// element (`*__begin`) in each instantiation of the unit (and has one).
static bool isLvalueElementInEveryInstantiation(const CXXForRangeStmt *For,
                                                FunctionInstrumenter &F) {
  if (F.instances().empty())
    return false;
  for (const StmtCorrespondence &Instance : F.instances()) {
    const auto *Same = dyn_cast_or_null<CXXForRangeStmt>(Instance.inInstance(For));
    const VarDecl *Var = Same ? Same->getLoopVariable() : nullptr;
    const Expr *Element = Var ? elementOf(Var->getInit()) : nullptr;
    if (!Element || !Element->isLValue())
      return false;
  }
  return true;
}

// True if S names one of Names: repeated inside the body, where the loop variable is in scope,
// the name would be the variable's.
static bool namesAny(const Stmt *S,
                     const std::vector<std::pair<std::string, SourceLocation>> &Names) {
  if (!S)
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S))
    for (const auto &Name : Names)
      if (Ref->getDecl()->getNameAsString() == Name.first)
        return true;
  for (const Stmt *Child : S->children())
    if (namesAny(Child, Names))
      return true;
  return false;
}

bool RangeForProbe::instrument(const CXXForRangeStmt *For, FunctionInstrumenter &F) {
  const VarDecl *Var = For->getLoopVariable();
  const Expr *Range = For->getRangeInit();
  const Stmt *Body = For->getBody();
  if (!Var || !Range || !Body || For->getForLoc().isMacroID())
    return false;
  // Over a range of dependent type, in a template pattern, the loop has no implicit statements
  // until it is instantiated: no `*__begin` to name the element by, no `__begin != __end` to
  // anchor the test at (its control comes from an instantiation's CFG, mapped back to the
  // pattern by FunctionInstrumenter).
  const bool Dependent = !For->getCond();
  CharSourceRange BodyRange = F.Ctx.statementRange(Body);
  if (BodyRange.isInvalid())
    return false;
  // The variable's declaration, up to the colon (a range-for variable's own range may take it).
  CharSourceRange VarRange;
  if (Var->getBeginLoc().isFileID() && For->getColonLoc().isFileID())
    VarRange = CharSourceRange::getCharRange(Var->getBeginLoc(), For->getColonLoc());
  // The names the body reads the element by: the loop variable, or each name of a structured
  // binding (`for (auto [key, value] : pairs)`, whose variable has no name); a bit-field's
  // binding has no address.
  std::vector<std::pair<std::string, SourceLocation>> Names;
  if (const auto *Bindings = dyn_cast<DecompositionDecl>(Var)) {
    for (const BindingDecl *B : Bindings->bindings())
      if (DeclarationProbe::isRecordedBinding(B, Dependent, F))
        Names.emplace_back(B->getNameAsString(), B->getLocation());
  } else if (!Var->getDeclName().isEmpty()) {
    Names.emplace_back(Var->getNameAsString(), Var->getLocation());
  }

  // The range's object, read by the test and by the variable: a container's size and storage
  // (the elements of a contiguous one are read one at a time, below). An array's bound is
  // fixed, and its object is its elements: the test reads nothing of it.
  std::string Object;
  if (isClassInEveryInstantiation(Range->getType()) &&
      (Dependent ? isLvalueInEveryInstantiation(Range) : Range->isLValue() && hasAddress(Range)) &&
      isRepeatable(Range, F.Ctx.Ast) && !namesAny(Range, Names)) {
    CharSourceRange RangeText = F.Ctx.fileRange(Range);
    if (RangeText.isValid()) {
      std::string R = F.Ctx.text(RangeText);
      Object = "__builtin_addressof(" + R + "), sizeof(" + R + ")";
    }
  }
  auto ReadObject = [&F, &Object](unsigned Site) {
    return Object.empty() ? std::string()
                          : " sleuth_getc(&" + F.Ctx.UnitName + ", " + F.readCache() + ", " +
                                std::to_string(Site) + "u, " + Object + ");";
  };

  // The loop's test, `__begin != __end`, has no text to wrap: its node is made where the body
  // begins, with the outcome that got there. The body's statements, and the variable's writes,
  // are controlled by it as a `while` body by its condition.
  unsigned Test =
      F.addSite(SiteKind::Test, Dependent ? static_cast<const Stmt *>(For) : For->getCond(),
                For->getForLoc(), "<test>");
  auto [TestPrefix, TestSuffix] = ConditionProbe::testText(
      Test, F.Ctx.unitAndSite(Test) + ", " + F.control(Test), "", nullptr, F);
  std::string Probe = ReadObject(Test) + " (void)" + TestPrefix + "1" + TestSuffix + ";";
  F.mapTerminator(For, Test);

  // A variable of its own (a copy of the element) is written each iteration at the loop's line,
  // from the element and the range's object. The element is only named by `*__begin`: a copy
  // of an lvalue element takes it from a reference of the instrumentation's,
  // `for (auto &&__sleuth_eN : v) { int y = __sleuth_eN; ...`, which reads its bytes (written
  // one at a time by `v[1] = 7`). A reference variable is the element itself: the body reads
  // it, and the range's object through the test.
  // In a pattern, where the element's value category waits for the instantiation, only where
  // every instantiation's element is an lvalue: a prvalue one would be moved from, not built
  // in place.
  if (!Var->getType()->isReferenceType() && !Names.empty()) {
    const Expr *Element = Dependent ? nullptr : elementOf(Var->getInit());
    std::string Reference;
    if ((Dependent ? isLvalueElementInEveryInstantiation(For, F)
                   : Element && Element->isLValue()) &&
        VarRange.isValid()) {
      Reference = "__sleuth_e" + std::to_string(F.FunctionId) + "_" + std::to_string(Test);
      Probe += " " + F.Ctx.text(VarRange) + " = " + Reference + ";";
      F.Ctx.replace(VarRange, "auto &&" + Reference + " ");
    }
    for (const auto &[Name, Location] : Names) {
      unsigned Site = F.addSite(SiteKind::Var, For->getLoopVarStmt(), Location, Name);
      Probe += ReadObject(Site);
      if (!Reference.empty())
        Probe += " sleuth::rdc(&" + F.Ctx.UnitName + ", " + F.readCache() + ", " +
                 std::to_string(Site) + "u, " + Reference + ");";
      Probe += " (void)sleuth_decl(" + F.Ctx.unitAndSite(Site) + ", " + F.control(Site) +
               ", __builtin_addressof(" + Name + "), sizeof(" + Name + "));";
    }
  }
  if (const auto *Block = dyn_cast<CompoundStmt>(Body))
    F.Ctx.insertAfterToken(F.Ctx.SM.getFileLoc(Block->getLBracLoc()), Probe);
  else
    F.Ctx.wrap(BodyRange, "{" + Probe + " ", " }");
  F.countProbe();
  return true;
}

} // namespace sleuth::instrumenter
