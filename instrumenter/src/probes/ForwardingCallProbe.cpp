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

// The key of what calling Callable calls: a lambda's operator(), the operator() a class of the
// program's declares (one key for all its overloads: calleeKey names them by the class), a
// function of the program's named; or 0 (a function pointer, std::function, a class that
// inherits its operator()s: any callee the library enters).
static unsigned callableKey(const Expr *Callable, FunctionInstrumenter &F) {
  const CXXRecordDecl *Record = Callable->getType()->getAsCXXRecordDecl();
  if (Record && Record->isLambda())
    if (const CXXMethodDecl *Call = Record->getLambdaCallOperator();
        Call && !F.isLeftUninstrumented(Call))
      return FunctionInstrumenter::calleeKey(Call);
  if (Record && Record->hasDefinition() && !Record->isLambda() &&
      !Callable->getType()->isDependentType() &&
      !F.Ctx.SM.isInSystemHeader(Record->getLocation())) {
    DeclarationName CallName = F.Ctx.Ast.DeclarationNames.getCXXOperatorName(OO_Call);
    for (const NamedDecl *D : Record->lookup(CallName))
      if (const auto *Call = dyn_cast_or_null<CXXMethodDecl>(D->getAsFunction());
          Call && !F.isLeftUninstrumented(Call))
        return FunctionInstrumenter::calleeKey(Call);
  }
  const auto *Ref = dyn_cast<DeclRefExpr>(Callable->IgnoreParenImpCasts());
  if (const auto *Function = Ref ? dyn_cast<FunctionDecl>(Ref->getDecl()) : nullptr;
      Function && !F.Ctx.SM.isInSystemHeader(Function->getLocation()) &&
      !F.isLeftUninstrumented(Function))
    return FunctionInstrumenter::calleeKey(Function);
  return 0;
}

// Template argument Index of the class a member function Method belongs to
// (std::vector<T>::emplace_back, 0: T; std::map<K, V>::try_emplace, 1: V).
static QualType classTemplateArgument(const CXXMethodDecl *Method, unsigned Index = 0) {
  const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Method->getParent());
  if (!Spec || Spec->getTemplateArgs().size() <= Index ||
      Spec->getTemplateArgs()[Index].getKind() != TemplateArgument::Type)
    return QualType();
  return Spec->getTemplateArgs()[Index].getAsType();
}

// True if Method's first parameter is an iterator that says where (`v.emplace(it, a)`,
// `m.try_emplace(hint, k, a)`), not the key (`m.try_emplace(k, a)`).
static bool takesPositionFirst(const CXXMethodDecl *Method, FunctionInstrumenter &F) {
  if (Method->getNumParams() == 0)
    return false;
  QualType First = Method->getParamDecl(0)->getType().getNonReferenceType();
  QualType Key = classTemplateArgument(Method);
  return Key.isNull() || !F.Ctx.Ast.hasSameUnqualifiedType(First, Key);
}

// What a container's emplacing member Method enters of the program's: the key of the
// constructor of the element it builds (0: none) and how many of the call's arguments come
// before the constructor's (the position, the key). Set and map keys are compared (the
// program's operator<, std::hash) before or after the construction: their entries have keys
// of their own, which the record's does not match.
static std::pair<unsigned, unsigned> emplacedElement(const CallExpr *Call,
                                                     const CXXMethodDecl *Method, StringRef Name,
                                                     StringRef ClassName, FunctionInstrumenter &F) {
  bool Sequence = ClassName == "vector" || ClassName == "deque" || ClassName == "list" ||
                  ClassName == "forward_list";
  bool Set = ClassName == "set" || ClassName == "multiset" || ClassName == "unordered_set" ||
             ClassName == "unordered_multiset";
  bool Map = ClassName == "map" || ClassName == "multimap" || ClassName == "unordered_map" ||
             ClassName == "unordered_multimap";
  if (Sequence && (Name == "emplace_back" || Name == "emplace_front"))
    return {constructorKey(classTemplateArgument(Method), F), 0};
  if (Sequence && (Name == "emplace" || Name == "emplace_after"))
    return {constructorKey(classTemplateArgument(Method), F), 1};
  if (Set && (Name == "emplace" || Name == "emplace_hint"))
    return {constructorKey(classTemplateArgument(Method), F), Name == "emplace" ? 0 : 1};
  if (!Map)
    return {0, 0};
  // The mapped value, from the arguments after the key. Not where the key's class is the
  // mapped value's: its copy would take the record.
  QualType Mapped = classTemplateArgument(Method, 1);
  unsigned Key = constructorKey(Mapped, F);
  if (Key == 0 || Key == constructorKey(classTemplateArgument(Method), F))
    return {0, 0};
  if (Name == "try_emplace" && (ClassName == "map" || ClassName == "unordered_map"))
    return {Key, takesPositionFirst(Method, F) ? 2u : 1u};
  // `m.emplace(k, v)` builds a pair whose mapped value is constructed from v: a conversion,
  // by the program's constructor (a copy of a mapped value is no entry of the record's).
  unsigned Skip = Name == "emplace" ? 1 : Name == "emplace_hint" ? 2 : 0;
  if (Skip == 0 || Call->getNumArgs() != Skip + 1)
    return {0, 0};
  QualType Value = Call->getArg(Skip)->getType();
  if (Value->isDependentType() || F.Ctx.Ast.hasSameUnqualifiedType(Value, Mapped))
    return {0, 0};
  return {Key, Skip};
}

// True if T is std::thread.
static bool isThread(QualType T) {
  const CXXRecordDecl *Record = T.isNull() ? nullptr : T->getAsCXXRecordDecl();
  return Record && Record->isInStdNamespace() && Record->getDeclName().isIdentifier() &&
         Record->getName() == "thread";
}

// What a std::thread's function Callable enters: the key of the record (0: any callee, a
// virtual member function, whose override has its own name) and the arguments that are no
// parameter of it (the function, and a member function's object). None if sleuth::ThreadStart
// cannot stand for it (it calls `f(args...)` or `(object.*f)(args...)`) or the program has no
// callee there.
struct ThreadCallee {
  unsigned Key, Skip;
};
static std::optional<ThreadCallee> threadCallee(const Expr *Callable, const Expr *Object,
                                                FunctionInstrumenter &F) {
  if (Callable->isInstantiationDependent() || F.Ctx.fileRange(Callable).isInvalid())
    return std::nullopt;
  if (!Callable->getType()->isMemberPointerType()) {
    unsigned Key = callableKey(Callable, F);
    return Key ? std::optional(ThreadCallee{Key, 1}) : std::nullopt;
  }
  // `&Worker::run`: the object comes next.
  const auto *AddressOf = dyn_cast<UnaryOperator>(Callable->IgnoreParenImpCasts());
  const auto *Ref = AddressOf && AddressOf->getOpcode() == UO_AddrOf
                        ? dyn_cast<DeclRefExpr>(AddressOf->getSubExpr()->IgnoreParens())
                        : nullptr;
  const auto *Method = Ref ? dyn_cast<CXXMethodDecl>(Ref->getDecl()) : nullptr;
  if (!Method || Method->isStatic() || F.Ctx.SM.isInSystemHeader(Method->getLocation()) ||
      F.isLeftUninstrumented(Method))
    return std::nullopt;
  // The object, or a pointer to it (not a std::reference_wrapper, a smart pointer).
  QualType ObjectType = Object->getType();
  if (ObjectType->isPointerType())
    ObjectType = ObjectType->getPointeeType();
  const CXXRecordDecl *Class = ObjectType->getAsCXXRecordDecl();
  if (!Class || !Class->hasDefinition() ||
      !(Class->getCanonicalDecl() == Method->getParent()->getCanonicalDecl() ||
        Class->isDerivedFrom(Method->getParent())))
    return std::nullopt;
  return ThreadCallee{Method->isVirtual() ? 0 : FunctionInstrumenter::calleeKey(Method), 2};
}

// A std::thread's function, in the place of Callable: sleuth::ThreadStart, which takes the
// record of call Site from this thread once the library has evaluated the arguments and gives
// it to the new thread.
static void wrapThreadFunction(const Expr *Callable, unsigned Site, FunctionInstrumenter &F) {
  F.Ctx.wrap(F.Ctx.fileRange(Callable), "sleuth::thread_start(" + F.Ctx.unitAndSite(Site) + ", ",
             ")");
}

// The arguments of a call that reads them for the callee the library enters, from Skip on as
// its parameters from the first on: each one's reads pushed, with the range to mark and the
// position of its parameter (0: none, for the callable itself and the arguments before Skip,
// which are left out if SkipCallable).
// Their order of evaluation is unspecified. An argument the library takes by reference
// (`Args &&...`) is no read yet: the library passes the object on, and the callee's parameter
// copies it; it is read here.
static std::vector<std::pair<CharSourceRange, unsigned>>
markArgumentReads(ArrayRef<const Expr *> Args, unsigned Skip, bool SkipCallable,
                  FunctionInstrumenter &F) {
  std::vector<std::pair<CharSourceRange, unsigned>> Marks;
  for (unsigned I = 0; I < Args.size(); ++I) {
    const Expr *Arg = Args[I];
    unsigned Position = I < Skip ? 0 : I - Skip + 1;
    if ((Position == 0 && SkipCallable) || isa<CXXDefaultArgExpr, PackExpansionExpr>(Arg) ||
        isa<InitListExpr>(Arg->IgnoreImplicit()))
      continue;
    CharSourceRange AR = F.Ctx.fileRange(Arg);
    if (AR.isInvalid() || F.Ctx.text(AR).rfind('{', 0) == 0)
      continue;
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
  return Marks;
}

std::optional<ForwardingCallProbe::Record>
ForwardingCallProbe::markArguments(const CallExpr *Call, FunctionInstrumenter &F) {
  if (!F.isCxx())
    return std::nullopt;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || Call->getBeginLoc().isMacroID())
    return std::nullopt;
  // What the library enters with the call's arguments from `Skip` on, as its parameters from
  // the first on. Only library functions that enter nothing of the program's before with the
  // record's key (an associative container's comparisons enter functions of other keys).
  StringRef Name = Callee->getDeclName().isIdentifier() ? Callee->getName() : StringRef();
  unsigned Skip = 0, Key = 0;
  bool AnyCallee = false;      // a record with key 0
  bool ThreadFunction = false; // argument 0 is a std::thread's function
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
  } else if (Method && Name == "emplace" && ClassName == "optional") {
    Key = constructorKey(classTemplateArgument(Method), F);
  } else if (Method && (Name == "emplace_back" || Name == "emplace_front") &&
             Call->getNumArgs() > 1 && isThread(classTemplateArgument(Method))) {
    // `threads.emplace_back(f, a, b)`: a std::thread constructed in place.
    std::optional<ThreadCallee> Callee = threadCallee(Call->getArg(0), Call->getArg(1), F);
    if (!Callee)
      return std::nullopt;
    Key = Callee->Key;
    Skip = Callee->Skip;
    AnyCallee = Key == 0;
    ThreadFunction = true;
  } else if (Method && (Name.starts_with("emplace") || Name == "try_emplace")) {
    std::tie(Key, Skip) = emplacedElement(Call, Method, Name, ClassName, F);
  } else if (!Method && Name == "visit" && Call->getNumArgs() > 1) {
    // The visitor takes each variant's alternative: what wrote the variant wrote it. A
    // visitor whose class inherits its operator()s (from lambdas) has no key of its own: any
    // callee (the library enters nothing else, but a by-value alternative's copy).
    Key = callableKey(Call->getArg(0), F);
    Skip = 1;
    AnyCallee = Key == 0;
  } else if (!Method && Name == "invoke" && Call->getNumArgs() > 0) {
    Key = callableKey(Call->getArg(0), F);
    Skip = 1;
    if (Key == 0)
      return std::nullopt;
  } else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
             Op && Op->getOperator() == OO_Call && ClassName == "function") {
    Skip = 1; // the std::function object; its target is any callee
    AnyCallee = true;
  } else {
    return std::nullopt;
  }
  if (Key == 0 && !AnyCallee)
    return std::nullopt;
  CharSourceRange R = F.Ctx.fileRange(Call);
  if (R.isInvalid())
    return std::nullopt;
  std::vector<std::pair<CharSourceRange, unsigned>> Marks = markArgumentReads(
      ArrayRef<const Expr *>(Call->getArgs(), Call->getNumArgs()), Skip, ThreadFunction, F);
  if (Marks.empty())
    return std::nullopt;
  unsigned Site = F.addSite(SiteKind::Call, Call, Call->getBeginLoc(), "<call>");
  for (const auto &[AR, Position] : Marks)
    F.Ctx.wrap(AR,
               "(sleuth_arg(" + F.Ctx.unitAndSite(Site) + ", " + std::to_string(Position) + "), ",
               ")");
  return Record{Site, Key, ThreadFunction ? Call->getArg(0) : nullptr};
}

void ForwardingCallProbe::recordCall(const CallExpr *Call, const Record &Forward,
                                     FunctionInstrumenter &F) {
  CharSourceRange R = F.Ctx.fileRange(Call);
  F.Ctx.wrap(R,
             "(sleuth_forward(" + F.Ctx.unitAndSite(Forward.Site) + ", " +
                 F.callSiteControl(Forward.Site) + ", " + std::to_string(Forward.Key) + "u), ",
             ")");
  if (Forward.ThreadFunction)
    wrapThreadFunction(Forward.ThreadFunction, Forward.Site, F);
  F.countProbe();
}

std::optional<ForwardingCallProbe::Record>
ForwardingCallProbe::markThreadArguments(const CXXConstructExpr *Construct,
                                         FunctionInstrumenter &F) {
  // `std::thread t(f, a, b)`: the new thread calls f with copies of a and b. A constructor
  // call has no expression to put the record before, and its arguments' order is unspecified:
  // each argument makes or marks it (sleuth_construct_arg), as for the program's constructors.
  if (!F.isCxx() || Construct->getNumArgs() < 2 || Construct->isInstantiationDependent() ||
      Construct->getBeginLoc().isMacroID() || !isThread(Construct->getType()))
    return std::nullopt;
  std::optional<ThreadCallee> Callee = threadCallee(Construct->getArg(0), Construct->getArg(1), F);
  if (!Callee)
    return std::nullopt;
  unsigned Key = Callee->Key;
  std::vector<std::pair<CharSourceRange, unsigned>> Marks = markArgumentReads(
      ArrayRef<const Expr *>(Construct->getArgs(), Construct->getNumArgs()), Callee->Skip, true, F);
  if (Marks.empty())
    return std::nullopt;
  unsigned Site = F.addSite(SiteKind::Call, Construct, Construct->getBeginLoc(), "<call>");
  for (const auto &[AR, Position] : Marks)
    F.Ctx.wrap(AR,
               "(sleuth_construct_arg(" + F.Ctx.unitAndSite(Site) + ", " + F.callSiteControl(Site) +
                   ", " + std::to_string(Key) + "u, " + std::to_string(Position) + "u), ",
               ")");
  return Record{Site, Key, Construct->getArg(0)};
}

void ForwardingCallProbe::recordThread(const Record &Thread, FunctionInstrumenter &F) {
  wrapThreadFunction(Thread.ThreadFunction, Thread.Site, F);
  F.countProbe();
}

} // namespace sleuth::instrumenter
