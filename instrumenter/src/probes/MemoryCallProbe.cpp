#include "Probes.h"

#include "clang/Basic/Builtins.h"

using namespace clang;

namespace sleuth::instrumenter {

// The runtime header's twin of a C library call that writes memory, if Callee is one.
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

bool MemoryCallProbe::instrument(const CallExpr *Call, FunctionInstrumenter &F) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  const char *Writer = Callee && Call->getNumArgs() == 3 ? memoryWriter(Callee) : nullptr;
  if (!Writer)
    return false;
  // The callee must be its name in the file (not a macro, zlib's zmemcpy; not a pointer).
  const auto *Name = dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts());
  if (!Name)
    return false;
  CharSourceRange NameRange = F.Ctx.fileRange(Name);
  if (NameRange.isInvalid())
    return false;
  // The arguments' reads stay pending, as for any library call: the consumer of the call's
  // value takes them.
  F.Ctx.Replacements.emplace_back(NameRange, Writer);
  F.countProbe();
  return true;
}

} // namespace sleuth::instrumenter
