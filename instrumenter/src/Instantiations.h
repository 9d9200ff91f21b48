// The instantiations of a translation unit's templates. The rewriter instruments a template's
// pattern, once for every instantiation; where the pattern leaves a call to the instantiation
// (`in >> t`, `std::swap(a, b)` with arguments of dependent type), the instantiations say what
// it calls.
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/DenseMap.h"

#include <vector>

namespace sleuth::instrumenter {

class Context;

class Instantiations {
public:
  /// The unit's index, made on first use.
  static Instantiations &of(Context &Ctx);

  /// The calls that E, an expression of the body of the template pattern Pattern (a dependent
  /// call, or an operator of dependent type), is in each of Pattern's instantiations in this
  /// unit, one per instantiation: the call spelled by the same characters, not an implicit
  /// conversion's. Empty if Pattern has no instantiation here, or one has no such call.
  std::vector<const clang::CallExpr *> callsOf(const clang::FunctionDecl *Pattern,
                                               const clang::Expr *E) const;

  /// Pattern's instantiations with a body in this unit, in the order met; empty if none.
  llvm::ArrayRef<const clang::FunctionDecl *>
  instancesOf(const clang::FunctionDecl *Pattern) const {
    if (auto Found = Of.find(Pattern); Found != Of.end())
      return Found->second;
    return {};
  }

private:
  explicit Instantiations(Context &Ctx);
  /// By pattern, the instantiations with a body (of a function template, of a member of a
  /// class template, of a lambda in either), outside system headers.
  llvm::DenseMap<const clang::FunctionDecl *, std::vector<const clang::FunctionDecl *>> Of;
  /// callsOf's answers, by expression.
  mutable llvm::DenseMap<const clang::Expr *, std::vector<const clang::CallExpr *>> Calls;
};

} // namespace sleuth::instrumenter
