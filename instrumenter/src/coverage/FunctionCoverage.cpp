#include "FunctionCoverage.h"

#include "AbnormalExits.h"
#include "Counters.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Analysis/CFG.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <set>

using namespace clang;

namespace sleuth::instrumenter {
namespace {

const Stmt *firstStatement(const CFGBlock &B) {
  for (const CFGElement &E : B)
    if (std::optional<CFGStmt> S = E.getAs<CFGStmt>())
      return S->getStmt();
  return nullptr;
}

const Stmt *lastStatement(const CFGBlock &B) {
  if (const Stmt *T = B.getTerminatorStmt())
    return T;
  for (auto I = B.rbegin(); I != B.rend(); ++I)
    if (std::optional<CFGStmt> S = I->getAs<CFGStmt>())
      return S->getStmt();
  return nullptr;
}

/// True if Child is evaluated only on one outcome of Parent's condition.
bool isConditionalOperand(const Stmt *Parent, const Stmt *Child) {
  if (const auto *C = dyn_cast<ConditionalOperator>(Parent))
    return Child == C->getTrueExpr() || Child == C->getFalseExpr();
  if (const auto *C = dyn_cast<BinaryConditionalOperator>(Parent))
    return Child == C->getFalseExpr();
  if (const auto *B = dyn_cast<BinaryOperator>(Parent))
    return B->isLogicalOp() && Child == B->getRHS();
  return false;
}

/// True if Child stands where a statement stands: in a block, or as the body of a control
/// statement or a label.
bool isStatementPosition(const Stmt *Parent, const Stmt *Child) {
  if (isa<CompoundStmt, CaseStmt, DefaultStmt, LabelStmt>(Parent))
    return true;
  if (const auto *If = dyn_cast<IfStmt>(Parent))
    return Child == If->getThen() || Child == If->getElse();
  if (const auto *W = dyn_cast<WhileStmt>(Parent))
    return Child == W->getBody();
  if (const auto *F = dyn_cast<ForStmt>(Parent))
    return Child == F->getBody();
  if (const auto *D = dyn_cast<DoStmt>(Parent))
    return Child == D->getBody();
  if (const auto *F = dyn_cast<CXXForRangeStmt>(Parent))
    return Child == F->getBody();
  return false;
}

/// The range-for whose loop variable's declaration S is part of, if any.
const CXXForRangeStmt *loopVariableOf(const Stmt *S, const ParentMap &Parents) {
  for (const Stmt *Child = S, *P = Parents.getParent(S); P; Child = P, P = Parents.getParent(P)) {
    if (const auto *For = dyn_cast<CXXForRangeStmt>(P))
      return Child == For->getLoopVarStmt() ? For : nullptr;
    if (isStatementPosition(P, Child))
      return nullptr;
  }
  return nullptr;
}

/// The expression whose value decides the branch at the end of a block: the terminator's
/// condition, and for `a && b` (whose left operand has a block of its own) the right operand.
const Expr *decidingExpression(const CFGBlock &B, ASTContext &Ast) {
  const Stmt *T = B.getTerminatorStmt();
  if (!T || B.succ_size() != 2)
    return nullptr;
  if (const auto *If = dyn_cast<IfStmt>(T)) {
    if (If->isConstexpr() || If->isConsteval() || If->getConditionVariable())
      return nullptr;
  } else if (const auto *W = dyn_cast<WhileStmt>(T)) {
    if (W->getConditionVariable())
      return nullptr;
  } else if (const auto *F = dyn_cast<ForStmt>(T)) {
    if (F->getConditionVariable())
      return nullptr;
  } else if (!isa<DoStmt, ConditionalOperator, BinaryOperator>(T)) {
    return nullptr; // range-for, `?:` without middle operand, switch, indirect goto…
  }
  const Stmt *C = const_cast<CFGBlock &>(B).getTerminatorCondition(/*StripParens=*/false);
  const auto *E = dyn_cast_or_null<Expr>(C);
  // A condition that Clang's CFG evaluates as a value first (a do-while's `a && b`: a's false
  // edge and b's block join in this block, which holds the `&&` and then branches): the whole
  // condition decides the branch, not its right operand, which runs on one path into it only.
  if (const auto *Logical = E ? dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts()) : nullptr;
      Logical && Logical->isLogicalOp())
    for (const CFGElement &Element : B)
      if (std::optional<CFGStmt> S = Element.getAs<CFGStmt>(); S && S->getStmt() == Logical)
        return E;
  while (E) {
    const auto *Op = dyn_cast<BinaryOperator>(E->IgnoreParenImpCasts());
    if (!Op || !Op->isLogicalOp())
      break;
    E = Op->getRHS();
  }
  if (!E)
    return nullptr;
  // `while (1)`, `for (;;)`-style constants: nothing to learn, and no need to slow the loop.
  if (!E->isValueDependent() && !E->isTypeDependent() && E->isIntegerConstantExpr(Ast))
    return nullptr;
  return E;
}

/// True if E is part of an expression the compiler must evaluate as a constant (a constexpr
/// `if` condition, a case label, a constexpr variable's initializer, a template argument):
/// a counter increment there would not compile.
bool isConstantEvaluated(const Stmt *E, const ParentMap &Parents) {
  for (const Stmt *Child = E, *P = Parents.getParent(E); P; Child = P, P = Parents.getParent(P)) {
    if (isa<ConstantExpr>(P))
      return true;
    if (const auto *If = dyn_cast<IfStmt>(P))
      if ((If->isConstexpr() || If->isConsteval()) && Child == If->getCond())
        return true;
    if (const auto *DS = dyn_cast<DeclStmt>(P))
      for (const Decl *D : DS->decls())
        if (const auto *V = dyn_cast<VarDecl>(D); V && V->isConstexpr())
          return true;
  }
  return false;
}

/// Solves the flow equations for the blocks and edges whose counts are not measured.
class FlowSolver {
public:
  FlowSolver(const CFG &Graph) : Graph(Graph) {
    Blocks.resize(Graph.getNumBlockIDs());
    for (const CFGBlock *B : Graph)
      for (auto I = B->succ_begin(); I != B->succ_end(); ++I)
        if (const CFGBlock *To = I->getReachableBlock()) {
          unsigned Id = unsigned(Edges.size());
          Edges.push_back(Edge{B->getBlockID(), To->getBlockID(), std::nullopt});
          Blocks[B->getBlockID()].Out.push_back(Id);
          Blocks[To->getBlockID()].In.push_back(Id);
          EdgeIds[{B->getBlockID(), unsigned(I - B->succ_begin())}] = Id;
        }
    for (const CFGBlock *B : Graph)
      if (B->hasNoReturnElement())
        NoReturn.insert(B->getBlockID());
  }

  struct Edge {
    unsigned From, To;
    std::optional<CountFormula> Count;
  };
  struct Block {
    std::vector<unsigned> In, Out;
    std::optional<CountFormula> Count;
  };

  std::vector<Block> Blocks;
  std::vector<Edge> Edges;
  std::map<std::pair<unsigned, unsigned>, unsigned> EdgeIds; // (block, successor index) -> edge

  static CountFormula counter(unsigned C) { return CountFormula{{C, 1}}; }

  void solve() {
    while (true) {
      if (exactStep())
        continue;
      if (approximateStep())
        continue;
      // Whatever is left cannot be told apart (two unmeasured ways into one block, conditions
      // inside macros): count one unknown edge as never taken and go on. Ways into a block
      // that ends the program (an assert's failure branch) are the safest guess; then one
      // outcome of a branch, whose other outcomes the rules then give the block's whole count
      // (`MAX(a, b)`'s `?:`). A guess on an edge that is its block's only way out (the exit's,
      // first in the list) counted the path that did run as never taken.
      bool Guessed = false;
      for (int Pass = 0; Pass < 3 && !Guessed; ++Pass)
        for (Edge &E : Edges)
          if (!E.Count && (Pass == 2 || (Pass == 0 && NoReturn.count(E.To)) ||
                           (Pass == 1 && Blocks[E.From].Out.size() > 1))) {
            E.Count = CountFormula{};
            Guessed = true;
            break;
          }
      if (!Guessed) {
        for (Block &B : Blocks)
          if (!B.Count)
            B.Count = CountFormula{};
        return;
      }
    }
  }

private:
  const CFG &Graph;

  static void add(CountFormula &Sum, const CountFormula &F, int Sign) {
    for (auto [C, K] : F) {
      int &Slot = Sum[C];
      Slot += Sign * K;
      if (Slot == 0)
        Sum.erase(C);
    }
  }

  bool allKnown(const std::vector<unsigned> &Ids, unsigned Except = ~0u) const {
    for (unsigned E : Ids)
      if (E != Except && !Edges[E].Count)
        return false;
    return true;
  }

  CountFormula sum(const std::vector<unsigned> &Ids, unsigned Except = ~0u) const {
    CountFormula S;
    for (unsigned E : Ids)
      if (E != Except)
        add(S, *Edges[E].Count, 1);
    return S;
  }

  // Rules that hold in every run the placement vouches for: a block is entered through its
  // incoming edges; a block that nothing can leave abnormally (OutEdgesHold) is left through
  // its outgoing edges.
  bool exactStep() {
    bool Changed = false;
    for (unsigned B = 0; B < Blocks.size(); ++B) {
      Block &Blk = Blocks[B];
      Changed |= sideStep(Blk, Blk.In);
      if (OutEdgesHold[B])
        Changed |= sideStep(Blk, Blk.Out);
    }
    return Changed;
  }

  // One side of a block (its in-edges or out-edges) adds up to its count: the block's count
  // from the side, or the side's one unknown edge from the block's count and the others.
  bool sideStep(Block &Blk, const std::vector<unsigned> &Side) {
    bool Changed = false;
    if (!Blk.Count && !Side.empty() && allKnown(Side)) {
      Blk.Count = sum(Side);
      Changed = true;
    }
    if (Blk.Count)
      for (unsigned E : Side)
        if (!Edges[E].Count && allKnown(Side, E)) {
          CountFormula F = *Blk.Count;
          add(F, sum(Side, E), -1);
          Edges[E].Count = F;
          Changed = true;
        }
    return Changed;
  }

  // Where the placement could not measure enough (a block that begins inside a statement, a
  // condition in a macro): "a block is left through its outgoing edges" anyway. Forward
  // first, an out-edge from its block's count: if the run ended inside that block, the blocks
  // after it are one too high, but the block where it ended still shows as run. Backward (a
  // block's count from its out-edges) would hide exactly that block.
  bool approximateStep() {
    for (int Forward = 1; Forward >= 0; --Forward)
      for (unsigned B = 0; B < Blocks.size(); ++B) {
        Block &Blk = Blocks[B];
        if (!Forward && !Blk.Count && !Blk.Out.empty() && allKnown(Blk.Out)) {
          Blk.Count = sum(Blk.Out);
          return true;
        }
        if (!Forward || !Blk.Count)
          continue;
        for (unsigned E : Blk.Out)
          if (!Edges[E].Count && allKnown(Blk.Out, E)) {
            CountFormula F = *Blk.Count;
            add(F, sum(Blk.Out, E), -1);
            Edges[E].Count = F;
            return true;
          }
      }
    return false;
  }

public:
  std::vector<char> OutEdgesHold; // per block: nothing leaves it but its out-edges
  std::set<unsigned> NoReturn;    // blocks that end in a call that does not return
};

/// How many block and edge counts the flow rules give from the measured ones (Edge, Block):
/// "a block is entered through its in-edges" always, and "a block is left through its
/// out-edges" for the blocks where the placement vouches for it (S.OutEdgesHold).
size_t knownCounts(const FlowSolver &S, std::vector<char> Edge, std::vector<char> Block) {
  std::vector<unsigned> Work;
  std::vector<char> Queued(S.Blocks.size(), 1);
  for (unsigned B = 0; B < S.Blocks.size(); ++B)
    Work.push_back(B);
  auto Push = [&](unsigned B) {
    if (!Queued[B]) {
      Queued[B] = 1;
      Work.push_back(B);
    }
  };
  // One side of block B: its count is the sum of that side's edges.
  auto Side = [&](unsigned B, const std::vector<unsigned> &Ids) {
    unsigned Unknown = 0, Last = 0;
    for (unsigned E : Ids)
      if (!Edge[E]) {
        ++Unknown;
        Last = E;
      }
    if (!Block[B] && !Ids.empty() && Unknown == 0) {
      Block[B] = 1;
      Push(B);
    } else if (Block[B] && Unknown == 1) {
      Edge[Last] = 1;
      Push(S.Edges[Last].From);
      Push(S.Edges[Last].To);
    }
  };
  while (!Work.empty()) {
    unsigned B = Work.back();
    Work.pop_back();
    Queued[B] = 0;
    Side(B, S.Blocks[B].In);
    if (S.OutEdgesHold[B])
      Side(B, S.Blocks[B].Out);
  }
  return size_t(std::count(Edge.begin(), Edge.end(), 1) +
                std::count(Block.begin(), Block.end(), 1));
}

/// Loop statements around S (its own loop counts for a loop condition).
unsigned loopDepth(const Stmt *S, const ParentMap &Parents) {
  unsigned Depth = 0;
  for (const Stmt *P = Parents.getParent(S); P; P = Parents.getParent(P))
    Depth += isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(P);
  return Depth;
}

} // namespace

FunctionCoverage::FunctionCoverage(Context &Ctx, CoverageTable &Table, const FunctionDecl *Function,
                                   std::string Name)
    : Ctx(Ctx), Table(Table), Function(Function), Name(std::move(Name)) {}

bool FunctionCoverage::run() {
  const auto *Body = dyn_cast_or_null<CompoundStmt>(Function->getBody());
  if (!Body || Ctx.fileRange(Body).isInvalid())
    return false;
  CFG::BuildOptions Options;
  Options.setAllAlwaysAdd();
  std::unique_ptr<CFG> Graph =
      CFG::buildCFG(Function, const_cast<CompoundStmt *>(Body), &Ctx.Ast, Options);
  if (!Graph)
    return false;
  ParentMap Parents(const_cast<CompoundStmt *>(Body));
  auto IsInside = [&](const Stmt *S, const Stmt *Ancestor) {
    for (; S; S = Parents.getParent(S))
      if (S == Ancestor)
        return true;
    return false;
  };
  // True if every way into block B comes from outside statement T (so B begins where T does).
  std::function<bool(const CFGBlock &, const Stmt *, unsigned)> EnteredFromOutside =
      [&](const CFGBlock &B, const Stmt *T, unsigned Depth) {
        for (const CFGBlock *P : B.preds()) {
          if (!P)
            continue;
          if (P == &Graph->getEntry())
            continue;
          const Stmt *Last = lastStatement(*P);
          if (!Last) {
            if (Depth > 8 || !EnteredFromOutside(*P, T, Depth + 1))
              return false;
            continue;
          }
          if (IsInside(Last, T))
            return false;
        }
        return true;
      };

  SourceLocation Begin = Ctx.SM.getFileLoc(Function->getBeginLoc());
  CoverageFunction Fn;
  Fn.BeginLine = Ctx.SM.getSpellingLineNumber(Begin);
  Fn.EndLine = Ctx.SM.getSpellingLineNumber(Ctx.SM.getFileLoc(Body->getEndLoc()));
  Fn.Name = Name;
  unsigned FunctionId = unsigned(Table.Functions.size());
  unsigned BlockBase = unsigned(Table.Blocks.size());
  Fn.Entry = BlockBase + Graph->getEntry().getBlockID();
  Fn.Exit = BlockBase + Graph->getExit().getBlockID();

  FlowSolver Solver(*Graph);
  // Edits are queued in post-order (inner first): conditions, then statements, each sorted by
  // the length of what they wrap.
  struct Placement {
    unsigned Length;
    std::function<unsigned()> Apply; // returns the probes it placed
  };
  std::vector<Placement> ConditionEdits, StatementEdits;

  unsigned EntryCounter = Table.newCounter();
  Solver.Blocks[Graph->getEntry().getBlockID()].Count = FlowSolver::counter(EntryCounter);
  std::vector<CoverageCondition> Conditions;
  std::vector<unsigned> ConditionBlocks; // the CFG block of each of Conditions
  const CFGBlock *Entry = &Graph->getEntry();

  // Where counters can go: the deciding expression of each two-way branch, and the first
  // statement of each block that is not entered only from the entry or from one outcome of a
  // counted condition (those counts are known already).
  struct ConditionSite {
    unsigned Block;
    const Expr *Decider;
    CharSourceRange Range;
    bool CountTrue = true, CountFalse = true;
    bool CountBlock = false; // `(++k, COND)`: the block begins with the condition (a loop's)
  };
  struct StatementSite {
    unsigned Block;
    const Stmt *Statement, *Parent;
    bool Counted = true;
  };
  std::vector<ConditionSite> ConditionSites;
  std::vector<StatementSite> StatementSites;
  std::set<unsigned> CountedBranches;
  for (const CFGBlock *B : *Graph) {
    const Expr *D = decidingExpression(*B, Ctx.Ast);
    if (D && isConstantEvaluated(D, Parents))
      D = nullptr; // `if constexpr (a && b)`, `constexpr bool c = a || b;`: no counters there
    if (!D)
      continue;
    CharSourceRange R = ConditionCounter::range(Ctx, D);
    if (R.isValid()) {
      CountedBranches.insert(B->getBlockID());
      const Stmt *First = firstStatement(*B);
      // Only a block that begins with its condition (a loop's test, a `&&` operand) can be
      // counted there: the count of the condition's evaluations is the block's.
      bool BeginsWithCondition = First && IsInside(First, D) && B->pred_size() > 0;
      ConditionSites.push_back({B->getBlockID(), D, R, true, true, BeginsWithCondition});
    }
  }
  for (const CFGBlock *B : *Graph) {
    unsigned Id = B->getBlockID();
    const CFGBlock *OnlyPred =
        B->pred_size() == 1 ? static_cast<const CFGBlock *>(*B->pred_begin()) : nullptr;
    bool OnlyFromEntry = OnlyPred == Entry;
    bool OnlyFromCountedBranch = OnlyPred && CountedBranches.count(OnlyPred->getBlockID());
    if (B == Entry || B == &Graph->getExit() || OnlyFromEntry || OnlyFromCountedBranch)
      continue;
    const Stmt *First = firstStatement(*B);
    if (!First)
      continue;
    // A range-for's body block begins with the loop variable's initialization from
    // `*__begin`, which has no text of its own: the block is counted where the body begins.
    if (const CXXForRangeStmt *RangeFor = loopVariableOf(First, Parents);
        RangeFor && RangeFor->getBody() &&
        BlockCounter::canInstrument(Ctx, RangeFor->getBody(), RangeFor)) {
      StatementSites.push_back({Id, RangeFor->getBody(), RangeFor});
      continue;
    }
    const Stmt *T = First;
    const Stmt *P = Parents.getParent(T);
    while (P && !isStatementPosition(P, T) && !isConditionalOperand(P, T) &&
           !isa<LambdaExpr, StmtExpr, BlockExpr>(P)) {
      T = P;
      P = Parents.getParent(T);
    }
    while (P && isa<AttributedStmt>(P)) {
      T = P;
      P = Parents.getParent(T);
    }
    // Labels chained on one statement (`case 1: case 2: s;`) must stand in a block.
    const Stmt *Top = P;
    while (Top && isa<CaseStmt, DefaultStmt, LabelStmt>(Top))
      Top = Parents.getParent(Top);
    bool LabelInBlock =
        !P || !isa<CaseStmt, DefaultStmt, LabelStmt>(P) || (Top && isa<CompoundStmt>(Top));
    // A labelled block (case, label, catch) begins at its label; any other begins at T when
    // it is entered only from outside T (else it starts in the middle of T, after a `?:`
    // or `&&` operand). A block nothing leads to is dead code after a noreturn call.
    const Stmt *Label = B->getLabel();
    bool Reached = false;
    for (const CFGBlock *Pred : B->preds())
      Reached |= Pred != nullptr;
    bool BeginsHere = Label ? IsInside(T, Label) : Reached && EnteredFromOutside(*B, T, 0);
    if (P && isStatementPosition(P, T) && LabelInBlock && BeginsHere &&
        BlockCounter::canInstrument(Ctx, T, P))
      StatementSites.push_back({Id, T, P});
  }

  // Which blocks are left only through their out-edges. The exact placement relies on that
  // only where nothing in the block can end the run or jump away (no call, no access through
  // a pointer, no division): then every count holds also for a run that dies. The minimal
  // placement, as gcov does, also where only a fault or a call that ends the run could stop
  // the block half-way, but never across a call that may throw or longjmp: every count holds
  // for runs that go on, and a run that dies inside a block miscounts that block.
  bool Minimal = Ctx.MinimalCounters;
  AbnormalExits Exits(Ctx.Ast);
  Solver.OutEdgesHold.assign(Solver.Blocks.size(), 0);
  for (const CFGBlock *B : *Graph)
    Solver.OutEdgesHold[B->getBlockID()] = Minimal ? !Exits.mayEscape(*B) : !Exits.mayDie(*B);
  // A range-for's test (`__begin != __end`) and increment (`++__begin`) have no text for a
  // counter, and the body's count alone does not give them where the body may be left half-way
  // (a throw): their blocks are taken to be left through their out-edges, as iterators'
  // comparisons and increments are (an iterator of the program's that throws there is
  // miscounted).
  for (const CFGBlock *B : *Graph) {
    const Stmt *First = firstStatement(*B);
    for (const Stmt *Child = First, *P = First ? Parents.getParent(First) : nullptr; P;
         Child = P, P = Parents.getParent(P)) {
      if (const auto *For = dyn_cast<CXXForRangeStmt>(P)) {
        if (Child == For->getCond() || Child == For->getInc())
          Solver.OutEdgesHold[B->getBlockID()] = 1;
        break;
      }
      if (!isa<Expr>(P))
        break;
    }
  }

  // A `for` loop's entry: `++k;` before the statement counts the edge from the block that ends
  // with its init into its test, once per loop rather than once per iteration, where the init
  // cannot die (then the edge runs as often as the statement is reached). Knowing it, the flow
  // rules give the increment's count from the test's, which a body that may die does not.
  struct LoopEntrySite {
    unsigned Edge;
    const Stmt *Loop;
    const Stmt *Parent;
    bool Counted = true;
  };
  std::vector<LoopEntrySite> LoopEntrySites;
  for (const CFGBlock *Test : *Graph) {
    // A range-for's init is its implicit `__range`, `__begin` and `__end` (and an init-statement
    // of its own): the edge into its test is counted the same way. Its `__begin`/`__end` calls
    // are the iterators' (see above): they are taken not to die.
    const Stmt *For = Test->getTerminatorStmt();
    std::vector<const Stmt *> Init;
    bool ImplicitInit = false;
    if (const auto *Plain = dyn_cast_or_null<ForStmt>(For)) {
      if (Plain->getInit() && Plain->getCond())
        Init = {Plain->getInit()};
    } else if (const auto *Range = dyn_cast_or_null<CXXForRangeStmt>(For)) {
      for (const Stmt *S : {Range->getInit(), static_cast<const Stmt *>(Range->getRangeStmt()),
                            static_cast<const Stmt *>(Range->getBeginStmt()),
                            static_cast<const Stmt *>(Range->getEndStmt())})
        if (S)
          Init.push_back(S);
      ImplicitInit = !Range->getInit();
    }
    const Stmt *Parent = For && !Init.empty() ? Parents.getParent(For) : nullptr;
    if (!Parent || !isStatementPosition(Parent, For) ||
        !BlockCounter::canInstrument(Ctx, For, Parent))
      continue;
    auto InInit = [&](const Stmt *S) {
      return llvm::any_of(Init, [&](const Stmt *I) { return IsInside(S, I); });
    };
    // `switch (x) case 1: for (...)`: a statement before the loop would leave the switch.
    const Stmt *Top = Parent;
    while (Top && isa<CaseStmt, DefaultStmt, LabelStmt>(Top))
      Top = Parents.getParent(Top);
    if (Top != Parent && (!Top || !isa<CompoundStmt>(Top)))
      continue;
    // The way in: the one predecessor whose last statement is part of the init.
    const CFGBlock *Into = nullptr;
    unsigned Ways = 0;
    for (const CFGBlock *P : Test->preds())
      if (P) {
        const Stmt *Last = lastStatement(*P);
        if (Last && InInit(Last)) {
          Into = P;
          ++Ways;
        }
      }
    if (Ways != 1 || Into->succ_size() != 1)
      continue;
    bool InitMayDie = false;
    for (const CFGElement &E : *Into)
      if (std::optional<CFGStmt> S = E.getAs<CFGStmt>(); S && !ImplicitInit && InInit(S->getStmt()))
        InitMayDie |= Minimal ? Exits.mayEscape(S->getStmt()) : Exits.mayDie(S->getStmt());
    auto Edge = Solver.EdgeIds.find({Into->getBlockID(), 0});
    if (!InitMayDie && Edge != Solver.EdgeIds.end())
      LoopEntrySites.push_back({Edge->second, For, Parent});
  }

  // Exception handlers. Clang's CFG (without exception edges) has no way into a `try`'s
  // dispatch block, so a handler's count can only be measured: a counter right after its `{`.
  // The dispatch block then ran as often as its handlers; its other out-edge (an exception no
  // handler caught, passed on) is not measured and counts 0.
  struct HandlerSite {
    unsigned Block;
    const CompoundStmt *Body;
  };
  std::vector<HandlerSite> HandlerSites;
  // A `for` loop's increment begins a block of its own, entered from the body's end and from
  // `continue`s; where the flow rules cannot give its count, it is counted as it runs.
  struct IncrementSite {
    unsigned Block;
    const Expr *Increment;
    bool Counted = true;
  };
  std::vector<IncrementSite> IncrementSites;
  // The loop whose increment block B begins with (its first statement lies in the increment).
  auto IncrementOf = [&](const CFGBlock &B) -> const ForStmt * {
    const Stmt *First = firstStatement(B);
    if (!First || B.pred_size() == 0)
      return nullptr;
    for (const Stmt *Child = First, *P = Parents.getParent(First); P;
         Child = P, P = Parents.getParent(P)) {
      if (const auto *For = dyn_cast<ForStmt>(P))
        return Child == For->getInc() ? For : nullptr;
      if (!isa<Expr>(P))
        return nullptr;
    }
    return nullptr;
  };
  for (const CFGBlock *B : *Graph)
    if (const ForStmt *For = IncrementOf(*B))
      if (Ctx.fileRange(For->getInc()).isValid() && !isConstantEvaluated(For->getInc(), Parents))
        IncrementSites.push_back({B->getBlockID(), For->getInc()});
  std::vector<unsigned> PassedOn; // edges from dispatch blocks to anything but a handler
  for (const CFGBlock *B : *Graph) {
    if (const auto *Catch = dyn_cast_or_null<CXXCatchStmt>(B->getLabel()))
      if (const auto *Handler = dyn_cast_or_null<CompoundStmt>(Catch->getHandlerBlock());
          Handler && Ctx.fileRange(Handler).isValid())
        HandlerSites.push_back({B->getBlockID(), Handler});
    if (B->getTerminatorStmt() && isa<CXXTryStmt>(B->getTerminatorStmt())) {
      Solver.OutEdgesHold[B->getBlockID()] = 1;
      for (unsigned E : Solver.Blocks[B->getBlockID()].Out) {
        const CFGBlock *To = *std::find_if(Graph->begin(), Graph->end(), [&](const CFGBlock *C) {
          return C->getBlockID() == Solver.Edges[E].To;
        });
        if (!isa_and_nonnull<CXXCatchStmt>(To->getLabel())) {
          Solver.Edges[E].Count = CountFormula{};
          PassedOn.push_back(E);
        }
      }
    }
  }

  // Start from every counter that could go in (both outcomes of each condition, each block's
  // first statement, each loop test's block), then leave out any whose count the rules above
  // still give from the others, innermost loops first (their counters run most).
  {
    std::vector<char> Measured(Solver.Edges.size(), 0), BlockMeasured(Solver.Blocks.size(), 0);
    BlockMeasured[Entry->getBlockID()] = 1;
    for (const StatementSite &S : StatementSites)
      BlockMeasured[S.Block] = 1;
    for (const HandlerSite &H : HandlerSites)
      BlockMeasured[H.Block] = 1;
    for (const IncrementSite &I : IncrementSites)
      BlockMeasured[I.Block] = 1;
    for (unsigned E : PassedOn)
      Measured[E] = 1;
    for (const LoopEntrySite &L : LoopEntrySites)
      Measured[L.Edge] = 1;
    for (ConditionSite &C : ConditionSites) // a statement counter measures that block already
      C.CountBlock = C.CountBlock && !BlockMeasured[C.Block];
    auto EdgeOf = [&](unsigned Block, unsigned Successor) -> int {
      auto It = Solver.EdgeIds.find({Block, Successor});
      return It == Solver.EdgeIds.end() ? -1 : int(It->second);
    };
    for (const ConditionSite &C : ConditionSites) {
      for (unsigned Successor : {0u, 1u})
        if (int E = EdgeOf(C.Block, Successor); E >= 0)
          Measured[E] = 1;
      if (C.CountBlock)
        BlockMeasured[C.Block] = 1;
    }
    size_t Baseline = knownCounts(Solver, Measured, BlockMeasured);
    // Tries to do without one measurement; keeps it if some count would be lost. Each try
    // solves the flow rules over the whole CFG: past a budget (generated functions with tens
    // of thousands of blocks) the remaining counters stay rather than take quadratic time.
    const size_t Budget = 100'000'000;
    size_t Spent = 0, TryCost = Solver.Blocks.size() + 2 * Solver.Edges.size();
    auto TryDrop = [&](char &Flag) {
      if ((Spent += TryCost) > Budget)
        return false;
      Flag = 0;
      if (knownCounts(Solver, Measured, BlockMeasured) == Baseline)
        return true;
      Flag = 1;
      return false;
    };
    // (loop depth, site, what): deepest first; `for` increments (which the placement did not
    // count before it knew that a block may die) first, then per condition its block (once per
    // evaluation), its true outcome (once per iteration of a loop), its false one (once per
    // loop), then statements.
    enum What { BlockOfCondition, TrueOutcome, FalseOutcome, Statement, Increment, LoopEntry };
    struct Candidate {
      unsigned Depth;
      size_t Site;
      What Kind;
    };
    std::vector<Candidate> Candidates;
    for (size_t I = 0; I < IncrementSites.size(); ++I)
      Candidates.push_back({loopDepth(IncrementSites[I].Increment, Parents), I, Increment});
    // A range-for's body and entry counters go first: where the conditions inside the body
    // give its count, they are the ones left out.
    auto OfRangeFor = [](const Stmt *S) { return isa<CXXForRangeStmt>(S); };
    for (size_t I = 0; I < StatementSites.size(); ++I)
      if (OfRangeFor(StatementSites[I].Parent))
        Candidates.push_back({loopDepth(StatementSites[I].Statement, Parents), I, Statement});
    for (size_t I = 0; I < LoopEntrySites.size(); ++I)
      if (OfRangeFor(LoopEntrySites[I].Loop))
        Candidates.push_back({loopDepth(LoopEntrySites[I].Loop, Parents), I, LoopEntry});
    for (size_t I = 0; I < ConditionSites.size(); ++I)
      for (What Kind : {BlockOfCondition, TrueOutcome, FalseOutcome})
        if (Kind != BlockOfCondition || ConditionSites[I].CountBlock)
          Candidates.push_back({loopDepth(ConditionSites[I].Decider, Parents), I, Kind});
    for (size_t I = 0; I < StatementSites.size(); ++I)
      if (!OfRangeFor(StatementSites[I].Parent))
        Candidates.push_back({loopDepth(StatementSites[I].Statement, Parents), I, Statement});
    for (size_t I = 0; I < LoopEntrySites.size(); ++I)
      if (!OfRangeFor(LoopEntrySites[I].Loop))
        Candidates.push_back({loopDepth(LoopEntrySites[I].Loop, Parents), I, LoopEntry});
    std::stable_sort(Candidates.begin(), Candidates.end(),
                     [](const Candidate &A, const Candidate &B) { return A.Depth > B.Depth; });
    char Unmeasured = 0; // stands in for an outcome edge the CFG does not have
    for (const Candidate &C : Candidates) {
      if (C.Kind == Statement) {
        StatementSites[C.Site].Counted = !TryDrop(BlockMeasured[StatementSites[C.Site].Block]);
        continue;
      }
      if (C.Kind == LoopEntry) {
        LoopEntrySites[C.Site].Counted = !TryDrop(Measured[LoopEntrySites[C.Site].Edge]);
        continue;
      }
      if (C.Kind == Increment) {
        IncrementSites[C.Site].Counted = !TryDrop(BlockMeasured[IncrementSites[C.Site].Block]);
        continue;
      }
      ConditionSite &Site = ConditionSites[C.Site];
      if (C.Kind == BlockOfCondition) {
        Site.CountBlock = !TryDrop(BlockMeasured[Site.Block]);
        continue;
      }
      int E = EdgeOf(Site.Block, C.Kind == TrueOutcome ? 0u : 1u);
      bool Kept = !TryDrop(E >= 0 ? Measured[E] : Unmeasured);
      (C.Kind == TrueOutcome ? Site.CountTrue : Site.CountFalse) = Kept;
    }
    StatementSites.erase(std::remove_if(StatementSites.begin(), StatementSites.end(),
                                        [](const StatementSite &S) { return !S.Counted; }),
                         StatementSites.end());
  }

  // Conditions first: a block entered only from one outcome of a counted condition needs no
  // counter of its own.
  for (const ConditionSite &Site : ConditionSites) {
    unsigned Id = Site.Block;
    const Expr *D = Site.Decider;
    CharSourceRange R = Site.Range;
    const unsigned Uncounted = ConditionCounter::Uncounted;
    unsigned True = Site.CountTrue ? Table.newCounter() : Uncounted;
    unsigned False = Site.CountFalse ? Table.newCounter() : Uncounted;
    unsigned Evaluations = Site.CountBlock ? Table.newCounter() : Uncounted;
    unsigned Length = Ctx.SM.getFileOffset(R.getEnd()) - Ctx.SM.getFileOffset(R.getBegin());
    ConditionEdits.push_back({Length,
                              [this, D, True, False, Evaluations, &Solver, Id, R, BlockBase,
                               &Conditions, &ConditionBlocks, Uncounted]() -> unsigned {
                                // A condition whose counts the flow rules give is listed but left
                                // as it is.
                                unsigned Placed = (True != Uncounted) + (False != Uncounted) +
                                                  (Evaluations != Uncounted);
                                if (Placed &&
                                    !ConditionCounter::instrument(Ctx, D, True, False, Evaluations))
                                  return 0;
                                auto T = Solver.EdgeIds.find({Id, 0});
                                auto F = Solver.EdgeIds.find({Id, 1});
                                if (T != Solver.EdgeIds.end() && True != Uncounted)
                                  Solver.Edges[T->second].Count = FlowSolver::counter(True);
                                if (F != Solver.EdgeIds.end() && False != Uncounted)
                                  Solver.Edges[F->second].Count = FlowSolver::counter(False);
                                if (Evaluations != Uncounted)
                                  Solver.Blocks[Id].Count = FlowSolver::counter(Evaluations);
                                CoverageCondition C;
                                C.Block = BlockBase + Id;
                                C.Line = Ctx.SM.getSpellingLineNumber(R.getBegin());
                                C.Column = Ctx.SM.getSpellingColumnNumber(R.getBegin());
                                SourceLocation Last = R.getEnd().getLocWithOffset(-1);
                                C.EndLine = Ctx.SM.getSpellingLineNumber(Last);
                                C.EndColumn = Ctx.SM.getSpellingColumnNumber(Last);
                                Conditions.push_back(C);
                                ConditionBlocks.push_back(Id);
                                return Placed;
                              }});
  }
  // One counter: its edit goes into Edits; once placed, Count (a block's or an edge's) is the
  // counter's value.
  auto Place = [&](std::vector<Placement> &Edits, CharSourceRange R,
                   std::function<bool(unsigned)> Insert, std::optional<CountFormula> &Count) {
    unsigned Counter = Table.newCounter();
    unsigned Length =
        R.isValid() ? Ctx.SM.getFileOffset(R.getEnd()) - Ctx.SM.getFileOffset(R.getBegin()) : 0;
    Edits.push_back({Length, [Insert, Counter, &Count]() -> unsigned {
                       if (!Insert(Counter))
                         return 0;
                       Count = FlowSolver::counter(Counter);
                       return 1;
                     }});
  };
  for (const StatementSite &Site : StatementSites)
    Place(
        StatementEdits, Ctx.expansionRange(Site.Statement),
        [this, Site](unsigned C) {
          return BlockCounter::instrument(Ctx, Site.Statement, Site.Parent, C);
        },
        Solver.Blocks[Site.Block].Count);
  for (const IncrementSite &Site : IncrementSites)
    if (Site.Counted)
      Place(
          ConditionEdits, Ctx.fileRange(Site.Increment),
          [this, Site](unsigned C) {
            return BlockCounter::instrumentEvaluations(Ctx, Site.Increment, C);
          },
          Solver.Blocks[Site.Block].Count);
  for (const LoopEntrySite &Site : LoopEntrySites)
    if (Site.Counted)
      Place(
          StatementEdits, Ctx.expansionRange(Site.Loop),
          [this, Site](unsigned C) {
            return BlockCounter::instrument(Ctx, Site.Loop, Site.Parent, C);
          },
          Solver.Edges[Site.Edge].Count);
  for (const HandlerSite &Site : HandlerSites)
    Place(
        StatementEdits, Ctx.fileRange(Site.Body),
        [this, Site](unsigned C) { return BlockCounter::instrumentEntry(Ctx, Site.Body, C); },
        Solver.Blocks[Site.Block].Count);
  auto ByLength = [](const Placement &A, const Placement &B) { return A.Length < B.Length; };
  std::stable_sort(ConditionEdits.begin(), ConditionEdits.end(), ByLength);
  std::stable_sort(StatementEdits.begin(), StatementEdits.end(), ByLength);
  for (Placement &P : ConditionEdits)
    Probes += P.Apply();
  for (Placement &P : StatementEdits)
    Probes += P.Apply();
  if (!BlockCounter::instrumentEntry(Ctx, Body, EntryCounter))
    return false;
  ++Probes;

  Solver.solve();

  // The table: blocks (with the lines their statements begin on) and edges.
  Table.Functions.push_back(Fn);
  Table.Blocks.resize(BlockBase + Graph->getNumBlockIDs());
  for (const CFGBlock *B : *Graph) {
    CoverageBlock &Out = Table.Blocks[BlockBase + B->getBlockID()];
    Out.Function = FunctionId;
    Out.Count = *Solver.Blocks[B->getBlockID()].Count;
    std::set<unsigned> Lines;
    auto AddLine = [&](const Stmt *S) {
      SourceLocation L = Ctx.SM.getExpansionLoc(S->getBeginLoc());
      if (L.isValid() && Ctx.SM.getFileID(L) == Ctx.CurrentFile)
        Lines.insert(Ctx.SM.getExpansionLineNumber(L));
    };
    for (const CFGElement &E : *B)
      if (std::optional<CFGStmt> S = E.getAs<CFGStmt>())
        AddLine(S->getStmt());
    if (const Stmt *T = B->getTerminatorStmt())
      if (isa<BreakStmt, ContinueStmt, GotoStmt, IndirectGotoStmt>(T))
        AddLine(T);
    Out.Lines.assign(Lines.begin(), Lines.end());
  }
  for (const CFGBlock *B : *Graph) {
    const Stmt *T = B->getTerminatorStmt();
    bool IsSwitch = T && isa<SwitchStmt>(T);
    bool TwoWay = T && B->succ_size() == 2 && !IsSwitch;
    for (unsigned I = 0; I < B->succ_size(); ++I) {
      auto Found = Solver.EdgeIds.find({B->getBlockID(), I});
      if (Found == Solver.EdgeIds.end())
        continue;
      const FlowSolver::Edge &E = Solver.Edges[Found->second];
      CoverageEdge Out;
      Out.From = BlockBase + E.From;
      Out.To = BlockBase + E.To;
      Out.Kind = IsSwitch ? EdgeKind::Case
                 : TwoWay ? (I == 0 ? EdgeKind::True : EdgeKind::False)
                          : EdgeKind::Seq;
      Out.Count = *E.Count;
      Table.Edges.push_back(Out);
    }
  }
  // A condition's outcomes are its block's two out-edges, counted or solved.
  for (size_t I = 0; I < Conditions.size(); ++I)
    for (unsigned Successor : {0u, 1u}) {
      auto Found = Solver.EdgeIds.find({ConditionBlocks[I], Successor});
      CountFormula Count;
      if (Found != Solver.EdgeIds.end())
        Count = *Solver.Edges[Found->second].Count;
      (Successor == 0 ? Conditions[I].TrueCount : Conditions[I].FalseCount) = Count;
    }
  std::sort(Conditions.begin(), Conditions.end(),
            [](const CoverageCondition &A, const CoverageCondition &B) {
              return std::tie(A.Line, A.Column, A.Block) < std::tie(B.Line, B.Column, B.Block);
            });
  Table.Conditions.insert(Table.Conditions.end(), Conditions.begin(), Conditions.end());
  return true;
}

} // namespace sleuth::instrumenter
