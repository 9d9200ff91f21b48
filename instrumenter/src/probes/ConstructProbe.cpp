#include "Probes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

#include <optional>

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

bool keepsMeaningInComma(const Expr *E, FunctionInstrumenter &F) {
  const Expr *Bare = E->IgnoreParenImpCasts();
  if (isa<OverloadExpr>(Bare))
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(Bare); Ref && isa<FunctionDecl>(Ref->getDecl()))
    return false;
  if (const auto *AddrOf = dyn_cast<UnaryOperator>(Bare);
      AddrOf && AddrOf->getOpcode() == UO_AddrOf &&
      isa<DeclRefExpr, OverloadExpr>(AddrOf->getSubExpr()->IgnoreParens()))
    return false;
  return !E->isNullPointerConstant(F.Ctx.Ast, Expr::NPC_ValueDependentIsNotNull);
}

// True if `(probe, Arg)` means what Arg meant (keepsMeaningInComma), and Arg is no braced list
// (no expression), no argument of a list-initialization that is a constant (the comma's value
// is none: a narrowing conversion of it would be an error), and no pack expansion.
static bool isWrappable(const Expr *Arg, const CXXConstructExpr *Construct,
                        FunctionInstrumenter &F) {
  if (isa<CXXDefaultArgExpr, PackExpansionExpr>(Arg) || isa<InitListExpr>(Arg->IgnoreImplicit()))
    return false;
  if (!keepsMeaningInComma(Arg, F))
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

// The parameters of Function that S reads (outside lambdas, unevaluated operands and Skip).
static void collectParameterReads(const Stmt *S, const FunctionDecl *Function,
                                  const std::vector<const CallExpr *> &Skip,
                                  std::vector<const ParmVarDecl *> &Out) {
  if (!S || isa<LambdaExpr, UnaryExprOrTypeTraitExpr>(S) || llvm::is_contained(Skip, S))
    return;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
    const auto *P = dyn_cast<ParmVarDecl>(Ref->getDecl());
    if (P && P->getDeclContext() == Function && llvm::find(Out, P) == Out.end())
      Out.push_back(P);
    return;
  }
  for (const Stmt *Child : S->children())
    collectParameterReads(Child, Function, Skip, Out);
}

std::string
initializerArgumentOrigins(const Expr *Arg, const FunctionDecl *Function,
                           const std::vector<std::pair<const ParmVarDecl *, unsigned>> &ParamSites,
                           const std::vector<const CallExpr *> &Skip, FunctionInstrumenter &F) {
  std::vector<const ParmVarDecl *> Reads;
  collectParameterReads(Arg, Function, Skip, Reads);
  std::string Origins;
  for (const ParmVarDecl *P : Reads) {
    auto Known = llvm::find_if(ParamSites, [P](const auto &PS) { return PS.first == P; });
    QualType T = P->getType();
    if (Known != ParamSites.end())
      Origins +=
          "sleuth_use(" + F.Ctx.UnitName + ".base + " + std::to_string(Known->second) + "u), ";
    else if (T->isReferenceType() && !P->isParameterPack() && !P->getDeclName().isEmpty() &&
             !T.getNonReferenceType()->isFunctionType() &&
             !T.getNonReferenceType()->isIncompleteType()) {
      std::string Name = P->getNameAsString();
      Origins += "sleuth_get(sleuth::address_of(" + Name + "), " + sizeofVariable(P, Name) + "), ";
    }
  }
  return Origins;
}

// A base, delegated-to or member constructor runs before the body: no frame of the constructor
// exists yet, and a parameter's storage has not got the origin that the entry gives it (a read
// of it would find what the stack held before). Each argument that reads parameters makes or
// marks the call's record as in a body, and pushes the parameters' nodes, which are the unit's
// base plus their sites whenever they are made (the construct probe registers the unit first).
// A parameter passed by reference has no node: the object it names is read, which holds its
// origin already. The call's control is none, as a constructor entered without a record has;
// before this, the called constructor's parameters had no origins and a slice stopped there.
void ConstructProbe::instrumentInitializers(
    const std::vector<std::pair<const ParmVarDecl *, unsigned>> &ParamSites,
    FunctionInstrumenter &F) {
  const auto *Ctor = dyn_cast<CXXConstructorDecl>(F.Function);
  if (!Ctor || Ctor->isDependentContext())
    return;
  for (const CXXCtorInitializer *Init : Ctor->inits()) {
    if (!Init->isWritten() || !Init->getInit())
      continue;
    const auto *Construct = dyn_cast<CXXConstructExpr>(Init->getInit()->IgnoreImplicit());
    if (!Construct || Construct->isElidable() || Construct->getNumArgs() == 0 ||
        !isInstrumentedConstructor(Construct->getConstructor(), F))
      continue;
    // Stricter than for a call in the body: a record that no entry takes would leave its
    // arguments' nodes pending in the caller's frame, where the calling constructor's last
    // parameter would take them. A definition seen here must be in a file instrumented.
    if (const FunctionDecl *Definition = Construct->getConstructor()->getDefinition();
        Definition && !F.Ctx.instrumentable(F.Ctx.SM.getFileLoc(Definition->getLocation())))
      continue;
    std::string Key = std::to_string(FunctionInstrumenter::calleeKey(Construct->getConstructor()));
    std::optional<unsigned> Site;
    for (unsigned I = 0; I < Construct->getNumArgs(); ++I) {
      const Expr *Arg = Construct->getArg(I);
      if (!isWrappable(Arg, Construct, F))
        continue;
      // A call of the program's in the argument pushes its value inside the argument's reads
      // (its record is made inside them: its prefix is inner to the argument's).
      std::vector<const CallExpr *> Calls =
          CallProbe::instrumentInitializerCalls(Arg, std::nullopt, ParamSites, F);
      std::string Origins = initializerArgumentOrigins(Arg, Ctor, ParamSites, Calls, F);
      if (Origins.empty() && Calls.empty())
        continue;
      if (!Site)
        Site = F.addSite(SiteKind::Call, Construct, Init->getSourceLocation(), "<call>");
      F.Ctx.wrap(F.Ctx.fileRange(Arg),
                 "(sleuth_initializer_call(), sleuth_construct_arg(" + F.Ctx.unitAndSite(*Site) +
                     ", 0u, " + Key + "u, " + std::to_string(I + 1) + "u), " + Origins,
                 ")");
      F.countProbe();
    }
  }
}

} // namespace sleuth::instrumenter
