// Locals whose origin the instrumented function keeps in a companion local instead of the
// runtime's shadow memory.
//
// A scalar local or parameter whose every use is a read, a write by assignment or ++/--, or an
// unevaluated operand (sizeof) can be reached under no other name: no pointer or reference to
// it exists. So can a structured binding of a bit-field of a copy (`auto [on, level] = f;`),
// which has no address for the shadow memory to track at all. Its origin (1 + the node that last
// wrote it) then lives in `unsigned
// __sleuth_o<function>_<n>`, declared at the top of the body, where no jump can bypass it:
// reading the variable pushes that value inline (sleuth_use), writing it asks the runtime for
// the new one (sleuth_def). No shadow lookup, no shadow update, and the variable's own address
// is never taken, so the compiler keeps it in a register as in the uninstrumented build.
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"

#include <string>
#include <vector>

namespace sleuth::instrumenter {

class Context;

class LocalOrigins {
public:
  /// Finds the function's locals and parameters that qualify. In a template pattern only those
  /// of a type that waits for no instantiation, whose every use Clang resolved to a plain read
  /// or write there: a use the instantiation resolves (an argument of a dependent call, an
  /// operand of a possibly overloaded operator) might bind a reference, and strikes it out.
  void compute(const clang::FunctionDecl *Function, unsigned FunctionId, Context &Ctx);

  /// The companion of `V` (a variable or a binding), or null if V keeps its origin in the
  /// shadow memory.
  const std::string *companion(const clang::ValueDecl *V) const;
  /// The companion of the variable or binding that `E` names (through parentheses), or null.
  const std::string *companion(const clang::Expr *E) const;

  /// The companions' declarations as locals of type Type, for the top of the body (C89 allows
  /// them there).
  std::string declarations(const std::string &Type) const;
  /// The companions, each cast to void and followed by Separator: a use, so that a variable
  /// never read leaves no unused companion (`__attribute__((unused))` would trip clang's
  /// -Wused-but-marked-unused where it is read).
  std::string uses(const std::string &Separator) const;
  bool empty() const { return Order.empty(); }

private:
  llvm::DenseMap<const clang::ValueDecl *, unsigned> Index;
  std::vector<std::string> Order; // companion names, by index
};

} // namespace sleuth::instrumenter
