// How control may leave a basic block of Clang's CFG other than through the block's own
// out-edges. Coverage mode derives a block's count from the counts of its out-edges (and an
// out-edge's count from its block's) only where that cannot happen: a run that dies inside a
// block, or an exception or longjmp that leaves it, would make such a count wrong.
#pragma once

#include "clang/AST/ASTContext.h"
#include "clang/Analysis/CFG.h"

#include <map>

namespace sleuth::instrumenter {

class AbnormalExits {
public:
  explicit AbnormalExits(clang::ASTContext &Ast) : Ast(Ast) {}

  /// True if the run may end inside B or control may leave B otherwise than by its out-edges:
  /// any call, any access through a pointer or reference (a fault), an integer division, a
  /// throw. The exact placement relies on B's out-edges only where this is false.
  bool mayDie(const clang::CFGBlock &B);
  /// True if control may leave B by an exception or a longjmp (or come back into it through
  /// setjmp), which happens in runs that go on. A run that *ends* inside B (a fault, `exit` in
  /// a callee) does not count. The minimal placement relies on B's out-edges only where this
  /// is false, as gcov does with its fake edges after calls.
  bool mayEscape(const clang::CFGBlock &B);
  /// The same for one element of a block (a statement or expression, not its children).
  bool mayDie(const clang::Stmt *S) { return mayFault(S) || mayThrowOrJump(S, 0); }
  bool mayEscape(const clang::Stmt *S) { return mayThrowOrJump(S, 0); }

private:
  clang::ASTContext &Ast;
  std::map<const clang::FunctionDecl *, int> Normal; // 1 returns normally, 0 not, -1 in progress

  bool mayFault(const clang::Stmt *S);
  bool mayThrowOrJump(const clang::Stmt *S, unsigned Depth);
  bool returnsNormally(const clang::FunctionDecl *F, unsigned Depth);
  bool bodyReturnsNormally(const clang::Stmt *S, unsigned Depth);
};

} // namespace sleuth::instrumenter
