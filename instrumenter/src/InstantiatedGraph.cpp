#include "InstantiatedGraph.h"

#include "clang/AST/StmtCXX.h"

#include <vector>

using namespace clang;

namespace sleuth::instrumenter {

StmtCorrespondence::StmtCorrespondence(const FunctionDecl *PatternFunction,
                                       const FunctionDecl *InstanceFunction)
    : InstanceFunction(InstanceFunction) {
  Pattern.add(PatternFunction->getBody());
  Instance.add(InstanceFunction->getBody());
}

bool StmtCorrespondence::hasDependentRangeFor(const Stmt *Body) {
  if (!Body)
    return false;
  if (const auto *For = dyn_cast<CXXForRangeStmt>(Body); For && !For->getCond())
    return true;
  for (const Stmt *Child : Body->children())
    if (hasDependentRangeFor(Child))
      return true;
  return false;
}

void StmtCorrespondence::Index::add(const Stmt *Body) {
  // Pre-order, so that of the statements one range spells (a call and the implicit
  // conversion of its value) the outermost is met first and kept.
  std::vector<const Stmt *> Work{Body};
  while (!Work.empty()) {
    const Stmt *S = Work.back();
    Work.pop_back();
    if (!S)
      continue;
    SourceLocation Begin = S->getBeginLoc(), End = S->getEndLoc();
    if (Begin.isValid() && End.isValid()) {
      std::pair<unsigned, unsigned> Range{Begin.getRawEncoding(), End.getRawEncoding()};
      ByClass.try_emplace({Range.first, Range.second, unsigned(S->getStmtClass())}, S);
      ByRange.try_emplace(Range, S);
    }
    // Children in reverse, so that they come off the stack in source order.
    std::vector<const Stmt *> Children(S->child_begin(), S->child_end());
    Work.insert(Work.end(), Children.rbegin(), Children.rend());
  }
}

const Stmt *StmtCorrespondence::Index::find(const Stmt *S) const {
  if (!S || S->getBeginLoc().isInvalid() || S->getEndLoc().isInvalid())
    return nullptr;
  unsigned Begin = S->getBeginLoc().getRawEncoding(), End = S->getEndLoc().getRawEncoding();
  if (auto It = ByClass.find({Begin, End, unsigned(S->getStmtClass())}); It != ByClass.end())
    return It->second;
  auto It = ByRange.find({Begin, End});
  return It == ByRange.end() ? nullptr : It->second;
}

const Stmt *StmtCorrespondence::inInstance(const Stmt *S) const { return Instance.find(S); }

const Stmt *StmtCorrespondence::inPattern(const Stmt *S) const { return Pattern.find(S); }

} // namespace sleuth::instrumenter
