// What the library's functions, parameters and objects are, for LibraryCallProbe.
#include "LibraryCalls.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace sleuth::instrumenter::library {

// A class-type object the probe may take the address of and name again (with Scalars, a scalar
// one too).
bool isTrackableObject(const Expr *E, FunctionInstrumenter &F, bool Scalars) {
  if (!E || !E->isLValue() || E->isInstantiationDependent())
    return false;
  // A temporary bound to a `const T&` parameter is an lvalue, but its text (`std::string("b")`)
  // is a prvalue that sleuth::rd(T&) cannot take; it has no earlier writes to read anyway. So
  // is the object of a conversion of a returned proxy (`static_cast<int>(bits[0])`), under a
  // no-op cast that adds `const`.
  // (IgnoreParenImpCasts skips the temporary too: the prvalue under it is what is left.)
  const Expr *Core = E->IgnoreParenImpCasts();
  if (isa<MaterializeTemporaryExpr>(Core) || !Core->isLValue())
    return false;
  QualType T = E->getType();
  if (!(T->isRecordType() || (Scalars && T->isScalarType())) || T->isIncompleteType() ||
      !hasAddress(E))
    return false;
  return F.Ctx.fileRange(E).isValid();
}

// True if T is a standard container whose elements lie in one array that its data() and
// size() give (std::vector, std::basic_string, std::array, std::basic_string_view, std::span).
// The program writes such elements one by one (`v[i] = x`, `*it = c`), which changes nothing
// in the container object: a library call that reads the container whole must read them too.
// Only these classes of the standard, whose data() and size() are plain accessors (another
// library's non-const data() may copy on write, a range view's data() may not compile), and
// only where they have both (std::vector<bool>, C++98's vector have no data()).
bool isContiguousContainer(QualType T, ASTContext &Ast) {
  static const llvm::StringSet<> Names = {"vector", "basic_string", "array", "basic_string_view",
                                          "span"};
  const CXXRecordDecl *Record = T->getAsCXXRecordDecl();
  if (!Record || !Record->hasDefinition() || !Record->isInStdNamespace() || T->isDependentType() ||
      !Record->getDeclName().isIdentifier() || !Names.contains(Record->getName()))
    return false;
  // A public member of no parameters; data() returning a pointer to the elements (a deleted
  // `void data()` is how std::vector<bool> says it has none).
  auto Has = [&](llvm::StringRef Name, bool Pointer) {
    for (const NamedDecl *D : Record->lookup(&Ast.Idents.get(Name)))
      if (const auto *Method = dyn_cast<CXXMethodDecl>(D->getUnderlyingDecl());
          Method && Method->getNumParams() == 0 && !Method->isStatic() && !Method->isDeleted() &&
          Method->getAccess() == AS_public &&
          (!Pointer || (Method->getReturnType()->isPointerType() &&
                        Method->getReturnType()->getPointeeType()->isObjectType())))
        return true;
    return false;
  };
  return Has("data", true) && Has("size", false);
}

// True if the library function Callee reads a range of elements to its end, or may:
// `std::accumulate`, `std::find`, a container's constructor; not a binary search nor an
// iterator's step, whose few reads a read of every element would make linear.
bool readsRange(const FunctionDecl *Callee) {
  static const llvm::StringSet<> Sublinear = {
      "lower_bound", "upper_bound", "equal_range", "binary_search", "partition_point",
      "advance",     "next",        "prev",        "distance",      "push_heap",
      "pop_heap",    "begin",       "end",         "cbegin",        "cend",
      "rbegin",      "rend",        "crbegin",     "crend",         "move",
      "forward",     "as_const",    "empty",       "ssize",         "get"};
  return !(Callee->getDeclName().isIdentifier() && Sublinear.contains(Callee->getName()));
}

// True if Callee is `begin` and its kind (`cbegin`, `rbegin`, `crbegin`), the start of a range.
bool isRangeStart(const FunctionDecl *Callee) {
  static const llvm::StringSet<> Names = {"begin", "cbegin", "rbegin", "crbegin"};
  return Callee && Callee->getDeclName().isIdentifier() && Names.contains(Callee->getName());
}

bool isCompoundOperator(OverloadedOperatorKind K) {
  switch (K) {
  case OO_PlusEqual:
  case OO_MinusEqual:
  case OO_StarEqual:
  case OO_SlashEqual:
  case OO_PercentEqual:
  case OO_AmpEqual:
  case OO_PipeEqual:
  case OO_CaretEqual:
  case OO_LessLessEqual:
  case OO_GreaterGreaterEqual:
    return true;
  default:
    return false;
  }
}

// The parameter of Callee that argument I of Call binds, if any (an operator's object is none).
const ParmVarDecl *parameterOf(const CallExpr *Call, const FunctionDecl *Callee, unsigned I) {
  if (isa<CXXOperatorCallExpr>(Call) && isa<CXXMethodDecl>(Callee) &&
      !cast<CXXMethodDecl>(Callee)->isStatic()) {
    if (I == 0)
      return nullptr;
    --I;
  }
  return I < Callee->getNumParams() ? Callee->getParamDecl(I) : nullptr;
}

// True if the library writes what binds parameter P: a non-const lvalue reference that is no
// forwarding reference of the template it comes from (`std::vector::emplace_back(Args &&...)`
// binds an lvalue as `int &` without writing it).
bool writesThrough(const ParmVarDecl *P, const FunctionDecl *Callee) {
  QualType T = P->getType();
  if (!T->isLValueReferenceType() || T->getPointeeType().isConstQualified())
    return false;
  const FunctionDecl *Pattern = Callee->getTemplateInstantiationPattern();
  if (!Pattern)
    return true;
  unsigned Index = P->getFunctionScopeIndex();
  if (Index >= Pattern->getNumParams())
    return false; // a pack's element
  return Pattern->getParamDecl(Index)->getType()->isLValueReferenceType();
}

// A stream (std::cin, an ostringstream): what extraction changes in it is no value of the
// program's, and a write of it would chain every later extraction to the earlier ones.
bool isStream(QualType T) {
  const CXXRecordDecl *Record = T->getAsCXXRecordDecl();
  if (!Record || !Record->hasDefinition())
    return false;
  auto IsIosBase = [](const CXXRecordDecl *R) {
    return R->getName() == "ios_base" && R->isInStdNamespace();
  };
  return IsIosBase(Record) ||
         !Record->forallBases([&](const CXXRecordDecl *Base) { return !IsIosBase(Base); });
}

// True if the call writes argument I through a reference (see recordWrittenArguments); its old
// value does not flow into the call (`std::getline(in, line)` does not read `line`).
bool writesArgument(const CallExpr *Call, const FunctionDecl *Callee, unsigned I) {
  const ParmVarDecl *P = parameterOf(Call, Callee, I);
  return P && writesThrough(P, Callee) && !isStream(Call->getArg(I)->getType());
}

// The library functions that take an object by non-const reference only to refer to it from
// the value they return (`std::begin(v)`, `std::back_inserter(out)`, `std::ref(x)`): no write.
bool refersTo(const FunctionDecl *Callee) {
  static const llvm::StringSet<> Names = {
      "begin", "end",           "rbegin",           "rend",      "data",
      "size",  "back_inserter", "front_inserter",   "inserter",  "ref",
      "cref",  "tie",           "forward_as_tuple", "addressof", "as_const",
      "span",  "views"};
  return Callee->isInStdNamespace() && Callee->getDeclName().isIdentifier() &&
         Names.contains(Callee->getName());
}

// True if a prvalue of type T may be passed through sleuth::written_value, which moves it once
// more: trivially copyable, or a class whose moves and destruction are trivial
// (`std::pair<iterator, bool>`, whose assignment is not).
bool isCheaplyPassed(QualType T, FunctionInstrumenter &F) {
  if (T->isVoidType() || T->isDependentType())
    return false;
  if (T.isTriviallyCopyableType(F.Ctx.Ast))
    return true;
  const CXXRecordDecl *Record = T->getAsCXXRecordDecl();
  return Record && Record->hasDefinition() && Record->hasTrivialDestructor() &&
         (Record->hasTrivialMoveConstructor() || Record->hasTrivialCopyConstructor());
}

// True if D is a function named one of Names.
bool isNamed(const FunctionDecl *D, std::initializer_list<llvm::StringRef> Names) {
  if (!D || !D->getDeclName().isIdentifier())
    return false;
  for (llvm::StringRef Name : Names)
    if (D->getName() == Name)
      return true;
  return false;
}

bool isRangeArgument(const Expr *E, FunctionInstrumenter &F) {
  const Stmt *Parent = F.Ctx.parent(E);
  while (Parent &&
         (isa<ImplicitCastExpr, MaterializeTemporaryExpr, CXXBindTemporaryExpr, ParenExpr,
              ExprWithCleanups>(Parent) ||
          (isa<CXXConstructExpr>(Parent) && !isa<CXXTemporaryObjectExpr>(Parent) &&
           cast<CXXConstructExpr>(Parent)->getNumArgs() == 1 &&
           cast<CXXConstructExpr>(Parent)->getConstructor()->isCopyOrMoveConstructor()))) {
    E = cast<Expr>(Parent);
    Parent = F.Ctx.parent(Parent);
  }
  // Not an operator's operand: `*(v.begin() + i)` reads one element.
  if (const auto *Call = dyn_cast_or_null<CallExpr>(Parent);
      Call && !isa<CXXOperatorCallExpr>(Call)) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    return Callee && Call->getCallee() != E && isLibraryFunction(Callee, F) && readsRange(Callee);
  }
  if (const auto *Construct = dyn_cast_or_null<CXXConstructExpr>(Parent))
    return isLibraryFunction(Construct->getConstructor(), F);
  return false;
}

// True if Callee is declared in a system header (not instrumented; compiler builtins are
// declared nowhere).
bool isLibraryFunction(const FunctionDecl *Callee, FunctionInstrumenter &F) {
  SourceLocation Declared = Callee ? Callee->getCanonicalDecl()->getLocation() : SourceLocation();
  return Declared.isValid() && F.Ctx.SM.isInSystemHeader(Declared);
}

// True if Callee is a special member that the compiler writes (implicit or defaulted where
// declared): it has no body to instrument, so the copy it makes would go unseen (`r = q` of a
// struct kept r's old origins; `P q = p` read nothing).
bool isCompilerWritten(const FunctionDecl *Callee) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
  return Method && !Method->isUserProvided() && !Method->isDeleted();
}

// The standard algorithms that store through an iterator range or an output iterator.
bool isMutatingAlgorithm(const FunctionDecl *Callee) {
  static const llvm::StringSet<> Names = {"sort",
                                          "stable_sort",
                                          "partial_sort",
                                          "nth_element",
                                          "partial_sort_copy",
                                          "reverse",
                                          "rotate",
                                          "shuffle",
                                          "random_shuffle",
                                          "fill",
                                          "fill_n",
                                          "generate",
                                          "generate_n",
                                          "copy",
                                          "copy_n",
                                          "copy_if",
                                          "copy_backward",
                                          "move",
                                          "move_backward",
                                          "transform",
                                          "replace",
                                          "replace_if",
                                          "replace_copy",
                                          "replace_copy_if",
                                          "remove",
                                          "remove_if",
                                          "remove_copy",
                                          "remove_copy_if",
                                          "unique",
                                          "unique_copy",
                                          "reverse_copy",
                                          "rotate_copy",
                                          "iota",
                                          "swap_ranges",
                                          "partition",
                                          "stable_partition",
                                          "partition_copy",
                                          "inplace_merge",
                                          "merge",
                                          "set_union",
                                          "set_intersection",
                                          "set_difference",
                                          "set_symmetric_difference",
                                          "make_heap",
                                          "push_heap",
                                          "pop_heap",
                                          "sort_heap",
                                          "next_permutation",
                                          "prev_permutation",
                                          "partial_sum",
                                          "adjacent_difference",
                                          "inclusive_scan",
                                          "exclusive_scan",
                                          "transform_inclusive_scan",
                                          "transform_exclusive_scan",
                                          "sample",
                                          "shift_left",
                                          "shift_right"};
  return Callee->isInStdNamespace() && Callee->getDeclName().isIdentifier() &&
         Names.contains(Callee->getName());
}

// The object whose elements an iterator argument designates, if it is spelled so that the
// object is plain: `v.begin()`, `v.end() - 1`, `std::begin(v)`, `std::back_inserter(out)`,
// an array `a` or `a + n`.
const Expr *containerOf(const Expr *Arg) {
  while (true) {
    Arg = Arg->IgnoreParenImpCasts();
    if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(Arg))
      Arg = Temporary->getSubExpr();
    else if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(Arg))
      Arg = Bind->getSubExpr();
    else if (const auto *Construct = dyn_cast<CXXConstructExpr>(Arg);
             Construct && Construct->getNumArgs() == 1 && !isa<CXXTemporaryObjectExpr>(Arg))
      Arg = Construct->getArg(0); // a copy of the iterator
    else
      break;
  }
  if (Arg->getType()->isConstantArrayType())
    return Arg;
  if (const auto *B = dyn_cast<BinaryOperator>(Arg);
      B && (B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub))
    return containerOf(B->getLHS()->getType()->isPointerType() ? B->getLHS() : B->getRHS());
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Arg);
      Op && (Op->getOperator() == OO_Plus || Op->getOperator() == OO_Minus) && Op->getNumArgs())
    return containerOf(Op->getArg(0));
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Arg);
      Member && isNamed(Member->getMethodDecl(), {"begin", "end", "rbegin", "rend", "data"}))
    return Member->getImplicitObjectArgument();
  if (const auto *Call = dyn_cast<CallExpr>(Arg);
      Call && !isa<CXXMemberCallExpr, CXXOperatorCallExpr>(Call) && Call->getNumArgs() &&
      Call->getDirectCallee() && Call->getDirectCallee()->isInStdNamespace() &&
      isNamed(Call->getDirectCallee(), {"begin", "end", "rbegin", "rend", "data", "back_inserter",
                                        "front_inserter", "inserter"}))
    return Call->getArg(0);
  return nullptr;
}
} // namespace sleuth::instrumenter::library
