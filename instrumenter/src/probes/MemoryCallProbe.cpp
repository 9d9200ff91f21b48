#include "Probes.h"

#include "clang/Basic/Builtins.h"

#include <optional>

using namespace clang;

namespace sleuth::instrumenter {

// The runtime header's twin of a C library call that writes memory, if Callee is one, and the
// number of arguments it takes.
struct MemoryWriter {
  const char *Twin;
  unsigned NumArgs;
};
static std::optional<MemoryWriter> memoryWriter(const FunctionDecl *Callee) {
  switch (Callee->getBuiltinID()) {
  case Builtin::BImemcpy:
  case Builtin::BI__builtin_memcpy:
    return MemoryWriter{"sleuth_memcpy", 3};
  case Builtin::BImemmove:
  case Builtin::BI__builtin_memmove:
    return MemoryWriter{"sleuth_memmove", 3};
  case Builtin::BImemset:
  case Builtin::BI__builtin_memset:
    return MemoryWriter{"sleuth_memset", 3};
  case Builtin::BImempcpy:
  case Builtin::BI__builtin_mempcpy:
    return MemoryWriter{"sleuth_mempcpy", 3};
  case Builtin::BIstrcpy:
  case Builtin::BI__builtin_strcpy:
    return MemoryWriter{"sleuth_strcpy", 2};
  case Builtin::BIstpcpy:
  case Builtin::BI__builtin_stpcpy:
    return MemoryWriter{"sleuth_stpcpy", 2};
  case Builtin::BIstrncpy:
  case Builtin::BI__builtin_strncpy:
    return MemoryWriter{"sleuth_strncpy", 3};
  case Builtin::BIstrcat:
  case Builtin::BI__builtin_strcat:
    return MemoryWriter{"sleuth_strcat", 2};
  case Builtin::BIstrncat:
  case Builtin::BI__builtin_strncat:
    return MemoryWriter{"sleuth_strncat", 3};
  default:
    return std::nullopt;
  }
}

bool MemoryCallProbe::instrument(const CallExpr *Call, FunctionInstrumenter &F) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  std::optional<MemoryWriter> Writer = Callee ? memoryWriter(Callee) : std::nullopt;
  if (!Writer || Call->getNumArgs() != Writer->NumArgs)
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
  F.Ctx.Replacements.emplace_back(NameRange, Writer->Twin);
  F.countProbe();
  return true;
}

} // namespace sleuth::instrumenter
