//===- Statements.cpp - Transformations on statements ---------------------===//
#include "AstUtil.h"

#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace sleuth::reducer {
namespace {

/// Collects statements of one kind written in the main file.
template <typename T> class StmtFinder : public RecursiveASTVisitor<StmtFinder<T>> {
public:
  std::vector<T *> Found;
  bool VisitStmt(Stmt *S) {
    if (auto *X = dyn_cast<T>(S))
      Found.push_back(X);
    return true;
  }
};

template <typename T> std::vector<T *> find(const SourceUnit &U) {
  StmtFinder<T> F;
  F.TraverseDecl(U.AST->getTranslationUnitDecl());
  return std::move(F.Found);
}

/// The text of a statement as written, including its trailing ';' if the
/// statement's own range leaves it out (expression statements, returns).
std::optional<Span> stmtSpan(const AstHelper &H, const Stmt *S) {
  std::optional<Span> Sp = H.span(S);
  if (!Sp || isa<CompoundStmt>(S))
    return Sp;
  return H.withSemicolon(*Sp);
}

/// Deletes a statement from a block.
class RemoveStmt : public Transformation {
public:
  const char *name() const override { return "remove-stmt"; }
  const char *description() const override { return "remove a statement from a block"; }
  Level level() const override { return Members; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    AstHelper H(U);
    for (CompoundStmt *CS : find<CompoundStmt>(U))
      for (Stmt *S : CS->body())
        if (std::optional<Span> Sp = stmtSpan(H, S))
          Out.push_back(replaceRange(Sp->Begin, Sp->End));
  }
};

/// Replaces an `if` by one of its branches: `if (c) A else B` becomes `A` or
/// `B`; an `if` without `else` becomes its then-branch.
class IfToBranch : public Transformation {
public:
  const char *name() const override { return "if-to-branch"; }
  const char *description() const override {
    return "replace an if statement by its then-branch or its else-branch";
  }
  Level level() const override { return Expressions; }
  bool largestFirst() const override { return true; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    AstHelper H(U);
    for (IfStmt *If : find<IfStmt>(U)) {
      std::optional<Span> Whole = stmtSpan(H, If);
      if (!Whole)
        continue;
      for (Stmt *Branch : {If->getThen(), If->getElse()}) {
        if (!Branch)
          continue;
        if (std::optional<Span> B = stmtSpan(H, Branch))
          Out.push_back(replaceRange(Whole->Begin, Whole->End, std::string(H.text(*B))));
      }
    }
  }
};

/// Replaces a loop by its body, run once.
class LoopToBody : public Transformation {
public:
  const char *name() const override { return "loop-to-body"; }
  const char *description() const override { return "replace a for, while or do loop by its body"; }
  Level level() const override { return Expressions; }
  bool largestFirst() const override { return true; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    AstHelper H(U);
    auto Add = [&](Stmt *Loop, Stmt *Body) {
      std::optional<Span> Whole = stmtSpan(H, Loop);
      std::optional<Span> B = Body ? stmtSpan(H, Body) : std::nullopt;
      if (Whole && B)
        Out.push_back(replaceRange(Whole->Begin, Whole->End, std::string(H.text(*B))));
    };
    for (ForStmt *S : find<ForStmt>(U))
      Add(S, S->getBody());
    for (WhileStmt *S : find<WhileStmt>(U))
      Add(S, S->getBody());
    for (DoStmt *S : find<DoStmt>(U))
      Add(S, S->getBody());
    for (CXXForRangeStmt *S : find<CXXForRangeStmt>(U))
      Add(S, S->getBody());
  }
};

/// Replaces the body of an `if`, a loop or a label by the empty statement,
/// where deleting it would leave a syntax error.
class StmtToNull : public Transformation {
public:
  const char *name() const override { return "stmt-to-null"; }
  const char *description() const override {
    return "replace a statement that cannot be deleted by ;";
  }
  Level level() const override { return Expressions; }
  bool largestFirst() const override { return true; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    AstHelper H(U);
    auto Add = [&](Stmt *S) {
      if (!S || isa<NullStmt>(S))
        return;
      if (auto *CS = dyn_cast<CompoundStmt>(S))
        if (CS->body_empty())
          return;
      if (std::optional<Span> Sp = stmtSpan(H, S))
        Out.push_back(replaceRange(Sp->Begin, Sp->End, ";"));
    };
    for (IfStmt *S : find<IfStmt>(U)) {
      Add(S->getThen());
      Add(S->getElse());
    }
    for (ForStmt *S : find<ForStmt>(U))
      Add(S->getBody());
    for (WhileStmt *S : find<WhileStmt>(U))
      Add(S->getBody());
    for (CXXForRangeStmt *S : find<CXXForRangeStmt>(U))
      Add(S->getBody());
    for (LabelStmt *S : find<LabelStmt>(U))
      Add(S->getSubStmt());
  }
};

} // namespace

void addStatementTransformations(TransformationList &L) {
  L.push_back(std::make_unique<RemoveStmt>());
  L.push_back(std::make_unique<IfToBranch>());
  L.push_back(std::make_unique<LoopToBody>());
  L.push_back(std::make_unique<StmtToNull>());
}

} // namespace sleuth::reducer
