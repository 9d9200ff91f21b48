// Library calls in a template pattern that wait for the instantiation: the rewriter sees the
// pattern, where `in >> t` or `std::swap(a, b)` with operands of dependent type calls nothing
// yet; the instantiations of the unit say what each calls (Instantiations). Where every one
// calls the library and writes the same arguments through references or pointers, the pattern
// is instrumented as a call outside a template is, the text of its arguments naming the same
// objects in each instantiation.
#include "LibraryCalls.h"

#include "../Instantiations.h"

#include "clang/AST/ExprCXX.h"

#include <optional>

using namespace clang;

namespace sleuth::instrumenter {

using namespace library;

namespace {

struct DependentWrites {
  const CallExpr *Call; // in one instantiation, whose arguments' text the pattern's is
  WrittenArguments Writes;
};

// True if E, an expression of a template pattern, may become a call of the library in an
// instantiation: a call whose callee waits for it, or an operator of dependent type.
bool waitsForInstantiation(const Expr *E) {
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return !Call->getDirectCallee() && Call->isTypeDependent();
  if (isa<BinaryOperator, UnaryOperator>(E))
    return E->isTypeDependent();
  return false;
}

// The operands of E in the order of its instantiations' arguments (an operator's object
// first).
std::vector<const Expr *> operandsOf(const Expr *E) {
  if (const auto *Call = dyn_cast<CallExpr>(E))
    return {Call->arg_begin(), Call->arg_end()};
  if (const auto *B = dyn_cast<BinaryOperator>(E))
    return {B->getLHS(), B->getRHS()};
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return {U->getSubExpr()};
  return {};
}

std::optional<DependentWrites> dependentWrites(const Expr *E, FunctionInstrumenter &F) {
  if (!F.isCxx() || !waitsForInstantiation(E) || F.Ctx.fileRange(E).isInvalid())
    return std::nullopt;
  std::vector<const CallExpr *> Calls = Instantiations::of(F.Ctx).callsOf(F.Function, E);
  if (Calls.empty())
    return std::nullopt;
  size_t Operands = operandsOf(E).size();
  bool Discarded = F.Ctx.isDiscarded(E);
  std::optional<DependentWrites> Found;
  for (const CallExpr *Call : Calls) {
    const FunctionDecl *Callee = Call->getDirectCallee();
    if (!Callee || !isLibraryFunction(Callee, F))
      return std::nullopt;
    WrittenArguments Writes = writtenArguments(Call, Callee, Discarded, F);
    for (unsigned I : Writes.Written)
      if (I >= Operands)
        return std::nullopt;
    for (unsigned I : Writes.Pointed)
      if (I >= Operands)
        return std::nullopt;
    if (Found && !(Found->Writes == Writes))
      return std::nullopt; // the instantiations disagree: left as it was
    Found = DependentWrites{Call, std::move(Writes)};
  }
  if (Found->Writes.Written.empty() && Found->Writes.Pointed.empty())
    return std::nullopt;
  return Found;
}

} // namespace

bool LibraryCallProbe::instrumentDependent(const Expr *E, FunctionInstrumenter &F) {
  if (const auto *Call = dyn_cast<CallExpr>(E);
      Call && F.isCxx() && waitsForInstantiation(Call) &&
      isa<CXXDependentScopeMemberExpr, UnresolvedMemberExpr>(Call->getCallee()->IgnoreParens()))
    return instrumentDependentMember(Call, Instantiations::of(F.Ctx).callsOf(F.Function, Call), F);
  std::optional<DependentWrites> Found = dependentWrites(E, F);
  if (!Found)
    return false;
  recordPointedWrites(E, Found->Call, Found->Writes, F);
  recordWrittenArguments(E, Found->Call, Found->Writes, F);
  return true;
}

bool LibraryCallProbe::writesDependentOperand(const Expr *E, const Expr *Operand,
                                              FunctionInstrumenter &F) {
  if (!waitsForInstantiation(E))
    return false;
  std::optional<DependentWrites> Found = dependentWrites(E, F);
  if (!Found)
    return false;
  std::vector<const Expr *> Operands = operandsOf(E);
  for (unsigned I : Found->Writes.Written)
    if (Operands[I]->IgnoreParens() == Operand->IgnoreParens())
      return true;
  return false;
}

} // namespace sleuth::instrumenter
