#include "Probes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <optional>

using namespace clang;

namespace sleuth::instrumenter {

// The companions whose locals E reads, if E reads nothing else (no memory through the shadow,
// no call, no write): then its origins can be passed at the call, before it is evaluated.
static bool readsOnlyCompanions(const Stmt *S, FunctionInstrumenter &F,
                                std::vector<const std::string *> &Out) {
  if (!S || isa<UnaryExprOrTypeTraitExpr>(S))
    return true;
  // (A compound literal may be created by a probe, CompoundLiteralProbe: a node inside the
  // arguments, which the general form's marks tell apart.)
  if (isa<CallExpr, LambdaExpr, StmtExpr, BlockExpr, CXXConstructExpr, CompoundLiteralExpr>(S))
    return false;
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S);
      Cast && Cast->getCastKind() == CK_LValueToRValue) {
    const std::string *Origin = F.Locals.companion(Cast->getSubExpr());
    if (!Origin)
      return false;
    if (std::find(Out.begin(), Out.end(), Origin) == Out.end())
      Out.push_back(Origin);
    return true;
  }
  for (const Stmt *Child : S->children())
    if (!readsOnlyCompanions(Child, F, Out))
      return false;
  return true;
}

// The pairs of sleuth_call_pairs and of sleuth_call_pairs8 (SLEUTH_CALL_PAIRS in runtime.h):
// the probe's arguments are fixed, the unused pairs zeros, and a call of up to four pairs
// passes no more than four.
static constexpr unsigned FewPairs = 4, MaxInlinePairs = 8;

// A void call that is the left operand of a comma, `f(), g()`, which Clang's -Wcomma accepts:
// with the probe's own comma around it, Clang would doubt the user's comma. SLEUTH_COMMA_OPERAND
// (runtime.h) casts it to void for Clang alone: GCC's -Wuseless-cast would doubt the cast.
static void keepCommaOperandACall(const CallExpr *Call, CharSourceRange R,
                                  FunctionInstrumenter &F) {
  if (!Call->getType()->isVoidType())
    return;
  const Stmt *Operand = Call, *Parent = F.Ctx.parent(Call);
  while (Parent && isa<ParenExpr>(Parent)) {
    Operand = Parent;
    Parent = F.Ctx.parent(Parent);
  }
  const auto *Comma = dyn_cast_or_null<BinaryOperator>(Parent);
  if (Comma && Comma->getOpcode() == BO_Comma && Comma->getLHS() == Operand)
    F.Ctx.wrap(R, "SLEUTH_COMMA_OPERAND((", "))");
}

// True if the overloaded operator Op is a call to record as any other: one the program wrote
// (`v[i]`, `a + b`, `it++`, `p == q`, a function object's `f(x)`), spelled as an expression of
// its own that a probe may stand before and whose operands it may wrap. Not `->` and `->*`
// (their right side is no operand), `,` and a unary `&` (the probe's own comma and `&` would
// mean them), nor a comparison rewritten from `<=>` or `==` (`a < b` spelling `(a <=> b) < 0`:
// no expression of its own).
static bool isRecordedOperator(const CXXOperatorCallExpr *Op, FunctionInstrumenter &F) {
  if (Op->getOperator() == OO_Call)
    return true;
  const FunctionDecl *Callee = Op->getDirectCallee();
  if (!Callee || Callee->isDefaulted() || Callee->isDeleted())
    return false;
  switch (Op->getOperator()) {
  case OO_Arrow:
  case OO_ArrowStar:
  case OO_Comma:
  case OO_Coawait:
  case OO_New:
  case OO_Delete:
  case OO_Array_New:
  case OO_Array_Delete:
    return false;
  case OO_Amp:
    if (Op->getNumArgs() == 1)
      return false;
    break;
  default:
    break;
  }
  // A rewritten comparison's call is spelled by another operator (`<` for `<=>`, `!=` for
  // `==`) or with its operands the other way round (`0 == v` calling `v == 0`).
  if (Op->getOperator() != OO_Subscript) {
    SourceLocation At = F.Ctx.SM.getFileLoc(Op->getOperatorLoc());
    if (Lexer::getSourceText(CharSourceRange::getTokenRange(At), F.Ctx.SM,
                             F.Ctx.Ast.getLangOpts()) != getOperatorSpelling(Op->getOperator()))
      return false;
  }
  for (unsigned I = 1; I < Op->getNumArgs(); ++I)
    if (F.Ctx.SM.isBeforeInTranslationUnit(Op->getArg(I)->getBeginLoc(),
                                           Op->getArg(I - 1)->getBeginLoc()))
      return false;
  return true;
}

// The operands of Call that bind parameters of its callee: all arguments, but the object of a
// member operator (`v` of `v[i]`, the function object of `f(x)`) and the dummy `int` of a
// postfix `++`/`--`.
static bool bindsParameter(const CallExpr *Call, unsigned I) {
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
  if (!Op)
    return true;
  if (I == 0 &&
      (Op->getOperator() == OO_Call || isa_and_nonnull<CXXMethodDecl>(Call->getDirectCallee())))
    return false;
  return !((Op->getOperator() == OO_PlusPlus || Op->getOperator() == OO_MinusMinus) &&
           Call->getNumArgs() == 2 && I == 1);
}

// True if evaluating S writes (an assignment, `++`, `--`): the write's node consumes the
// pending reads of its frame, those of the other arguments evaluated before it too. Not inside
// a lambda's body or an unevaluated operand, which this evaluation does not run.
static bool writesInside(const Stmt *S) {
  if (!S || isa<LambdaExpr, BlockExpr, UnaryExprOrTypeTraitExpr, CXXNoexceptExpr, CXXTypeidExpr>(S))
    return false;
  if (const auto *Binary = dyn_cast<BinaryOperator>(S); Binary && Binary->isAssignmentOp())
    return true;
  if (const auto *Unary = dyn_cast<UnaryOperator>(S); Unary && Unary->isIncrementDecrementOp())
    return true;
  for (const Stmt *Child : S->children())
    if (writesInside(Child))
      return true;
  return false;
}

// True if evaluating S reads a value (a variable's, memory's, a call's).
static bool readsSomething(const Stmt *S) {
  if (!S || isa<LambdaExpr, BlockExpr, UnaryExprOrTypeTraitExpr>(S))
    return false;
  if (isa<CallExpr, CXXConstructExpr, VAArgExpr>(S))
    return true;
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S);
      Cast && Cast->getCastKind() == CK_LValueToRValue)
    return true;
  for (const Stmt *Child : S->children())
    if (readsSomething(Child))
      return true;
  return false;
}

// True if evaluating S does nothing but read and compute: no call, write, test or va_arg,
// whose probes push reads or make nodes of their own.
static bool onlyComputes(const Stmt *S) {
  if (!S || isa<UnaryExprOrTypeTraitExpr>(S))
    return true;
  if (isa<CallExpr, CXXConstructExpr, CXXNewExpr, CXXDeleteExpr, CXXThrowExpr, VAArgExpr, StmtExpr,
          LambdaExpr, BlockExpr, ConditionalOperator, BinaryConditionalOperator>(S))
    return false;
  if (const auto *Binary = dyn_cast<BinaryOperator>(S);
      Binary && (Binary->isAssignmentOp() || Binary->isLogicalOp()))
    return false;
  if (const auto *Unary = dyn_cast<UnaryOperator>(S); Unary && Unary->isIncrementDecrementOp())
    return false;
  for (const Stmt *Child : S->children())
    if (!onlyComputes(Child))
      return false;
  return true;
}

// The parameter of Callee that the Position-th argument binds (1-based), if any.
static const ParmVarDecl *parameterAt(const FunctionDecl *Callee, unsigned Position) {
  if (!Callee || Position == 0 || Position > Callee->getNumParams())
    return nullptr;
  return Callee->getParamDecl(Position - 1);
}

// If Arg is a value of scalar type that reads something and binds Param, a `const T &`
// (`ring.push(base * i)` of `void push(const T &x)`), the template arguments of the probe that
// writes the temporary the binding materializes, which the callee reads through the reference
// and which nothing wrote: "" where the argument's own type is T, `<long>` where the binding
// converts it first (`widen(n)` of an `int n` for `const long &`), which is then spelled for a
// builtin T only. None for an lvalue bound as it is.
static std::optional<std::string> bindsTemporary(const Expr *Arg, const ParmVarDecl *Param,
                                                 FunctionInstrumenter &F) {
  if (!F.isCxx() || !Param || !readsSomething(Arg))
    return std::nullopt;
  QualType Type = Param->getType();
  if (!Type->isLValueReferenceType() || !Type->getPointeeType().isConstQualified() ||
      Type->getPointeeType().isVolatileQualified())
    return std::nullopt;
  const auto *Temporary = dyn_cast<MaterializeTemporaryExpr>(Arg->IgnoreParens());
  if (!Temporary || !Temporary->getType()->isScalarType() ||
      Temporary->getType()->isDependentType())
    return std::nullopt;
  const Expr *Value = Temporary->getSubExpr()->IgnoreParens();
  while (const auto *Cast = dyn_cast<ImplicitCastExpr>(Value)) {
    // (A load of an lvalue of T itself: the probe's parameter would bind the lvalue.)
    if (Cast->getCastKind() == CK_LValueToRValue)
      return std::nullopt;
    if (Cast->getCastKind() != CK_NoOp) {
      QualType Target = Temporary->getType().getUnqualifiedType();
      if (!Target->isBuiltinType() || !Target->isArithmeticType())
        return std::nullopt;
      return "<" + Target.getAsString(F.Ctx.Ast.getPrintingPolicy()) + ">";
    }
    Value = Cast->getSubExpr()->IgnoreParens();
  }
  if (!Value->isPRValue() ||
      !F.Ctx.Ast.hasSameUnqualifiedType(Value->getType(), Temporary->getType()))
    return std::nullopt;
  return "";
}

// Whether a copy of Arg's value, in a local of a statement expression, is the argument's value:
// an object type of fixed size, in C++ a scalar (a class's copy would be another object).
static bool keepsValue(const Expr *Arg, const FunctionInstrumenter &F) {
  QualType T = Arg->getType();
  if (T->isVoidType() || T->isArrayType() || T->isFunctionType() || T->isVariablyModifiedType() ||
      T->isAtomicType() || T->isIncompleteType())
    return false;
  return !F.isCxx() || (T->isScalarType() && !Arg->isGLValue());
}

bool CallProbe::instrument(const CallExpr *Call, FunctionInstrumenter &F) {
  // Literals have no call syntax to mark beside; their operands' reads simply flow into the
  // result. An overloaded operator the program wrote is a call (isRecordedOperator).
  const auto *Op = dyn_cast<CXXOperatorCallExpr>(Call);
  if ((Op && !isRecordedOperator(Op, F)) || isa<UserDefinedLiteral, CUDAKernelCallExpr>(Call))
    return false;
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (Callee && Callee->getBuiltinID() != 0)
    return false;
  // The C and C++ libraries are not instrumented: the result depends on the arguments, which is
  // what leaving their reads pending gives.
  if (Callee && F.Ctx.SM.isInSystemHeader(Callee->getCanonicalDecl()->getLocation()))
    return false;
  // Nor are constexpr functions, nor static ones in files outside the project: the same, and
  // no record waits for an entry that never comes.
  if (Callee && F.isLeftUninstrumented(Callee))
    return false;
  CharSourceRange R = F.Ctx.fileRange(Call);
  // A call written whole in a macro's argument (`TRY(parse(s))`, whose statement expression
  // calls it): the probe goes around the argument's text, so that the callee still gets its
  // control and its arguments' origins wherever the macro evaluates it.
  if (R.isInvalid() && F.Ctx.SM.isMacroArgExpansion(Call->getBeginLoc()))
    R = F.Ctx.expansionRange(Call);
  if (R.isInvalid())
    return false;
  unsigned Key = 0;
  if (Callee) {
    const auto *Method = dyn_cast<CXXMethodDecl>(Callee);
    if (!Method || !Method->isVirtual())
      Key = FunctionInstrumenter::calleeKey(Callee);
  }
  // A fence of the arguments (sleuth_arg_fenced) comes down at the callee's entry: only for
  // a callee sure to enter, defined where this unit instruments it and called directly. (An
  // extern function compiled elsewhere may not be instrumented: a fence left up would hide the
  // other arguments' reads from the call's value.)
  const FunctionDecl *Entered = nullptr;
  if (const FunctionDecl *Definition = Callee ? Callee->getDefinition() : nullptr;
      Definition && Key != 0 &&
      F.Ctx.instrumentable(F.Ctx.SM.getFileLoc(Definition->getLocation())))
    Entered = Callee;
  unsigned Site = F.addSite(SiteKind::Call, Call, Call->getBeginLoc(), "<call>");
  std::string Unit = F.Ctx.unitAndSite(Site) + ", " + F.callSiteControl(Site);
  // Arguments free of side effects that read only kept locals (f(L, n - 1)): their origins go
  // with the call probe, one call instead of one per argument.
  std::string Pairs;
  unsigned NumPairs = 0, Position = 0;
  bool Direct = !Op && Call->getNumArgs() > 0;
  for (const Expr *Arg : Call->arguments()) {
    ++Position;
    std::vector<const std::string *> Origins;
    if (!Direct || isa<CXXDefaultArgExpr, PackExpansionExpr>(Arg) ||
        bindsTemporary(Arg, parameterAt(Entered, Position), F) ||
        Arg->HasSideEffects(F.Ctx.Ast, /*IncludePossibleEffects=*/true) ||
        !readsOnlyCompanions(Arg, F, Origins)) {
      Direct = false;
      break;
    }
    for (const std::string *Origin : Origins)
      Pairs += ", " + std::to_string(Position) + "u, " + *Origin;
    NumPairs += static_cast<unsigned>(Origins.size());
  }
  if (Direct && NumPairs > 0 && NumPairs <= MaxInlinePairs) {
    // The arguments' reads go with the call, before it: the reads themselves need no probe.
    for (const Expr *Arg : Call->arguments())
      F.omitReads(Arg);
    F.pushReads(Call);
    std::string Key_ = std::to_string(Key) + "u, ";
    // The record goes onto the thread's stack inline (sleuth_call_pairs, sleuth_call_pairs8).
    unsigned Slots = NumPairs <= FewPairs ? FewPairs : MaxInlinePairs;
    std::string Probe = NumPairs <= FewPairs ? "sleuth_call_pairs(" : "sleuth_call_pairs8(";
    for (unsigned I = NumPairs; I < Slots; ++I)
      Pairs += ", 0u, 0u";
    std::string Rest = std::to_string(NumPairs) + "u" + Pairs + "), ";
    F.addRead(R, {"(" + Probe + Unit + ", " + Key_ + "0u, SLEUTH_NULL, " + Rest, ")",
                  "(" + Probe + Unit + ", " + Key_ + "@SITE@, @CACHE@, " + Rest, ")"});
    keepCommaOperandACall(Call, R, F);
    F.countProbe();
    return true;
  }
  Position = 0;
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I);
    if (!bindsParameter(Call, I))
      continue; // the object itself, not a parameter
    ++Position;
    // `args...` expands to several arguments: `(probe, args)...` would be no pack expansion.
    if (isa<CXXDefaultArgExpr, PackExpansionExpr>(Arg) ||
        isa<InitListExpr>(Arg->IgnoreImplicit()) || !F.hasProbesInside(Arg))
      continue;
    CharSourceRange AR = F.Ctx.fileRange(Arg);
    // A braced list (`f({p, n})`: an InitListExpr, or a constructor call with list
    // initialization) is no expression: it cannot stand after a comma.
    if (AR.isInvalid() || F.Ctx.text(AR).rfind('{', 0) == 0)
      continue;
    std::string Mark = F.Ctx.unitAndSite(Site) + ", " + std::to_string(Position) + "), ";
    // A temporary the argument materializes for a const reference parameter is written from
    // the argument's reads (sleuth::materialized), where the callee's reads through the
    // reference find it.
    const ParmVarDecl *Param = parameterAt(Entered, Position);
    if (std::optional<std::string> Type = bindsTemporary(Arg, Param, F)) {
      std::string Name = Param->getName().empty() ? "<temporary>" : Param->getName().str();
      unsigned Temporary = F.addSite(SiteKind::Var, Arg, Arg->getBeginLoc(), Name);
      F.claimReads(Arg, Temporary);
      // An argument that only computes has its reads checked against the node, which then
      // takes no pending read (materialized_nopending) and needs no fence: the common case,
      // inline. Otherwise (a call inside) it takes the argument's pending reads, and only them.
      bool Computes = onlyComputes(Arg);
      std::string Probe =
          Computes ? F.nodeProbe("sleuth::materialized", Arg) : std::string("sleuth::materialized");
      F.Ctx.wrap(AR,
                 (Computes ? "(sleuth_arg(" : "(sleuth_arg_fenced(") + Mark + Probe + *Type + "(" +
                     F.Ctx.unitAndSite(Temporary) + ", " + F.control(Temporary) + ", ",
                 "))");
      continue;
    }
    // An argument that writes keeps the reads of those evaluated before it (in the order the
    // compiler chose) out of its write's node (sleuth_arg_fenced). The callee's entry lowers the
    // fence; where it may not enter, the argument lowers it once evaluated, keeping its value in
    // a statement expression (a scalar in C++, where the copy is no other object's).
    bool Writes = writesInside(Arg);
    if (Writes && !Entered && keepsValue(Arg, F)) {
      std::string Name = "__sleuth_av" + std::to_string(Site) + "_" + std::to_string(Position);
      F.Ctx.wrap(AR,
                 "__extension__ ({ " + std::string(F.isCxx() ? "auto " : "__auto_type ") + Name +
                     " = (sleuth_arg_fenced(" + Mark,
                 "); sleuth_arg_unfenced(" + F.Ctx.unitAndSite(Site) + "); " + Name + "; })");
      continue;
    }
    const char *Probe = Entered && Writes ? "(sleuth_arg_fenced(" : "(sleuth_arg(";
    F.Ctx.wrap(AR, Probe + Mark, ")");
  }
  // Where an argument's reads go the run decides: into the parameters of an instrumented
  // callee, else into whatever consumes the call's value (an uninstrumented callee's result
  // depends on its arguments). The callee expression's reads go with them.
  F.pushReads(Call);
  // The call's value is one of the reads of the expression around it: where a node consumes
  // it, the callee's return checks its node against that one (sleuth_callv).
  F.addRead(R,
            {"(sleuth_call(" + Unit + ", " + std::to_string(Key) + "u), ", ")",
             "(sleuth_callv(" + Unit + ", " + std::to_string(Key) + "u, @SITE@, @CACHE@), ", ")"});
  keepCommaOperandACall(Call, R, F);
  F.countProbe();
  return true;
}

// An initializer list runs before the body, outside any frame of the constructor's: a call
// there entered with no record, its parameters had no origins, and its value went nowhere (a
// member's write at the body's start read the call's arguments instead). The record pushed
// before it names the member's write as its value's consumer (or, in a constructor's argument,
// leaves the value to be pushed there), and each argument that reads the constructor's
// parameters pushes their nodes (initializerArgumentOrigins). As for a constructor there, only
// a callee whose entry takes the record: the program's, not constexpr, defined, where this unit
// sees it, in an instrumented file; not through a pointer, not a virtual member (whose key is
// the override's), not an operator, not variadic.
static bool
instrumentInitializerCall(const CallExpr *Call, std::optional<unsigned> ConsumerSite,
                          const std::vector<std::pair<const ParmVarDecl *, unsigned>> &ParamSites,
                          FunctionInstrumenter &F) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || isa<CXXOperatorCallExpr, UserDefinedLiteral, CUDAKernelCallExpr>(Call) ||
      Callee->getBuiltinID() != 0 ||
      F.Ctx.SM.isInSystemHeader(Callee->getCanonicalDecl()->getLocation()) ||
      F.isLeftUninstrumented(Callee) || Callee->isVariadic())
    return false;
  if (const auto *Method = dyn_cast<CXXMethodDecl>(Callee); Method && Method->isVirtual())
    return false;
  if (const FunctionDecl *Definition = Callee->getDefinition();
      Definition && !F.Ctx.instrumentable(F.Ctx.SM.getFileLoc(Definition->getLocation())))
    return false;
  CharSourceRange R = F.Ctx.fileRange(Call);
  if (R.isInvalid())
    return false;
  std::vector<std::pair<CharSourceRange, std::string>> Arguments;
  for (unsigned I = 0; I < Call->getNumArgs(); ++I) {
    const Expr *Arg = Call->getArg(I);
    std::string Origins = initializerArgumentOrigins(Arg, F.Function, ParamSites, {}, F);
    if (Origins.empty())
      continue;
    CharSourceRange AR = F.Ctx.fileRange(Arg);
    // (`(probe, args)...` would be no pack expansion; a braced list cannot follow a comma.)
    if (isa<CXXDefaultArgExpr, PackExpansionExpr>(Arg) ||
        isa<InitListExpr>(Arg->IgnoreImplicit()) || AR.isInvalid() ||
        F.Ctx.text(AR).rfind('{', 0) == 0)
      return false;
    Arguments.emplace_back(AR, std::to_string(I + 1) + "), " + Origins);
  }
  unsigned Site = F.addSite(SiteKind::Call, Call, Call->getBeginLoc(), "<call>");
  for (const auto &[AR, Text] : Arguments)
    F.Ctx.wrap(AR, "(sleuth_arg(" + F.Ctx.unitAndSite(Site) + ", " + Text, ")");
  std::string Record = F.Ctx.unitAndSite(Site) + ", 0u, " +
                       std::to_string(FunctionInstrumenter::calleeKey(Callee)) + "u";
  // A member's call closes the constructor's own record first (sleuth_initializer_call). In a
  // constructor's argument, the record on top is that constructor's, whose argument takes what
  // the call pushes: its value, or, if nothing takes its record, its arguments' reads.
  if (ConsumerSite)
    Record = "sleuth_initializer_call(), sleuth_callv(" + Record + ", " +
             std::to_string(*ConsumerSite) + "u, " + F.readCache() + ")";
  else
    Record = "sleuth_call(" + Record + ")";
  F.Ctx.wrap(R, "(" + Record + ", ", ")");
  keepCommaOperandACall(Call, R, F);
  F.countProbe();
  return true;
}

std::vector<const CallExpr *> CallProbe::instrumentInitializerCalls(
    const Expr *E, std::optional<unsigned> ConsumerSite,
    const std::vector<std::pair<const ParmVarDecl *, unsigned>> &ParamSites,
    FunctionInstrumenter &F) {
  std::vector<const CallExpr *> Routed;
  std::vector<const Stmt *> Work{E};
  while (!Work.empty()) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S || isa<LambdaExpr, UnaryExprOrTypeTraitExpr, CXXNoexceptExpr, CXXTypeidExpr>(S))
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(S);
        Call && instrumentInitializerCall(Call, ConsumerSite, ParamSites, F)) {
      Routed.push_back(Call);
      continue;
    }
    for (const Stmt *Child : S->children())
      Work.push_back(Child);
  }
  return Routed;
}

} // namespace sleuth::instrumenter
