#include "Probes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"

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

static void readObject(const Expr *E, FunctionInstrumenter &F, bool Scalars = false) {
  if (!isTrackableObject(E, F, Scalars))
    return;
  F.addRead(F.Ctx.fileRange(E), ReadProbe::cxxRead(F));
  F.countProbe();
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

// Reads argument I of the call unless the call writes it: a class-type object, or any object
// bound to a reference parameter, which no lvalue-to-rvalue conversion reads
// (`v.push_back(x)`, `std::max(a, b)` take `const int &`; `emplace_back(x)` a forwarding one).
static void readArgument(const CallExpr *Call, const FunctionDecl *Callee, unsigned I,
                         FunctionInstrumenter &F) {
  if (writesArgument(Call, Callee, I))
    return;
  const ParmVarDecl *P = parameterOf(Call, Callee, I);
  readObject(Call->getArg(I), F, P && P->getType()->isReferenceType());
}

// Arguments that the library call writes through non-const lvalue references: `std::cin >> x`,
// `std::getline(in, line)`, `std::swap(a, b)`, `std::from_chars(b, e, value)`. Unseen, those
// objects kept the origins of their earlier writes (`int x = 0;` before `std::cin >> x` was
// where the input seemed to come from). Each becomes a write after the call, which the call's
// reads flow into; the input itself has no origin. Only where the call's value is discarded or
// is an lvalue (the stream), which sleuth::written_by passes on.
static void recordWrittenArguments(const CallExpr *Call, const FunctionDecl *Callee,
                                   FunctionInstrumenter &F) {
  bool Discarded = F.Ctx.isDiscarded(Call);
  if (!Discarded && !Call->isLValue())
    return;
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
  std::string Suffix;
  bool First = true;
  for (const Expr *Arg : Written) {
    std::string Text = F.Ctx.text(F.Ctx.fileRange(Arg));
    unsigned Site = F.addSite(SiteKind::Var, Call, Arg->getBeginLoc(), Text);
    if (First)
      F.claimReads(Call, Site); // the stream's and the other arguments' reads
    First = false;
    std::string Unit = F.Ctx.unitAndSite(Site) + ", " + F.control(Site);
    if (Discarded) {
      Suffix +=
          ", sleuth_set(" + Unit + ", sleuth::address_of(" + Text + "), sizeof(" + Text + "))";
    } else {
      F.Ctx.wrap(R, "sleuth::written_by(", ", " + Unit + ", " + Text + ")");
    }
    F.countProbe();
  }
  if (Discarded)
    F.Ctx.wrap(R, Call->getType()->isVoidType() ? "((" : "((void)(", ")" + Suffix + ")");
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

bool LibraryCallProbe::instrument(const CallExpr *Call, FunctionInstrumenter &F) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  // (Compiler builtins are declared nowhere.)
  SourceLocation Declared = Callee ? Callee->getCanonicalDecl()->getLocation() : SourceLocation();
  if (!Callee || Declared.isInvalid() || !F.Ctx.SM.isInSystemHeader(Declared))
    return false;
  if (F.Ctx.fileRange(Call).isInvalid())
    return true; // a library call spelled in a macro: nothing to mark
  recordPointedWrites(Call, Callee, F);
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
      F.Ctx.wrap(Call, "sleuth::wrote(" + F.Ctx.unitAndSite(Site) + ", " + F.control(Site) + ", ",
                 ")");
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
    if (Method->isConst() || !F.Ctx.isDiscarded(Call) || !isRepeatable(Object, F.Ctx.Ast) ||
        !isTrackableObject(Object, F)) {
      readObject(Object, F);
      return true;
    }
    // out.push_back(c): the object now depends on the arguments and on its old contents.
    std::string Text = F.Ctx.text(Object);
    unsigned Site = F.addSite(SiteKind::Var, Call, Object->getBeginLoc(), Text, CompoundWrite);
    F.claimReads(Call, Site);
    F.Ctx.wrapWithWriteAfter(F.Ctx.fileRange(Call), Site, F.control(Site), Text,
                             Call->getType()->isVoidType());
    F.markConsumed(Call);
    F.countProbe();
    return true;
  }

  for (unsigned I = 0; I < Call->getNumArgs(); ++I)
    readArgument(Call, Callee, I, F);
  return false; // a free function: CallProbe decides (it leaves library calls alone)
}

} // namespace sleuth::instrumenter
