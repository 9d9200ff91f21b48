#include "Instantiations.h"

#include "Context.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecursiveASTVisitor.h"

using namespace clang;

namespace sleuth::instrumenter {

namespace {

class InstantiationFinder : public RecursiveASTVisitor<InstantiationFinder> {
public:
  InstantiationFinder(const SourceManager &SM,
                      llvm::DenseMap<const FunctionDecl *, std::vector<const FunctionDecl *>> &Of)
      : SM(SM), Of(Of) {}

  bool shouldVisitTemplateInstantiations() const { return true; }

  // The library's own templates are no pattern the rewriter sees.
  bool TraverseDecl(Decl *D) {
    if (isLibraryDeclaration(D, SM))
      return true;
    return RecursiveASTVisitor::TraverseDecl(D);
  }

  bool VisitFunctionDecl(FunctionDecl *D) {
    add(D);
    return true;
  }

  // (A lambda's call operator is implicit code, which the visitor does not enter.)
  bool VisitLambdaExpr(LambdaExpr *L) {
    add(L->getCallOperator());
    return true;
  }

private:
  void add(const FunctionDecl *D) {
    if (!D->isTemplateInstantiation() || !D->getBody())
      return;
    const FunctionDecl *Pattern = D->getTemplateInstantiationPattern();
    if (!Pattern)
      return;
    std::vector<const FunctionDecl *> &List = Of[Pattern];
    if (std::find(List.begin(), List.end(), D) == List.end())
      List.push_back(D);
  }

  const SourceManager &SM;
  llvm::DenseMap<const FunctionDecl *, std::vector<const FunctionDecl *>> &Of;
};

// The call in S spelled by Range: the one there is, or the one whose operator or callee is
// at Loc. (A member call's location is its member's, where the pattern's dependent call has
// its beginning.)
const CallExpr *findCall(const Stmt *S, SourceRange Range, SourceLocation Loc) {
  std::vector<const CallExpr *> Found;
  std::vector<const Stmt *> Work{S};
  while (!Work.empty()) {
    const Stmt *Node = Work.back();
    Work.pop_back();
    if (!Node)
      continue;
    if (const auto *Call = dyn_cast<CallExpr>(Node); Call && Call->getSourceRange() == Range) {
      // An implicit conversion of the call's value (to bool, to a string) is a call spelled
      // by the same characters.
      const auto *Member = dyn_cast<CXXMemberCallExpr>(Call);
      if (!(Member && isa_and_nonnull<CXXConversionDecl>(Member->getMethodDecl())))
        Found.push_back(Call);
    }
    for (const Stmt *Child : Node->children())
      Work.push_back(Child);
  }
  if (Found.size() == 1)
    return Found[0];
  const CallExpr *At = nullptr;
  for (const CallExpr *Call : Found)
    if (Call->getExprLoc() == Loc) {
      if (At)
        return nullptr;
      At = Call;
    }
  return At;
}

} // namespace

Instantiations::Instantiations(Context &Ctx) {
  InstantiationFinder Finder(Ctx.SM, Of);
  Finder.TraverseDecl(Ctx.Ast.getTranslationUnitDecl());
}

Instantiations &Instantiations::of(Context &Ctx) {
  if (!Ctx.TemplateInstantiations)
    Ctx.TemplateInstantiations.reset(new Instantiations(Ctx));
  return *Ctx.TemplateInstantiations;
}

std::vector<const CallExpr *> Instantiations::callsOf(const FunctionDecl *Pattern,
                                                      const Expr *E) const {
  if (auto Cached = Calls.find(E); Cached != Calls.end())
    return Cached->second;
  std::vector<const CallExpr *> &Found = Calls[E];
  auto Known = Of.find(Pattern);
  if (Known == Of.end())
    return Found;
  for (const FunctionDecl *Instance : Known->second) {
    const CallExpr *Call = findCall(Instance->getBody(), E->getSourceRange(), E->getExprLoc());
    if (!Call) {
      Found.clear();
      break;
    }
    Found.push_back(Call);
  }
  return Found;
}

} // namespace sleuth::instrumenter
