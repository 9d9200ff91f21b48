#include "Probes.h"

using namespace clang;

namespace sleuth::instrumenter {

bool DiscardProbe::instrument(const Expr *E, unsigned ProbesBefore, FunctionInstrumenter &F) {
  if (F.probeCount() == ProbesBefore || F.isConsumed(E->IgnoreParens()))
    return false;
  // Only full expressions in statement position: `f(x);`, a for-increment.
  const Stmt *Parent = F.Ctx.parent(E);
  if (!Parent || isa<BinaryOperator, CastExpr, ParenExpr>(Parent))
    return false;
  // A statement that is (or ends with) a macro invocation, `CALL(x, y);`, `(void)snprintf(buf,
  // n, "%s", p);` with glibc's fortified snprintf a macro: the reads pushed before the expansion
  // are dropped after it too.
  CharSourceRange R = F.Ctx.expansionRange(E);
  if (R.isInvalid())
    return false;
  F.Ctx.wrap(R, "((void)(", "), sleuth_discard())");
  return true;
}

} // namespace sleuth::instrumenter
