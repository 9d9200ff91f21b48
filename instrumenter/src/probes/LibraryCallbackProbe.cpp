#include "LibraryCalls.h"

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

// True if Object is a container of the library that keeps a callable of the program's to order
// or hash its elements (`std::set<int, ByMagnitude>`, a std::map with a lambda's type as its
// comparator, a priority_queue with the program's comparison), and Call a member that may use
// it: not one that only looks at the container's structure.
static bool usesKeptCallable(const CallExpr *Call, const Expr *Object, FunctionInstrumenter &F) {
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
                                            "flat_map"};
  static const llvm::StringSet<> Structural = {
      "size",   "empty",         "max_size",     "begin",      "end",
      "cbegin", "cend",          "rbegin",       "rend",       "crbegin",
      "crend",  "top",           "key_comp",     "value_comp", "hash_function",
      "key_eq", "get_allocator", "bucket_count", "load_factor"};
  if (!Object)
    return false;
  const auto *Record = dyn_cast_or_null<ClassTemplateSpecializationDecl>(
      Object->getType().getNonReferenceType()->getAsCXXRecordDecl());
  if (!Record || !Record->isInStdNamespace() || !Record->getIdentifier() ||
      !Keepers.contains(Record->getName()))
    return false;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (Callee && Callee->getDeclName().isIdentifier() && Structural.contains(Callee->getName()))
    return false;
  for (const TemplateArgument &Argument : Record->getTemplateArgs().asArray())
    if (Argument.getKind() == TemplateArgument::Type && isCallable(Argument.getAsType(), F))
      return true;
  return false;
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
  return false;
}

void LibraryCallbackProbe::instrument(const CallExpr *Call, FunctionInstrumenter &F) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !isLibraryFunction(Callee, F) || Call->isInstantiationDependent() ||
      !mayCallBack(Call, F))
    return;
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

} // namespace sleuth::instrumenter
