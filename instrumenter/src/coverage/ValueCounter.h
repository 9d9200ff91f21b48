// Coverage mode's value predicates (CBI's "returns" and "scalar-pairs" schemes): at each
// assignment to a scalar variable and each return of a scalar, three counters say how often the
// value was less than, equal to or greater than 0 and than each of a few other scalars in scope.
// The localizer ranks these predicates (`--events value`) to break the ties of line coverage.
#pragma once

#include "../Context.h"
#include "CoverageTable.h"

#include "clang/AST/Decl.h"

#include <map>
#include <string>
#include <vector>

namespace sleuth::instrumenter {

class ValueCounter {
public:
  /// FirstEdit is Ctx.editCount() before FunctionCoverage queued the function's edits: a
  /// statement the value counter puts in braces is inside the block counters' braces.
  ValueCounter(Context &Ctx, CoverageTable &Table, const clang::FunctionDecl *Function,
               std::size_t FirstEdit);

  /// Places the counters in Function's body (after FunctionCoverage placed its own); returns
  /// the number of value sites.
  unsigned run();

  /// At most this many other scalars are compared with each assigned value.
  static constexpr unsigned MaxPartners = 4;

private:
  void visit(const clang::Stmt *S);
  void visitStatement(const clang::Stmt *S, const clang::Stmt *Parent);
  void assignment(const clang::Stmt *S, const clang::VarDecl *Target, bool InBlock);
  void declaration(const clang::DeclStmt *S);
  /// Makes the initialized variables S declares (if it is a declaration) partners of the values
  /// that follow it in its scope.
  void declareVisible(const clang::Stmt *S);
  void returned(const clang::ReturnStmt *S);

  /// `K + 1 + ((x) > (y)) - ((x) < (y))`: the index of the counter for the outcome, from the
  /// "equal" one. Right is "0" for the sign.
  std::string outcomeIndex(unsigned First, const clang::QualType &T, const std::string &Left,
                           const std::string &Right) const;
  /// One comparison's count: `++C[...]`, whose three counters start at First.
  struct Increment {
    unsigned First;
    std::string Text;
  };
  /// Adds the site's counters, one comparison after another, and returns their increments.
  std::vector<Increment> counters(clang::SourceLocation At, const clang::VarDecl *Value,
                                  const std::string &Left);
  /// ` ++C[...]; ++C[...];`: the increments as statements.
  static std::string statements(const std::vector<Increment> &Increments);
  /// Variables in scope that Value may be compared with (same type, initialized, name unique in
  /// the function), most recently declared first.
  std::vector<const clang::VarDecl *> partners(const clang::VarDecl *Value) const;

  Context &Ctx;
  CoverageTable &Table;
  const clang::FunctionDecl *Function;
  std::size_t FirstEdit;
  /// How many declarations in the function have each name: a partner is named in the inserted
  /// text, so its name must mean it there.
  std::map<std::string, unsigned> DeclaredNames;
  /// Initialized variables visible at the statement being visited, in declaration order.
  std::vector<const clang::VarDecl *> InScope;
  unsigned Sites = 0;
};

} // namespace sleuth::instrumenter
