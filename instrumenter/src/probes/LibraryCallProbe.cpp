#include "Probes.h"

#include "clang/AST/Attr.h"
#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace sleuth::instrumenter {

// A class-type object the probe may take the address of and name again (with Scalars, a scalar
// one too).
static bool isTrackableObject(const Expr *E, FunctionInstrumenter &F, bool Scalars = false) {
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
static bool isContiguousContainer(QualType T, ASTContext &Ast) {
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

// Reads E, a class-type object (with Scalars, also a scalar one bound to a reference); with
// Whole, a contiguous container's elements as well (isContiguousContainer). False if E is no
// object it can read.
static bool readObject(const Expr *E, FunctionInstrumenter &F, bool Scalars = false,
                       bool Whole = false) {
  if (!isTrackableObject(E, F, Scalars))
    return false;
  // A local kept in a companion has no origin in the shadow memory: its companion is read
  // (`return v;` of a parameter into a std::optional<int> binds it to the constructor's U&&).
  if (const std::string *Origin = F.Locals.companion(E)) {
    F.addRead(F.Ctx.fileRange(E), ReadProbe::keptRead(*Origin, F));
    F.countProbe();
    return true;
  }
  if (Whole && isContiguousContainer(E->getType(), F.Ctx.Ast))
    F.addRead(F.Ctx.fileRange(E),
              {"sleuth::rd_all(", ")", "sleuth::rdc_all(&" + F.Ctx.UnitName + ", @CACHE@, @SITE@, ",
               ")"});
  else
    F.addRead(F.Ctx.fileRange(E), ReadProbe::cxxRead(F));
  F.countProbe();
  return true;
}

bool LibraryCallProbe::readReferencedObject(const Expr *E, FunctionInstrumenter &F) {
  return readObject(E, F, /*Scalars=*/true);
}

// True if the library function Callee reads a range of elements to its end, or may:
// `std::accumulate`, `std::find`, a container's constructor; not a binary search nor an
// iterator's step, whose few reads a read of every element would make linear.
static bool readsRange(const FunctionDecl *Callee) {
  static const llvm::StringSet<> Sublinear = {
      "lower_bound", "upper_bound", "equal_range", "binary_search", "partition_point",
      "advance",     "next",        "prev",        "distance",      "push_heap",
      "pop_heap",    "begin",       "end",         "cbegin",        "cend",
      "rbegin",      "rend",        "crbegin",     "crend",         "move",
      "forward",     "as_const",    "empty",       "ssize",         "get"};
  return !(Callee->getDeclName().isIdentifier() && Sublinear.contains(Callee->getName()));
}

// True if E (an iterator: `v.begin()`, `std::begin(v)`) is itself an argument of a library call
// or constructor that reads its range (readsRange), past the copies and temporaries around it.
static bool isRangeArgument(const Expr *E, FunctionInstrumenter &F);
static bool isLibraryFunction(const FunctionDecl *Callee, FunctionInstrumenter &F);

// True if Callee is `begin` and its kind (`cbegin`, `rbegin`, `crbegin`), the start of a range.
static bool isRangeStart(const FunctionDecl *Callee) {
  static const llvm::StringSet<> Names = {"begin", "cbegin", "rbegin", "crbegin"};
  return Callee && Callee->getDeclName().isIdentifier() && Names.contains(Callee->getName());
}

static bool isCompoundOperator(OverloadedOperatorKind K) {
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
static const ParmVarDecl *parameterOf(const CallExpr *Call, const FunctionDecl *Callee,
                                      unsigned I) {
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
static bool writesThrough(const ParmVarDecl *P, const FunctionDecl *Callee) {
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
static bool isStream(QualType T) {
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
static bool writesArgument(const CallExpr *Call, const FunctionDecl *Callee, unsigned I) {
  const ParmVarDecl *P = parameterOf(Call, Callee, I);
  return P && writesThrough(P, Callee) && !isStream(Call->getArg(I)->getType());
}

static bool refersTo(const FunctionDecl *Callee);

// Reads argument I of the call unless the call writes it: a class-type object, or any object
// bound to a reference parameter, which no lvalue-to-rvalue conversion reads
// (`v.push_back(x)`, `std::max(a, b)` take `const int &`; `emplace_back(x)` a forwarding one).
static void readArgument(const CallExpr *Call, const FunctionDecl *Callee, unsigned I,
                         FunctionInstrumenter &F) {
  // `std::begin(v)` takes `v` by non-const reference without writing it.
  bool Iterator = Callee->isInStdNamespace() && Callee->getDeclName().isIdentifier() &&
                  llvm::StringSwitch<bool>(Callee->getName())
                      .Cases("begin", "cbegin", "rbegin", "crbegin", true)
                      .Cases("end", "cend", "rend", "crend", true)
                      .Default(false);
  if (writesArgument(Call, Callee, I) && !Iterator)
    return;
  const ParmVarDecl *P = parameterOf(Call, Callee, I);
  // A container argument is read whole (`std::cout << s`, `w = v`, `s == t`), but the object
  // of `v[i]` (or `it->x`, `f()`), the container of an iterator that nothing reads to its end,
  // and the target of `s += t`, whose old elements stay where they are (the write reads the
  // object; a loop appending a character at a time would read the whole string each time).
  bool Whole;
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call))
    Whole = !(I == 0 && (Op->getOperator() == OO_Subscript || Op->getOperator() == OO_Arrow ||
                         Op->getOperator() == OO_Call || Op->getOperator() == OO_Star ||
                         isCompoundOperator(Op->getOperator())));
  else if (Callee->isInStdNamespace() && isRangeStart(Callee))
    Whole = isRangeArgument(Call, F); // std::begin(v)
  else
    Whole = readsRange(Callee) && !refersTo(Callee);
  readObject(Call->getArg(I), F, P && P->getType()->isReferenceType(), Whole);
}

// Arguments that the library call writes through non-const lvalue references: `std::cin >> x`,
// `std::getline(in, line)`, `std::swap(a, b)`, `std::from_chars(b, e, value)`. Unseen, those
// objects kept the origins of their earlier writes (`int x = 0;` before `std::cin >> x` was
// where the input seemed to come from). Each becomes a write after the call, which the call's
// reads flow into; the input itself has no origin. Only where the call's value is discarded or
// is an lvalue (the stream), which sleuth::written_by passes on.
static bool isCheaplyPassed(QualType T, FunctionInstrumenter &F);

// The library functions that take an object by non-const reference only to refer to it from
// the value they return (`std::begin(v)`, `std::back_inserter(out)`, `std::ref(x)`): no write.
static bool refersTo(const FunctionDecl *Callee) {
  static const llvm::StringSet<> Names = {
      "begin", "end",           "rbegin",           "rend",      "data",
      "size",  "back_inserter", "front_inserter",   "inserter",  "ref",
      "cref",  "tie",           "forward_as_tuple", "addressof", "as_const",
      "span",  "views"};
  return Callee->isInStdNamespace() && Callee->getDeclName().isIdentifier() &&
         Names.contains(Callee->getName());
}

// True if Call is `std::swap(a, b)` of two objects the probe may name again.
static bool isSwapOf(const CallExpr *Call, const FunctionDecl *Callee,
                     const std::vector<const Expr *> &Written, FunctionInstrumenter &F) {
  return Callee->isInStdNamespace() && Callee->getDeclName().isIdentifier() &&
         Callee->getName() == "swap" && Call->getNumArgs() == 2 && Written.size() == 2 &&
         F.Ctx.Ast.hasSameUnqualifiedType(Written[0]->getType(), Written[1]->getType()) &&
         !Written[0]->getType()->isIncompleteType();
}

// `std::swap(a, b);`, `a.swap(b);` (discarded): each object is now a write of the other's old
// value (sleuth_swapped); writes of both that read both would lead a's slice to its own old
// value. A container's elements go with their storage, whose origins stay with it.
static void recordSwap(const CallExpr *Call, const Expr *First, const Expr *Second,
                       FunctionInstrumenter &F) {
  std::string A = F.Ctx.text(F.Ctx.fileRange(First));
  std::string B = F.Ctx.text(F.Ctx.fileRange(Second));
  unsigned SiteA = F.addSite(SiteKind::Var, Call, First->getBeginLoc(), A);
  unsigned SiteB = F.addSite(SiteKind::Var, Call, Second->getBeginLoc(), B);
  F.claimReads(Call, SiteA);
  F.Ctx.wrap(F.Ctx.fileRange(Call), Call->getType()->isVoidType() ? "((" : "((void)(",
             "), sleuth_swapped(" + F.Ctx.unitAndSite(SiteA) + ", " + std::to_string(SiteB) +
                 "u, " + F.control(SiteA) + ", sleuth::address_of(" + A + "), sleuth::address_of(" +
                 B + "), sizeof(" + A + ")))");
  F.markConsumed(Call);
  F.countProbe();
}

static void recordWrittenArguments(const CallExpr *Call, const FunctionDecl *Callee,
                                   FunctionInstrumenter &F) {
  bool Discarded = F.Ctx.isDiscarded(Call);
  // A value that is no lvalue (`int old = std::exchange(x, 1)`, `std::from_chars(b, e, n)`'s
  // result) is passed on by sleuth::written_value, which makes it read the write; the old value
  // that std::exchange returns is among what the write depends on, a compound write there.
  bool Passed = !Discarded && !Call->isLValue();
  if (Passed && (!isCheaplyPassed(Call->getType(), F) || refersTo(Callee)))
    return;
  bool Exchange = Passed && Callee->isInStdNamespace() && Callee->getDeclName().isIdentifier() &&
                  Callee->getName() == "exchange";
  std::vector<const Expr *> Written;
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I)->IgnoreParens();
    if (!writesArgument(Call, Callee, I) || !Arg->isLValue() || Arg->isInstantiationDependent() ||
        !hasAddress(Arg) || !isRepeatable(Arg, F.Ctx.Ast) || F.Ctx.fileRange(Arg).isInvalid() ||
        Arg->getType().isVolatileQualified())
      continue;
    Written.push_back(Arg);
  }
  if (Written.empty())
    return;
  CharSourceRange R = F.Ctx.fileRange(Call);
  std::string Prefix = Call->getType()->isVoidType() ? "((" : "((void)(";
  if (Discarded && isSwapOf(Call, Callee, Written, F)) {
    recordSwap(Call, Written[0], Written[1], F);
    return;
  }
  std::string Suffix;
  bool First = true;
  for (const Expr *Arg : Written) {
    std::string Text = F.Ctx.text(F.Ctx.fileRange(Arg));
    unsigned Site =
        F.addSite(SiteKind::Var, Call, Arg->getBeginLoc(), Text, Exchange ? CompoundWrite : 0);
    if (First)
      F.claimReads(Call, Site); // the stream's and the other arguments' reads
    First = false;
    std::string Unit = F.Ctx.unitAndSite(Site) + ", " + F.control(Site);
    if (Discarded) {
      Suffix +=
          ", sleuth_set(" + Unit + ", sleuth::address_of(" + Text + "), sizeof(" + Text + "))";
    } else {
      F.Ctx.wrap(R, Passed ? "sleuth::written_value(" : "sleuth::written_by(",
                 ", " + Unit + ", " + Text + ")");
    }
    F.countProbe();
  }
  if (Discarded)
    F.Ctx.wrap(R, Prefix, ")" + Suffix + ")");
  F.markConsumed(Call);
}

// Objects whose address a library call takes for a pointer to a non-const object type
// (`strtol(s, &end, 10)`, `time(&now)`, `stat(path, &st)`): the call may store into them, which
// their shadow would not show (they kept the origin of their last write before the call). Each
// is marked written at this line, just before the call, with no origin of its own (what the
// library stores is its own; sleuth_created consumes no pending read). Not for `void *`
// parameters, which take any object without writing it (pthread_create's argument).
static void recordPointedWrites(const CallExpr *Call, const FunctionDecl *Callee,
                                FunctionInstrumenter &F) {
  std::string Marks;
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const ParmVarDecl *P = parameterOf(Call, Callee, I);
    const auto *Pointer = P ? P->getType()->getAs<PointerType>() : nullptr;
    if (!Pointer)
      continue;
    QualType Pointee = Pointer->getPointeeType();
    if (Pointee.isConstQualified() || Pointee->isVoidType() || !Pointee->isObjectType())
      continue;
    const auto *Address = dyn_cast<UnaryOperator>(Call->getArg(I)->IgnoreParenImpCasts());
    if (!Address || Address->getOpcode() != UO_AddrOf)
      continue;
    const Expr *X = Address->getSubExpr()->IgnoreParens();
    QualType T = X->getType();
    if (!X->isLValue() || X->isInstantiationDependent() || !hasAddress(X) ||
        !isRepeatable(X, F.Ctx.Ast) || T->isIncompleteType() || T->isVariablyModifiedType() ||
        T.isConstQualified() || F.Ctx.fileRange(X).isInvalid())
      continue;
    std::string Text = F.Ctx.text(F.Ctx.fileRange(X));
    unsigned Site = F.addSite(SiteKind::Var, Call, X->getBeginLoc(), Text);
    Marks += "(void)sleuth_created(" + F.Ctx.unitAndSite(Site) + ", " + F.control(Site) + ", " +
             addressOf(T, Text, F.isCxx()) + ", sizeof(" + Text + ")), ";
    F.countProbe();
  }
  if (!Marks.empty())
    F.Ctx.wrap(F.Ctx.fileRange(Call), "(" + Marks, ")");
}

// True if a prvalue of type T may be passed through sleuth::written_value, which moves it once
// more: trivially copyable, or a class whose moves and destruction are trivial
// (`std::pair<iterator, bool>`, whose assignment is not).
static bool isCheaplyPassed(QualType T, FunctionInstrumenter &F) {
  if (T->isVoidType() || T->isDependentType())
    return false;
  if (T.isTriviallyCopyableType(F.Ctx.Ast))
    return true;
  const CXXRecordDecl *Record = T->getAsCXXRecordDecl();
  return Record && Record->hasDefinition() && Record->hasTrivialDestructor() &&
         (Record->hasTrivialMoveConstructor() || Record->hasTrivialCopyConstructor());
}

// A non-const member that gives access to the object's elements without changing it (the
// non-const overloads of `begin`, `operator[]` aside, which is an operator): its value used, it
// reads its object. A non-const member whose value is used otherwise writes it
// (`seen.insert(k).second`, `auto it = v.erase(first)`).
static bool isAccessor(const CXXMethodDecl *Method) {
  static const llvm::StringSet<> Names = {
      "begin", "end",  "rbegin",      "rend",        "front",        "back", "data",
      "at",    "find", "lower_bound", "upper_bound", "equal_range",  "top",  "value",
      "get",   "base", "count",       "contains",    "get_allocator"};
  return Method->getDeclName().isIdentifier() && Names.contains(Method->getName());
}

// A member that reads a container's object, not its elements: its size, an iterator, one
// element (which the element's own read follows), a view of it.
static bool isStructural(const CXXMethodDecl *Method) {
  static const llvm::StringSet<> Names = {"size",  "length",  "empty",  "capacity",     "max_size",
                                          "begin", "end",     "cbegin", "cend",         "rbegin",
                                          "rend",  "crbegin", "crend",  "data",         "c_str",
                                          "at",    "front",   "back",   "get_allocator"};
  return isa<CXXConversionDecl>(Method) || // `std::string_view view = s;`
         (Method->getDeclName().isIdentifier() && Names.contains(Method->getName()));
}

// A member that may move a container's elements to new storage as it grows it, keeping their
// places (those of insert and emplace before the position).
static bool mayMoveElements(const CXXMethodDecl *Method) {
  static const llvm::StringSet<> Names = {"push_back", "emplace_back", "insert",        "emplace",
                                          "resize",    "reserve",      "shrink_to_fit", "append"};
  return Method->getDeclName().isIdentifier() && Names.contains(Method->getName());
}

// A search or copy of part of a string from a position (`s.substr(i, 3)`, `s.find(c, from)`,
// `s.compare(i, n, t)`): it reads a few elements, which a read of all would make linear in a
// loop over the string. It reads the object only (its elements' own origins are not followed).
static bool isPositional(const CXXMemberCallExpr *Call) {
  static const llvm::StringSet<> Names = {"substr",           "find",         "rfind",
                                          "find_first_of",    "find_last_of", "find_first_not_of",
                                          "find_last_not_of", "compare",      "copy"};
  const CXXMethodDecl *Method = Call->getMethodDecl();
  if (!Method->getDeclName().isIdentifier() || !Names.contains(Method->getName()))
    return false;
  unsigned Explicit = 0;
  for (const Expr *Arg : Call->arguments())
    Explicit += !isa<CXXDefaultArgExpr>(Arg);
  return Explicit >= 2 || Method->getName() == "substr";
}

// True if D is a function named one of Names.
static bool isNamed(const FunctionDecl *D, std::initializer_list<llvm::StringRef> Names) {
  if (!D || !D->getDeclName().isIdentifier())
    return false;
  for (llvm::StringRef Name : Names)
    if (D->getName() == Name)
      return true;
  return false;
}

// True if E, a position in a container, may be evaluated once more with the same result: as
// isRepeatable, and also where it steps an iterator from a container's begin or end
// (`v.begin() + i`, `std::next(s.begin(), n)`, `v.end() - 1`), calls that change nothing.
static bool isRepeatablePosition(const Expr *E, ASTContext &Ast) {
  E = E->IgnoreParenImpCasts();
  if (const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(E))
    return isRepeatablePosition(Temporary->getSubExpr(), Ast);
  if (const auto *Bind = dyn_cast<CXXBindTemporaryExpr>(E))
    return isRepeatablePosition(Bind->getSubExpr(), Ast);
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(E);
      Construct && Construct->getNumArgs() == 1 && !isa<CXXTemporaryObjectExpr>(E))
    return isRepeatablePosition(Construct->getArg(0), Ast); // an iterator's copy or conversion
  if (const auto *B = dyn_cast<BinaryOperator>(E);
      B && (B->getOpcode() == BO_Add || B->getOpcode() == BO_Sub))
    return isRepeatablePosition(B->getLHS(), Ast) && isRepeatablePosition(B->getRHS(), Ast);
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(E);
      Op && (Op->getOperator() == OO_Plus || Op->getOperator() == OO_Minus)) {
    for (const Expr *Arg : Op->arguments())
      if (!isRepeatablePosition(Arg, Ast))
        return false;
    return true;
  }
  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(E))
    return isNamed(Member->getMethodDecl(), {"begin", "end", "cbegin", "cend"}) &&
           Member->getImplicitObjectArgument() &&
           isRepeatable(Member->getImplicitObjectArgument(), Ast);
  if (const auto *Step = dyn_cast<CallExpr>(E);
      Step && !isa<CXXOperatorCallExpr>(Step) && Step->getDirectCallee() &&
      Step->getDirectCallee()->isInStdNamespace() &&
      isNamed(Step->getDirectCallee(), {"next", "prev", "begin", "end", "cbegin", "cend"})) {
    for (const Expr *Arg : Step->arguments())
      if (!isa<CXXDefaultArgExpr>(Arg) && !isRepeatablePosition(Arg, Ast))
        return false;
    return true;
  }
  return isRepeatable(E, Ast);
}

// For `v.erase(pos)`, `v.insert(pos, x)`, `s.erase(i, n)`, `s.insert(i, t)` of a contiguous
// container, which shift the elements after the position: the probe that watches the elements
// and remembers the position before the call (sleuth::watch_at for an iterator, watch_index for
// an index), evaluating the position's text once more; empty if it has side effects.
static std::string shiftWatch(const CXXMemberCallExpr *Call, const std::string &Object,
                              FunctionInstrumenter &F) {
  const CXXMethodDecl *Method = Call->getMethodDecl();
  static const llvm::StringSet<> Names = {"erase", "insert", "emplace"};
  if (!Method->getDeclName().isIdentifier() || !Names.contains(Method->getName()))
    return "";
  if (Call->getNumArgs() == 0 || isa<CXXDefaultArgExpr>(Call->getArg(0)))
    return "sleuth::watch_index(" + Object + ", 0)"; // s.erase()
  const Expr *Position = Call->getArg(0)->IgnoreParens();
  if (Position->isInstantiationDependent() || !isRepeatablePosition(Position, F.Ctx.Ast) ||
      F.Ctx.fileRange(Position).isInvalid())
    return "";
  std::string Text = F.Ctx.text(F.Ctx.fileRange(Position));
  QualType T = Position->IgnoreImpCasts()->getType();
  if (T->isIntegralOrEnumerationType())
    return "sleuth::watch_index(" + Object + ", " + Text + ")";
  if (T->isRecordType() || T->isPointerType())
    return "sleuth::watch_at(" + Object + ", " + Text + ")";
  return "";
}

static bool isRangeArgument(const Expr *E, FunctionInstrumenter &F) {
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

// The standard algorithms that store through an iterator range or an output iterator.
static bool isMutatingAlgorithm(const FunctionDecl *Callee) {
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
static const Expr *containerOf(const Expr *Arg) {
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

// `std::sort(v.begin(), v.end())`, `std::copy(a, a + n, out.begin())`: the algorithm stores
// into the elements of the object that its last iterator argument designates (an in-place
// algorithm's range, a copying one's output). In the library, unseen, the elements kept the
// origins they had; the object becomes a write after the call, which depends on the call's
// reads (its input range's object, a value to fill with) and, as it keeps what it does not
// overwrite, on its old contents.
static void recordAlgorithmWrite(const CallExpr *Call, const FunctionDecl *Callee,
                                 FunctionInstrumenter &F) {
  if (!isMutatingAlgorithm(Callee) || F.isConsumed(Call))
    return;
  const Expr *Written = nullptr;
  for (unsigned I = Call->getNumArgs(); I > 0 && !Written; --I)
    Written = containerOf(Call->getArg(I - 1));
  if (!Written)
    return;
  Written = Written->IgnoreParens();
  QualType T = Written->getType();
  bool Discarded = F.Ctx.isDiscarded(Call);
  if (!Written->isLValue() || Written->isInstantiationDependent() || T.isConstQualified() ||
      T.isVolatileQualified() || T->isIncompleteType() || !hasAddress(Written) ||
      !isRepeatable(Written, F.Ctx.Ast) || F.Ctx.fileRange(Written).isInvalid() ||
      (!Discarded && !Call->isLValue() && !isCheaplyPassed(Call->getType(), F)))
    return;
  std::string Text = F.Ctx.text(F.Ctx.fileRange(Written));
  unsigned Site = F.addSite(SiteKind::Var, Call, Written->getBeginLoc(), Text, CompoundWrite);
  F.claimReads(Call, Site);
  std::string Unit = F.Ctx.unitAndSite(Site) + ", " + F.control(Site);
  CharSourceRange R = F.Ctx.fileRange(Call);
  // A container's elements are written as well: each kept the origin of whatever was at its
  // place, and the elements' own reads (`v[0]` after the sort) would find it.
  bool Whole = isContiguousContainer(T, F.Ctx.Ast);
  if (Discarded && Whole)
    F.Ctx.wrap(R, Call->getType()->isVoidType() ? "((" : "((void)(",
               "), sleuth::wrote_all(" + Unit + ", " + Text + "))");
  else if (Discarded)
    F.Ctx.wrap(R, Call->getType()->isVoidType() ? "((" : "((void)(",
               "), sleuth_set(" + Unit + ", sleuth::address_of(" + Text + "), sizeof(" + Text +
                   ")))");
  else
    F.Ctx.wrap(R, Whole ? "sleuth::written_all(" : "sleuth::written_value(",
               ", " + Unit + ", " + Text + ")");
  F.markConsumed(Call);
  F.countProbe();
}

// `qsort(base, count, size, compare);`: the library permutes the array unseen, so that each
// element kept the origin of whatever had been at its place. The array becomes a write after the
// call, which depends on its old contents (a compound write: every element's origin), and so
// leads from any element to the writes of all of them. Only where the arguments may be
// evaluated again (`qsort(a, n, sizeof a[0], cmp)`) and the call's value is discarded.
static void recordSortedArray(const CallExpr *Call, const FunctionDecl *Callee,
                              FunctionInstrumenter &F) {
  if (!Callee->getDeclName().isIdentifier() || Callee->getName() != "qsort" ||
      Call->getNumArgs() != 4 || !F.Ctx.isDiscarded(Call) || F.isConsumed(Call))
    return;
  const Expr *Base = Call->getArg(0)->IgnoreParenImpCasts();
  const Expr *Count = Call->getArg(1), *Size = Call->getArg(2);
  CharSourceRange R = F.Ctx.fileRange(Call), BaseRange = F.Ctx.fileRange(Base),
                  CountRange = F.Ctx.fileRange(Count), SizeRange = F.Ctx.fileRange(Size);
  if (R.isInvalid() || BaseRange.isInvalid() || CountRange.isInvalid() || SizeRange.isInvalid() ||
      !(Base->getType()->isPointerType() || Base->getType()->isConstantArrayType()) ||
      Base->getType()->getPointeeOrArrayElementType()->isIncompleteType() ||
      !isRepeatable(Base, F.Ctx.Ast) || !isRepeatable(Count, F.Ctx.Ast) ||
      !isRepeatable(Size, F.Ctx.Ast))
    return;
  std::string BaseText = F.Ctx.text(BaseRange);
  unsigned Site = F.addSite(SiteKind::Var, Call, Base->getBeginLoc(), BaseText, CompoundWrite);
  F.claimReads(Call, Site);
  // (In C++ a template multiplies: a cast of a size_t to unsigned long would be useless to
  // GCC's -Wuseless-cast.)
  std::string Bytes = F.isCxx() ? "sleuth::byte_count(" + F.Ctx.text(CountRange) + ", " +
                                      F.Ctx.text(SizeRange) + ")"
                                : "(unsigned long)(" + F.Ctx.text(CountRange) +
                                      ") * (unsigned long)(" + F.Ctx.text(SizeRange) + ")";
  F.Ctx.wrap(R, "((",
             "), sleuth_set(" + F.Ctx.unitAndSite(Site) + ", " + F.control(Site) + ", " + BaseText +
                 ", " + Bytes + "))");
  F.markConsumed(Call);
  F.countProbe();
}

// The library functions whose `const char *` parameters are strings they read to the '\0'.
// (Not strncmp, strnlen or the like: those bytes need no terminator.)
static bool readsStrings(const FunctionDecl *Callee) {
  static const llvm::StringSet<> Names = {
      "puts",    "fputs",  "strlen",  "strcmp",  "strcasecmp", "strcoll", "strchr",
      "strrchr", "strstr", "strspn",  "strcspn", "strpbrk",    "strdup",  "atoi",
      "atol",    "atoll",  "atof",    "strtol",  "strtoul",    "strtoll", "strtoull",
      "strtod",  "strtof", "strtold", "getenv",  "system",     "perror",  "fopen"};
  return Callee->getDeclName().isIdentifier() && Names.contains(Callee->getName());
}

// The arguments of a printf-like call (format checked, `__attribute__((format(printf, ...)))`)
// that its format, a string literal, prints with a plain `%s` (no precision, which allows an
// unterminated buffer; not `%ls`). None for a format that is no literal.
static std::vector<unsigned> printedStrings(const CallExpr *Call, const FunctionDecl *Callee) {
  std::vector<unsigned> Strings;
  unsigned FormatIndex = 0, Next = 0;
  if (const auto *Format = Callee->getAttr<FormatAttr>()) {
    if (!Format->getType()->getName().contains("printf") || Format->getFirstArg() == 0)
      return Strings;
    FormatIndex = Format->getFormatIdx() - 1, Next = Format->getFirstArg() - 1;
  } else if (Callee->getDeclName().isIdentifier() && Callee->getName() == "__printf_chk") {
    FormatIndex = 1, Next = 2; // glibc's fortified printf (_FORTIFY_SOURCE), a macro in Clang
  } else if (Callee->getDeclName().isIdentifier() &&
             (Callee->getName() == "__fprintf_chk" || Callee->getName() == "__dprintf_chk")) {
    FormatIndex = 2, Next = 3;
  } else {
    return Strings;
  }
  if (isa<CXXMethodDecl>(Callee) && !cast<CXXMethodDecl>(Callee)->isStatic()) {
    --FormatIndex; // (the implicit object counts as the first)
    --Next;
  }
  if (FormatIndex >= Call->getNumArgs())
    return Strings;
  const auto *Literal = dyn_cast<StringLiteral>(Call->getArg(FormatIndex)->IgnoreParenImpCasts());
  if (!Literal || !Literal->isOrdinary())
    return Strings;
  StringRef Text = Literal->getString();
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] != '%')
      continue;
    if (++I < Text.size() && Text[I] == '%')
      continue;
    while (I < Text.size() && StringRef("-+ #0'").contains(Text[I]))
      ++I;
    if (I < Text.size() && Text[I] == '*')
      ++Next, ++I; // the width is an argument
    while (I < Text.size() && isDigit(Text[I]))
      ++I;
    bool Precision = I < Text.size() && Text[I] == '.';
    if (Precision) {
      ++I;
      if (I < Text.size() && Text[I] == '*')
        ++Next, ++I;
      while (I < Text.size() && isDigit(Text[I]))
        ++I;
    }
    bool Modified = false;
    while (I < Text.size() && StringRef("hlLqjzt").contains(Text[I]))
      Modified = true, ++I;
    if (I >= Text.size() || Text[I] == 'm') // glibc's %m prints errno's message: no argument
      continue;
    if (Text[I] == 's' && !Precision && !Modified)
      Strings.push_back(Next);
    ++Next;
  }
  return Strings;
}

// The file text of `printf(...)` (fprintf, dprintf) where glibc's _FORTIFY_SOURCE makes it a
// macro around __printf_chk, as Clang parses it: the whole call is that one invocation.
static CharSourceRange fortifiedInvocation(const CallExpr *Call, FunctionInstrumenter &F) {
  const SourceManager &SM = F.Ctx.SM;
  const LangOptions &Lang = F.Ctx.Ast.getLangOpts();
  SourceLocation Begin = Call->getBeginLoc(), End = Call->getEndLoc();
  if (!Begin.isMacroID())
    return {};
  StringRef Macro = Lexer::getImmediateMacroName(Begin, SM, Lang);
  if (Macro != "printf" && Macro != "fprintf" && Macro != "dprintf")
    return {};
  CharSourceRange Invocation = SM.getImmediateExpansionRange(Begin);
  if (!Invocation.getBegin().isFileID() ||
      SM.getImmediateExpansionRange(End).getAsRange() != Invocation.getAsRange())
    return {};
  return Lexer::makeFileCharRange(Invocation, SM, Lang);
}

// Strings the library call reads (printf's `%s`, `puts(s)`, `strcmp(a, b)`): the origins of
// their bytes are read just before the call, so that what it prints or computes leads to the
// writes of the characters (a buffer sprintf or strcpy filled, input fgets stored), not only
// to the pointer. Where the argument's text may be evaluated again.
static void readStringArguments(const CallExpr *Call, const FunctionDecl *Callee,
                                FunctionInstrumenter &F) {
  std::vector<unsigned> Strings = printedStrings(Call, Callee);
  if (Strings.empty() && readsStrings(Callee))
    for (unsigned I = 0; I < Call->getNumArgs() && I < Callee->getNumParams(); ++I) {
      QualType T = Callee->getParamDecl(I)->getType();
      if (T->isPointerType() && T->getPointeeType()->isCharType() &&
          T->getPointeeType().isConstQualified())
        Strings.push_back(I);
    }
  if (Strings.empty())
    return;
  CharSourceRange CallRange = F.Ctx.fileRange(Call);
  if (CallRange.isInvalid())
    CallRange = fortifiedInvocation(Call, F);
  if (CallRange.isInvalid())
    return;
  const SourceManager &SM = F.Ctx.SM;
  // The argument's text as the file spells it inside the call: an argument of the fortified
  // macro is spelled in the invocation, unless a macro of the program's made it (luac's
  // `S(x)` expands to `x`'s uses in the macro's body, which the file cannot name).
  auto Inside = [&](CharSourceRange R) {
    auto [File, Begin] = SM.getDecomposedLoc(R.getBegin());
    auto [EndFile, End] = SM.getDecomposedLoc(R.getEnd());
    auto [CallFile, CallBegin] = SM.getDecomposedLoc(CallRange.getBegin());
    unsigned CallEnd = SM.getDecomposedLoc(CallRange.getEnd()).second;
    return File == CallFile && EndFile == CallFile && Begin >= CallBegin && End <= CallEnd;
  };
  std::string Reads;
  for (unsigned I : Strings) {
    if (I >= Call->getNumArgs())
      continue;
    const Expr *Arg = Call->getArg(I)->IgnoreParenImpCasts();
    QualType T = Arg->getType();
    bool Chars = (T->isPointerType() && T->getPointeeType()->isCharType()) ||
                 (T->isArrayType() && T->getPointeeOrArrayElementType()->isCharType());
    CharSourceRange R = F.Ctx.fileRange(Arg);
    if (R.isInvalid() && SM.isMacroArgExpansion(Arg->getBeginLoc()) &&
        SM.isMacroArgExpansion(Arg->getEndLoc()))
      R = Lexer::makeFileCharRange(
          CharSourceRange::getTokenRange(SM.getSpellingLoc(Arg->getBeginLoc()),
                                         SM.getSpellingLoc(Arg->getEndLoc())),
          SM, F.Ctx.Ast.getLangOpts());
    if (!Chars || isa<StringLiteral>(Arg) || R.isInvalid() || !Inside(R) ||
        !isRepeatable(Arg, F.Ctx.Ast) || Arg->isInstantiationDependent())
      continue;
    Reads += "sleuth_get_string(" + F.Ctx.text(R) + "), ";
  }
  if (Reads.empty())
    return;
  F.Ctx.wrap(CallRange, "(" + Reads, ")");
  F.countProbe();
}

// True if Callee is declared in a system header (not instrumented; compiler builtins are
// declared nowhere).
static bool isLibraryFunction(const FunctionDecl *Callee, FunctionInstrumenter &F) {
  SourceLocation Declared = Callee ? Callee->getCanonicalDecl()->getLocation() : SourceLocation();
  return Declared.isValid() && F.Ctx.SM.isInSystemHeader(Declared);
}

// True if Callee is a special member that the compiler writes (implicit or defaulted where
// declared): it has no body to instrument, so the copy it makes would go unseen (`r = q` of a
// struct kept r's old origins; `P q = p` read nothing).
static bool isCompilerWritten(const FunctionDecl *Callee) {
  const auto *Method = dyn_cast_or_null<CXXMethodDecl>(Callee);
  return Method && !Method->isUserProvided() && !Method->isDeleted();
}

void LibraryCallProbe::instrumentConstruction(const CXXConstructExpr *Construct,
                                              FunctionInstrumenter &F) {
  const CXXConstructorDecl *Ctor = Construct->getConstructor();
  if (!Ctor || Construct->isInstantiationDependent() ||
      !(isLibraryFunction(Ctor, F) || isCompilerWritten(Ctor)))
    return;
  // The objects it copies or takes by reference are read here: a copy constructor, unlike a
  // scalar's copy, has no lvalue-to-rvalue conversion that the read probes see.
  for (unsigned I = 0; I < Construct->getNumArgs(); ++I) {
    const Expr *Arg = Construct->getArg(I);
    const ParmVarDecl *P = I < Ctor->getNumParams() ? Ctor->getParamDecl(I) : nullptr;
    if (isa<CXXDefaultArgExpr>(Arg) || (P && writesThrough(P, Ctor) && !isCompilerWritten(Ctor)))
      continue;
    // `return v;` of a scalar into a class (std::optional<int>) binds the xvalue of v: v is
    // read. Not of a class: the read's lvalue would copy what the return moves.
    if (const auto *Move = dyn_cast<ImplicitCastExpr>(Arg);
        Move && Move->getCastKind() == CK_NoOp && Move->isXValue() &&
        isa<DeclRefExpr>(Move->getSubExpr()->IgnoreParens()) && Move->getSubExpr()->isLValue() &&
        Move->getType()->isScalarType())
      Arg = Move->getSubExpr();
    readObject(Arg, F, P && P->getType()->isReferenceType(), /*Whole=*/true);
  }
}

bool LibraryCallProbe::instrument(const CallExpr *Call, FunctionInstrumenter &F) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return false;
  if (!isLibraryFunction(Callee, F)) {
    // `r = q` of a class whose assignment the compiler writes: as the library's.
    const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
    if (!Op || Op->getOperator() != OO_Equal || !isCompilerWritten(Callee))
      return false;
  }
  if (F.Ctx.fileRange(Call).isInvalid()) {
    // A library call spelled in a macro: nothing to mark, but the strings of glibc's
    // fortified printf (a macro around __printf_chk, as Clang parses it).
    readStringArguments(Call, Callee, F);
    return true;
  }
  recordPointedWrites(Call, Callee, F);
  recordSortedArray(Call, Callee, F);
  readStringArguments(Call, Callee, F);
  if (!F.isCxx())
    return false; // CallProbe leaves library calls alone
  // When this returns, the operands' reads are registered: the writes claim them.
  struct WrittenArguments {
    const CallExpr *Call;
    const FunctionDecl *Callee;
    FunctionInstrumenter &F;
    ~WrittenArguments() {
      if (!F.isConsumed(Call))
        recordWrittenArguments(Call, Callee, F);
    }
  } Writes{Call, Callee, F};

  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call)) {
    OverloadedOperatorKind K = Op->getOperator();
    bool Assigns = K == OO_Equal || isCompoundOperator(K);
    for (unsigned I = 0; I < Op->getNumArgs(); ++I)
      if (!(Assigns && I == 0 && K == OO_Equal))
        readArgument(Call, Callee, I, F);
    const Expr *Target = Op->getNumArgs() ? Op->getArg(0) : nullptr;
    if (Assigns && isTrackableObject(Target, F) && Call->isLValue() &&
        F.Ctx.Ast.hasSameUnqualifiedType(Call->getType(), Target->getType())) {
      unsigned Site = F.addSite(SiteKind::Var, Call, Target->getBeginLoc(), F.Ctx.text(Target),
                                K == OO_Equal ? 0 : CompoundWrite);
      F.claimReads(Call, Site);
      std::string Unit = F.Ctx.unitAndSite(Site) + ", " + F.control(Site) + ", ";
      if (K == OO_PlusEqual && isContiguousContainer(Target->getType(), F.Ctx.Ast) &&
          isRepeatable(Target, F.Ctx.Ast)) // `s += t` may move s's characters
        F.Ctx.wrap(Call,
                   "sleuth::wrote_moved(" + Unit + "(sleuth::watch_all(" + F.Ctx.text(Target) +
                       "), ",
                   "))");
      else
        F.Ctx.wrap(Call, "sleuth::wrote(" + Unit, ")");
      F.markConsumed(Call);
      F.countProbe();
    }
    return true;
  }

  if (const auto *Member = dyn_cast<CXXMemberCallExpr>(Call)) {
    for (unsigned I = 0; I < Member->getNumArgs(); ++I)
      readArgument(Call, Callee, I, F);
    const Expr *Object = Member->getImplicitObjectArgument();
    const auto *Method = Member->getMethodDecl();
    if (!Object || !Method || isa<CXXThisExpr>(Object->IgnoreParenImpCasts()))
      return true;
    bool Discarded = F.Ctx.isDiscarded(Call);
    // A value the write can pass on: an lvalue (`s.append(a).append(b)`) or a trivially
    // copyable prvalue (`seen.insert(k).second`, an iterator).
    bool PassesValue = Call->isLValue() || isCheaplyPassed(Call->getType(), F);
    if (Method->isConst() ||
        (!Discarded && (!PassesValue || isAccessor(Method) || isStream(Object->getType()))) ||
        !isRepeatable(Object, F.Ctx.Ast) || !isTrackableObject(Object, F)) {
      // `s.find(c)`, `s.substr(1)` read the elements; `v.size()`, `v.at(i)` the object only;
      // `v.begin()` where a library call reads the range from it (std::accumulate) all of it.
      readObject(Object, F, false,
                 isRangeStart(Method) ? isRangeArgument(Call, F)
                                      : !isStructural(Method) && !isPositional(Member));
      return true;
    }
    // a.swap(b): as std::swap(a, b).
    if (const Expr *Other = Member->getNumArgs() == 1 ? Member->getArg(0)->IgnoreParens() : nullptr;
        Discarded && isNamed(Method, {"swap"}) && Other && Other->isLValue() &&
        !Other->isInstantiationDependent() && hasAddress(Other) && isRepeatable(Other, F.Ctx.Ast) &&
        F.Ctx.fileRange(Other).isValid() &&
        F.Ctx.Ast.hasSameUnqualifiedType(Other->getType(), Object->getType())) {
      recordSwap(Call, Object, Other, F);
      return true;
    }
    // out.push_back(c): the object now depends on the arguments and on its old contents.
    std::string Text = F.Ctx.text(Object);
    unsigned Site = F.addSite(SiteKind::Var, Call, Object->getBeginLoc(), Text, CompoundWrite);
    F.claimReads(Call, Site);
    std::string Watch = isContiguousContainer(Object->getType(), F.Ctx.Ast)
                            ? shiftWatch(Member, Text, F)
                            : std::string();
    std::string Write = "sleuth_set(" + F.Ctx.unitAndSite(Site) + ", " + F.control(Site) +
                        ", __builtin_addressof(" + Text + "), sizeof(" + Text + "))";
    if (!Watch.empty() && Discarded)
      F.Ctx.wrap(F.Ctx.fileRange(Call),
                 "(" + Watch + ", " + (Call->getType()->isVoidType() ? "" : "(void)("),
                 std::string(Call->getType()->isVoidType() ? "" : ")") + ", " + Write +
                     ", sleuth::shifted_all(" + F.Ctx.unitAndSite(Site) + ", " + Text + "))");
    else if (!Watch.empty())
      F.Ctx.wrap(F.Ctx.fileRange(Call), "sleuth::written_shifted((" + Watch + ", ",
                 "), " + F.Ctx.unitAndSite(Site) + ", " + F.control(Site) + ", " + Text + ")");
    else if (Discarded && mayMoveElements(Method) &&
             isContiguousContainer(Object->getType(), F.Ctx.Ast))
      // Void calls on the left of each comma (Clang's -Wcomma).
      F.Ctx.wrap(F.Ctx.fileRange(Call),
                 "(sleuth::watch_all(" + Text + "), " +
                     (Call->getType()->isVoidType() ? "" : "(void)("),
                 std::string(Call->getType()->isVoidType() ? "" : ")") + ", sleuth::moved_all(" +
                     Text + "), sleuth_set(" + F.Ctx.unitAndSite(Site) + ", " + F.control(Site) +
                     ", __builtin_addressof(" + Text + "), sizeof(" + Text + ")))");
    else if (Discarded)
      F.Ctx.wrapWithWriteAfter(F.Ctx.fileRange(Call), Site, F.control(Site), Text,
                               Call->getType()->isVoidType());
    else
      F.Ctx.wrap(F.Ctx.fileRange(Call), "sleuth::written_value(",
                 ", " + F.Ctx.unitAndSite(Site) + ", " + F.control(Site) + ", " + Text + ")");
    F.markConsumed(Call);
    F.countProbe();
    return true;
  }

  for (unsigned I = 0; I < Call->getNumArgs(); ++I)
    readArgument(Call, Callee, I, F);
  recordAlgorithmWrite(Call, Callee, F);
  return false; // a free function: CallProbe decides (it leaves library calls alone)
}

} // namespace sleuth::instrumenter
