// Reads of kept locals whose origin is known when the function is instrumented.
//
// A kept local's origin lives in its companion (LocalOrigins.h), which only the entry probe and
// the local's instrumented writes assign. Where one such assignment reaches a read on every path
// (reaching definitions over Clang's CFG, each write applied just after its element), the
// companion holds the same node there in every run, and the read's edge needs no check at run
// time: FunctionInstrumenter drops the probe and lists the edge in the unit's table of static
// data edges (sleuth_tu::static_data), which the runtime writes out for the nodes that ran.
#pragma once

#include "clang/AST/Decl.h"
#include "clang/AST/Stmt.h"
#include "clang/Analysis/CFG.h"
#include "llvm/ADT/DenseMap.h"

#include <memory>
#include <optional>
#include <vector>

namespace sleuth::instrumenter {

class StaticOrigins {
public:
  /// Kept local V's companion is assigned `base + Site` right after the CFG element Anchor runs
  /// (an assignment, a ++/--, or V's initializer). Exact is false where the assignment comes
  /// later than that (after the whole declaration statement): what it reaches is then unknown.
  void noteWrite(const clang::VarDecl *V, const clang::Stmt *Anchor, unsigned Site, bool Exact);
  /// Parameter P's companion is set to `base + Site` on entry.
  void noteParameter(const clang::VarDecl *P, unsigned Site);

  /// Solves reaching definitions for the noted writes. Leaves every read dynamic in a function
  /// that calls setjmp (a longjmp back reaches reads along no edge of the CFG) or has a try
  /// statement (Clang's CFG does not model exceptional edges), or whose CFG cannot be built.
  void analyse(const clang::FunctionDecl *Function, clang::ASTContext &Ast, bool Enabled);

  /// The site whose write of V reaches element At (before At's own write, if At writes V) on
  /// every path from the entry; none if several may, or none, or V's value there is the one
  /// it had on entry (no write of a local yet: the companion is zero or from an earlier
  /// iteration).
  std::optional<unsigned> reaching(const clang::VarDecl *V, const clang::Stmt *At) const;

private:
  /// What reaches a point for one local: one definition, or several (Many).
  static constexpr unsigned Many = ~0u, Entry = ~0u - 1;
  using State = llvm::DenseMap<const clang::VarDecl *, unsigned>;
  struct Write {
    const clang::VarDecl *Var;
    unsigned Site; // Many: an inexact write
  };
  static void join(State &Into, const State &From);
  void apply(State &S, const clang::Stmt *Element) const;

  llvm::DenseMap<const clang::Stmt *, std::vector<Write>> Writes;
  llvm::DenseMap<const clang::VarDecl *, unsigned> Parameters;
  std::unique_ptr<clang::CFG> Graph;
  std::vector<State> In;     // by block id
  std::vector<bool> Reached; // by block id: reachable from the entry
  llvm::DenseMap<const clang::Stmt *, std::pair<const clang::CFGBlock *, unsigned>> Position;
  llvm::DenseMap<const clang::VarDecl *, bool> Unanchored; // a write whose element the CFG lacks
};

} // namespace sleuth::instrumenter
