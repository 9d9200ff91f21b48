// The statements of a template pattern and of one of its instantiations, paired by the source
// they are spelled by. A pattern's CFG lacks what only an instantiation has: a range-for over a
// range of dependent type has no loop in it until its implicit statements exist. Control
// dependences of such a pattern are computed on an instantiation's CFG and mapped back.
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "llvm/ADT/DenseMap.h"

#include <map>
#include <tuple>

namespace sleuth::instrumenter {

class StmtCorrespondence {
public:
  StmtCorrespondence(const clang::FunctionDecl *Pattern, const clang::FunctionDecl *Instance);

  const clang::FunctionDecl *instance() const { return InstanceFunction; }

  /// True if Body holds a range-for whose implicit statements wait for the instantiation.
  static bool hasDependentRangeFor(const clang::Stmt *Body);

  /// The instance's statement spelled as S of the pattern is (of S's class if there is one,
  /// else the outermost spelled by the same range); null if the instance has none.
  const clang::Stmt *inInstance(const clang::Stmt *S) const;
  /// The pattern's statement spelled as S of the instance is, alike; null if there is none.
  const clang::Stmt *inPattern(const clang::Stmt *S) const;

private:
  /// Statements by (begin, end, class), and by (begin, end) alone, the outermost first.
  struct Index {
    std::map<std::tuple<unsigned, unsigned, unsigned>, const clang::Stmt *> ByClass;
    std::map<std::pair<unsigned, unsigned>, const clang::Stmt *> ByRange;
    void add(const clang::Stmt *Body);
    const clang::Stmt *find(const clang::Stmt *S) const;
  };
  const clang::FunctionDecl *InstanceFunction;
  Index Pattern, Instance;
};

} // namespace sleuth::instrumenter
