#include "LibraryCalls.h"

#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

using namespace clang;

namespace sleuth::instrumenter {

namespace {

/// True if E's instrumented text has type void: E itself has, or E is a comma whose right
/// operand's text has, or a write of a kept local whose value is discarded (its probe ends
/// with `(void)(companion = sleuth_def(...))`: `++i, --j` in a for-increment).
bool rewrittenAsVoid(const Expr *E, FunctionInstrumenter &F) {
  E = E->IgnoreParens();
  if (E->getType()->isVoidType())
    return true;
  if (const auto *B = dyn_cast<BinaryOperator>(E)) {
    if (B->getOpcode() == BO_Comma)
      return rewrittenAsVoid(B->getRHS(), F);
    return B->isAssignmentOp() && F.Locals.companion(B->getLHS()) && F.Ctx.isDiscarded(B);
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return U->isIncrementDecrementOp() && F.Locals.companion(U->getSubExpr()) &&
           F.Ctx.isDiscarded(U);
  return false;
}

/// True if E calls a function that does not return (`usage(1);` before a `case` label: with a
/// `sleuth_discard()` after it, the statement would seem to fall through to GCC's
/// -Wimplicit-fallthrough, as it did in xz's option parsers).
bool callsNoReturn(const Expr *E) {
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParens());
  if (!Call)
    return false;
  if (const FunctionDecl *Callee = Call->getDirectCallee())
    return Callee->isNoReturn();
  QualType Type = Call->getCallee()->getType();
  if (const auto *Pointer = Type->getAs<PointerType>())
    Type = Pointer->getPointeeType();
  const auto *Function = Type->getAs<FunctionType>();
  return Function && Function->getNoReturnAttr();
}

/// True if Callee, a function of the program's, returns a stream by reference
/// (`std::ostream &operator<<(std::ostream &os, const Doc &d)`): what it printed into the
/// stream is what its return value read (`return os << d.title;`), which nothing takes where
/// the caller discards the stream (`std::cout << doc;`, `operator<<(std::cout, doc);`).
bool returnsStream(const FunctionDecl *Callee) {
  QualType T = Callee->getReturnType();
  return T->isLValueReferenceType() && !T->isDependentType() &&
         library::isStream(T->getPointeeType());
}

/// The library function that the statement E calls, if E is such a call whose value it
/// discards (`printf("%d", n)`, `(void)fclose(f)`, `std::cout << n`): a direct callee declared
/// in a system header (not instrumented, so the call's arguments flow nowhere else), whose probe
/// made no node of its own. Or a function of the program's that returns a stream by reference
/// (returnsStream): the statement's node takes its value, what it printed.
const FunctionDecl *libraryCall(const Expr *E, FunctionInstrumenter &F) {
  E = E->IgnoreParens();
  if (const auto *Cast = dyn_cast<CastExpr>(E); Cast && Cast->getCastKind() == CK_ToVoid)
    E = Cast->getSubExpr()->IgnoreParens();
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreImplicit());
  if (!Call || F.isConsumed(Call) || F.isRecordedCall(Call))
    return nullptr;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return nullptr;
  // (Compiler builtins, `__builtin_va_end(ap)`, are declared nowhere.)
  SourceLocation Declared = Callee->getCanonicalDecl()->getLocation();
  if (Declared.isInvalid() || !(F.Ctx.SM.isInSystemHeader(Declared) || returnsStream(Callee)))
    return nullptr;
  return Callee;
}

const FunctionDecl *discardedLibraryCall(const Expr *E, FunctionInstrumenter &F) {
  const FunctionDecl *Callee = libraryCall(E, F);
  return Callee && !Callee->isNoReturn() ? Callee : nullptr;
}

/// The library function that does not return that the statement E calls (`exit(status)`,
/// `abort()`), but not longjmp: the reads it leaves pending are those of the value that setjmp
/// returns.
const FunctionDecl *exitingLibraryCall(const Expr *E, FunctionInstrumenter &F) {
  const FunctionDecl *Callee = libraryCall(E, F);
  if (!Callee || !Callee->isNoReturn() || !Callee->getDeclName().isIdentifier() ||
      Callee->getName().contains("longjmp"))
    return nullptr;
  return Callee;
}

/// The probe ending the statement E (spelled at R): `sleuth_effect(...)` for a call into the
/// library (nothing reads the statement's value, but it hands its arguments to the outside,
/// printing or writing them: the node is where a slice of that output starts), otherwise
/// `sleuth_discard()`. Null if E needs neither.
std::optional<std::string> endProbe(const Expr *E, CharSourceRange R, bool ReadsSomething,
                                    FunctionInstrumenter &F) {
  if (const FunctionDecl *Callee = discardedLibraryCall(E, F)) {
    unsigned Site =
        F.addSite(SiteKind::Effect, E, R.getBegin(), "<" + Callee->getNameAsString() + "()>");
    F.claimReads(E, Site);
    F.countProbe();
    return "sleuth_effect(" + F.Ctx.unitAndSite(Site) + ", " + F.control(Site) + ")";
  }
  if (!ReadsSomething)
    return std::nullopt;
  return "sleuth_discard()";
}

} // namespace

bool DiscardProbe::instrument(const Expr *E, unsigned ProbesBefore, FunctionInstrumenter &F) {
  const Expr *Value = E->IgnoreParens();
  if (const auto *Cleanups = dyn_cast<ExprWithCleanups>(Value))
    Value = Cleanups->getSubExpr()->IgnoreParens();
  if (F.isConsumed(Value))
    return false;
  bool ReadsSomething = F.probeCount() != ProbesBefore;
  if (!ReadsSomething && !discardedLibraryCall(E, F) && !exitingLibraryCall(E, F))
    return false;
  // Only full expressions in statement position: `f(x);`, a for-increment.
  const Stmt *Parent = F.Ctx.parent(E);
  if (!Parent || isa<BinaryOperator, CastExpr, ParenExpr, ExprWithCleanups>(Parent))
    return false;
  // The reads it leaves pending go with the program or, for a longjmp, are those of the value
  // that setjmp returns. A library call that ends the program (`exit(status)`, `abort()`) is
  // a node made before it, which its arguments' reads are checked against as they are
  // evaluated: where the status came from, and which test led there.
  if (callsNoReturn(E)) {
    const FunctionDecl *Callee = exitingLibraryCall(E, F);
    CharSourceRange R = F.Ctx.expansionRange(E);
    if (!Callee || R.isInvalid())
      return false;
    unsigned Site =
        F.addSite(SiteKind::Effect, E, R.getBegin(), "<" + Callee->getNameAsString() + "()>");
    F.claimReads(E, Site);
    F.countProbe();
    std::string Probe = "sleuth_effect(" + F.Ctx.unitAndSite(Site) + ", " + F.control(Site) + ")";
    // (Before a void call Clang's -Wcomma accepts the comma, and no cast is needed.)
    F.Ctx.wrap(R, "(" + Probe + ", ", ")");
    return true;
  }
  // A statement that is (or ends with) a macro invocation, `CALL(x, y);`, `(void)snprintf(buf,
  // n, "%s", p);` with glibc's fortified snprintf a macro: the reads pushed before the expansion
  // are dropped after it too.
  CharSourceRange R = F.Ctx.expansionRange(E);
  if (R.isInvalid())
    return false;
  std::optional<std::string> End = endProbe(E, R, ReadsSomething, F);
  if (!End)
    return false;
  if (F.isCxx() && rewrittenAsVoid(E, F)) {
    // `(void)(f(x))` of a void expression is a useless cast to GCC (-Wuseless-cast), and
    // `(f(x), sleuth_discard())` with the call probe's comma inside is a comma Clang doubts
    // (-Wcomma). A statement becomes a block instead: `{ f(x); sleuth_discard(); }`.
    // A throw leaves the statement anyway: its frame's reads go when the frame does.
    if (isa<CXXThrowExpr>(E->IgnoreParens()))
      return false;
    SourceLocation After = Lexer::findLocationAfterToken(R.getEnd().getLocWithOffset(-1), tok::semi,
                                                         F.Ctx.SM, F.Ctx.Ast.getLangOpts(), false);
    if (After.isValid()) {
      F.Ctx.wrap(CharSourceRange::getCharRange(R.getBegin(), After), "{ ", " " + *End + "; }");
      return true;
    }
    // A for-increment (where Clang's -Wcomma takes any comma).
    F.Ctx.wrap(R, "((", "), " + *End + ")");
    return true;
  }
  F.Ctx.wrap(R, "((void)(", "), " + *End + ")");
  return true;
}

} // namespace sleuth::instrumenter
