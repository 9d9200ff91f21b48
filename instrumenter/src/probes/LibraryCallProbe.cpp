#include "LibraryCalls.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/ADT/StringSwitch.h"

using namespace clang;

namespace sleuth::instrumenter {

using namespace library;

bool LibraryCallProbe::readReferencedObject(const Expr *E, FunctionInstrumenter &F) {
  return readObject(E, F, /*Scalars=*/true);
}

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

// True if Member, a call of a library member whose object is no `this`, writes its object:
// a non-const member of an object the program tracks (not a stream's), whose value is
// discarded or passed on. Node is the call as the rewriter sees it (in a template, the
// pattern's).
static bool writesObject(const Expr *Node, const CXXMemberCallExpr *Member,
                         FunctionInstrumenter &F) {
  const Expr *Object = Member->getImplicitObjectArgument();
  const auto *Method = Member->getMethodDecl();
  // A value the write can pass on: an lvalue (`s.append(a).append(b)`) or a trivially
  // copyable prvalue (`seen.insert(k).second`, an iterator).
  bool PassesValue = Member->isLValue() || isCheaplyPassed(Member->getType(), F);
  // A stream's member (`in.get(c)`, `out.put(c)`) changes no value of the program's in it
  // (see isStream): it reads the stream, and writes what it takes by reference.
  return !Method->isConst() && !isStream(Object->getType()) &&
         (F.Ctx.isDiscarded(Node) || (PassesValue && !isAccessor(Method))) &&
         isRepeatable(Object, F.Ctx.Ast) && isTrackableObject(Object, F);
}

// out.push_back(c): the object now depends on the arguments and on its old contents. Node is
// the call as the rewriter sees it (in a template, the pattern's), spelled by the same text as
// Member.
static void recordObjectWrite(const Expr *Node, const CXXMemberCallExpr *Member,
                              FunctionInstrumenter &F) {
  const Expr *Object = Member->getImplicitObjectArgument();
  const auto *Method = Member->getMethodDecl();
  bool Discarded = F.Ctx.isDiscarded(Node);
  bool Void = Member->getType()->isVoidType();
  std::string Text = F.Ctx.text(Object);
  unsigned Site = F.addSite(SiteKind::Var, Node, Object->getBeginLoc(), Text, CompoundWrite);
  F.claimReads(Node, Site);
  std::string Watch = isContiguousContainer(Object->getType(), F.Ctx.Ast)
                          ? shiftWatch(Member, Text, F)
                          : std::string();
  std::string Write = "sleuth_set(" + F.Ctx.unitAndSite(Site) + ", " + F.control(Site) +
                      ", __builtin_addressof(" + Text + "), sizeof(" + Text + "))";
  CharSourceRange Range = F.Ctx.fileRange(Node);
  if (!Watch.empty() && Discarded)
    F.Ctx.wrap(Range, "(" + Watch + ", " + (Void ? "" : "(void)("),
               std::string(Void ? "" : ")") + ", " + Write + ", sleuth::shifted_all(" +
                   F.Ctx.unitAndSite(Site) + ", " + Text + "))");
  else if (!Watch.empty())
    F.Ctx.wrap(Range, "sleuth::written_shifted((" + Watch + ", ",
               "), " + F.Ctx.unitAndSite(Site) + ", " + F.control(Site) + ", " + Text + ")");
  else if (Discarded && mayMoveElements(Method) &&
           isContiguousContainer(Object->getType(), F.Ctx.Ast))
    // Void calls on the left of each comma (Clang's -Wcomma).
    F.Ctx.wrap(Range, "(sleuth::watch_all(" + Text + "), " + (Void ? "" : "(void)("),
               std::string(Void ? "" : ")") + ", sleuth::moved_all(" + Text + "), " + Write + ")");
  else if (Discarded)
    F.Ctx.wrapWithWriteAfter(Range, Site, F.control(Site), Text, Void);
  else
    F.Ctx.wrap(Range, "sleuth::written_value(",
               ", " + F.Ctx.unitAndSite(Site) + ", " + F.control(Site) + ", " + Text + ")");
  F.markConsumed(Node);
  F.countProbe();
}

bool LibraryCallProbe::instrumentDependentMember(const CallExpr *Call,
                                                 llvm::ArrayRef<const CallExpr *> Instances,
                                                 FunctionInstrumenter &F) {
  // Every instantiation calls a member of the library's with the same name, which writes its
  // object and moves or shifts its elements alike; the first stands for all.
  const CXXMemberCallExpr *First = nullptr;
  for (const CallExpr *Instance : Instances) {
    const auto *Member = dyn_cast<CXXMemberCallExpr>(Instance);
    const CXXMethodDecl *Method = Member ? Member->getMethodDecl() : nullptr;
    const Expr *Object = Member ? Member->getImplicitObjectArgument() : nullptr;
    if (!Method || !Object || isa<CXXThisExpr>(Object->IgnoreParenImpCasts()) ||
        !isLibraryFunction(Method, F) || !Method->getDeclName().isIdentifier() ||
        isNamed(Method, {"swap"}) || !writesObject(Call, Member, F))
      return false;
    if (First) {
      const CXXMethodDecl *Other = First->getMethodDecl();
      const Expr *OtherObject = First->getImplicitObjectArgument();
      if (Other->getName() != Method->getName() ||
          mayMoveElements(Other) != mayMoveElements(Method) ||
          First->getType()->isVoidType() != Member->getType()->isVoidType() ||
          isContiguousContainer(OtherObject->getType(), F.Ctx.Ast) !=
              isContiguousContainer(Object->getType(), F.Ctx.Ast) ||
          shiftWatch(First, F.Ctx.text(OtherObject), F) !=
              shiftWatch(Member, F.Ctx.text(Object), F))
        return false;
    } else {
      First = Member;
    }
  }
  if (!First || F.Ctx.fileRange(Call).isInvalid() ||
      F.Ctx.fileRange(First->getImplicitObjectArgument()).isInvalid())
    return false;
  recordObjectWrite(Call, First, F);
  return true;
}

bool LibraryCallProbe::instrument(const CallExpr *Call, FunctionInstrumenter &F) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return instrumentDependent(Call, F);
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
  WrittenArguments Writes = writtenArguments(Call, Callee, F.Ctx.isDiscarded(Call), F);
  recordPointedWrites(Call, Call, Writes, F);
  recordSortedArray(Call, Callee, F);
  readStringArguments(Call, Callee, F);
  if (!F.isCxx())
    return false; // CallProbe leaves library calls alone
  // When this returns, the operands' reads are registered: the writes claim them.
  struct WritesAfterReads {
    const CallExpr *Call;
    const WrittenArguments &Writes;
    FunctionInstrumenter &F;
    ~WritesAfterReads() {
      if (!F.isConsumed(Call))
        recordWrittenArguments(Call, Call, Writes, F);
    }
  } After{Call, Writes, F};

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
    if (!writesObject(Call, Member, F)) {
      // `s.find(c)`, `s.substr(1)` read the elements; `v.size()`, `v.at(i)` the object only;
      // `v.begin()` where a library call reads the range from it (std::accumulate) all of it.
      readObject(Object, F, false,
                 isRangeStart(Method) ? isRangeArgument(Call, F)
                                      : !isStructural(Method) && !isPositional(Member));
      return true;
    }
    // a.swap(b): as std::swap(a, b).
    if (const Expr *Other = Member->getNumArgs() == 1 ? Member->getArg(0)->IgnoreParens() : nullptr;
        F.Ctx.isDiscarded(Call) && isNamed(Method, {"swap"}) && Other && Other->isLValue() &&
        !Other->isInstantiationDependent() && hasAddress(Other) && isRepeatable(Other, F.Ctx.Ast) &&
        F.Ctx.fileRange(Other).isValid() &&
        F.Ctx.Ast.hasSameUnqualifiedType(Other->getType(), Object->getType())) {
      recordSwap(Call, Call->getType()->isVoidType(), Object, Other, F);
      return true;
    }
    recordObjectWrite(Call, Member, F);
    return true;
  }

  for (unsigned I = 0; I < Call->getNumArgs(); ++I)
    readArgument(Call, Callee, I, F);
  recordAlgorithmWrite(Call, Callee, F);
  return false; // a free function: CallProbe decides (it leaves library calls alone)
}
} // namespace sleuth::instrumenter
