#include "Probes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace sleuth::instrumenter {

// The key of the constructors of T (one key for all of a class's: calleeKey names them by the
// class), if T is a class of the program's whose constructor an entry probe runs in; else 0.
static unsigned constructorKey(QualType T, FunctionInstrumenter &F) {
  const CXXRecordDecl *Record = T.isNull() ? nullptr : T->getAsCXXRecordDecl();
  if (!Record || !Record->hasDefinition() || T->isDependentType() ||
      F.Ctx.SM.isInSystemHeader(Record->getLocation()))
    return 0;
  for (const CXXConstructorDecl *Ctor : Record->ctors())
    if (Ctor->isUserProvided() && !Ctor->isCopyOrMoveConstructor() && !F.isLeftUninstrumented(Ctor))
      return FunctionInstrumenter::calleeKey(Ctor);
  return 0;
}

// The key of what calling an object of type T calls: a lambda's operator(), or 0 (a function
// pointer, std::function: any callee the library enters).
static unsigned callableKey(const Expr *Callable, FunctionInstrumenter &F) {
  const CXXRecordDecl *Record = Callable->getType()->getAsCXXRecordDecl();
  if (Record && Record->isLambda())
    if (const CXXMethodDecl *Call = Record->getLambdaCallOperator();
        Call && !F.isLeftUninstrumented(Call))
      return FunctionInstrumenter::calleeKey(Call);
  const auto *Ref = dyn_cast<DeclRefExpr>(Callable->IgnoreParenImpCasts());
  if (const auto *Function = Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr;
      Function && !F.Ctx.SM.isInSystemHeader(Function->getLocation()) &&
      !F.isLeftUninstrumented(Function))
    return FunctionInstrumenter::calleeKey(Function);
  return 0;
}

// The first template argument of the class a member function Method belongs to
// (std::vector<T>::emplace_back: T).
static QualType elementType(const CXXMethodDecl *Method) {
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Method->getParent());
  if (!Spec || Spec->getTemplateArgs().size() == 0 ||
      Spec->getTemplateArgs()[0].getKind() != TemplateArgument::Type)
    return QualType();
  return Spec->getTemplateArgs()[0].getAsType();
}

std::optional<ForwardingCallProbe::Record>
ForwardingCallProbe::markArguments(const CallExpr *Call, FunctionInstrumenter &F) {
  if (!F.isCxx())
    return std::nullopt;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || Call->getBeginLoc().isMacroID())
    return std::nullopt;
  // What the library enters with the call's arguments from `Skip` on, as its parameters from
  // the first on. Only library functions that enter nothing of the program's before (an
  // associative container's emplace compares keys first: left out).
  StringRef Name = Callee->getDeclName().isIdentifier() ? Callee->getName() : StringRef();
  unsigned Skip = 0, Key = 0;
  const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
  const CXXRecordDecl *Class = Method ? Method->getParent() : nullptr;
  StringRef ClassName =
      Class && Class->getDeclName().isIdentifier() ? Class->getName() : StringRef();
  if (!(Class ? Class->isInStdNamespace() : Callee->isInStdNamespace()))
    return std::nullopt;
  if (!Method && (Name == "make_unique" || Name == "make_shared")) {
    const TemplateArgumentList *Args = Callee->getTemplateSpecializationArgs();
    if (!Args || Args->size() == 0 || Args->get(0).getKind() != TemplateArgument::Type)
      return std::nullopt;
    Key = constructorKey(Args->get(0).getAsType(), F);
  } else if (!Method && Name == "construct_at" && Call->getNumArgs() > 0) {
    Key = constructorKey(Call->getArg(0)->getType()->getPointeeType(), F);
    Skip = 1;
  } else if (Method && (Name == "emplace_back" || Name == "emplace_front") &&
             (ClassName == "vector" || ClassName == "deque" || ClassName == "list" ||
              ClassName == "forward_list")) {
    Key = constructorKey(elementType(Method), F);
  } else if (Method && Name == "emplace" && ClassName == "optional") {
    Key = constructorKey(elementType(Method), F);
  } else if (!Method && Name == "invoke" && Call->getNumArgs() > 0) {
    Key = callableKey(Call->getArg(0), F);
    Skip = 1;
    if (Key == 0)
      return std::nullopt;
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
             Op && Op->getOperator() == OO_Call && ClassName == "function") {
    Skip = 1; // the std::function object; its target is any callee
  } else {
    return std::nullopt;
  }
  if (Key == 0 && !isa<CXXOperatorCallExpr>(Call))
    return std::nullopt;
  CharSourceRange R = F.Ctx.fileRange(Call);
  if (R.isInvalid())
    return std::nullopt;
  // Each argument's reads are pushed and marked at its parameter's position (0: none, for the
  // callable itself): their order of evaluation is unspecified.
  // An argument the library takes by reference (`Args &&...`) is no read yet: the library
  // passes the object on, and the callee's parameter copies it; it is read here.
  std::vector<std::pair<CharSourceRange, unsigned>> Marks;
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I);
    if (isa<CXXDefaultArgExpr, PackExpansionExpr>(Arg) || isa<InitListExpr>(Arg->IgnoreImplicit()))
      continue;
    CharSourceRange AR = F.Ctx.fileRange(Arg);
    if (AR.isInvalid() || F.Ctx.text(AR).rfind('{', 0) == 0)
      continue;
    unsigned Position = I < Skip ? 0 : I - Skip + 1;
    if (F.hasProbesInside(Arg)) {
      F.pushReads(Arg);
    } else if (Position != 0 && !Arg->refersToBitField() &&
               LibraryCallProbe::readReferencedObject(Arg, F)) {
      F.pushLastRead();
    } else {
      continue;
    }
    Marks.emplace_back(AR, Position);
  }
  if (Marks.empty())
    return std::nullopt;
  unsigned Site = F.addSite(SiteKind::Call, Call, Call->getBeginLoc(), "<call>");
  for (const auto &[AR, Position] : Marks)
    F.Ctx.wrap(AR,
               "(sleuth_arg(" + F.Ctx.unitAndSite(Site) + ", " + std::to_string(Position) + "), ",
               ")");
  return Record{Site, Key};
}

void ForwardingCallProbe::recordCall(const CallExpr *Call, const Record &Forward,
                                     FunctionInstrumenter &F) {
  CharSourceRange R = F.Ctx.fileRange(Call);
  F.Ctx.wrap(R,
             "(sleuth_forward(" + F.Ctx.unitAndSite(Forward.Site) + ", " +
                 F.callSiteControl(Forward.Site) + ", " + std::to_string(Forward.Key) + "u), ",
             ")");
  F.countProbe();
}

} // namespace sleuth::instrumenter
