#include "Probes.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/Expr.h"

using namespace clang;

namespace sleuth::instrumenter {

namespace {

/// True if the program takes the address of the literal L: `&(struct s){a, b}`, or an array
/// literal that decays to a pointer, `sum((int[]){a, b}, 2)`.
bool addressEscapes(const CompoundLiteralExpr *L, FunctionInstrumenter &F) {
  const Stmt *Child = L;
  const Stmt *Parent = F.Ctx.parent(L);
  while (Parent && isa<ParenExpr>(Parent)) {
    Child = Parent;
    Parent = F.Ctx.parent(Parent);
  }
  if (const auto *U = dyn_cast_or_null<UnaryOperator>(Parent))
    return U->getOpcode() == UO_AddrOf;
  if (const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Parent))
    return Cast->getCastKind() == CK_ArrayToPointerDecay && Cast->getSubExpr() == Child;
  return false;
}

/// T as C spells it in a cast or sizeof, if Clang's printer gives a name the compiler can read
/// (not an unnamed struct's `(unnamed struct at f.c:3:9)`).
std::optional<std::string> spelledType(QualType T, const ASTContext &Ast) {
  PrintingPolicy Policy(Ast.getLangOpts());
  Policy.SuppressTagKeyword = false;
  std::string Text = T.getAsString(Policy);
  if (Text.find('(') != std::string::npos && !T->isPointerType() && !T->isArrayType())
    return std::nullopt;
  if (Text.find("unnamed") != std::string::npos || Text.find("anonymous") != std::string::npos)
    return std::nullopt;
  return Text;
}

} // namespace

bool CompoundLiteralProbe::instrument(const CompoundLiteralExpr *L, FunctionInstrumenter &F) {
  // In C++ a compound literal is a temporary (a GNU extension) whose address is not taken.
  if (F.isCxx() || L->isFileScope() || !addressEscapes(L, F))
    return false;
  QualType T = L->getType();
  if (T->isIncompleteType() || T->isVariablyModifiedType() || T->isAtomicType() ||
      L->isInstantiationDependent())
    return false;
  std::optional<std::string> Object = spelledType(T, F.Ctx.Ast);
  std::optional<std::string> Pointer = spelledType(F.Ctx.Ast.getPointerType(T), F.Ctx.Ast);
  CharSourceRange R = F.Ctx.fileRange(L);
  const TypeSourceInfo *Written = L->getTypeSourceInfo();
  if (!Object || !Pointer || R.isInvalid() || !Written)
    return false;
  CharSourceRange TypeRange = F.Ctx.fileRange(Written->getTypeLoc().getSourceRange());
  std::string Name = "(" + (TypeRange.isValid() ? F.Ctx.text(TypeRange) : *Object) + "){...}";
  unsigned Site = F.addSite(SiteKind::Var, L, L->getBeginLoc(), Name);
  F.claimReads(L, Site);
  F.Ctx.wrap(R,
             "(*(" + *Pointer + ")sleuth_created(" + F.Ctx.unitAndSite(Site) + ", " +
                 F.control(Site) + ", &",
             ", sizeof(" + *Object + ")))");
  F.countProbe();
  return true;
}

} // namespace sleuth::instrumenter
