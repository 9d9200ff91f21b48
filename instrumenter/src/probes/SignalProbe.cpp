#include "Probes.h"

#include "clang/AST/Expr.h"

using namespace clang;

namespace sleuth::instrumenter {

// True if E is a call of the library function Name without arguments (`getpid()`).
static bool callsLibrary(const Expr *E, StringRef Name, FunctionInstrumenter &F) {
  const auto *Call = dyn_cast<CallExpr>(E->IgnoreParenImpCasts());
  const FunctionDecl *Callee = Call ? Call->getDirectCallee() : nullptr;
  return Callee && Call->getNumArgs() == 0 && Callee->getDeclName().isIdentifier() &&
         Callee->getName() == Name &&
         F.Ctx.SM.isInSystemHeader(Callee->getCanonicalDecl()->getLocation());
}

// The argument of Call that carries the signal number, if Call sends a signal to the calling
// thread or process itself: `raise(sig)`, `kill(getpid(), sig)`,
// `pthread_kill(pthread_self(), sig)`. Its handler then runs inside the call, before the call
// returns (POSIX: a signal a process sends itself and does not block is delivered before
// kill() returns; raise() is pthread_kill() on the calling thread).
static const Expr *signalSentToSelf(const CallExpr *Call, FunctionInstrumenter &F) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee || !Callee->getDeclName().isIdentifier() ||
      !F.Ctx.SM.isInSystemHeader(Callee->getCanonicalDecl()->getLocation()))
    return nullptr;
  StringRef Name = Callee->getName();
  if (Name == "raise" && Call->getNumArgs() == 1)
    return Call->getArg(0);
  if (Name == "kill" && Call->getNumArgs() == 2 && callsLibrary(Call->getArg(0), "getpid", F))
    return Call->getArg(1);
  if (Name == "pthread_kill" && Call->getNumArgs() == 2 &&
      callsLibrary(Call->getArg(0), "pthread_self", F))
    return Call->getArg(1);
  return nullptr;
}

std::optional<SignalProbe::Record> SignalProbe::markSignal(const CallExpr *Call,
                                                           FunctionInstrumenter &F) {
  const Expr *Signal = signalSentToSelf(Call, F);
  if (!Signal || Call->getBeginLoc().isMacroID())
    return std::nullopt;
  CharSourceRange R = F.Ctx.fileRange(Call);
  if (R.isInvalid())
    return std::nullopt;
  unsigned Site = F.addSite(SiteKind::Call, Call, Call->getBeginLoc(), "<call>");
  // The handler's parameter is the signal number: it reads what the argument read, which stays
  // pending for the call's own value too (the record of sleuth_forward).
  CharSourceRange SR = F.Ctx.fileRange(Signal);
  if (SR.isValid() && F.hasProbesInside(Signal)) {
    F.pushReads(Signal);
    F.Ctx.wrap(SR, "(sleuth_arg(" + F.Ctx.unitAndSite(Site) + ", 1u), ", ")");
  }
  return Record{Site};
}

void SignalProbe::recordCall(const CallExpr *Call, const Record &Signal, FunctionInstrumenter &F) {
  // Outside the library probes' edits of the call: the record before it (any callee: the
  // handler is whatever the program installed), dropped after it if no handler took it (the
  // signal ignored, or its handler not instrumented), lest an entry with no record of its own
  // take it later.
  F.Ctx.wrap(F.Ctx.fileRange(Call),
             "(sleuth_forward(" + F.Ctx.unitAndSite(Signal.Site) + ", " +
                 F.callSiteControl(Signal.Site) + ", 0u), sleuth_signalled(" +
                 F.Ctx.unitAndSite(Signal.Site) + ", ",
             "))");
  F.countProbe();
}

} // namespace sleuth::instrumenter
