#include "Probes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

using namespace clang;

namespace sleuth::instrumenter {

bool ExceptionProbe::instrumentThrow(const CXXThrowExpr *Throw, FunctionInstrumenter &F) {
  // `throw e` becomes `throw (sleuth_throwing(...), e)`, `throw;` `(sleuth_throwing(...),
  // throw)`: a comma keeps `e` a prvalue, so the exception object is still initialized from it
  // directly (sleuth_throwing is void: no cast, which GCC would call useless, and Clang's
  // -Wcomma takes a void call before a comma). The node is made once `e` is evaluated (see
  // sleuth_throwing).
  if (!F.isCxx() || Throw->getThrowLoc().isMacroID())
    return false;
  const Expr *Operand = Throw->getSubExpr();
  CharSourceRange R = Operand ? F.Ctx.fileRange(Operand) : F.Ctx.fileRange(Throw);
  if (R.isInvalid())
    return false;
  unsigned Site = F.addSite(SiteKind::Test, Throw, Throw->getThrowLoc(), "<throw>");
  F.Ctx.wrap(R, "(sleuth_throwing(" + F.Ctx.unitAndSite(Site) + ", " + F.control(Site) + "), ",
             ")");
  F.countProbe();
  return true;
}

bool ExceptionProbe::instrumentHandlers(const CXXTryStmt *Try, FunctionInstrumenter &F) {
  // The <catch> test is anchored where the try block begins: it runs under the controls the
  // block is entered under (an empty block throws nothing).
  const CompoundStmt *Block = Try->getTryBlock();
  if (!F.isCxx() || !Block || Block->body_empty())
    return false;
  bool Any = false;
  for (unsigned I = 0, E = Try->getNumHandlers(); I < E; ++I) {
    const CXXCatchStmt *Handler = Try->getHandler(I);
    const auto *Body = dyn_cast_or_null<CompoundStmt>(Handler->getHandlerBlock());
    if (!Body || Handler->getCatchLoc().isMacroID() || Body->getLBracLoc().isMacroID())
      continue;
    unsigned Test =
        F.addSite(SiteKind::Test, Block->body_front(), Handler->getCatchLoc(), "<catch>");
    F.mapHandler(Handler, Test);
    auto [Prefix, Suffix] = ConditionProbe::testText(
        Test, F.Ctx.unitAndSite(Test) + ", sleuth_caught(" + F.control(Test) + ")", "", nullptr, F);
    F.Ctx.insertAfterToken(F.Ctx.SM.getFileLoc(Body->getLBracLoc()),
                           " (void)" + Prefix + "1" + Suffix + ";");
    F.countProbe();
    Any = true;
  }
  return Any;
}

} // namespace sleuth::instrumenter
