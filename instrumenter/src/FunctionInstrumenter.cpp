#include "FunctionInstrumenter.h"

#include "probes/Probes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ExprConcepts.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/CFGStmtMap.h"
#include "llvm/Support/xxhash.h"

#include <map>

using namespace clang;

namespace sleuth::instrumenter {

FunctionInstrumenter::FunctionInstrumenter(Context &Ctx, const FunctionDecl *Function,
                                           std::string Name)
    : Ctx(Ctx), Function(Function), Name(std::move(Name)) {}

unsigned FunctionInstrumenter::calleeKey(const FunctionDecl *F) {
  // Identifies a callee by its qualified name, so that a function entered from an
  // uninstrumented caller (a callback) is not taken for the callee of an older call.
  std::string N = F->getQualifiedNameAsString();
  unsigned Key = unsigned(llvm::xxh3_64bits(N));
  return Key ? Key : 1;
}

std::string FunctionInstrumenter::displayName(const FunctionDecl *F) {
  if (const auto *M = dyn_cast<CXXMethodDecl>(F))
    if (M->getParent()->isLambda()) {
      // `main::<lambda>`: the enclosing function's name tells lambdas apart well enough.
      const DeclContext *DC = M->getParent()->getDeclContext();
      while (DC && !isa<FunctionDecl>(DC))
        DC = DC->getParent();
      std::string Outer = DC ? displayName(cast<FunctionDecl>(DC)) : std::string("");
      return Outer.empty() ? "<lambda>" : Outer + "::<lambda>";
    }
  std::string N = F->getQualifiedNameAsString();
  return N.empty() ? "<anonymous>" : N;
}

unsigned FunctionInstrumenter::addSite(SiteKind Kind, const Stmt *Anchor, SourceLocation Loc,
                                       std::string SiteName, unsigned Flags) {
  Site S;
  S.Kind = Kind;
  S.Flags = Flags;
  SourceLocation L = Ctx.SM.getFileLoc(Loc);
  S.Line = Ctx.SM.getSpellingLineNumber(L);
  S.Column = Ctx.SM.getSpellingColumnNumber(L);
  S.Function = FunctionId;
  S.Name = std::move(SiteName);
  unsigned Id = Ctx.Sites->add(std::move(S));
  if (Anchor)
    Anchors.emplace_back(Id, Anchor);
  return Id;
}

void FunctionInstrumenter::mapTerminator(const Stmt *Terminator, unsigned Site) {
  TerminatorSites[Terminator] = Site;
}

bool FunctionInstrumenter::hasHiddenReturn(const Stmt *S) const {
  if (!S || isa<LambdaExpr, BlockExpr>(S))
    return false;
  if (const auto *R = dyn_cast<ReturnStmt>(S))
    return Ctx.expansionRange(R).isInvalid();
  for (const Stmt *Child : S->children())
    if (hasHiddenReturn(Child))
      return true;
  return false;
}

bool FunctionInstrumenter::run() {
  const Stmt *Body = Function->getBody();
  if (!Body || !isa<CompoundStmt>(Body))
    return false;
  CharSourceRange R = Ctx.fileRange(Body);
  if (R.isInvalid())
    return false;
  // C has no destructors: a return the rewriter cannot see (written by a macro) would leave the
  // runtime's frame behind. Such a function is left as it was.
  if (Ctx.isC() && hasHiddenReturn(Body))
    return false;
  SourceLocation Begin = Ctx.SM.getFileLoc(Function->getBeginLoc());
  FunctionId = Ctx.Sites->addFunction(
      FunctionEntry{Ctx.SM.getSpellingLineNumber(Begin),
                    Ctx.SM.getSpellingLineNumber(Ctx.SM.getFileLoc(Body->getEndLoc())), Name});
  Locals.compute(Function, FunctionId, Ctx);
  walk(Body);
  FrameProbe::instrumentEntry(*this);
  computeControlDependences();
  return true;
}

// Subtrees that are not evaluated at run time, or must stay constant expressions, or belong to
// another function: no probe may go there.
static bool isOffLimits(const Stmt *S) {
  if (isa<UnaryExprOrTypeTraitExpr, CXXNoexceptExpr, ConstantExpr, LambdaExpr, CXXDefaultArgExpr,
          CXXDefaultInitExpr, OpaqueValueExpr, PseudoObjectExpr, AsmStmt, BlockExpr, RequiresExpr,
          TypeTraitExpr, ArrayTypeTraitExpr, ExpressionTraitExpr, CoroutineBodyStmt, CoreturnStmt,
          CoawaitExpr, CoyieldExpr, SEHTryStmt>(S))
    return true;
  if (const auto *T = dyn_cast<CXXTypeidExpr>(S))
    return !T->isPotentiallyEvaluated();
  if (const auto *E = dyn_cast<Expr>(S))
    if (E->isValueDependent() && isa<DeclRefExpr, DependentScopeDeclRefExpr>(E))
      return false;
  return false;
}

void FunctionInstrumenter::walk(const Stmt *S) {
  if (!S || isOffLimits(S))
    return;
  if (const auto *G = dyn_cast<GenericSelectionExpr>(S)) {
    if (!G->isResultDependent())
      walk(G->getResultExpr());
    return;
  }
  if (const auto *If = dyn_cast<IfStmt>(S)) {
    if (If->isConsteval())
      return;
    if (If->isConstexpr()) { // the condition must stay constant
      walk(If->getThen());
      walk(If->getElse());
      return;
    }
  }
  if (const auto *For = dyn_cast<CXXForRangeStmt>(S)) {
    // The implicit __range/__begin/__end statements have no spelling of their own.
    unsigned Before = Probes;
    walk(For->getInit());
    walk(For->getRangeInit());
    walk(For->getBody());
    ProbesInside[S] = Probes - Before;
    RangeForProbe::instrument(For, *this);
    return;
  }
  if (const auto *D = dyn_cast<DeclStmt>(S)) {
    for (const Decl *Dc : D->decls())
      if (const auto *V = dyn_cast<VarDecl>(Dc))
        if (V->hasLocalStorage() && !V->isConstexpr() && V->getInit())
          walk(V->getInit());
    visit(S);
    return;
  }
  unsigned Before = Probes;
  // With a condition variable (`if (T x = init)`), the condition is an implicit use of x whose
  // range is the declarator: walk the declaration, not the condition.
  const Stmt *SkippedCondition = nullptr;
  if (const auto *If = dyn_cast<IfStmt>(S); If && If->getConditionVariable())
    SkippedCondition = If->getCond();
  else if (const auto *W = dyn_cast<WhileStmt>(S); W && W->getConditionVariable())
    SkippedCondition = W->getCond();
  else if (const auto *F = dyn_cast<ForStmt>(S); F && F->getConditionVariable())
    SkippedCondition = F->getCond();
  else if (const auto *Sw = dyn_cast<SwitchStmt>(S); Sw && Sw->getConditionVariable())
    SkippedCondition = Sw->getCond();
  for (const Stmt *Child : S->children())
    if (Child != SkippedCondition)
      walk(Child);
  visit(S);
  if (const auto *E = dyn_cast<Expr>(S)) {
    MacroReadProbe::instrument(E, *this);
    AssertionProbe::instrument(S, *this);
    ProbesInside[S] = Probes - Before;
    if (Ctx.isDiscarded(E))
      DiscardProbe::instrument(E, Before, *this);
  }
}

void FunctionInstrumenter::visit(const Stmt *S) {
  if (const auto *Cast = dyn_cast<ImplicitCastExpr>(S)) {
    if (Cast->getCastKind() == CK_LValueToRValue)
      ReadProbe::instrument(Cast, *this);
    return;
  }
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
    ReadProbe::instrumentDependent(Ref, *this);
    return;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(S)) {
    if (B->isAssignmentOp())
      WriteProbe::instrument(B, *this);
    else if (B->isLogicalOp())
      BranchProbe::instrument(B, *this);
    return;
  }
  if (const auto *C = dyn_cast<ConditionalOperator>(S)) {
    BranchProbe::instrument(C, *this);
    return;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(S)) {
    if (U->isIncrementDecrementOp())
      WriteProbe::instrument(U, *this);
    return;
  }
  if (const auto *D = dyn_cast<DeclStmt>(S)) {
    DeclarationProbe::instrument(D, *this);
    return;
  }
  if (isa<IfStmt, WhileStmt, DoStmt, ForStmt, SwitchStmt>(S)) {
    ConditionProbe::instrument(S, *this);
    return;
  }
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    if (!LibraryCallProbe::instrument(C, *this))
      CallProbe::instrument(C, *this);
    return;
  }
  if (const auto *R = dyn_cast<ReturnStmt>(S))
    FrameProbe::instrument(R, *this);
}

void FunctionInstrumenter::computeControlDependences() {
  Stmt *Body = const_cast<Stmt *>(Function->getBody());
  CFG::BuildOptions Options;
  Options.setAllAlwaysAdd();
  std::unique_ptr<CFG> Graph = CFG::buildCFG(Function, Body, &Ctx.Ast, Options);
  if (!Graph)
    return;
  ParentMap Parents(Body);
  std::unique_ptr<CFGStmtMap> Map(CFGStmtMap::Build(Graph.get(), &Parents));
  if (!Map)
    return;
  // Direct control dependences (the post-dominance frontier, not Clang's iterated one): a site
  // inside `if (b)` inside `while (a)` is controlled by b alone, as b itself is by a. The runtime
  // picks the latest executed of a site's controllers, which among the transitive ones was the
  // same test; with the direct ones most sites have one, which the inline writes of runtime.h
  // resolve without a call, and the others fewer to search.
  CFGPostDomTree PostDominators(Graph.get());
  auto &Tree = PostDominators.getBase();
  llvm::DenseMap<const CFGBlock *, llvm::SmallVector<const CFGBlock *, 2>> Direct;
  for (const CFGBlock *Branch : *Graph) {
    if (!Branch || Branch->succ_size() < 2)
      continue;
    auto *BranchNode = Tree.getNode(const_cast<CFGBlock *>(Branch));
    if (!BranchNode)
      continue;
    auto *Stop = BranchNode->getIDom();
    for (const CFGBlock::AdjacentBlock &Successor : Branch->succs()) {
      CFGBlock *Target = Successor.getReachableBlock();
      if (!Target)
        continue;
      // Every block from the successor up to (not including) the branch's immediate
      // post-dominator runs only if the branch went that way.
      for (auto *Runner = Tree.getNode(Target); Runner && Runner != Stop && Runner->getBlock();
           Runner = Runner->getIDom()) {
        auto &Controllers = Direct[Runner->getBlock()];
        if (!llvm::is_contained(Controllers, Branch))
          Controllers.push_back(Branch);
      }
    }
  }
  // A test's own condition may span several blocks (`(a || b) && c`), and a loop test controls
  // itself: those branches, and branches that are no test site at all (the `a &&` of an
  // unrecorded condition), stand for the tests that control them in turn.
  llvm::DenseSet<unsigned> TestSites;
  for (const auto &Entry : TerminatorSites)
    TestSites.insert(Entry.second);
  std::map<std::pair<const CFGBlock *, unsigned>, std::vector<unsigned>> Cache;
  for (auto &[SiteId, Anchor] : Anchors) {
    const CFGBlock *Block = Map->getBlock(const_cast<Stmt *>(Anchor));
    if (!Block)
      continue;
    unsigned Self = TestSites.contains(SiteId) ? SiteId : ~0u;
    auto [It, Inserted] = Cache.try_emplace({Block, Self});
    if (Inserted) {
      llvm::SmallPtrSet<const CFGBlock *, 8> Seen;
      llvm::SmallVector<const CFGBlock *, 8> Work(Direct.lookup(Block));
      while (!Work.empty()) {
        const CFGBlock *Controller = Work.pop_back_val();
        if (!Seen.insert(Controller).second)
          continue;
        const Stmt *T = Controller->getTerminatorStmt();
        auto Found = T ? TerminatorSites.find(T) : TerminatorSites.end();
        if (Found == TerminatorSites.end() || Found->second == Self) {
          llvm::append_range(Work, Direct.lookup(Controller));
          continue;
        }
        if (!llvm::is_contained(It->second, Found->second))
          It->second.push_back(Found->second);
      }
      // Innermost first: sites are numbered in post-order, so a nested test has a smaller id
      // than the tests around it, and it is most often the one executed last, with which the
      // runtime's search for the latest controller can stop early.
      llvm::sort(It->second);
    }
    (*Ctx.Sites)[SiteId].Controllers = It->second;
  }
}

} // namespace sleuth::instrumenter
