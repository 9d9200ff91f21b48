#include "LocalOrigins.h"

#include "Context.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseSet.h"

using namespace clang;

namespace sleuth::instrumenter {

namespace {

bool isCandidateType(QualType T) {
  if (T.isVolatileQualified() || T->isAtomicType() || T->isVariablyModifiedType() ||
      T->isDependentType())
    return false;
  return T->isIntegralOrEnumerationType() || T->isRealFloatingType() || T->isPointerType();
}

bool isCandidate(const VarDecl *V, const FunctionDecl *Function) {
  // Attributes may take the address (cleanup) or change the storage (aligned, section):
  // leave such variables to the shadow memory.
  if (!V->hasLocalStorage() || V->isExceptionVariable() || V->hasAttrs() || V->isImplicit() ||
      V->getDeclName().isEmpty() || isa<DecompositionDecl>(V) || V->isNRVOVariable() ||
      V->isConstexpr())
    return false;
  if (V->getDeclContext() != static_cast<const DeclContext *>(Function))
    return false; // a lambda's or a block's own locals belong to its own body
  return isCandidateType(V->getType());
}

/// An operand's type that can select no overloaded operator nor bind a reference, whatever the
/// instantiation: a pointer (`T *` too) or array, or a builtin arithmetic type.
bool isBuiltinOperandType(QualType T) {
  if (T->isPointerType() || T->isArrayType())
    return true;
  return !T->isDependentType() && T->isArithmeticType() && !T->isEnumeralType();
}

/// In a template pattern, an expression whose operand waits for the instantiation has no
/// conversions yet: whether it reads Child's value depends on its meaning. It does, binding no
/// reference, in a builtin subscript or arithmetic where no operand can be of class or
/// enumeration type (`_mem[i]` with `_mem` a `T *`), and in a cast to a pointer type
/// (`static_cast<Item *>(mem)`). ReadProbe::instrumentDependent reads it there.
bool readsValueInEveryInstantiation(const Expr *Parent, const Stmt *Child) {
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(Parent))
    return isBuiltinOperandType(A->getBase()->getType()) &&
           isBuiltinOperandType(A->getIdx()->getType());
  if (const auto *B = dyn_cast<BinaryOperator>(Parent))
    return (B->isAdditiveOp() || B->isMultiplicativeOp() || B->isComparisonOp() ||
            B->isBitwiseOp() || B->isShiftOp() || B->isLogicalOp()) &&
           isBuiltinOperandType(B->getLHS()->getType()) &&
           isBuiltinOperandType(B->getRHS()->getType());
  if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Parent))
    return Cast->getSubExpr() == Child && Cast->getTypeAsWritten()->isPointerType();
  return false;
}

/// Collects the candidates and strikes out those with a use that is not a read, an
/// assignment's target, an operand of ++/-- or unevaluated.
class UseChecker : public RecursiveASTVisitor<UseChecker> {
public:
  UseChecker(const FunctionDecl *Function, Context &Ctx) : Function(Function), Ctx(Ctx) {}

  bool shouldVisitImplicitCode() const { return false; }

  bool VisitVarDecl(VarDecl *V) {
    if (isCandidate(V, Function) && !isa<ParmVarDecl>(V))
      Locals.push_back(V);
    return true;
  }

  // `auto [on, level] = f;` declared alone in a block, by copy (DeclarationProbe writes its
  // bindings): its bindings of bit-fields, whose hidden object nothing else can name.
  bool VisitDecompositionDecl(DecompositionDecl *D) {
    if (D->getType()->isReferenceType() || D->getType()->isDependentType() || D->hasAttrs() ||
        D->getDeclContext() != static_cast<const DeclContext *>(Function) ||
        !isBlockDecomposition(D, Ctx))
      return true;
    for (const BindingDecl *B : D->bindings())
      if (const Expr *Bound = B->getBinding(); Bound && Bound->refersToBitField() &&
                                               !B->getDeclName().isEmpty() &&
                                               isCandidateType(B->getType()))
        Locals.push_back(B);
    return true;
  }

  bool VisitCXXForRangeStmt(CXXForRangeStmt *For) {
    // The loop variable is written by the range-for probe through its address.
    if (const VarDecl *V = For->getLoopVariable())
      Excluded.insert(V);
    return true;
  }

  bool VisitDeclRefExpr(DeclRefExpr *Ref) {
    const ValueDecl *V = dyn_cast<BindingDecl>(Ref->getDecl());
    if (!V) {
      const auto *Var = dyn_cast<VarDecl>(Ref->getDecl());
      if (!Var || !Var->hasLocalStorage())
        return true;
      V = Var;
    }
    if (Ref->refersToEnclosingVariableOrCapture() || !isPlainUse(Ref))
      Excluded.insert(V);
    return true;
  }

  std::vector<const ValueDecl *> Locals;
  llvm::DenseSet<const ValueDecl *> Excluded;

private:
  bool isPlainUse(const DeclRefExpr *Ref) const {
    if (Ref->isNonOdrUse() == NOUR_Unevaluated || Ref->isNonOdrUse() == NOUR_Constant)
      return true;
    const Stmt *Child = Ref;
    const Stmt *Parent = Ctx.parent(Ref);
    while (Parent && isa<ParenExpr>(Parent)) {
      Child = Parent;
      Parent = Ctx.parent(Parent);
    }
    if (!Parent)
      return false; // a reference's initializer, a default argument...
    if (const auto *E = dyn_cast<Expr>(Parent); E && E->isTypeDependent())
      return readsValueInEveryInstantiation(E, Child);
    if (const auto *Cast = dyn_cast<ImplicitCastExpr>(Parent))
      return Cast->getCastKind() == CK_LValueToRValue;
    if (const auto *Cast = dyn_cast<ExplicitCastExpr>(Parent))
      return Cast->getCastKind() == CK_ToVoid; // `(void)unused_parameter;`
    if (const auto *B = dyn_cast<BinaryOperator>(Parent))
      return B->isAssignmentOp() && B->getLHS() == Child && onlyReadAfter(B);
    if (const auto *U = dyn_cast<UnaryOperator>(Parent))
      return U->isIncrementDecrementOp() && onlyReadAfter(U);
    if (const auto *U = dyn_cast<UnaryExprOrTypeTraitExpr>(Parent))
      return U->getKind() == UETT_SizeOf || U->getKind() == UETT_AlignOf;
    return false;
  }

  // A C++ assignment or prefix ++/-- yields the variable itself, an lvalue: `(++i) += 2`,
  // `int &r = (i = 1)` write or alias it past the companion. Only its value may be used.
  bool onlyReadAfter(const Expr *Write) const {
    if (Ctx.isC() || !Write->isGLValue() || Ctx.isDiscarded(Write))
      return true;
    const Stmt *Parent = Ctx.parent(Write);
    while (Parent && isa<ParenExpr>(Parent))
      Parent = Ctx.parent(Parent);
    if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Parent))
      return Cast->getCastKind() == CK_LValueToRValue;
    if (const auto *Cast = dyn_cast_or_null<ExplicitCastExpr>(Parent))
      return Cast->getCastKind() == CK_ToVoid;
    return false;
  }

  const FunctionDecl *Function;
  Context &Ctx;
};

} // namespace

void LocalOrigins::compute(const FunctionDecl *Function, unsigned FunctionId, Context &Ctx) {
  Index.clear();
  Order.clear();
  if (!Function->getBody())
    return;
  UseChecker Checker(Function, Ctx);
  Checker.TraverseStmt(const_cast<Stmt *>(Function->getBody()));
  auto Add = [&](const ValueDecl *V) {
    if (Checker.Excluded.contains(V) || Index.contains(V))
      return;
    Index[V] = static_cast<unsigned>(Order.size());
    Order.push_back("__sleuth_o" + std::to_string(FunctionId) + "_" + std::to_string(Order.size()));
  };
  for (const ParmVarDecl *P : Function->parameters())
    if (isCandidate(P, Function) && !P->isParameterPack())
      Add(P);
  for (const ValueDecl *V : Checker.Locals)
    Add(V);
}

const std::string *LocalOrigins::companion(const ValueDecl *V) const {
  auto I = Index.find(V);
  return I == Index.end() ? nullptr : &Order[I->second];
}

const std::string *LocalOrigins::companion(const Expr *E) const {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParens());
  return Ref ? companion(Ref->getDecl()) : nullptr;
}

std::string LocalOrigins::declarations(const std::string &Type) const {
  std::string Text;
  for (const std::string &Name : Order)
    Text += " " + Type + Name + " = 0u;";
  return Text;
}

std::string LocalOrigins::uses(const std::string &Separator) const {
  std::string Text;
  for (const std::string &Name : Order)
    Text += "(void)" + Name + Separator;
  return Text;
}

} // namespace sleuth::instrumenter
