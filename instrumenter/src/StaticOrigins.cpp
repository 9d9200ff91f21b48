#include "StaticOrigins.h"

#include "clang/AST/ASTContext.h"

using namespace clang;

namespace sleuth::instrumenter {

void StaticOrigins::noteWrite(const VarDecl *V, const Stmt *Anchor, unsigned Site, bool Exact) {
  Writes[Anchor].push_back(Write{V, Exact ? Site : Many});
}

void StaticOrigins::noteParameter(const VarDecl *P, unsigned Site) { Parameters[P] = Site; }

// A local missing from a state still has the value it had on entry (Entry).
void StaticOrigins::join(State &Into, const State &From) {
  for (auto &[Var, Def] : Into) {
    auto Found = From.find(Var);
    if ((Found == From.end() ? Entry : Found->second) != Def)
      Def = Many;
  }
  for (const auto &[Var, Def] : From)
    if (!Into.contains(Var))
      Into[Var] = Def == Entry ? Entry : Many;
}

void StaticOrigins::apply(State &S, const Stmt *Element) const {
  auto Found = Writes.find(Element);
  if (Found != Writes.end())
    for (const Write &W : Found->second)
      S[W.Var] = W.Site;
}

void StaticOrigins::analyse(const FunctionDecl *Function, ASTContext &Ast, bool Enabled) {
  Graph.reset();
  if (!Enabled || (Writes.empty() && Parameters.empty()))
    return;
  CFG::BuildOptions Options;
  Options.setAllAlwaysAdd();
  Graph = CFG::buildCFG(Function, Function->getBody(), &Ast, Options);
  if (!Graph)
    return;
  // Where each statement is evaluated; a statement the CFG holds twice has no one position.
  for (const CFGBlock *Block : *Graph) {
    unsigned Index = 0;
    for (const CFGElement &E : *Block) {
      if (std::optional<CFGStmt> S = E.getAs<CFGStmt>()) {
        auto [It, Inserted] = Position.try_emplace(S->getStmt(), Block, Index);
        if (!Inserted)
          It->second.first = nullptr;
      }
      ++Index;
    }
  }
  for (const auto &[Anchor, List] : Writes)
    if (!Position.contains(Anchor))
      for (const Write &W : List)
        Unanchored[W.Var] = true;

  In.assign(Graph->getNumBlockIDs(), State());
  Reached.assign(Graph->getNumBlockIDs(), false);
  const CFGBlock &Entry = Graph->getEntry();
  for (const auto &[P, Site] : Parameters)
    In[Entry.getBlockID()][P] = Site;
  Reached[Entry.getBlockID()] = true;
  std::vector<const CFGBlock *> Work{&Entry};
  while (!Work.empty()) {
    const CFGBlock *Block = Work.back();
    Work.pop_back();
    State Out = In[Block->getBlockID()];
    for (const CFGElement &E : *Block)
      if (std::optional<CFGStmt> S = E.getAs<CFGStmt>())
        apply(Out, S->getStmt());
    for (const CFGBlock::AdjacentBlock &Next : Block->succs()) {
      const CFGBlock *Succ = Next.getReachableBlock();
      if (!Succ)
        continue;
      unsigned Id = Succ->getBlockID();
      if (!Reached[Id]) {
        Reached[Id] = true;
        In[Id] = Out;
        Work.push_back(Succ);
        continue;
      }
      State Joined = In[Id];
      join(Joined, Out);
      if (Joined != In[Id]) {
        In[Id] = std::move(Joined);
        Work.push_back(Succ);
      }
    }
  }
}

std::optional<unsigned> StaticOrigins::reaching(const VarDecl *V, const Stmt *At) const {
  if (!Graph || Unanchored.lookup(V))
    return std::nullopt;
  auto Found = Position.find(At);
  if (Found == Position.end() || !Found->second.first)
    return std::nullopt;
  auto [Block, Index] = Found->second;
  if (!Reached[Block->getBlockID()])
    return std::nullopt;
  State S = In[Block->getBlockID()];
  unsigned I = 0;
  for (const CFGElement &E : *Block) {
    if (I++ == Index)
      break;
    if (std::optional<CFGStmt> Element = E.getAs<CFGStmt>())
      apply(S, Element->getStmt());
  }
  auto Def = S.find(V);
  if (Def == S.end() || Def->second == Many || Def->second == Entry)
    return std::nullopt;
  return Def->second;
}

} // namespace sleuth::instrumenter
