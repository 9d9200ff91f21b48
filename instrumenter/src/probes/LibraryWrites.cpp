// The writes that a library call makes unseen: through references and pointers, by swapping,
// by an algorithm into a range.
#include "LibraryCalls.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace sleuth::instrumenter::library {

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
void recordSwap(const Expr *Node, bool Void, const Expr *First, const Expr *Second,
                FunctionInstrumenter &F) {
  std::string A = F.Ctx.text(F.Ctx.fileRange(First));
  std::string B = F.Ctx.text(F.Ctx.fileRange(Second));
  unsigned SiteA = F.addSite(SiteKind::Var, Node, First->getBeginLoc(), A);
  unsigned SiteB = F.addSite(SiteKind::Var, Node, Second->getBeginLoc(), B);
  F.claimReads(Node, SiteA);
  F.Ctx.wrap(F.Ctx.fileRange(Node), Void ? "((" : "((void)(",
             "), sleuth_swapped(" + F.Ctx.unitAndSite(SiteA) + ", " + std::to_string(SiteB) +
                 "u, " + F.control(SiteA) + ", sleuth::address_of(" + A + "), sleuth::address_of(" +
                 B + "), sizeof(" + A + ")))");
  F.markConsumed(Node);
  F.countProbe();
}

// Arguments that the library call writes through non-const lvalue references: `std::cin >> x`,
// `std::getline(in, line)`, `std::swap(a, b)`, `std::from_chars(b, e, value)`. Unseen, those
// objects kept the origins of their earlier writes (`int x = 0;` before `std::cin >> x` was
// where the input seemed to come from). Each becomes a write after the call, which the call's
// reads flow into; the input itself has no origin. Only where the call's value is discarded or
// is an lvalue (the stream), which sleuth::written_by passes on.
WrittenArguments writtenArguments(const CallExpr *Call, const FunctionDecl *Callee, bool Discarded,
                                  FunctionInstrumenter &F) {
  WrittenArguments W;
  W.Discarded = Discarded;
  W.Void = Call->getType()->isVoidType();
  // Objects whose address the call takes for a pointer to a non-const object type.
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
    W.Pointed.push_back(I);
  }
  // A value that is no lvalue (`int old = std::exchange(x, 1)`, `std::from_chars(b, e, n)`'s
  // result) is passed on by sleuth::written_value, which makes it read the write; the old value
  // that std::exchange returns is among what the write depends on, a compound write there.
  W.Passed = !Discarded && !Call->isLValue();
  if (W.Passed && (!isCheaplyPassed(Call->getType(), F) || refersTo(Callee)))
    return W;
  W.Exchange = W.Passed && Callee->isInStdNamespace() && Callee->getDeclName().isIdentifier() &&
               Callee->getName() == "exchange";
  std::vector<const Expr *> Written;
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I)->IgnoreParens();
    if (!writesArgument(Call, Callee, I) || !Arg->isLValue() || Arg->isInstantiationDependent() ||
        !hasAddress(Arg) || !isRepeatable(Arg, F.Ctx.Ast) || F.Ctx.fileRange(Arg).isInvalid() ||
        Arg->getType().isVolatileQualified())
      continue;
    Written.push_back(Arg);
    W.Written.push_back(I);
  }
  W.Swap = Discarded && isSwapOf(Call, Callee, Written, F);
  return W;
}

void recordWrittenArguments(const Expr *Node, const CallExpr *Call, const WrittenArguments &W,
                            FunctionInstrumenter &F) {
  if (W.Written.empty())
    return;
  // (The arguments' text, as the file spells it: in a template, the same in the pattern and
  // in each instantiation.)
  auto Argument = [&](unsigned I) { return Call->getArg(I)->IgnoreParens(); };
  if (W.Swap) {
    recordSwap(Node, W.Void, Argument(W.Written[0]), Argument(W.Written[1]), F);
    return;
  }
  CharSourceRange R = F.Ctx.fileRange(Node);
  std::string Suffix;
  bool First = true;
  for (unsigned I : W.Written) {
    const Expr *Arg = Argument(I);
    std::string Text = F.Ctx.text(F.Ctx.fileRange(Arg));
    unsigned Site =
        F.addSite(SiteKind::Var, Node, Arg->getBeginLoc(), Text, W.Exchange ? CompoundWrite : 0);
    if (First)
      F.claimReads(Node, Site); // the stream's and the other arguments' reads
    First = false;
    std::string Unit = F.Ctx.unitAndSite(Site) + ", " + F.control(Site);
    if (W.Discarded) {
      Suffix +=
          ", sleuth_set(" + Unit + ", sleuth::address_of(" + Text + "), sizeof(" + Text + "))";
    } else {
      F.Ctx.wrap(R, W.Passed ? "sleuth::written_value(" : "sleuth::written_by(",
                 ", " + Unit + ", " + Text + ")");
    }
    F.countProbe();
  }
  if (W.Discarded)
    F.Ctx.wrap(R, W.Void ? "((" : "((void)(", ")" + Suffix + ")");
  F.markConsumed(Node);
}

// Objects whose address a library call takes for a pointer to a non-const object type
// (`strtol(s, &end, 10)`, `time(&now)`, `stat(path, &st)`): the call may store into them, which
// their shadow would not show (they kept the origin of their last write before the call). Each
// is marked written at this line, just before the call, with no origin of its own (what the
// library stores is its own; sleuth_created consumes no pending read). Not for `void *`
// parameters, which take any object without writing it (pthread_create's argument).
void recordPointedWrites(const Expr *Node, const CallExpr *Call, const WrittenArguments &W,
                         FunctionInstrumenter &F) {
  std::string Marks;
  for (unsigned I : W.Pointed) {
    const Expr *X =
        cast<UnaryOperator>(Call->getArg(I)->IgnoreParenImpCasts())->getSubExpr()->IgnoreParens();
    std::string Text = F.Ctx.text(F.Ctx.fileRange(X));
    unsigned Site = F.addSite(SiteKind::Var, Node, X->getBeginLoc(), Text);
    Marks += "(void)sleuth_created(" + F.Ctx.unitAndSite(Site) + ", " + F.control(Site) + ", " +
             addressOf(X->getType(), Text, F.isCxx()) + ", sizeof(" + Text + ")), ";
    F.countProbe();
  }
  if (!Marks.empty())
    F.Ctx.wrap(F.Ctx.fileRange(Node), "(" + Marks, ")");
}

// A member that may move a container's elements to new storage as it grows it, keeping their
// places (those of insert and emplace before the position).
bool mayMoveElements(const CXXMethodDecl *Method) {
  static const llvm::StringSet<> Names = {"push_back", "emplace_back", "insert",        "emplace",
                                          "resize",    "reserve",      "shrink_to_fit", "append"};
  return Method->getDeclName().isIdentifier() && Names.contains(Method->getName());
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
std::string shiftWatch(const CXXMemberCallExpr *Call, const std::string &Object,
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

// `std::sort(v.begin(), v.end())`, `std::copy(a, a + n, out.begin())`: the algorithm stores
// into the elements of the object that its last iterator argument designates (an in-place
// algorithm's range, a copying one's output). In the library, unseen, the elements kept the
// origins they had; the object becomes a write after the call, which depends on the call's
// reads (its input range's object, a value to fill with) and, as it keeps what it does not
// overwrite, on its old contents.
void recordAlgorithmWrite(const CallExpr *Call, const FunctionDecl *Callee,
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
void recordSortedArray(const CallExpr *Call, const FunctionDecl *Callee, FunctionInstrumenter &F) {
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
} // namespace sleuth::instrumenter::library
