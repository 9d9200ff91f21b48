// Instruments one function body: walks it in post-order, asks each probe kind to instrument
// the node, then computes the static control dependences of the sites it created.
#pragma once

#include "Context.h"
#include "LocalOrigins.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

namespace sleuth::instrumenter {

class FunctionInstrumenter {
public:
  FunctionInstrumenter(Context &Ctx, const clang::FunctionDecl *Function, std::string Name);

  /// Returns false if the function must be left as it was.
  bool run();

  // --- used by the probes -------------------------------------------------------------------
  Context &Ctx;
  const clang::FunctionDecl *Function;
  std::string Name; // as shown in the dependence file
  unsigned FunctionId = 0;
  /// Locals and parameters whose origins live in companion locals.
  LocalOrigins Locals;

  /// Creates a site anchored at `Anchor` (whose CFG block decides the site's controllers).
  unsigned addSite(SiteKind Kind, const clang::Stmt *Anchor, clang::SourceLocation Loc,
                   std::string SiteName, unsigned Flags = 0);
  /// Control-flow decisions inside the condition of test `Site` (&&, ||, ?:) map to it.
  void mapTerminator(const clang::Stmt *Terminator, unsigned Site);
  /// Number of probes emitted so far (lets a probe tell whether a subtree read anything).
  unsigned probeCount() const { return Probes; }
  void countProbe() { ++Probes; }

  /// Nodes whose pending reads a probe already consumes (no discard needed).
  void markConsumed(const clang::Stmt *S) { Consumed.insert(S); }
  bool isConsumed(const clang::Stmt *S) const { return Consumed.contains(S); }
  /// True if a probe was emitted inside E (an argument that reads something).
  bool hasProbesInside(const clang::Expr *E) const {
    auto I = ProbesInside.find(E);
    return I != ProbesInside.end() && I->second > 0;
  }

  /// Locals and parameters read inside the macro expansion that an expression is, by
  /// expression (MacroReadProbe).
  llvm::MapVector<const clang::Expr *, std::vector<const clang::VarDecl *>> MacroReads;

  bool isCxx() const { return !Ctx.isC(); }
  static unsigned calleeKey(const clang::FunctionDecl *F);
  static std::string displayName(const clang::FunctionDecl *F);

private:
  bool hasHiddenReturn(const clang::Stmt *S) const;
  void walk(const clang::Stmt *S);
  void visit(const clang::Stmt *S);
  void computeControlDependences();

  unsigned Probes = 0;
  std::vector<std::pair<unsigned, const clang::Stmt *>> Anchors;
  llvm::DenseMap<const clang::Stmt *, unsigned> TerminatorSites;
  llvm::DenseMap<const clang::Stmt *, unsigned> ProbesInside;
  llvm::DenseSet<const clang::Stmt *> Consumed;
};

} // namespace sleuth::instrumenter
