#include "Probes.h"

using namespace clang;

namespace sleuth::instrumenter {

// `assert(ARG)` is replaced by its meaning, spelled so that ARG keeps its probes and the failure
// message keeps the original text of ARG (the macro would stringize the rewritten text):
//   (sleuth_assert(&tu, ID, (ARG) ? 1 : 0) ? (void)0 : sleuth_assert_fail("ARG", …))
// Only asserts that are active (NDEBUG not defined) are recorded by the preprocessor.
bool AssertionProbe::instrument(const Stmt *S, FunctionInstrumenter &F) {
  const auto *E = dyn_cast<Expr>(S);
  if (!E || F.Ctx.Asserts.empty() || E->getBeginLoc().isFileID())
    return false;
  CharSourceRange R = F.Ctx.fileRange(E);
  if (R.isInvalid())
    return false;
  for (AssertInvocation &A : F.Ctx.Asserts) {
    if (A.Used || R.getBegin() != A.Argument.getBegin())
      continue;
    // The whole argument, not a part of it that starts at the same place.
    CharSourceRange Arg = F.Ctx.fileRange(A.Argument);
    if (R.getEnd() != Arg.getEnd())
      continue;
    const Stmt *Parent = F.Ctx.parent(E);
    if (Parent && F.Ctx.fileRange(Parent).isValid() &&
        F.Ctx.fileRange(Parent).getAsRange() == R.getAsRange())
      continue; // an implicit node around this one is the argument's outermost node
    A.Used = true;
    unsigned Site = F.addSite(SiteKind::Assert, E, A.NameBegin, "<assertion>");
    F.claimReads(E, Site);
    F.Ctx.replace(CharSourceRange::getCharRange(A.NameBegin, A.LParen.getLocWithOffset(1)),
                  "(sleuth_assert(" + F.Ctx.unitAndSite(Site) + ", " + F.control(Site) + ", (");
    F.Ctx.replace(CharSourceRange::getCharRange(A.RParen, A.RParen.getLocWithOffset(1)),
                  ") ? 1 : 0) ? (void)0 : sleuth_assert_fail(" + cStringLiteral(A.ArgumentText) +
                      ", __FILE__, __LINE__, __extension__ __PRETTY_FUNCTION__))");
    F.countProbe();
    return true;
  }
  return false;
}

} // namespace sleuth::instrumenter
