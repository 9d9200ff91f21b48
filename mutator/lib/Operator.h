//===- Operator.h - One mutation operator per class -------------*- C++ -*-===//
//
// As in clang-tidy (one check per class) and C-Vise's clang_delta (one transformation per
// class, registered by name with a one-line description), each mutation operator is one class.
// An operator only lists its mutants in one function body; numbering, filtering and writing
// them stay in the driver (Mutator.cpp, Command.cpp).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "sleuth/mutator/mutator.h"

#include "clang/AST/ASTContext.h"
#include "clang/AST/RecursiveASTVisitor.h"

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sleuth::mutator {

/// A byte range [Begin, End) of the main file.
struct Span {
  std::size_t Begin = 0, End = 0;
};

/// What an operator sees while it walks one function body, and where its mutants go.
class BodyContext {
public:
  BodyContext(clang::ASTContext &Ast, const clang::FunctionDecl &Function, std::string_view Text,
              std::vector<Mutant> &Out)
      : Ast(Ast), SM(Ast.getSourceManager()), Function(Function), Text(Text), Out(Out) {}

  clang::ASTContext &Ast;
  clang::SourceManager &SM;
  const clang::FunctionDecl &Function;

  /// The text of R (a token range) in the main file, or nothing when any part of R comes from
  /// a macro expansion or another file: mutants are edits of the text the programmer wrote.
  std::optional<Span> span(clang::SourceRange R) const;
  /// The single token at Loc, on the same terms.
  std::optional<Span> token(clang::SourceLocation Loc) const { return span({Loc, Loc}); }
  std::string_view text(Span S) const { return Text.substr(S.Begin, S.End - S.Begin); }

  /// The text of R for a schemata guard: as span(), but R's ends may be macro expansions as
  /// long as whole expansions lie inside it (`i < MAX`).
  std::optional<Span> guardSpan(clang::SourceRange R) const;

  /// Records a mutant of operator Operator: S replaced by Replacement. Spaces are added where
  /// the replacement would otherwise lex together with its neighbours (`a-*p` -> `a/ *p`).
  /// The edit is its own schemata guard, an expression.
  void add(std::string_view Operator, Span S, std::string Replacement) {
    addGuarded(Operator, S, std::move(Replacement), GuardKind::Expression, S);
  }
  /// As add(), with the node a schemata guard selects on; without one (nullopt) the mutant
  /// cannot be part of a schemata.
  void addGuarded(std::string_view Operator, Span S, std::string Replacement, GuardKind Kind,
                  std::optional<Span> Guard, const char *Unguardable = nullptr);

  /// While set, why the code being walked cannot hold a schemata guard: it must stay a
  /// constant (see BodyVisitor).
  const char *ConstantContext = nullptr;

private:
  std::string functionName() const;

  std::string_view Text;
  std::vector<Mutant> &Out;
};

class MutationOperator {
public:
  virtual ~MutationOperator();
  virtual const char *name() const = 0;
  virtual const char *description() const = 0;
  /// Appends the mutants of one function body (a function written in the main file, not
  /// constexpr) to C.
  virtual void collect(BodyContext &C, clang::Stmt *Body) const = 0;
};

/// Every operator, in numbering order.
const std::vector<const MutationOperator *> &allOperators();

// Registration: one function per source file of operators.
using OperatorList = std::vector<std::unique_ptr<MutationOperator>>;
void addRelationalOperator(OperatorList &L);
void addArithmeticOperator(OperatorList &L);
void addLogicalOperator(OperatorList &L);
void addConstantOperator(OperatorList &L);
void addConditionOperator(OperatorList &L);
void addStatementOperator(OperatorList &L);

/// Why a binary operator's mutants cannot be guarded in a schemata, or null: with operands of
/// a template's dependent types, an instantiation may lack the replacing operator, and one
/// guard that does not compile would break the whole schemata.
inline const char *dependentOperands(const clang::BinaryOperator *B) {
  if (B->getLHS()->isTypeDependent() || B->getRHS()->isTypeDependent())
    return "its operands have dependent types";
  return nullptr;
}

/// Base of the operators' visitors: walks one function body and skips what must not be
/// mutated. Constant expressions (case labels, `if constexpr`, array bounds, template
/// arguments, `static_assert`) must stay constant; unevaluated operands have no behaviour to
/// change; nested functions and classes are bodies of their own (Mutator.cpp visits them), and
/// constexpr lambdas may be evaluated at compile time.
template <typename Derived> class BodyVisitor : public clang::RecursiveASTVisitor<Derived> {
  using Base = clang::RecursiveASTVisitor<Derived>;

public:
  explicit BodyVisitor(BodyContext &C) : C(C) {}

  bool shouldVisitTemplateInstantiations() const { return false; }
  bool shouldVisitImplicitCode() const { return false; }

  bool TraverseDecl(clang::Decl *D) {
    auto *V = llvm::dyn_cast_or_null<clang::VarDecl>(D);
    if (!V || llvm::isa<clang::ParmVarDecl>(V) || V->isConstexpr())
      return true;
    // Mutants here are valid one at a time, but a schemata guard would turn a constant into a
    // run-time choice: C's static initializers must be constants, and C++'s const integers
    // initialized by constants are themselves usable as array bounds or template arguments.
    const char *Saved = C.ConstantContext;
    const clang::LangOptions &LO = C.Ast.getLangOpts();
    if (!LO.CPlusPlus && (V->isStaticLocal() || V->getTLSKind()))
      C.ConstantContext = "in the initializer of a static variable";
    else if (LO.CPlusPlus && V->getType().isConstQualified() &&
             V->getType()->isIntegralOrEnumerationType())
      C.ConstantContext = "in the initializer of a const integer";
    bool Result = Base::TraverseDecl(D);
    C.ConstantContext = Saved;
    return Result;
  }
  bool TraverseInitListExpr(clang::InitListExpr *E,
                            typename Base::DataRecursionQueue *Q = nullptr) {
    // C89 wants constants in the initializer list of an automatic aggregate too.
    const clang::LangOptions &LO = C.Ast.getLangOpts();
    if (LO.CPlusPlus || LO.C99)
      return Base::TraverseInitListExpr(E, Q);
    const char *Saved = C.ConstantContext;
    C.ConstantContext = "in a C89 initializer list";
    // Without a queue the children are walked now, not after the context is restored.
    bool Result = Base::TraverseInitListExpr(E, nullptr);
    C.ConstantContext = Saved;
    return Result;
  }
  bool TraverseTypeLoc(clang::TypeLoc) { return true; }
  bool TraverseTemplateArgumentLoc(const clang::TemplateArgumentLoc &) { return true; }
  bool TraverseNestedNameSpecifierLoc(clang::NestedNameSpecifierLoc) { return true; }
  bool TraverseConstantExpr(clang::ConstantExpr *, typename Base::DataRecursionQueue * = nullptr) {
    return true;
  }
  bool TraverseUnaryExprOrTypeTraitExpr(clang::UnaryExprOrTypeTraitExpr *,
                                        typename Base::DataRecursionQueue * = nullptr) {
    return true;
  }
  bool TraverseCXXNoexceptExpr(clang::CXXNoexceptExpr *,
                               typename Base::DataRecursionQueue * = nullptr) {
    return true;
  }
  bool TraverseCXXTypeidExpr(clang::CXXTypeidExpr *E,
                             typename Base::DataRecursionQueue *Q = nullptr) {
    return E->isPotentiallyEvaluated() ? Base::TraverseCXXTypeidExpr(E, Q) : true;
  }
  bool TraverseIfStmt(clang::IfStmt *S, typename Base::DataRecursionQueue *Q = nullptr) {
    if (!S->isConstexpr() && !S->isConsteval())
      return Base::TraverseIfStmt(S, Q);
    // The condition is a constant; the branches are ordinary code.
    return this->TraverseStmt(S->getInit()) && this->TraverseStmt(S->getThen()) &&
           this->TraverseStmt(S->getElse());
  }
  bool TraverseLambdaExpr(clang::LambdaExpr *L, typename Base::DataRecursionQueue *Q = nullptr) {
    if (isExplicitlyConstexpr(*L))
      return true;
    return Base::TraverseLambdaExpr(L, Q);
  }

protected:
  BodyContext &C;

private:
  bool isExplicitlyConstexpr(const clang::LambdaExpr &L) const {
    const clang::CXXMethodDecl *Call = L.getCallOperator();
    if (Call->isConsteval())
      return true;
    if (!Call->isConstexpr())
      return false;
    // Lambdas are implicitly constexpr whenever they can be, which says nothing about whether
    // they are evaluated at compile time: only the keyword counts.
    auto S = C.span({L.getBeginLoc(), L.getBody()->getBeginLoc()});
    if (!S)
      return true;
    std::string_view Head = C.text(*S);
    return Head.find("constexpr") != Head.npos || Head.find("consteval") != Head.npos;
  }
};

} // namespace sleuth::mutator
