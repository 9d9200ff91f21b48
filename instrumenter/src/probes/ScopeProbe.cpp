#include "Probes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/DeclTemplate.h"
#include "clang/AST/ExprCXX.h"

using namespace clang;

namespace sleuth::instrumenter {

// True if destroying an object of type T runs a destructor of the program's: T's own, a base's
// or a member's, or that of an element the library owns (`std::vector<Guard>`,
// `std::unique_ptr<Guard>`: a template argument's). The library's classes are looked into by
// their template arguments only.
static bool destroysWithProgramCode(QualType T, FunctionInstrumenter &F, unsigned Depth = 0) {
  if (T.isNull() || T->isDependentType() || Depth > 4)
    return false;
  const CXXRecordDecl *Record = F.Ctx.Ast.getBaseElementType(T)->getAsCXXRecordDecl();
  if (!Record || !Record->hasDefinition() || Record->hasTrivialDestructor())
    return false;
  if (F.Ctx.SM.isInSystemHeader(Record->getLocation())) {
    const auto *Spec = dyn_cast<ClassTemplateSpecializationDecl>(Record);
    if (!Spec)
      return false;
    for (const TemplateArgument &Arg : Spec->getTemplateArgs().asArray())
      if (Arg.getKind() == TemplateArgument::Type &&
          destroysWithProgramCode(Arg.getAsType(), F, Depth + 1))
        return true;
    return false;
  }
  if (const CXXDestructorDecl *Destructor = Record->getDestructor();
      Destructor && Destructor->isUserProvided() && !F.isLeftUninstrumented(Destructor))
    return true;
  for (const CXXBaseSpecifier &Base : Record->bases())
    if (destroysWithProgramCode(Base.getType(), F, Depth + 1))
      return true;
  for (const FieldDecl *Field : Record->fields())
    if (destroysWithProgramCode(Field->getType(), F, Depth + 1))
      return true;
  return false;
}

// True if running S always ends in a throw: `throw e;`, a block that ends in one, an `if`
// both of whose branches do.
static bool alwaysThrows(const Stmt *S) {
  if (const auto *E = dyn_cast_or_null<Expr>(S))
    return isa<CXXThrowExpr>(E->IgnoreImplicit()->IgnoreParens());
  if (const auto *Block = dyn_cast_or_null<CompoundStmt>(S))
    return !Block->body_empty() && alwaysThrows(Block->body_back());
  if (const auto *If = dyn_cast_or_null<IfStmt>(S))
    return If->getElse() && alwaysThrows(If->getThen()) && alwaysThrows(If->getElse());
  return false;
}

// The statement at which S's control is decided: S's first statement run (a block's first, a
// `for`'s initialization), a condition for the statements that test one.
static const Stmt *controlAnchor(const Stmt *S) {
  while (const auto *Block = dyn_cast<CompoundStmt>(S)) {
    if (Block->body_empty())
      return S;
    S = Block->body_front();
  }
  if (const auto *If = dyn_cast<IfStmt>(S))
    return If->getCond();
  if (const auto *Switch = dyn_cast<SwitchStmt>(S))
    return Switch->getCond();
  if (const auto *While = dyn_cast<WhileStmt>(S))
    return While->getCond();
  if (const auto *For = dyn_cast<ForStmt>(S); For && For->getInit())
    return For->getInit();
  return S;
}

// True if a local that Decl declares runs the program's code when it is destroyed.
static bool declaresDestroyedLocal(const DeclStmt *Decl, FunctionInstrumenter &F) {
  for (const clang::Decl *D : Decl->decls())
    if (const auto *V = dyn_cast<VarDecl>(D); V && V->hasLocalStorage() && !isa<ParmVarDecl>(V) &&
                                              !V->getType()->isReferenceType() &&
                                              destroysWithProgramCode(V->getType(), F))
      return true;
  return false;
}

bool ScopeProbe::instrument(const CompoundStmt *Block, FunctionInstrumenter &F) {
  if (!F.isCxx())
    return false;
  // Visited after its statements, so that the text inserted before a statement here stands
  // outside their own probes' (edits at one place nest in the order they are made).
  // Each companion goes right before its declaration: alive while its objects are destroyed,
  // however the scope ends. Every way out but an exception (the end of the block, a return,
  // break, continue, goto) runs the same cleanup of the scope, as compilers emit it: the point
  // the declaration's control reaches, unless a test on the way has a branch that always throws
  // (`if (n > 8) throw ...;`), which then controls it. The statement after such an `if` of the
  // block names its control to the companions declared before it (`end()`), evaluated there.
  // (A throwing `if` nested deeper is not seen: the control stands.)
  std::vector<std::string> Scopes;
  for (auto It = Block->body_begin(); It != Block->body_end(); ++It) {
    const Stmt *S = *It;
    if (const auto *Decl = dyn_cast<DeclStmt>(S); Decl && declaresDestroyedLocal(Decl, F)) {
      CharSourceRange R = F.Ctx.fileRange(Decl);
      if (R.isInvalid())
        continue;
      unsigned Site = F.addSite(SiteKind::Call, Decl, Decl->getBeginLoc(), "<call>");
      std::string Name = "__sleuth_s" + std::to_string(F.FunctionId) + "_" + std::to_string(Site);
      F.Ctx.insertBefore(R.getBegin(),
                         "sleuth::Scope " + Name + "(" + F.callSiteControl(Site) + "); ");
      Scopes.push_back(Name);
      F.countProbe();
      continue;
    }
    const auto *If = dyn_cast<IfStmt>(S);
    auto Next = std::next(It);
    if (Scopes.empty() || !If || Next == Block->body_end() ||
        !(alwaysThrows(If->getThen()) || alwaysThrows(If->getElse())))
      continue;
    CharSourceRange NR = F.Ctx.fileRange(*Next);
    if (NR.isInvalid())
      continue;
    const Stmt *Anchor = controlAnchor(*Next);
    unsigned EndSite = F.addSite(SiteKind::Call, Anchor, Anchor->getBeginLoc(), "<call>");
    std::string Ends;
    for (const std::string &Name : Scopes)
      Ends += Name + ".end(" + F.callSiteControl(EndSite) + "); ";
    F.Ctx.insertBefore(NR.getBegin(), Ends);
  }
  return !Scopes.empty();
}

} // namespace sleuth::instrumenter
