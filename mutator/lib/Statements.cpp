//===- Statements.cpp - sdl: statement deletion --------------------------===//
#include "Operator.h"

#include "clang/Lex/Lexer.h"

#include <set>

using namespace clang;

namespace sleuth::mutator {
namespace {

/// Deletes statements whose deletion still compiles: expression statements with an effect,
/// `break`, `continue` and `return;`. Declarations stay (later code may use them); a `return`
/// with a value stays (the function would fall off its end); statements that hold others
/// stay (their deletion is rarely a realistic fault and mostly dead code).
class StatementVisitor : public BodyVisitor<StatementVisitor> {
public:
  using BodyVisitor::BodyVisitor;

  bool TraverseStmtExpr(StmtExpr *E, DataRecursionQueue *Q = nullptr) {
    // The last statement of `({ ...; x; })` is its value.
    ValueBlocks.insert(E->getSubStmt());
    return BodyVisitor::TraverseStmtExpr(E, Q);
  }

  bool VisitCompoundStmt(CompoundStmt *CS) {
    for (Stmt *S : CS->body()) {
      bool Last = S == CS->body_back();
      if (Last && ValueBlocks.count(CS))
        continue;
      // The final `return;` of a function changes nothing.
      if (Last && CS == C.Function.getBody() && isa<ReturnStmt>(S))
        continue;
      remove(S, ";");
    }
    return true;
  }
  bool VisitCaseStmt(CaseStmt *S) { return remove(S->getSubStmt(), ";"), true; }
  bool VisitDefaultStmt(DefaultStmt *S) { return remove(S->getSubStmt(), ";"), true; }
  bool VisitLabelStmt(LabelStmt *S) { return remove(S->getSubStmt(), ";"), true; }
  // An empty body `;` would trip -Wempty-body under -Werror; `{}` says the same.
  bool VisitIfStmt(IfStmt *S) {
    remove(S->getThen(), "{}");
    remove(S->getElse(), "{}");
    return true;
  }
  bool VisitWhileStmt(WhileStmt *S) { return remove(S->getBody(), "{}"), true; }
  bool VisitForStmt(ForStmt *S) { return remove(S->getBody(), "{}"), true; }
  bool VisitDoStmt(DoStmt *S) { return remove(S->getBody(), "{}"), true; }
  bool VisitCXXForRangeStmt(CXXForRangeStmt *S) { return remove(S->getBody(), "{}"), true; }

private:
  bool deletable(Stmt *S) const {
    if (auto *E = dyn_cast<Expr>(S))
      return E->HasSideEffects(C.Ast); // deleting `x;` changes nothing
    if (isa<BreakStmt, ContinueStmt>(S))
      return true;
    if (auto *R = dyn_cast<ReturnStmt>(S))
      return !R->getRetValue();
    return false;
  }

  void remove(Stmt *S, const char *Replacement) {
    if (!S || !deletable(S))
      return;
    // The statement's range ends before its `;`, which goes too.
    const LangOptions &LO = C.Ast.getLangOpts();
    std::optional<Token> Semi = Lexer::findNextToken(S->getEndLoc(), C.SM, LO);
    if (!Semi || Semi->isNot(tok::semi))
      return;
    if (auto Sp = C.span({S->getBeginLoc(), Semi->getLocation()}))
      C.addGuarded("sdl", *Sp, Replacement, GuardKind::Statement, Sp);
  }

  std::set<const CompoundStmt *> ValueBlocks;
};

class StatementOperator : public MutationOperator {
public:
  const char *name() const override { return "sdl"; }
  const char *description() const override {
    return "statement deletion: expression statements, break, continue, return;";
  }
  void collect(BodyContext &C, Stmt *Body) const override {
    StatementVisitor(C).TraverseStmt(Body);
  }
};

} // namespace

void addStatementOperator(OperatorList &L) { L.push_back(std::make_unique<StatementOperator>()); }

} // namespace sleuth::mutator
