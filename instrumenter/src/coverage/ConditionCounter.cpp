#include "Counters.h"

#include "CoverageTable.h"

using namespace clang;

namespace sleuth::instrumenter {

CharSourceRange ConditionCounter::range(Context &Ctx, const Expr *Condition) {
  CharSourceRange R = Ctx.fileRange(Condition);
  if (R.isValid())
    return R;
  // A whole macro expansion (`if (IS_EMPTY(s))`) may be wrapped; text inside a macro argument
  // may not (the macro could stringize it).
  SourceLocation B = Condition->getBeginLoc(), E = Condition->getEndLoc();
  if (Ctx.SM.isMacroArgExpansion(B) || Ctx.SM.isMacroArgExpansion(E))
    return {};
  return Ctx.expansionRange(Condition);
}

bool ConditionCounter::instrument(Context &Ctx, const Expr *Condition, unsigned TrueCounter,
                                  unsigned FalseCounter, unsigned EvaluationCounter) {
  CharSourceRange R = range(Ctx, Condition);
  if (R.isInvalid())
    return false;
  // Each branch of the `?:` gives its outcome as a constant, after the count: the compiler then
  // sees that the original condition decides the branch, and its flow analyses give the
  // original's warnings and no more (`++c[t] != 0` could be false as far as GCC knows, and a
  // variable set only where the condition held became "maybe uninitialized").
  std::string OnTrue = TrueCounter == Uncounted
                           ? "1"
                           : "(" + BlockCounter::evaluationPrefix(Ctx, TrueCounter) + "1)";
  std::string OnFalse = FalseCounter == Uncounted
                            ? "0"
                            : "(" + BlockCounter::evaluationPrefix(Ctx, FalseCounter) + "0)";
  std::string Before =
      EvaluationCounter == Uncounted ? "" : BlockCounter::evaluationPrefix(Ctx, EvaluationCounter);
  Ctx.wrap(R, "((" + Before, ") ? " + OnTrue + " : " + OnFalse + ")");
  return true;
}

} // namespace sleuth::instrumenter
