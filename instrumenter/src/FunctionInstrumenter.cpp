#include "FunctionInstrumenter.h"
#include "HotLoops.h"
#include "InstantiatedGraph.h"
#include "Instantiations.h"

#include "probes/Probes.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/ExprConcepts.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "clang/AST/StmtObjC.h"
#include "clang/Analysis/Analyses/Dominators.h"
#include "clang/Analysis/CFG.h"
#include "clang/Analysis/CFGStmtMap.h"
#include "clang/Basic/Builtins.h"
#include "llvm/Support/xxhash.h"

#include <map>
#include <optional>
#include <set>

using namespace clang;

namespace sleuth::instrumenter {

FunctionInstrumenter::FunctionInstrumenter(Context &Ctx, const FunctionDecl *Function,
                                           std::string Name)
    : Ctx(Ctx), Function(Function), Name(std::move(Name)) {}

unsigned FunctionInstrumenter::calleeKey(const FunctionDecl *F) {
  // Identifies a callee by its qualified name, so that a function entered from an
  // uninstrumented caller (a callback) is not taken for the callee of an older call. A call
  // names an instantiation (`Arr<char, 20>::Push`), whose entry probe is in the template it was
  // instantiated from (`Arr::Push`): the template's name, on both sides.
  if (const FunctionDecl *Pattern = F->getTemplateInstantiationPattern())
    F = Pattern;
  // A constructor's key has the top bit set, any other's not (SLEUTH_CONSTRUCTOR_KEY): the
  // runtime tells a constructor call's record by it (see sleuth_close_construct_args).
  std::string N = F->getQualifiedNameAsString();
  unsigned Key = unsigned(llvm::xxh3_64bits(N)) & 0x7fffffffu;
  if (isa<CXXConstructorDecl>(F))
    Key |= 0x80000000u;
  return Key ? Key : 1;
}

bool FunctionInstrumenter::isLeftUninstrumented(const FunctionDecl *F) const {
  if (const FunctionDecl *Pattern = F->getTemplateInstantiationPattern())
    F = Pattern;
  if (const auto *M = dyn_cast<CXXMethodDecl>(F); M && M->getParent()->isLambda())
    return F->isConsteval();
  if (F->isConstexpr() || F->isConsteval())
    return true;
  // An inline function with external linkage may be instrumented by another unit whose copy
  // the linker keeps; a function of this unit's own is the one defined here.
  const FunctionDecl *Definition = F->getDefinition();
  return Definition && !F->isExternallyVisible() &&
         !Ctx.instrumentable(Ctx.SM.getFileLoc(Definition->getLocation()));
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
  OwnSites.push_back(Id);
  return Id;
}

// Placeholders are "\x01S<index>\x02": bytes no C or C++ token of a probe's text contains.
std::string FunctionInstrumenter::defer(std::function<std::string()> Make) {
  Deferred.push_back(std::move(Make));
  return "\x01S" + std::to_string(Deferred.size() - 1) + "\x02";
}

const Stmt *FunctionInstrumenter::fullExpression(const Expr *E) const {
  const Stmt *Full = E;
  for (const Stmt *P = Ctx.parent(Full); P && isa<Expr>(P); P = Ctx.parent(Full))
    Full = P;
  return Full;
}

// True if evaluating S may push onto the pending reads other than through its reads: a call
// (its arguments are pushed for the callee, an uninstrumented callee's value is, a library
// call's probe pushes what it reads), or a statement inside an expression, whose probes are
// its own; or a default argument or member initializer, whose expression (not among the
// children) may call; or a va_arg, which pushes its argument's origins. __builtin_expect
// (Lua's l_likely) only passes its operand on.
static bool mayPush(const Stmt *S) {
  if (!S)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S)) {
    unsigned Builtin = Call->getBuiltinCallee();
    if (Builtin != Builtin::BI__builtin_expect &&
        Builtin != Builtin::BI__builtin_expect_with_probability)
      return true;
  } else if (isa<CXXConstructExpr, CXXNewExpr, CXXDeleteExpr, CXXThrowExpr, StmtExpr, LambdaExpr,
                 BlockExpr, CoroutineSuspendExpr, CXXDefaultArgExpr, CXXDefaultInitExpr>(S) ||
             isa<VAArgExpr>(S)) {
    return true;
  }
  for (const Stmt *Child : S->children())
    if (mayPush(Child))
      return true;
  return false;
}

std::string FunctionInstrumenter::nodeProbe(const char *Name, const Stmt *Full) {
  std::string Plain = Name;
  if (!Full || mayPush(Full))
    return Plain;
  return defer([this, Plain, Full] {
    // Reads inside Full that no node claimed are pushed (resolveDeferred).
    auto Found = ReadRanges.find(Full);
    if (Found == ReadRanges.end())
      return Plain;
    auto [Begin, End] = readRange(Full);
    for (unsigned I = Begin; I < End; ++I)
      if (Reads[I].Claim == Unclaimed || Reads[I].Claim == Pushed)
        return Plain;
    return Plain + "_nopending";
  });
}

std::string FunctionInstrumenter::control(unsigned Site) {
  return defer([this, Site] {
    const std::vector<unsigned> &Controllers = (*Ctx.Sites)[Site].Controllers;
    if (Controllers.empty())
      return QuietControls && !LooseControl.contains(Site) ? quietControl() : callControl();
    // The edge from the one controller holds for every execution: the runtime writes it for
    // the node if it ran (StaticControl), and the node's probe need not check it.
    if (ConstantControl.contains(Site))
      return std::string("0u");
    return GroupOfSite.at(Site);
  });
}

std::string FunctionInstrumenter::callSiteControl(unsigned Site) {
  return defer([this, Site] {
    const std::vector<unsigned> &Controllers = (*Ctx.Sites)[Site].Controllers;
    if (Controllers.empty())
      return callControl();
    if (ConstantControl.contains(Site))
      return "(" + Ctx.UnitName + ".base + " + std::to_string(Controllers[0]) + "u)";
    return GroupOfSite.at(Site);
  });
}

std::string FunctionInstrumenter::testEffects(unsigned Site) const {
  auto Found = GroupsOfTest.find(Site);
  if (Found == GroupsOfTest.end())
    return "";
  std::string Text;
  for (const std::string &Local : Found->second)
    Text += Local + " = ";
  return Text + Ctx.UnitName + ".base + " + std::to_string(Site) + "u";
}

std::pair<std::string, std::string> FunctionInstrumenter::addRead(CharSourceRange R,
                                                                  ReadForms Forms) {
  unsigned Index = unsigned(Reads.size());
  Reads.push_back(Read{std::move(Forms), Unclaimed, ""});
  std::string Prefix = defer([this, Index] { return readText(Index, true); });
  std::string Suffix = defer([this, Index] { return readText(Index, false); });
  if (R.isValid())
    Ctx.wrap(R, Prefix, Suffix);
  return {Prefix, Suffix};
}

void FunctionInstrumenter::noteKeptRead(const VarDecl *V, const Stmt *At) {
  Reads.back().Local = V;
  Reads.back().At = At;
}

void FunctionInstrumenter::noteValueRead(unsigned WriteSite) { Reads.back().ValueOf = WriteSite; }

std::string FunctionInstrumenter::priorRead(const ValueDecl *V, const Stmt *Anchor, unsigned Site,
                                            const std::string &Origin) {
  std::string Cache = readCache();
  return defer([this, V, Anchor, Site, Origin, Cache]() -> std::string {
    // (A binding's writes are not analysed: its reads stay checked.)
    const auto *Var = dyn_cast<VarDecl>(V);
    if (std::optional<unsigned> Def = Var ? Statics.reaching(Var, Anchor) : std::nullopt) {
      Ctx.Sites->addStaticData(Site, *Def, false);
      return "";
    }
    return Ctx.checkedRead(Cache, std::to_string(Site) + "u", Origin) + ", ";
  });
}

bool FunctionInstrumenter::consumesStatically(unsigned Site) const {
  switch ((*Ctx.Sites)[Site].Kind) {
  case SiteKind::Var:
  case SiteKind::Test:
  case SiteKind::Ret:
  case SiteKind::Assert:
  case SiteKind::Effect:
    return true;
  default:
    return false; // a call site is no graph node: its reads are the runtime's business
  }
}

// Whether Parent evaluates Child every time it is evaluated itself, and Child is no write's
// target. An allowlist: anything else keeps its reads checked.
static bool alwaysEvaluates(const Stmt *Parent, const Stmt *Child) {
  if (const auto *B = dyn_cast<BinaryOperator>(Parent)) {
    if (B->isLogicalOp() || B->isAssignmentOp())
      return Child == B->getLHS() ? !B->isAssignmentOp() : !B->isLogicalOp();
    return true;
  }
  if (const auto *C = dyn_cast<ConditionalOperator>(Parent))
    return Child == C->getCond();
  if (const auto *U = dyn_cast<UnaryOperator>(Parent))
    return !U->isIncrementDecrementOp();
  if (const auto *Op = dyn_cast<CXXOperatorCallExpr>(Parent))
    return !Op->isAssignmentOp() && Op->getOperator() != OO_AmpAmp &&
           Op->getOperator() != OO_PipePipe && Op->getOperator() != OO_PlusPlus &&
           Op->getOperator() != OO_MinusMinus;
  return isa<ParenExpr, CastExpr, ArraySubscriptExpr, MemberExpr, CallExpr, InitListExpr,
             CompoundLiteralExpr, ExprWithCleanups, MaterializeTemporaryExpr, CXXBindTemporaryExpr,
             CXXConstructExpr>(Parent);
}

bool FunctionInstrumenter::evaluatedWithNode(const Stmt *At, unsigned Site) {
  if (AnchorOfSite.empty())
    for (auto &[Id, Anchor] : Anchors)
      AnchorOfSite.try_emplace(Id, Anchor);
  const Stmt *Anchor = AnchorOfSite.lookup(Site);
  if (!Anchor)
    return false;
  for (const Stmt *Child = At; Child; Child = Ctx.parent(Child)) {
    if (Child == Anchor)
      return true;
    const Stmt *Parent = Ctx.parent(Child);
    if (!Parent || !alwaysEvaluates(Parent, Child))
      return false;
  }
  return false;
}

bool FunctionInstrumenter::isStaticRead(Read &R) {
  if (R.Static >= 0)
    return R.Static == 1;
  R.Static = 0;
  if (!consumesStatically(R.Claim))
    return false;
  if (R.ValueOf != ~0u) {
    Ctx.Sites->addStaticData(R.Claim, R.ValueOf, true);
    R.Static = 1;
  } else if (R.Local) {
    std::optional<unsigned> Def = Statics.reaching(R.Local, R.At);
    if (Def && evaluatedWithNode(R.At, R.Claim)) {
      Ctx.Sites->addStaticData(R.Claim, *Def, false);
      R.Static = 1;
      --Probes; // counted as a probe by ReadProbe, it inserts nothing (--stats, SLEUTH_STATS)
    }
  }
  return R.Static == 1;
}

std::string FunctionInstrumenter::readCache() {
  unsigned Slot = Ctx.Sites->addReadSlot();
  return "&" + Ctx.ReadCacheName + "[" + std::to_string(2 * Slot) + "]";
}

std::string FunctionInstrumenter::readText(unsigned Index, bool Prefix) {
  Read &R = Reads[Index];
  if (R.Claim == Omitted)
    return "";
  if (R.Claim == Unclaimed || R.Claim == Pushed)
    return Prefix ? R.Forms.PushPrefix : R.Forms.PushSuffix;
  if (isStaticRead(R))
    return "";
  if (R.Cache.empty())
    R.Cache = readCache();
  std::string Text = Prefix ? R.Forms.CheckPrefix : R.Forms.CheckSuffix;
  auto Substitute = [&Text](const std::string &From, const std::string &To) {
    for (size_t At = Text.find(From); At != std::string::npos; At = Text.find(From, At + To.size()))
      Text.replace(At, From.size(), To);
  };
  Substitute("@SITE@", std::to_string(R.Claim) + "u");
  Substitute("@CACHE@", R.Cache);
  return Text;
}

std::pair<unsigned, unsigned> FunctionInstrumenter::readRange(const Stmt *S) const {
  auto Found = ReadRanges.find(S);
  if (Found == ReadRanges.end())
    return {0, 0};
  unsigned End = Found->second.second == ~0u ? unsigned(Reads.size()) : Found->second.second;
  return {Found->second.first, End};
}

void FunctionInstrumenter::claimReads(const Stmt *S, unsigned Site) {
  auto [Begin, End] = readRange(S);
  for (unsigned I = Begin; I < End; ++I)
    if (Reads[I].Claim == Unclaimed)
      Reads[I].Claim = Site;
}

void FunctionInstrumenter::pushReads(const Stmt *S) {
  auto [Begin, End] = readRange(S);
  for (unsigned I = Begin; I < End; ++I)
    if (Reads[I].Claim == Unclaimed)
      Reads[I].Claim = Pushed;
}

void FunctionInstrumenter::omitReads(const Stmt *S) {
  auto [Begin, End] = readRange(S);
  for (unsigned I = Begin; I < End; ++I)
    if (Reads[I].Claim == Unclaimed)
      Reads[I].Claim = Omitted;
}

std::string FunctionInstrumenter::expand(const std::string &Text, std::vector<std::string> &Done,
                                         std::vector<bool> &Ready) {
  std::string Out;
  size_t From = 0;
  for (size_t At = Text.find('\x01'); At != std::string::npos; At = Text.find('\x01', From)) {
    size_t Close = Text.find('\x02', At);
    Out.append(Text, From, At - From);
    unsigned Index = unsigned(std::stoul(Text.substr(At + 2, Close - At - 2)));
    if (!Ready[Index]) {
      Done[Index] = expand(Deferred[Index](), Done, Ready);
      Ready[Index] = true;
    }
    Out += Done[Index];
    From = Close + 1;
  }
  Out.append(Text, From, std::string::npos);
  return Out;
}

void FunctionInstrumenter::resolveDeferred(size_t FirstEdit, size_t FirstReplacement) {
  std::vector<std::string> Done(Deferred.size());
  std::vector<bool> Ready(Deferred.size(), false);
  auto Resolve = [&](std::string &Text) {
    if (Text.find('\x01') != std::string::npos)
      Text = expand(Text, Done, Ready);
  };
  for (size_t I = FirstEdit; I < Ctx.Edits.size(); ++I) {
    Resolve(Ctx.Edits[I].Prefix);
    Resolve(Ctx.Edits[I].Suffix);
  }
  for (size_t I = FirstReplacement; I < Ctx.Replacements.size(); ++I)
    Resolve(Ctx.Replacements[I].second);
}

std::string FunctionInstrumenter::controlDeclarations(bool CallControls) const {
  std::string Text;
  if (CallControls) {
    Text += " " + localType("unsigned ") + callControl() + " = 0u;";
    if (QuietControls)
      Text += " " + localType("unsigned ") + quietControl() + " = 0u;";
  }
  for (const std::string &Local : GroupLocals)
    Text += " " + localType("unsigned ") + Local + " = 0u;";
  if (NeedsSwitchValue)
    Text +=
        " " + localType("unsigned long ") + "__sleuth_sw" + std::to_string(FunctionId) + " = 0ul;";
  for (const std::string &Local : AddressLocals)
    Text += " void *" + LocalQualifier + Local + " = 0;";
  return Text;
}

std::string FunctionInstrumenter::controlUses(const std::string &Separator) const {
  std::string Text = "(void)" + callControl() + Separator;
  if (QuietControls)
    Text += "(void)" + quietControl() + Separator;
  for (const std::string &Local : GroupLocals)
    Text += "(void)" + Local + Separator;
  return Text;
}

void FunctionInstrumenter::computeControlGroups() {
  // A site that tests control takes the one executed last in this frame: a local per set of
  // controllers, which each of those tests sets when it runs, starting out as the call's
  // control (none of them has run yet in this frame). A site whose one controller always ran
  // first passes that test as a constant (ConstantControl).
  std::map<std::vector<unsigned>, std::string> Groups;
  for (unsigned Site : OwnSites) {
    const std::vector<unsigned> &Controllers = (*Ctx.Sites)[Site].Controllers;
    if (Controllers.empty() || ConstantControl.contains(Site))
      continue;
    auto [It, Inserted] = Groups.try_emplace(Controllers);
    if (Inserted) {
      It->second =
          "__sleuth_g" + std::to_string(FunctionId) + "_" + std::to_string(GroupLocals.size());
      GroupLocals.push_back(It->second);
      for (unsigned Test : Controllers)
        GroupsOfTest[Test].push_back(It->second);
    }
    GroupOfSite[Site] = It->second;
  }
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

bool FunctionInstrumenter::hasTry(const Stmt *S) {
  // Clang's CFG has no edges for exceptions: after a handler caught one, the function returns
  // normally without having run sites that the CFG says run on every call.
  if (!S)
    return false;
  if (isa<CXXTryStmt, SEHTryStmt, ObjCAtTryStmt>(S))
    return true;
  for (const Stmt *Child : S->children())
    if (hasTry(Child))
      return true;
  return false;
}

bool FunctionInstrumenter::callsSetjmp(const Stmt *S) {
  // One more local live across a second return of setjmp is one more variable GCC warns
  // might be clobbered (-Wclobbered, in -Wextra): a build under -Werror must not see it.
  if (!S)
    return false;
  if (const auto *Call = dyn_cast<CallExpr>(S))
    if (const FunctionDecl *Callee = Call->getDirectCallee()) {
      if (Callee->hasAttr<ReturnsTwiceAttr>())
        return true;
      if (const IdentifierInfo *Id = Callee->getIdentifier())
        if (llvm::is_contained(
                {"setjmp", "_setjmp", "__sigsetjmp", "sigsetjmp", "savectx", "vfork", "getcontext"},
                Id->getName()))
          return true;
    }
  for (const Stmt *Child : S->children())
    if (callsSetjmp(Child))
      return true;
  return false;
}

llvm::ArrayRef<StmtCorrespondence> FunctionInstrumenter::instances() {
  if (!InstanceStatements) {
    InstanceStatements.emplace();
    for (const FunctionDecl *Instance : Instantiations::of(Ctx).instancesOf(Function))
      InstanceStatements->emplace_back(Function, Instance);
  }
  return *InstanceStatements;
}

bool FunctionInstrumenter::run() {
  const Stmt *Body = Function->getBody();
  if (!Body || !isa<CompoundStmt>(Body))
    return false;
  CharSourceRange R = Ctx.fileRange(Body);
  if (R.isInvalid())
    return false;
  // C has no destructors: a return the rewriter cannot see (written by a macro) would leave the
  // runtime's frame behind. Such a function's frame is left by a cleanup (GCC's and Clang's
  // `cleanup` attribute) when its body's scope ends, however it returns.
  LeavesAtScopeExit = Ctx.isC() && hasHiddenReturn(Body);
  SourceLocation Begin = Ctx.SM.getFileLoc(Function->getBeginLoc());
  FunctionId = Ctx.Sites->addFunction(
      FunctionEntry{Ctx.SM.getSpellingLineNumber(Begin),
                    Ctx.SM.getSpellingLineNumber(Ctx.SM.getFileLoc(Body->getEndLoc())), Name});
  Locals.compute(Function, FunctionId, Ctx);
  LocalQualifier = callsSetjmp(Body) ? "volatile " : "";
  size_t FirstEdit = Ctx.Edits.size(), FirstReplacement = Ctx.Replacements.size();
  walk(Body);
  applyHiddenReturnWraps();
  computeControlDependences();
  computeControlGroups();
  FrameProbe::instrumentEntry(*this);
  Statics.analyse(Function, Ctx.Ast, Ctx.StaticReads && LocalQualifier.empty() && !hasTry(Body));
  resolveDeferred(FirstEdit, FirstReplacement);
  HotLoops::inlineProbes(Body, FirstEdit, Ctx);
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
  if (const auto *Lambda = dyn_cast_or_null<LambdaExpr>(S)) {
    // Its body is a function of its own; its captures are read here, by the closure's node.
    unsigned Before = Probes, First = unsigned(Reads.size());
    ReadRanges[S] = {First, ~0u};
    CaptureProbe::instrument(Lambda, *this);
    ReadRanges[S] = {First, unsigned(Reads.size())};
    ProbesInside[S] = Probes - Before;
    return;
  }
  if (!S || isOffLimits(S))
    return;
  // The reads registered inside S, for the consumer probes that claim them.
  unsigned First = unsigned(Reads.size());
  ReadRanges[S] = {First, ~0u};
  walkChildren(S);
  ReadRanges[S] = {First, unsigned(Reads.size())};
}

const std::string *FunctionInstrumenter::captureOrigin(const Expr *E) {
  const auto *Ref = dyn_cast<DeclRefExpr>(E->IgnoreParens());
  if (!Ref || !Ref->refersToEnclosingVariableOrCapture())
    return nullptr;
  const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
  return V ? captureOrigin(V) : nullptr;
}

const std::string *FunctionInstrumenter::captureOrigin(const VarDecl *V) {
  const auto *Operator = dyn_cast<CXXMethodDecl>(Function);
  if (!Operator || !Operator->getParent()->isLambda() || !Operator->isConst())
    return nullptr;
  auto Found = Ctx.ClosureSites.find({Operator->getParent(), V});
  if (Found == Ctx.ClosureSites.end() || Found->second.first != Ctx.Sites)
    return nullptr;
  std::string &Origin = CaptureOrigins[V];
  if (Origin.empty()) // 1 + the node: the unit is registered, its closure made it
    Origin = "(" + Ctx.UnitName + ".base + " + std::to_string(Found->second.second) + "u)";
  return &Origin;
}

void FunctionInstrumenter::walkChildren(const Stmt *S) {
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
  if (isa<DeclRefExpr, MemberExpr, ArraySubscriptExpr>(S)) {
    ReadProbe::instrumentDependent(cast<Expr>(S), *this);
    return;
  }
  if (const auto *B = dyn_cast<BinaryOperator>(S)) {
    if (B->isAssignmentOp())
      WriteProbe::instrument(B, *this);
    else if (B->isLogicalOp())
      BranchProbe::instrument(B, *this);
    else
      LibraryCallProbe::instrumentDependent(B, *this); // `in >> t` in a template
    return;
  }
  if (const auto *C = dyn_cast<ConditionalOperator>(S)) {
    BranchProbe::instrument(C, *this);
    return;
  }
  if (const auto *U = dyn_cast<UnaryOperator>(S)) {
    if (U->isIncrementDecrementOp())
      WriteProbe::instrument(U, *this);
    else if (U->getOpcode() == UO_Deref)
      ReadProbe::instrumentDependent(U, *this);
    return;
  }
  if (const auto *D = dyn_cast<DeclStmt>(S)) {
    DeclarationProbe::instrument(D, *this);
    LibraryCallbackProbe::instrumentDependentConstruction(D, *this);
    return;
  }
  if (isa<IfStmt, WhileStmt, DoStmt, ForStmt, SwitchStmt>(S)) {
    ConditionProbe::instrument(S, *this);
    return;
  }
  if (const auto *Arg = dyn_cast<VAArgExpr>(S)) {
    VariadicProbe::instrument(Arg, *this);
    return;
  }
  if (const auto *C = dyn_cast<CallExpr>(S)) {
    if (VariadicProbe::instrument(C, *this))
      return;
    // Before the library's probes claim the arguments' reads: they are the callee's too.
    std::optional<ForwardingCallProbe::Record> Forward =
        ForwardingCallProbe::markArguments(C, *this);
    std::optional<SignalProbe::Record> Signal = SignalProbe::markSignal(C, *this);
    if (!MemoryCallProbe::instrument(C, *this) && !FormatCallProbe::instrument(C, *this) &&
        !LibraryCallProbe::instrument(C, *this))
      CallProbe::instrument(C, *this);
    if (Forward)
      ForwardingCallProbe::recordCall(C, *Forward, *this);
    if (Signal)
      SignalProbe::recordCall(C, *Signal, *this);
    else
      LibraryCallbackProbe::instrument(C, *this);
    // A call that may throw inside a try block: what it read is pushed, not checked against
    // the node that takes its value, so that a throw of the library's finds it pending and the
    // handler depends on it (sleuth_caught). A callee of the program's takes its arguments
    // anyway.
    if (mayThrowInsideTry(C))
      pushReads(C);
    return;
  }
  if (const auto *C = dyn_cast<CXXConstructExpr>(S)) {
    if (!ConstructProbe::instrument(C, *this)) {
      std::optional<ForwardingCallProbe::Record> Thread =
          ForwardingCallProbe::markThreadArguments(C, *this);
      LibraryCallProbe::instrumentConstruction(C, *this);
      LibraryCallbackProbe::instrumentConstruction(C, *this);
      if (Thread)
        ForwardingCallProbe::recordThread(*Thread, *this);
    }
    return;
  }
  if (const auto *L = dyn_cast<CompoundLiteralExpr>(S)) {
    CompoundLiteralProbe::instrument(L, *this);
    return;
  }
  if (const auto *Throw = dyn_cast<CXXThrowExpr>(S)) {
    ExceptionProbe::instrumentThrow(Throw, *this);
    return;
  }
  if (const auto *Try = dyn_cast<CXXTryStmt>(S)) {
    ExceptionProbe::instrumentHandlers(Try, *this);
    return;
  }
  if (const auto *R = dyn_cast<ReturnStmt>(S)) {
    FrameProbe::instrument(R, *this);
    return;
  }
  if (const auto *Block = dyn_cast<CompoundStmt>(S))
    ScopeProbe::instrument(Block, *this);
}

bool FunctionInstrumenter::mayThrowInsideTry(const CallExpr *Call) const {
  if (!isCxx())
    return false;
  QualType CalleeType = Call->getCallee()->getType();
  if (const auto *Pointer = CalleeType->getAs<PointerType>())
    CalleeType = Pointer->getPointeeType();
  if (const FunctionDecl *Callee = Call->getDirectCallee())
    CalleeType = Callee->getType();
  if (const auto *Proto = CalleeType->getAs<FunctionProtoType>(); Proto && Proto->isNothrow())
    return false;
  for (const Stmt *Child = Call, *P = Ctx.parent(Call); P; Child = P, P = Ctx.parent(P)) {
    if (isa<LambdaExpr, BlockExpr>(P))
      return false;
    if (const auto *Try = dyn_cast<CXXTryStmt>(P))
      if (Try->getTryBlock() == Child)
        return true;
  }
  return false;
}

void FunctionInstrumenter::controlHandlers(const ParentMap &Parents,
                                           const llvm::DenseMap<unsigned, const Stmt *> &AnchorOf) {
  // A handler runs because an exception reached it, which the CFG does not see: its statements
  // that no test inside it controls have its <catch> test as their controller instead of what
  // the CFG made of the try's dispatch.
  if (HandlerSites.empty())
    return;
  auto InnermostHandler = [&](const Stmt *S) -> const CXXCatchStmt * {
    for (const Stmt *P = S; P; P = Parents.getParent(P))
      if (const auto *Handler = dyn_cast<CXXCatchStmt>(P))
        return Handler;
    return nullptr;
  };
  auto Inside = [&](const Stmt *S, const Stmt *Outer) {
    for (const Stmt *P = S; P; P = Parents.getParent(P))
      if (P == Outer)
        return true;
    return false;
  };
  for (auto &[SiteId, Anchor] : Anchors) {
    const CXXCatchStmt *Handler = InnermostHandler(Anchor);
    auto Found = Handler ? HandlerSites.find(Handler) : HandlerSites.end();
    if (Found == HandlerSites.end())
      continue;
    std::vector<unsigned> &Controllers = (*Ctx.Sites)[SiteId].Controllers;
    std::vector<unsigned> Own;
    for (unsigned Test : Controllers)
      if (const Stmt *TestAnchor = AnchorOf.lookup(Test); TestAnchor && Inside(TestAnchor, Handler))
        Own.push_back(Test);
    if (Own.empty())
      Own.push_back(Found->second);
    Controllers = std::move(Own);
    LooseControl.erase(SiteId);
  }
}

void FunctionInstrumenter::computeControlDependences() {
  const Stmt *Body = Function->getBody();
  // The CFG is the pattern's own, but for a pattern whose range-for over a dependent range
  // has no loop yet: then it is each instantiation's, its statements paired with the pattern's
  // by their source (a site whose statement has no pair there is loose, as one the CFG lacks),
  // and a site's controllers are those it has in any of them (`if constexpr` keeps a different
  // branch in each).
  // Without a CFG no site has a controller, also those that do not run on every call: none of
  // them may take the quiet control.
  bool Built = true;
  if (StmtCorrespondence::hasDependentRangeFor(Body) && !instances().empty()) {
    for (const StmtCorrespondence &Same : instances())
      Built = controlFrom(&Same, instances().size() > 1) && Built;
  } else {
    Built = controlFrom(nullptr, false);
  }
  QuietControls = Built && !hasTry(Body) && !callsSetjmp(Body);
}

bool FunctionInstrumenter::controlFrom(const StmtCorrespondence *Same, bool Merge) {
  Stmt *Body = const_cast<Stmt *>(Function->getBody());
  const FunctionDecl *GraphFunction = Same ? Same->instance() : Function;
  Stmt *GraphBody = const_cast<Stmt *>(GraphFunction->getBody());
  CFG::BuildOptions Options;
  Options.setAllAlwaysAdd();
  std::unique_ptr<CFG> Graph = CFG::buildCFG(GraphFunction, GraphBody, &Ctx.Ast, Options);
  if (!Graph)
    return false;
  ParentMap Parents(Body);
  std::optional<ParentMap> GraphParents;
  if (Same)
    GraphParents.emplace(GraphBody);
  std::unique_ptr<CFGStmtMap> Map(CFGStmtMap::Build(Graph.get(), Same ? &*GraphParents : &Parents));
  if (!Map)
    return false;
  // The block of a statement of the pattern, and the site of a block's terminator.
  auto BlockOf = [&](const Stmt *S) -> const CFGBlock * {
    if (Same)
      S = Same->inInstance(S);
    return S ? Map->getBlock(const_cast<Stmt *>(S)) : nullptr;
  };
  auto TerminatorSite = [&](const CFGBlock *Block) {
    const Stmt *T = Block->getTerminatorStmt();
    if (T && Same)
      T = Same->inPattern(T);
    return T ? TerminatorSites.find(T) : TerminatorSites.end();
  };
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
  // A test's own condition may span several blocks (`(a || b) && c`), and branches that are no
  // test site at all (the `a &&` of an unrecorded condition): those stand for the tests that
  // control them in turn. But the branch that ends a test's condition controls the test itself
  // only around a loop (`while`, do-while, for, range-for, an `if` with a `goto` back): each
  // iteration's test depends on the one before (Xin and Zhang), and its first execution on
  // what controls the loop; both are its controllers, and the latest executed one wins.
  llvm::DenseSet<unsigned> TestSites;
  for (const auto &Entry : TerminatorSites)
    TestSites.insert(Entry.second);
  std::map<std::pair<const CFGBlock *, unsigned>, std::vector<unsigned>> Cache;
  // Keys of Cache whose sites a branch that is no test site controls (a condition written by a
  // macro): with no controller left, such a site still need not run on every call.
  std::set<std::pair<const CFGBlock *, unsigned>> Loose;
  for (auto &[SiteId, Anchor] : Anchors) {
    const CFGBlock *Block = BlockOf(Anchor);
    if (!Block) {
      LooseControl.insert(SiteId);
      continue;
    }
    unsigned Self = TestSites.contains(SiteId) ? SiteId : ~0u;
    auto [It, Inserted] = Cache.try_emplace({Block, Self});
    if (Inserted) {
      llvm::SmallPtrSet<const CFGBlock *, 8> Seen;
      llvm::SmallVector<const CFGBlock *, 8> Work(Direct.lookup(Block));
      while (!Work.empty()) {
        const CFGBlock *Controller = Work.pop_back_val();
        if (!Seen.insert(Controller).second)
          continue;
        auto Found = TerminatorSite(Controller);
        if (Found == TerminatorSites.end() || Found->second == Self) {
          if (Found == TerminatorSites.end())
            Loose.insert(It->first);
          else if (Controller == Block && !llvm::is_contained(It->second, Self))
            It->second.push_back(Self); // the branch that ends the condition, around a loop
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
    std::vector<unsigned> &Controllers = (*Ctx.Sites)[SiteId].Controllers;
    if (Merge) {
      for (unsigned Test : It->second)
        if (!llvm::is_contained(Controllers, Test))
          Controllers.push_back(Test);
      llvm::sort(Controllers);
    } else {
      Controllers = It->second;
    }
    if (Loose.contains(It->first))
      LooseControl.insert(SiteId);
  }

  llvm::DenseMap<unsigned, const Stmt *> AnchorOf;
  for (auto &[SiteId, Anchor] : Anchors)
    AnchorOf[SiteId] = Anchor;
  controlHandlers(Parents, AnchorOf);
  // Where the controllers merge several graphs, no one graph says which test always ran first.
  if (Merge)
    return true;

  // A site one test T controls may still run before T in a frame: a loop's test, which T in the
  // body controls through the back edge, runs first when the loop is entered; a call inside
  // T's own condition runs before T's probe. Its controller then is the call's, as if no test
  // controlled it. T's node can be passed as a constant only where T's probe always ran first:
  // the site is not inside T's condition, and every path from the function's entry to it
  // passes through a branch of T's condition. Elsewhere the site takes its control from a
  // local that T sets (a group of one).
  llvm::DenseMap<unsigned, llvm::SmallPtrSet<const CFGBlock *, 4>> BlocksOf; // test -> branches
  for (const CFGBlock *Block : *Graph)
    if (Block)
      if (auto Found = TerminatorSite(Block); Found != TerminatorSites.end())
        BlocksOf[Found->second].insert(Block);
  // Blocks reachable from the entry without passing through a branch of test T.
  std::map<unsigned, llvm::DenseSet<const CFGBlock *>> Avoiding;
  auto ReachableAvoiding = [&](unsigned Test) -> const llvm::DenseSet<const CFGBlock *> & {
    auto [It, Inserted] = Avoiding.try_emplace(Test);
    if (Inserted) {
      const auto &Stops = BlocksOf[Test];
      llvm::SmallVector<const CFGBlock *, 32> Work{&Graph->getEntry()};
      It->second.insert(&Graph->getEntry());
      while (!Work.empty()) {
        const CFGBlock *B = Work.pop_back_val();
        if (Stops.contains(B))
          continue;
        for (const CFGBlock::AdjacentBlock &Next : B->succs())
          if (const CFGBlock *N = Next.getReachableBlock(); N && It->second.insert(N).second)
            Work.push_back(N);
      }
    }
    return It->second;
  };
  // A <catch> test is controlled by the throw that reached it (sleuth_caught); its static
  // controllers, those its try block is entered under, stand in only for a throw of the
  // library's: never an edge written for every execution.
  llvm::DenseSet<unsigned> CatchTests;
  for (const auto &Entry : HandlerSites)
    CatchTests.insert(Entry.second);
  for (auto &[SiteId, Anchor] : Anchors) {
    const std::vector<unsigned> &Controllers = (*Ctx.Sites)[SiteId].Controllers;
    if (Controllers.size() != 1 || CatchTests.contains(SiteId))
      continue;
    unsigned Test = Controllers[0];
    const CFGBlock *Block = BlockOf(Anchor);
    const Stmt *Condition = AnchorOf.lookup(Test);
    bool Inside = false;
    for (const Stmt *P = Anchor; P && !Inside; P = Parents.getParent(P))
      Inside = P == Condition;
    if (Block && Condition && !Inside && !BlocksOf[Test].contains(Block) &&
        !ReachableAvoiding(Test).contains(Block)) {
      ConstantControl.insert(SiteId);
      (*Ctx.Sites)[SiteId].Flags |= StaticControl;
    }
  }
  return true;
}

} // namespace sleuth::instrumenter
