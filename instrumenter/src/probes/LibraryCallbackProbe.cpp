#include "LibraryCalls.h"

#include "../Instantiations.h"
#include "../ProgramOperators.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace sleuth::instrumenter {

using namespace library;

// True if a value of type T is something the library may call: a pointer to a function or to a
// member function, a lambda, a class of the program's with an operator(), a std::function (or a
// std::reference_wrapper of any of them), which may hold the program's code.
static bool isCallable(QualType T, FunctionInstrumenter &F) {
  T = T.getNonReferenceType().getCanonicalType();
  if (T->isFunctionPointerType() || T->isMemberFunctionPointerType() || T->isFunctionType())
    return true;
  const CXXRecordDecl *Record = T->getAsCXXRecordDecl();
  if (!Record || !Record->hasDefinition())
    return false;
  if (Record->isLambda())
    return true;
  if (!F.Ctx.SM.isInSystemHeader(Record->getLocation())) {
    for (const CXXMethodDecl *Method : Record->methods())
      if (Method->getOverloadedOperator() == OO_Call)
        return true;
    return false;
  }
  const auto *Specialization = dyn_cast<ClassTemplateSpecializationDecl>(Record);
  if (!Record->isInStdNamespace() || !Record->getIdentifier() || !Specialization)
    return false;
  StringRef Name = Record->getName();
  if (Name == "function" || Name == "move_only_function")
    return true;
  const TemplateArgumentList &Arguments = Specialization->getTemplateArgs();
  return Name == "reference_wrapper" && Arguments.size() == 1 &&
         Arguments[0].getKind() == TemplateArgument::Type &&
         isCallable(Arguments[0].getAsType(), F);
}

// The library's container of type T that keeps a callable to order or hash its elements
// (std::set, std::map, std::unordered_set, std::priority_queue...), or whose members compare
// them with their own operators (std::list's sort, remove, unique), if T is one.
static bool isKeeperName(StringRef Name) {
  static const llvm::StringSet<> Keepers = {"set",
                                            "multiset",
                                            "map",
                                            "multimap",
                                            "unordered_set",
                                            "unordered_map",
                                            "unordered_multiset",
                                            "unordered_multimap",
                                            "priority_queue",
                                            "flat_set",
                                            "flat_map",
                                            "list",
                                            "forward_list"};
  return Keepers.contains(Name);
}
static const ClassTemplateSpecializationDecl *keeperOf(QualType T) {
  const auto *Record = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      T.getNonReferenceType()->getAsCXXRecordDecl());
  if (!Record || !Record->isInStdNamespace() || !Record->getIdentifier() ||
      !isKeeperName(Record->getName()))
    return nullptr;
  return Record;
}

// True if one of Arguments (a template's) is a type the library may call the program's code
// with: a callable of the program's (a comparator, a hash), or a class of the program's that it
// compares with the program's own operators (ProgramOperators).
static bool hasProgramCode(ArrayRef<TemplateArgument> Arguments, FunctionInstrumenter &F) {
  for (const TemplateArgument &Argument : Arguments) {
    if (Argument.getKind() == TemplateArgument::Pack) {
      if (hasProgramCode(Argument.pack_elements(), F))
        return true;
      continue;
    }
    if (Argument.getKind() == TemplateArgument::Type &&
        (isCallable(Argument.getAsType(), F) ||
         ProgramOperators::of(F.Ctx).mayCompare(Argument.getAsType())))
      return true;
  }
  return false;
}

// True if Object is a container of the library that keeps a callable of the program's to order
// or hash its elements (`std::set<int, ByMagnitude>`, a std::map with a lambda's type as its
// comparator, a priority_queue with the program's comparison) or whose elements are compared
// with the program's operators (`std::set<Point>` with Point's operator<), and Call a member
// that may compare: not one that only looks at the container's structure.
static bool usesKeptCallable(const CallExpr *Call, const Expr *Object, FunctionInstrumenter &F) {
  static const llvm::StringSet<> Structural = {
      "size",        "empty",      "max_size",      "begin",      "end",           "cbegin",
      "cend",        "rbegin",     "rend",          "crbegin",    "crend",         "top",
      "key_comp",    "value_comp", "hash_function", "key_eq",     "get_allocator", "bucket_count",
      "load_factor", "front",      "back",          "push_front", "push_back",     "pop_front",
      "pop_back",    "clear"};
  if (!Object)
    return false;
  const ClassTemplateSpecializationDecl *Record = keeperOf(Object->getType());
  if (!Record)
    return false;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (Callee && Callee->getDeclName().isIdentifier() && Structural.contains(Callee->getName()))
    return false;
  return hasProgramCode(Record->getTemplateArgs().asArray(), F);
}

// True if Call is an operator of the library's iterators (`it != v.end()` of a
// std::vector<Point>): it compares positions, never the elements.
static bool comparesIterators(const CallExpr *Call, FunctionInstrumenter &F) {
  if (!isa<CXXOperatorCallExpr>(Call))
    return false;
  return llvm::all_of(Call->arguments(), [&](const Expr *Arg) {
    const CXXRecordDecl *Record = Arg->getType().getNonReferenceType()->getAsCXXRecordDecl();
    return Record && Record->getIdentifier() && Record->getName().contains("iter") &&
           isLibraryDeclaration(Record, F.Ctx.SM);
  });
}

// True if the library call Call may call the program's code back while it runs, with a callable
// among its arguments or kept by the container it is a member of.
static bool mayCallBack(const CallExpr *Call, FunctionInstrumenter &F) {
  const Expr *Object = nullptr;
  unsigned First = 0;
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call))
    Object = Member->getImplicitObjectArgument();
  else if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
           Op && isa_and_nonnull<CXXMethodDecl>(Call->getDirectCallee())) {
    // A std::function's own call is forwarded (ForwardingCallProbe), an assignment stores a
    // callable and calls none; `m[k]` of a map compares keys.
    if (Op->getOperator() == OO_Call || Op->getOperator() == OO_Equal)
      return false;
    Object = Op->getArg(0);
    First = 1;
  }
  if (usesKeptCallable(Call, Object, F))
    return true;
  for (unsigned I = First; I < Call->getNumArgs(); ++I)
    if (!isa<CXXDefaultArgExpr>(Call->getArg(I)) && isCallable(Call->getArg(I)->getType(), F))
      return true;
  // An algorithm over the program's class that compares with its operators
  // (`std::sort(v.begin(), v.end())` of a vector<Point>, `std::find(b, e, p)`): its template
  // arguments name the class. A library call on built-in types never does.
  const FunctionDecl *Callee = Call->getDirectCallee();
  const TemplateArgumentList *Arguments =
      Callee ? Callee->getTemplateSpecializationArgs() : nullptr;
  if (!Arguments || comparesIterators(Call, F))
    return false;
  return hasProgramCode(Arguments->asArray(), F);
}

// In a template pattern, a call whose callee or arguments wait for the instantiation cannot be
// judged from its pattern. The unit's instantiations of the pattern say what it calls: it may
// call back if it does in one of them (the probe's text is valid in every one). A pattern with
// none here, or one in a header (whose instrumented text the header cache gives to units with
// other instantiations), is judged by what it spells as well: a library function given an
// argument of a template parameter's type (a comparator `Less less`), a lambda, or a member of
// the library's container whose type names a template parameter (`std::set<T, Less>`).
static bool mayCallBackInTemplate(const CallExpr *Call, FunctionInstrumenter &F) {
  std::vector<const CallExpr *> Calls = Instantiations::of(F.Ctx).callsOf(F.Function, Call);
  if (llvm::any_of(Calls, [&](const CallExpr *Instance) {
        const FunctionDecl *Callee = Instance->getDirectCallee();
        return Callee && isLibraryFunction(Callee, F) && mayCallBack(Instance, F);
      }))
    return true;
  if (!Calls.empty() && F.Ctx.SM.isInMainFile(F.Ctx.SM.getFileLoc(Call->getBeginLoc())))
    return false;
  const Expr *Callee = Call->getCallee()->IgnoreParenImpCasts();
  if (const FunctionDecl *Direct = Call->getDirectCallee(); Direct && !isLibraryFunction(Direct, F))
    return false;
  if (const auto *Lookup = dyn_cast<UnresolvedLookupExpr>(Callee))
    if (llvm::none_of(Lookup->decls(),
                      [&](const NamedDecl *D) { return isLibraryDeclaration(D, F.Ctx.SM); }))
      return false;
  auto SpellsCallable = [](const Expr *Arg) {
    QualType T = Arg->getType().getNonReferenceType();
    return isa<LambdaExpr>(Arg->IgnoreParenImpCasts()) || T->getAs<TemplateTypeParmType>();
  };
  if (llvm::any_of(Call->arguments(), SpellsCallable))
    return true;
  const Expr *Object = nullptr;
  if (const auto *Member = dyn_cast<CXXDependentScopeMemberExpr>(Callee);
      Member && !Member->isImplicitAccess())
    Object = Member->getBase();
  else if (const auto *Member = dyn_cast<UnresolvedMemberExpr>(Callee);
           Member && !Member->isImplicitAccess())
    Object = Member->getBase();
  if (!Object)
    return false;
  const auto *Type = Object->getType().getNonReferenceType()->getAs<TemplateSpecializationType>();
  const auto *Template =
      Type ? dyn_cast_or_null<ClassTemplateDecl>(Type->getTemplateName().getAsTemplateDecl())
           : nullptr;
  return Template && Template->isInStdNamespace() && Type->isDependentType() &&
         isKeeperName(Template->getName());
}

void LibraryCallbackProbe::instrument(const CallExpr *Call, FunctionInstrumenter &F) {
  if (Call->isInstantiationDependent()) {
    if (!F.isCxx() || !mayCallBackInTemplate(Call, F))
      return;
  } else {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !isLibraryFunction(Callee, F) || !mayCallBack(Call, F))
      return;
  }
  CharSourceRange R = F.Ctx.fileRange(Call);
  if (R.isInvalid())
    return;
  // The call's own site, for the control the call passes on to the program's code that the
  // library enters (sleuth_library_call); outside every other probe's edit of the call.
  unsigned Site = F.addSite(SiteKind::Call, Call, Call->getBeginLoc(), "<call>");
  std::string Control = F.callSiteControl(Site);
  if (F.isCxx()) {
    // A temporary that lives to the end of the full-expression, also when the call throws.
    F.Ctx.wrap(R, "((void)sleuth::LibraryCall(" + Control + "), ", ")");
  } else {
    std::string Outer = "__sleuth_lb" + std::to_string(Site);
    std::string Enter =
        "__extension__ ({ unsigned " + Outer + " = sleuth_library_call(" + Control + "); ";
    std::string Leave = "sleuth_library_returned(" + Outer + "); ";
    if (Call->getType()->isVoidType()) {
      F.Ctx.wrap(R, Enter, "; " + Leave + "})");
    } else {
      std::string Value = "__sleuth_lv" + std::to_string(Site);
      F.Ctx.wrap(R, Enter + "__auto_type " + Value + " = ", "; " + Leave + Value + "; })");
    }
  }
  F.countProbe();
}

// True if the library's constructor of Construct may call the program back: a container that
// keeps the program's callable or compares the program's class, made from elements (a range,
// an initializer list, another container for a priority_queue), not only from its comparator,
// allocator, bucket count or another of its type (a copy keeps the order it has).
static bool constructionMayCallBack(const CXXConstructExpr *Construct, FunctionInstrumenter &F) {
  const ClassTemplateSpecializationDecl *Record = keeperOf(Construct->getType());
  if (!Record || !hasProgramCode(Record->getTemplateArgs().asArray(), F))
    return false;
  ArrayRef<TemplateArgument> Kept = Record->getTemplateArgs().asArray();
  for (const Expr *Arg : Construct->arguments()) {
    if (isa<CXXDefaultArgExpr>(Arg))
      continue;
    QualType T = Arg->getType().getNonReferenceType().getCanonicalType().getUnqualifiedType();
    if (T->isIntegralOrEnumerationType() || isCallable(T, F))
      continue;
    const CXXRecordDecl *Class = T->getAsCXXRecordDecl();
    // The library's comparator or hash (std::less<Point>), given as itself.
    if (Class && Class->hasDefinition() &&
        !Class->lookup(F.Ctx.Ast.DeclarationNames.getCXXOperatorName(OO_Call)).empty() &&
        llvm::any_of(Kept, [&](const TemplateArgument &Argument) {
          return Argument.getKind() == TemplateArgument::Type &&
                 Argument.getAsType().getCanonicalType().getUnqualifiedType() == T;
        }))
      continue;
    if (Class && (Class->getCanonicalDecl() == Record->getCanonicalDecl() ||
                  (Class->getIdentifier() && Class->getName().contains("alloc"))))
      continue;
    return true;
  }
  return false;
}

// True if E, in a list-initialization, may be a constant that the list converts to a narrower
// type: `((void)probe, E)` is no constant, and the conversion would be an error.
static bool mayNarrow(const Expr *E, FunctionInstrumenter &F) {
  const auto *Cast = dyn_cast<ImplicitCastExpr>(E->IgnoreParens());
  if (!Cast)
    return false;
  switch (Cast->getCastKind()) {
  case CK_NoOp:
  case CK_LValueToRValue:
  case CK_ConstructorConversion:
  case CK_UserDefinedConversion:
  case CK_DerivedToBase:
  case CK_UncheckedDerivedToBase:
    return false;
  default:
    return Cast->getSubExpr()->isEvaluatable(F.Ctx.Ast);
  }
}

// The first expression spelled in the arguments of a construction, E one of them or of the
// braced lists among them, that `((void)probe, E)` may stand for: it means what E meant (as
// ConstructProbe's carriers: keepsMeaningInComma, no braced list, array initializer, constant
// of a narrowing list).
static const Expr *carrierIn(const Expr *E, bool InList, FunctionInstrumenter &F,
                             unsigned Depth = 0) {
  if (!E || Depth > 8 ||
      isa<CXXDefaultArgExpr, CXXDefaultInitExpr, ImplicitValueInitExpr, PackExpansionExpr>(E))
    return nullptr;
  const Expr *Bare = E->IgnoreParens();
  if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(Bare))
    return carrierIn(Temporary->getSubExpr(), InList, F, Depth + 1);
  if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(Bare))
    return carrierIn(Bind->getSubExpr(), InList, F, Depth + 1);
  if (const auto *Full = dyn_cast<FullExpr>(Bare))
    return carrierIn(Full->getSubExpr(), InList, F, Depth + 1);
  if (const auto *List = dyn_cast<CXXStdInitializerListExpr>(Bare))
    return carrierIn(List->getSubExpr(), true, F, Depth + 1);
  CharSourceRange R = F.Ctx.fileRange(E);
  if (R.isInvalid())
    return nullptr;
  if (F.Ctx.text(R).rfind('{', 0) == 0) {
    // A braced list: one of its elements carries the probe.
    if (const auto *List = dyn_cast<InitListExpr>(Bare)) {
      for (const Expr *Init : List->inits())
        if (const Expr *Found = carrierIn(Init, true, F, Depth + 1))
          return Found;
    } else if (const auto *Construct = dyn_cast<CXXConstructExpr>(Bare)) {
      for (const Expr *Arg : Construct->arguments())
        if (const Expr *Found = carrierIn(Arg, Construct->isListInitialization(), F, Depth + 1))
          return Found;
    } else if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Bare)) {
      return carrierIn(Cast->getSubExpr(), InList, F, Depth + 1);
    }
    return nullptr;
  }
  if (E->getType()->isArrayType() || !keepsMeaningInComma(E, F) || (InList && mayNarrow(E, F)))
    return nullptr;
  return E;
}

// The argument of Construct that carries the probe (see carrierIn); null if none may.
static const Expr *carrierOf(const CXXConstructExpr *Construct, FunctionInstrumenter &F) {
  for (const Expr *Arg : Construct->arguments())
    if (const Expr *Found = carrierIn(Arg, Construct->isListInitialization(), F))
      return Found;
  return nullptr;
}

void LibraryCallbackProbe::instrumentConstruction(const CXXConstructExpr *Construct,
                                                  FunctionInstrumenter &F) {
  if (!F.isCxx() || Construct->isInstantiationDependent() ||
      !isLibraryFunction(Construct->getConstructor(), F) || !constructionMayCallBack(Construct, F))
    return;
  // A declaration has no expression around the construction to wrap: the probe is a temporary
  // made in an argument, which lives to the end of the full-expression, past the constructor's
  // return.
  const Expr *Carrier = carrierOf(Construct, F);
  if (!Carrier)
    return;
  unsigned Site = F.addSite(SiteKind::Call, Construct, Construct->getBeginLoc(), "<call>");
  F.Ctx.wrap(F.Ctx.fileRange(Carrier),
             "((void)sleuth::LibraryCall(" + F.callSiteControl(Site) + "), ", ")");
  F.countProbe();
}

void LibraryCallbackProbe::instrumentDependentConstruction(const DeclStmt *Decl,
                                                           FunctionInstrumenter &F) {
  const auto *Var = Decl->isSingleDecl() ? dyn_cast<VarDecl>(Decl->getSingleDecl()) : nullptr;
  if (!F.isCxx() || !Var || !Var->getInit() || !Var->getType()->isDependentType() ||
      F.instances().empty())
    return;
  // Every instantiation constructs the variable with a library constructor that may call back,
  // and carries the probe in the argument spelled by the same characters.
  CharSourceRange Carrier;
  for (const StmtCorrespondence &Instance : F.instances()) {
    const auto *Same = dyn_cast_or_null<DeclStmt>(Instance.inInstance(Decl));
    const auto *Built =
        Same && Same->isSingleDecl() ? dyn_cast<VarDecl>(Same->getSingleDecl()) : nullptr;
    const auto *Construct = Built && Built->getInit()
                                ? dyn_cast<CXXConstructExpr>(Built->getInit()->IgnoreImplicit())
                                : nullptr;
    if (!Construct || !isLibraryFunction(Construct->getConstructor(), F) ||
        !constructionMayCallBack(Construct, F))
      return;
    const Expr *Found = carrierOf(Construct, F);
    CharSourceRange Range = Found ? F.Ctx.fileRange(Found) : CharSourceRange();
    if (Range.isInvalid() || (Carrier.isValid() && (Carrier.getBegin() != Range.getBegin() ||
                                                    Carrier.getEnd() != Range.getEnd())))
      return;
    Carrier = Range;
  }
  unsigned Site = F.addSite(SiteKind::Call, Decl, Var->getLocation(), "<call>");
  F.Ctx.wrap(Carrier, "((void)sleuth::LibraryCall(" + F.callSiteControl(Site) + "), ", ")");
  F.countProbe();
}

} // namespace sleuth::instrumenter
