// The two kinds of coverage probes. Each places plain counter increments in the source text;
// FunctionCoverage decides where, from Clang's CFG.
#pragma once

#include "../Context.h"

#include "clang/AST/Expr.h"
#include "clang/AST/Stmt.h"

#include <string>

namespace sleuth::instrumenter {

/// `++__sleuth_cov[k];` before the statement at which a basic block begins (as a declaration
/// in C, where a statement may not precede declarations), in braces when the statement is the
/// body of an `if`, a loop or an `else`.
class BlockCounter {
public:
  /// Counts the entries of the function whose body is Body: right after its `{`.
  static bool instrumentEntry(Context &Ctx, const clang::CompoundStmt *Body, unsigned Counter);
  /// Counts the executions of statement T, whose parent is Parent. Returns false (and changes
  /// nothing) where a counter cannot go: inside macro bodies, or in positions where an added
  /// statement would change the program's structure.
  static bool instrument(Context &Ctx, const clang::Stmt *T, const clang::Stmt *Parent,
                         unsigned Counter);
  /// Whether instrument() would place a counter at T.
  static bool canInstrument(Context &Ctx, const clang::Stmt *T, const clang::Stmt *Parent);
  /// The increment as text, e.g. `++__sleuth_cov[3]`.
  static std::string increment(const Context &Ctx, unsigned Counter);
  /// `(void)++__sleuth_cov[3], `: the increment as the left operand of a comma, to count
  /// the evaluations of the expression that follows (a block that begins with it).
  static std::string evaluationPrefix(const Context &Ctx, unsigned Counter);
  /// `((void)++__sleuth_cov[k], E)` around expression E (a `for` loop's increment). Returns
  /// false where E cannot be wrapped (macros).
  static bool instrumentEvaluations(Context &Ctx, const clang::Expr *E, unsigned Counter);
};

/// `((COND) ? ((void)++__sleuth_cov[t], 1) : ((void)++__sleuth_cov[f], 0))` around the expression
/// whose value decides a branch (an `if`, loop, `?:`, `&&` or `||` condition); `? 1` or `: 0)` in
/// place of an outcome that is not counted (the flow equations give it). With an evaluation
/// counter, `((void)++__sleuth_cov[e], COND)` counts the condition's evaluations too (the
/// count of a loop test's block, where the test itself may crash).
class ConditionCounter {
public:
  static constexpr unsigned Uncounted = ~0u;
  /// Returns false where the condition cannot be wrapped (macros, constant conditions).
  static bool instrument(Context &Ctx, const clang::Expr *Condition, unsigned TrueCounter,
                         unsigned FalseCounter, unsigned EvaluationCounter = Uncounted);
  /// The text range that instrument() would wrap (invalid if none).
  static clang::CharSourceRange range(Context &Ctx, const clang::Expr *Condition);
};

} // namespace sleuth::instrumenter
