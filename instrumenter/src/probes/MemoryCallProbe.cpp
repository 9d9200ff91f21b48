#include "Probes.h"

#include "clang/Basic/Builtins.h"

using namespace clang;

namespace sleuth::instrumenter {

// The runtime's writing twin of a C library call that writes memory, if Callee is one.
static const char *memoryWriter(const FunctionDecl *Callee) {
  switch (Callee->getBuiltinID()) {
  case Builtin::BImemcpy:
  case Builtin::BI__builtin_memcpy:
    return "sleuth_memcpy";
  case Builtin::BImemmove:
  case Builtin::BI__builtin_memmove:
    return "sleuth_memmove";
  case Builtin::BImemset:
  case Builtin::BI__builtin_memset:
    return "sleuth_memset";
  default:
    return nullptr;
  }
}

// The written object as spelled, for the node's name: `x` for `&x` or an array `x`, else `*d`.
static std::string writtenName(const Expr *Destination, FunctionInstrumenter &F) {
  const Expr *E = Destination->IgnoreParens();
  while (const auto *Cast = dyn_cast<ImplicitCastExpr>(E)) {
    if (Cast->getCastKind() == CK_ArrayToPointerDecay)
      return F.Ctx.text(Cast->getSubExpr());
    if (Cast->getCastKind() != CK_BitCast && Cast->getCastKind() != CK_NoOp)
      break;
    E = Cast->getSubExpr()->IgnoreParens();
  }
  if (const auto *U = dyn_cast<UnaryOperator>(E); U && U->getOpcode() == UO_AddrOf)
    return F.Ctx.text(U->getSubExpr());
  std::string Text = F.Ctx.text(E);
  return isa<DeclRefExpr>(E->IgnoreParenImpCasts()) ? "*" + Text : "*(" + Text + ")";
}

bool MemoryCallProbe::instrument(const CallExpr *Call, FunctionInstrumenter &F) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  const char *Writer = Callee && Call->getNumArgs() == 3 ? memoryWriter(Callee) : nullptr;
  if (!Writer)
    return false;
  // The callee must be its name in the file (not a macro, zlib's zmemcpy; not a pointer), and
  // the call's `)` the file's, where the runtime's arguments go.
  const auto *Name = dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts());
  if (!Name)
    return false;
  CharSourceRange NameRange = F.Ctx.fileRange(Name), CallRange = F.Ctx.fileRange(Call);
  if (NameRange.isInvalid() || CallRange.isInvalid())
    return false;
  std::string Written = writtenName(Call->getArg(0), F);
  unsigned Site = F.addSite(SiteKind::Var, Call, Call->getBeginLoc(),
                            Written.empty() || Written == "*" ? Writer : Written);
  // The arguments' reads flow into the write (the pointers, the size, memset's value).
  F.claimReads(Call, Site);
  F.Ctx.Replacements.emplace_back(NameRange, Writer);
  F.Ctx.insertBefore(Call->getRParenLoc(), ", " + F.Ctx.unitAndSite(Site) + ", " + F.control(Site));
  F.countProbe();
  return true;
}

} // namespace sleuth::instrumenter
