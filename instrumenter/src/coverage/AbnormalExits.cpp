#include "AbnormalExits.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Basic/Builtins.h"

using namespace clang;

namespace sleuth::instrumenter {
namespace {

/// Functions that return more than once (setjmp: a longjmp comes back into the block that
/// called it) or never return to their caller's block by the usual way.
bool isNonLocalJump(const FunctionDecl *F) {
  if (F->hasAttr<ReturnsTwiceAttr>())
    return true;
  const IdentifierInfo *Id = F->getIdentifier();
  if (!Id)
    return false;
  StringRef N = Id->getName();
  return N == "setjmp" || N == "_setjmp" || N == "sigsetjmp" || N == "__sigsetjmp" ||
         N == "savectx" || N == "vfork" || N == "getcontext" || N == "setcontext" ||
         N == "swapcontext" || N == "longjmp" || N == "_longjmp" || N == "siglongjmp" ||
         N == "__longjmp_chk" || N == "__builtin_setjmp" || N == "__builtin_longjmp";
}

/// True if a call of F dispatches through a virtual table.
bool isVirtualCall(const CallExpr *Call) {
  const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
  if (!Member)
    return false;
  const CXXMethodDecl *M = Member->getMethodDecl();
  if (!M || !M->isVirtual() || M->hasAttr<FinalAttr>())
    return false;
  if (const auto *ME = dyn_cast<MemberExpr>(Member->getCallee()->IgnoreParens()))
    if (ME->hasQualifier()) // `Base::f()` calls that very function
      return false;
  return true;
}

} // namespace

bool AbnormalExits::returnsNormally(const FunctionDecl *F, unsigned Depth) {
  if (!F)
    return false;
  F = F->getMostRecentDecl(); // attributes of every redeclaration
  if (isNonLocalJump(F))
    return false;
  if (F->isNoReturn())
    return false; // exit, abort, a function that throws or jumps away
  if (F->getBuiltinID())
    return true;
  bool Cxx = Ast.getLangOpts().CPlusPlus;
  if (const auto *P = F->getType()->getAs<FunctionProtoType>(); Cxx && P && P->isNothrow())
    return true; // no exception; longjmp across C++ frames is left out, as gcov leaves it
  // glibc's __THROW in C: `nothrow` and `leaf` (the function never calls back into this
  // program, so no longjmp of the program's can pass through it).
  if (F->hasAttr<LeafAttr>() && (!Cxx || F->hasAttr<NoThrowAttr>()))
    return true;
  const FunctionDecl *Definition = nullptr;
  if (!F->hasBody(Definition) || !Definition || Depth >= 4)
    return false;
  auto [It, Inserted] = Normal.try_emplace(Definition->getCanonicalDecl(), -1);
  if (!Inserted)
    return It->second == 1; // known, or recursion (-1: assume it may not return)
  bool Result = bodyReturnsNormally(Definition->getBody(), Depth + 1);
  if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(Definition))
    for (const CXXCtorInitializer *Init : Ctor->inits())
      Result = Result && (!Init->getInit() || bodyReturnsNormally(Init->getInit(), Depth + 1));
  Normal[Definition->getCanonicalDecl()] = Result ? 1 : 0;
  return Result;
}

bool AbnormalExits::bodyReturnsNormally(const Stmt *S, unsigned Depth) {
  if (!S)
    return true;
  if (mayThrowOrJump(S, Depth))
    return false;
  if (const auto *DS = dyn_cast<DeclStmt>(S))
    for (const Decl *D : DS->decls())
      if (const auto *V = dyn_cast<VarDecl>(D))
        if (const CXXRecordDecl *R = V->getType()->getAsCXXRecordDecl(); R && R->hasDefinition())
          if (const CXXDestructorDecl *Dtor = R->getDestructor();
              Dtor && !Dtor->isTrivial() && !returnsNormally(Dtor, Depth))
            return false;
  if (isa<LambdaExpr>(S))
    return true; // its body runs when it is called, which is a call of its own
  for (const Stmt *Child : S->children())
    if (!bodyReturnsNormally(Child, Depth))
      return false;
  return true;
}

bool AbnormalExits::mayThrowOrJump(const Stmt *S, unsigned Depth) {
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    if (isa<CXXPseudoDestructorExpr>(Call->getCallee()->IgnoreParens()))
      return false;
    if (isVirtualCall(Call)) {
      const auto *P = Call->getCallee()->getType()->getAs<FunctionProtoType>();
      const FunctionDecl *Callee = Call->getDirectCallee();
      if (!P && Callee)
        P = Callee->getType()->getAs<FunctionProtoType>();
      return !(Ast.getLangOpts().CPlusPlus && P && P->isNothrow());
    }
    return !returnsNormally(Call->getDirectCallee(), Depth); // through a pointer: unknown
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S))
    return !Construct->getConstructor()->isTrivial() &&
           !returnsNormally(Construct->getConstructor(), Depth);
  if (const auto *New = dyn_cast<CXXNewExpr>(S)) {
    if (const FunctionDecl *Allocator = New->getOperatorNew();
        Allocator && !returnsNormally(Allocator, Depth))
      return true; // std::bad_alloc
    if (const CXXConstructExpr *Construct = New->getConstructExpr())
      return mayThrowOrJump(Construct, Depth);
    return false;
  }
  if (const auto *Delete = dyn_cast<CXXDeleteExpr>(S)) {
    if (const CXXRecordDecl *R = Delete->getDestroyedType()->getAsCXXRecordDecl();
        R && R->hasDefinition())
      if (const CXXDestructorDecl *Dtor = R->getDestructor(); Dtor && !Dtor->isTrivial())
        return !returnsNormally(Dtor, Depth);
    return false;
  }
  if (const auto *Cast = dyn_cast<CXXDynamicCastExpr>(S))
    return Cast->getTypeAsWritten()->isReferenceType(); // std::bad_cast
  if (const auto *Typeid = dyn_cast<CXXTypeidExpr>(S))
    return Typeid->isPotentiallyEvaluated(); // std::bad_typeid
  if (const auto *Default = dyn_cast<CXXDefaultArgExpr>(S))
    return !bodyReturnsNormally(Default->getExpr(), Depth);
  if (const auto *Default = dyn_cast<CXXDefaultInitExpr>(S))
    return !bodyReturnsNormally(Default->getExpr(), Depth);
  return isa<CXXThrowExpr, CoroutineSuspendExpr, CoreturnStmt>(S);
}

bool AbnormalExits::mayFault(const Stmt *S) {
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    unsigned Builtin = Call->getBuiltinCallee();
    return !(Builtin && Ast.BuiltinInfo.isConst(Builtin)); // __builtin_expect is harmless
  }
  if (const auto *U = dyn_cast<UnaryOperator>(S))
    return U->getOpcode() == UO_Deref;
  if (const auto *M = dyn_cast<MemberExpr>(S))
    return M->isArrow();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
    // A reference is a pointer that the program reads through; a captured variable is read
    // through the closure.
    const ValueDecl *D = Ref->getDecl();
    return Ref->refersToEnclosingVariableOrCapture() || isa<BindingDecl>(D) ||
           (isa<VarDecl>(D) && D->getType()->isReferenceType());
  }
  if (const auto *Compound = dyn_cast<CompoundAssignOperator>(S)) {
    BinaryOperatorKind Op = Compound->getOpcode();
    return (Op == BO_DivAssign || Op == BO_RemAssign) &&
           Compound->getComputationResultType()->isIntegerType();
  }
  if (const auto *B = dyn_cast<BinaryOperator>(S)) {
    BinaryOperatorKind Op = B->getOpcode();
    return ((Op == BO_Div || Op == BO_Rem) && B->getType()->isIntegerType()) || Op == BO_PtrMemI;
  }
  if (const auto *Construct = dyn_cast<CXXConstructExpr>(S))
    return !Construct->getConstructor()->isTrivial();
  if (isa<CXXDefaultArgExpr, CXXDefaultInitExpr>(S)) {
    const Expr *Inner = isa<CXXDefaultArgExpr>(S) ? cast<CXXDefaultArgExpr>(S)->getExpr()
                                                  : cast<CXXDefaultInitExpr>(S)->getExpr();
    std::vector<const Stmt *> Work{Inner};
    while (!Work.empty()) {
      const Stmt *T = Work.back();
      Work.pop_back();
      if (!T)
        continue;
      if (mayFault(T))
        return true;
      for (const Stmt *Child : T->children())
        Work.push_back(Child);
    }
    return false;
  }
  return isa<ArraySubscriptExpr, MatrixSubscriptExpr, CXXNewExpr, CXXDeleteExpr, CXXThrowExpr,
             CXXDynamicCastExpr, CXXTypeidExpr, CXXInheritedCtorInitExpr, CoroutineSuspendExpr,
             CoreturnStmt, AsmStmt, AtomicExpr>(S);
}

bool AbnormalExits::mayEscape(const CFGBlock &B) {
  if (const Stmt *T = B.getTerminatorStmt(); T && isa<CXXTryStmt, SEHTryStmt>(T))
    return true; // its handlers are entered from anywhere in the try block
  if (B.hasNoReturnElement())
    return true;
  for (const CFGElement &E : B) {
    switch (E.getKind()) {
    case CFGElement::Statement:
    case CFGElement::Constructor:
    case CFGElement::CXXRecordTypedCall:
      if (mayThrowOrJump(E.castAs<CFGStmt>().getStmt(), 0))
        return true;
      break;
    case CFGElement::Initializer:
      if (const Expr *Init = E.castAs<CFGInitializer>().getInitializer()->getInit();
          Init && mayThrowOrJump(Init, 0))
        return true;
      break;
    case CFGElement::NewAllocator:
      if (mayThrowOrJump(E.castAs<CFGNewAllocator>().getAllocatorExpr(), 0))
        return true;
      break;
    case CFGElement::AutomaticObjectDtor:
    case CFGElement::DeleteDtor:
    case CFGElement::BaseDtor:
    case CFGElement::MemberDtor:
    case CFGElement::TemporaryDtor:
      if (!returnsNormally(E.castAs<CFGImplicitDtor>().getDestructorDecl(Ast), 0))
        return true;
      break;
    case CFGElement::CleanupFunction:
      if (!returnsNormally(E.castAs<CFGCleanupFunction>().getFunctionDecl(), 0))
        return true;
      break;
    case CFGElement::ScopeBegin:
    case CFGElement::ScopeEnd:
    case CFGElement::LifetimeEnds:
    case CFGElement::LoopExit:
      break;
    }
  }
  return false;
}

bool AbnormalExits::mayDie(const CFGBlock &B) {
  if (mayEscape(B))
    return true;
  for (const CFGElement &E : B) {
    if (std::optional<CFGStmt> S = E.getAs<CFGStmt>()) {
      if (mayFault(S->getStmt()))
        return true;
    } else if (E.getKind() >= CFGElement::DTOR_BEGIN) {
      return true; // a destructor or cleanup function runs code of its own
    }
  }
  return false;
}

} // namespace sleuth::instrumenter
