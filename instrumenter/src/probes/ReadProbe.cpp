#include "Probes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace sleuth::instrumenter {

// Constants that C++ treats as values rather than objects: taking their address would odr-use
// them (a link error for a static constexpr member without definition) and buys nothing.
static bool isConstantUse(const Expr *L) {
  L = L->IgnoreParens();
  if (const auto *D = dyn_cast<DeclRefExpr>(L)) {
    if (D->isNonOdrUse() != NOUR_None)
      return true;
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
      return V->isConstexpr();
  }
  if (const auto *M = dyn_cast<MemberExpr>(L))
    return M->isNonOdrUse() != NOUR_None;
  return false;
}

FunctionInstrumenter::ReadForms ReadProbe::keptRead(const std::string &Origin,
                                                    FunctionInstrumenter &F) {
  return {"(sleuth_use(" + Origin + "), ", ")",
          "(" + F.Ctx.checkedRead("@CACHE@", "@SITE@", Origin) + ", ", ")"};
}

FunctionInstrumenter::ReadForms
ReadProbe::bytesRead(const std::string &Address, const std::string &Size, FunctionInstrumenter &F) {
  std::string Object = Address + ", " + Size + ")";
  return {"(sleuth_get(" + Object + ", ", ")",
          "(sleuth_getc(&" + F.Ctx.UnitName + ", @CACHE@, @SITE@, " + Object + ", ", ")"};
}

FunctionInstrumenter::ReadForms ReadProbe::memoryRead(const Expr *L, const std::string &Text,
                                                      FunctionInstrumenter &F) {
  return bytesRead(addressOfC(L->getType()) + Text + ")", sizeofLvalue(L, Text), F);
}

FunctionInstrumenter::ReadForms ReadProbe::cxxRead(FunctionInstrumenter &F) {
  return {"sleuth::rd(", ")", "sleuth::rdc(&" + F.Ctx.UnitName + ", @CACHE@, @SITE@, ", ")"};
}

// A conditional lvalue whose operands differ in type (`c ? a : b` of a `char *const` and a
// `const char *const`) is one for Clang, which converts the first operand's qualifiers, and a
// value for GCC, which sleuth::rdc(T &) cannot take: each operand is read instead.
static bool isMixedConditional(const Expr *L) {
  const auto *C = dyn_cast<ConditionalOperator>(L->IgnoreParens());
  if (!C || C->isInstantiationDependent())
    return false;
  QualType True = C->getTrueExpr()->IgnoreImpCasts()->getType().getCanonicalType();
  QualType False = C->getFalseExpr()->IgnoreImpCasts()->getType().getCanonicalType();
  return True != False;
}

// The reads of operand E of such a conditional.
static void readOperands(const Expr *E, FunctionInstrumenter &F) {
  if (isMixedConditional(E)) {
    const auto *C = cast<ConditionalOperator>(E->IgnoreParens());
    readOperands(C->getTrueExpr()->IgnoreImpCasts(), F);
    readOperands(C->getFalseExpr()->IgnoreImpCasts(), F);
    return;
  }
  if (!E->isLValue() || !hasAddress(E) || isFreshObject(E) || isConstantUse(E) ||
      E->getType()->isAtomicType() || E->containsUnexpandedParameterPack())
    return;
  CharSourceRange R = F.Ctx.fileRange(E);
  if (R.isInvalid())
    return;
  F.addRead(R, ReadProbe::cxxRead(F));
  F.countProbe();
}

bool ReadProbe::instrument(const ImplicitCastExpr *Cast, FunctionInstrumenter &F) {
  const Expr *L = Cast->getSubExpr();
  QualType T = L->getType();
  if (WriteProbe::readsKeptValue(L, F))
    return false; // read by the assignment's rewrite
  const std::string *Origin = F.Locals.companion(L);
  bool Kept = Origin != nullptr;
  if (!Origin)
    Origin = F.captureOrigin(L); // a lambda's copy, which it cannot change
  if (Origin && !isConstantUse(L)) {
    CharSourceRange R = F.Ctx.fileRange(L);
    if (R.isInvalid()) {
      MacroReadProbe::record(Cast, F);
      return false;
    }
    F.addRead(R, keptRead(*Origin, F));
    if (Kept)
      if (const auto *Var = dyn_cast<VarDecl>(cast<DeclRefExpr>(L->IgnoreParens())->getDecl()))
        F.noteKeptRead(Var, Cast);
    F.countProbe();
    return true;
  }
  if (L->refersToBitField())
    return BitFieldProbe::instrumentRead(Cast, F);
  // In a template pattern, C++'s probes are templates themselves: an lvalue converted to a value
  // there is one in every instantiation, whatever its type.
  // A member of a temporary (`make().field`) is an xvalue, which sleuth::rd(T&) cannot take; it
  // has no earlier writes to read anyway.
  if (!hasAddress(L) || isFreshObject(L) || T->isAtomicType() || T->isVariablyModifiedType() ||
      isConstantUse(L) || (F.isCxx() && !L->isLValue()) ||
      (L->isInstantiationDependent() && !F.isCxx()) || L->containsUnexpandedParameterPack())
    return false;
  CharSourceRange R = F.Ctx.fileRange(L);
  if (R.isInvalid()) {
    MacroReadProbe::record(Cast, F);
    return false;
  }
  std::string Text = F.Ctx.text(R);
  if (F.isCxx() && isMixedConditional(L)) {
    readOperands(L, F);
    return true;
  }
  if (F.isCxx()) {
    F.addRead(R, cxxRead(F));
  } else if (isRepeatable(L, F.Ctx.Ast)) {
    F.addRead(R, memoryRead(L, Text, F));
  } else {
    // a[i++], *p++: evaluate the lvalue once and read through the pointer the probe returns.
    std::string Type = typeOfC(T, F.Ctx.Ast);
    if (Type.empty())
      return false;
    std::string Unit = "&" + F.Ctx.UnitName;
    F.addRead(R, {"(*(" + Type + " *)sleuth_getp(" + addressOfC(T), "), sizeof(" + Type + ")))",
                  "(*(" + Type + " *)sleuth_getcp(" + Unit + ", @CACHE@, @SITE@, " + addressOfC(T),
                  "), sizeof(" + Type + ")))"});
  }
  F.countProbe();
  return true;
}

// Whether the use of L (whose parent, parentheses aside, is Parent) in a template pattern reads
// its value, by syntax: the pattern has no lvalue-to-rvalue conversions where the operand or the
// operator waits for the instantiation.
static bool isValueUse(const Expr *L, const Stmt *Parent, FunctionInstrumenter &F) {
  if (!Parent)
    return false;
  // An implicit conversion is there: a read by conversion (ReadProbe::instrument), or none.
  if (isa<ImplicitCastExpr>(Parent))
    return false;
  // Written by the library in every instantiation (`in >> t`, `std::swap(a, b)`).
  if (const auto *E = dyn_cast<Expr>(Parent);
      E && LibraryCallProbe::writesDependentOperand(E, L, F))
    return false;
  // Written, address taken, incremented.
  if (const auto *U = dyn_cast<UnaryOperator>(Parent))
    if (U->getOpcode() == UO_AddrOf || U->isIncrementDecrementOp())
      return false;
  if (const auto *B = dyn_cast<BinaryOperator>(Parent))
    if ((B->isAssignmentOp() && B->getLHS()->IgnoreParens() == L) ||
        (B->getOpcode() == BO_Comma && B->getLHS()->IgnoreParens() == L))
      return false;
  // The object of an operator that may be a member's (`v[i]`, `*it`, `f()`) is not read by
  // it, unless it is a pointer.
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Parent))
    if (Op->getNumArgs() > 0 && Op->getArg(0)->IgnoreParens() == L &&
        (Op->isAssignmentOp() || Op->getOperator() == OO_PlusPlus ||
         Op->getOperator() == OO_MinusMinus || Op->getOperator() == OO_Amp ||
         (!L->getType()->isPointerType() &&
          (Op->getOperator() == OO_Subscript || Op->getOperator() == OO_Star ||
           Op->getOperator() == OO_Arrow || Op->getOperator() == OO_Call))))
      return false;
  if (const auto *C = dyn_cast<CallExpr>(Parent))
    if (C->getCallee()->IgnoreParens() == L)
      return false;
  // A member's base is read where it is a pointer (`p->next`), not an object (`s.size`).
  if (const auto *M = dyn_cast<MemberExpr>(Parent))
    return M->isArrow() && L->getType()->isPointerType();
  if (const auto *M = dyn_cast<CXXDependentScopeMemberExpr>(Parent))
    return M->isArrow() && L->getType()->isPointerType();
  // Bound to a reference, not read.
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Parent))
    return !Cast->getTypeAsWritten()->isReferenceType();
  // A returned local keeps its implicit move (FrameProbe records that read without wrapping);
  // a function returning a reference reads nothing.
  if (isa<ReturnStmt>(Parent)) {
    QualType Returned = F.Function->getReturnType();
    return !isa<DeclRefExpr>(L) && !Returned->isReferenceType() &&
           !Returned->getContainedAutoType();
  }
  // The object of a subscript, `*` or `->` that may be an operator of its class (`c[i]`, `*it`)
  // is not read by it, unless it is a pointer.
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(Parent))
    if (A->getBase()->IgnoreParens() == L && !L->getType()->isPointerType())
      return false;
  if (const auto *U = dyn_cast<UnaryOperator>(Parent))
    if (U->getOpcode() == UO_Deref && !L->getType()->isPointerType())
      return false;
  if (isa<PackExpansionExpr, CXXForRangeStmt, UnaryExprOrTypeTraitExpr, DeclStmt>(Parent))
    return false;
  return true;
}

// A variable initialized by copy (`T x = items[i];`) reads its initializer; a reference binds it.
static bool readsInitializer(const VarDecl *V) {
  QualType T = V->getType();
  const AutoType *Auto = T->getContainedAutoType();
  return !T->isReferenceType() && !(Auto && Auto->isDecltypeAuto());
}

bool ReadProbe::isAddressableBinding(const BindingDecl *B, FunctionInstrumenter &F) {
  const auto *Decomposition = dyn_cast_or_null<DecompositionDecl>(B->getDecomposedDecl());
  if (!Decomposition)
    return false;
  auto Parents = F.Ctx.Ast.getParents(*Decomposition);
  const auto *Declaration = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
  auto Position = llvm::find(Decomposition->bindings(), B);
  if (!Declaration || Position == Decomposition->bindings().end())
    return false;
  size_t Index = Position - Decomposition->bindings().begin();
  llvm::ArrayRef<StmtCorrespondence> Instances = F.instances();
  if (Instances.empty())
    return false;
  for (const StmtCorrespondence &Instance : Instances) {
    const auto *Same = dyn_cast_or_null<DeclStmt>(Instance.inInstance(Declaration));
    const auto *Decomposed =
        Same && Same->isSingleDecl() ? dyn_cast<DecompositionDecl>(Same->getSingleDecl()) : nullptr;
    if (!Decomposed || Decomposed->bindings().size() != Decomposition->bindings().size())
      return false;
    const Expr *Bound = Decomposed->bindings()[Index]->getBinding();
    if (!Bound || Bound->refersToBitField() || Bound->getType()->isArrayType() ||
        !Bound->isLValue())
      return false;
  }
  return true;
}

// True if Ref, a name of a structured binding of dependent type in a template pattern, may be
// read by syntax: addressable in every instantiation, and written where it is declared, as a
// reference to an object the program wrote (`const auto &[a, b] = p;`), as a copy in a block
// (DeclarationProbe writes its bindings) or as a range-for's variable (RangeForProbe does).
static bool isReadableBinding(const DeclRefExpr *Ref, FunctionInstrumenter &F) {
  const auto *B = cast<BindingDecl>(Ref->getDecl());
  const auto *Decomposition = dyn_cast_or_null<DecompositionDecl>(B->getDecomposedDecl());
  if (!Decomposition || !ReadProbe::isAddressableBinding(B, F))
    return false;
  if (Decomposition->getType()->isReferenceType())
    return true;
  auto Parents = F.Ctx.Ast.getParents(*Decomposition);
  const auto *Declaration = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
  if (DeclarationProbe::writesBindings(Decomposition, F))
    return true;
  const Stmt *Parent = Declaration ? F.Ctx.parent(Declaration) : nullptr;
  const auto *For = dyn_cast_or_null<CXXForRangeStmt>(Parent);
  return For && For->getLoopVarStmt() == Declaration;
}

bool ReadProbe::instrumentDependent(const Expr *L, FunctionInstrumenter &F) {
  if (!F.isCxx() || L->getType()->isArrayType() || isConstantUse(L))
    return false;
  const auto *Ref = dyn_cast<DeclRefExpr>(L);
  if (Ref && isa<BindingDecl>(Ref->getDecl())) {
    if (!isReadableBinding(Ref, F))
      return false;
  } else if (!isLvalueInEveryInstantiation(L)) {
    return false;
  } else if (Ref) {
    const auto *Var = cast<VarDecl>(Ref->getDecl());
    if (!Var->hasLocalStorage() || isa<DecompositionDecl>(Var))
      return false;
  }
  const Stmt *Outer = L;
  const Stmt *Parent = F.Ctx.parent(L);
  while (Parent && isa<ParenExpr>(Parent)) {
    Outer = Parent;
    Parent = F.Ctx.parent(Parent);
  }
  // A read by syntax only where no conversion can be: the operand's type, or its parent's
  // meaning, waits for the instantiation.
  const auto *ParentExpr = dyn_cast_or_null<Expr>(Parent);
  if (!L->isTypeDependent() && !(ParentExpr && ParentExpr->isTypeDependent()))
    return false;
  // An initializer's parent is its variable, which Parent (a statement) does not hold.
  const VarDecl *Initialized = nullptr;
  if (!Parent)
    if (auto Parents = F.Ctx.Ast.getParents(*Outer); !Parents.empty())
      if (const auto *V = Parents[0].get<VarDecl>(); V && V->getInit() == Outer)
        Initialized = V;
  if (Initialized ? !readsInitializer(Initialized) : !isValueUse(L, Parent, F))
    return false;
  CharSourceRange R = F.Ctx.fileRange(L);
  if (R.isInvalid())
    return false;
  // A local whose every such use reads its value keeps its origin in a companion (LocalOrigins).
  if (const std::string *Origin = F.Locals.companion(L))
    F.addRead(R, keptRead(*Origin, F));
  else
    F.addRead(R, cxxRead(F));
  F.countProbe();
  return true;
}

} // namespace sleuth::instrumenter
