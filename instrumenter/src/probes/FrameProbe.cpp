#include "Probes.h"

#include "clang/AST/DeclCXX.h"
#include "clang/AST/ExprCXX.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>

using namespace clang;

namespace sleuth::instrumenter {

// Collects what an initializer reads that still holds its value when the body starts: the
// constructor's parameters and the members of *this (initialized in order, before it).
// Not inside the calls in Routed, whose value the write reads instead.
static void collectInitializerReads(const Stmt *S, const FunctionDecl *Function,
                                    const std::vector<const CallExpr *> &Routed,
                                    std::vector<const ValueDecl *> &Out) {
  if (!S || isa<LambdaExpr, UnaryExprOrTypeTraitExpr>(S) || llvm::is_contained(Routed, S))
    return;
  const ValueDecl *Read = nullptr;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(S)) {
    const auto *P = dyn_cast<ParmVarDecl>(Ref->getDecl());
    if (P && P->getDeclContext() == Function)
      Read = P;
  } else if (const auto *Member = dyn_cast<MemberExpr>(S)) {
    const auto *Field = dyn_cast<FieldDecl>(Member->getMemberDecl());
    if (Field && isa<CXXThisExpr>(Member->getBase()->IgnoreParenImpCasts()))
      Read = Field;
  }
  if (Read) {
    if (std::find(Out.begin(), Out.end(), Read) == Out.end())
      Out.push_back(Read);
    return;
  }
  for (const Stmt *Child : S->children())
    collectInitializerReads(Child, Function, Routed, Out);
}

// A constructor's member initializers (`Point(int x) : x_(x), norm_(x * x) {}`, and default
// member initializers, `int count = 0;`) write members before the body runs, where no probe
// can stand: each becomes a write recorded at the body's start, reading the parameters and
// members its initializer read (which hold those values still). A call of the program's there
// sends its value to that write (CallProbe::instrumentInitializerCalls); of another call, the
// arguments are read instead of its value. A member whose own constructor is instrumented
// records its writes itself. Without this a member kept whatever origin its bytes had.
static std::string
memberInitializerWrites(FunctionInstrumenter &F, std::string_view Sep,
                        const std::vector<std::pair<const ParmVarDecl *, unsigned>> &ParamSites) {
  const auto *Ctor = dyn_cast<CXXConstructorDecl>(F.Function);
  if (!Ctor || Ctor->isDependentContext())
    return "";
  std::string Text;
  for (const CXXCtorInitializer *Init : Ctor->inits()) {
    const FieldDecl *Field = Init->getMember();
    const Expr *Value = Init->getInit();
    if (!Field || !Value || Field->isBitField() || Field->getType()->isReferenceType() ||
        Field->getDeclName().isEmpty() || Field->getType()->isIncompleteType())
      continue;
    bool Default = isa<CXXDefaultInitExpr>(Value);
    if (!Init->isWritten() && !Default)
      continue; // default-constructed
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Value->IgnoreImplicit())) {
      const CXXConstructorDecl *Member = Construct->getConstructor();
      if (Member && Member->isUserProvided() && Member->hasBody() &&
          !F.Ctx.SM.isInSystemHeader(Member->getCanonicalDecl()->getLocation()))
        continue;
    }
    SourceLocation Loc = Default ? Field->getLocation() : Init->getSourceLocation();
    if (F.Ctx.SM.getFileLoc(Loc).isInvalid())
      continue;
    unsigned Site = F.addSite(SiteKind::Var, nullptr, Loc, Field->getNameAsString());
    std::vector<const ValueDecl *> Reads;
    if (!Default) {
      std::vector<const CallExpr *> Routed =
          CallProbe::instrumentInitializerCalls(Value, Site, ParamSites, F);
      collectInitializerReads(Value, Ctor, Routed, Reads);
    }
    for (const ValueDecl *Read : Reads) {
      std::string Name = Read->getNameAsString();
      if (const auto *Member = dyn_cast<FieldDecl>(Read)) {
        if (Member->isBitField())
          continue;
        Name = "this->" + Name;
      } else if (const std::string *Origin = F.Locals.companion(cast<VarDecl>(Read))) {
        Text += "sleuth_use(" + *Origin + ")";
        Text += Sep;
        continue;
      }
      Text += "sleuth_get(sleuth::address_of(" + Name + "), " + sizeofVariable(Read, Name) + ")";
      Text += Sep;
    }
    std::string Member = "this->" + Field->getNameAsString();
    Text += "sleuth_set(" + F.Ctx.unitAndSite(Site) + ", " + F.control(Site) +
            ", sleuth::address_of(" + Member + "), sizeof(" + Member + "))";
    Text += Sep;
    F.countProbe();
  }
  return Text;
}

bool FrameProbe::instrumentEntry(FunctionInstrumenter &F) {
  const auto *Body = cast<CompoundStmt>(F.Function->getBody());
  std::string Sep = F.isCxx() ? "; " : ", ";
  // When every parameter keeps its origin in a companion, the entry probe makes their nodes
  // too (their sites are consecutive), and each companion is the node's id plus one: the
  // unit's base plus the site, with no call per parameter.
  // (Vacuously so for a function without parameters: its entry takes the fused probe too,
  // whose inline path enters without a call.) Not a variadic function: its extra arguments'
  // origins, which va_arg reads (VariadicProbe), are kept by the runtime's entry.
  bool AllKept = !F.Function->isVariadic();
  for (const ParmVarDecl *P : F.Function->parameters())
    AllKept = AllKept && !P->getDeclName().isEmpty() && F.Locals.companion(P);
  std::string Params;
  std::vector<std::pair<const ParmVarDecl *, unsigned>> ParamSites;
  unsigned Position = 0, FirstSite = 0;
  for (const ParmVarDecl *P : F.Function->parameters()) {
    ++Position;
    QualType T = P->getType();
    const std::string *Origin = F.Locals.companion(P);
    if (P->getDeclName().isEmpty() || T->isReferenceType() || P->isParameterPack() ||
        ((P->getStorageClass() == SC_Register || T->isVariablyModifiedType()) && !Origin))
      continue;
    std::string Name = P->getNameAsString();
    unsigned Site = F.addSite(SiteKind::Param, nullptr, P->getLocation(), Name);
    ParamSites.emplace_back(P, Site);
    if (Position == 1)
      FirstSite = Site;
    if (AllKept) {
      Params += "(void)(" + *Origin + " = " + F.Ctx.UnitName + ".base + " + std::to_string(Site) +
                "u)" + Sep;
      F.Statics.noteParameter(P, Site);
    } else if (Origin) {
      Params += "(void)(" + *Origin + " = sleuth_param_origin(" + F.Ctx.unitAndSite(Site) + ", " +
                std::to_string(Position) + "u))" + Sep;
      F.Statics.noteParameter(P, Site); // which returns its node, `base + Site`, too
    } else {
      std::string Addr = addressOf(T, Name, F.isCxx());
      std::string Size = P->getOriginalType()->isArrayType() ? "sizeof(__typeof__(" + Name + "))"
                                                             : "sizeof(" + Name + ")";
      Params += "sleuth_param(" + F.Ctx.unitAndSite(Site) + ", " + Addr + ", " + Size + ", " +
                std::to_string(Position) + "u)" + Sep;
    }
  }
  std::string Key = std::to_string(FunctionInstrumenter::calleeKey(F.Function)) + "u";
  std::string Func = std::to_string(F.FunctionId) + "u";
  std::string Fused = AllKept ? ", " + std::to_string(FirstSite) + "u, " +
                                    std::to_string(F.Function->getNumParams()) + "u"
                              : "";
  Params += F.Locals.uses(Sep) + F.controlUses(Sep);
  // The call's control, which the groups of controllers start out as (none of their tests has
  // run in this frame yet), and the quiet control (sleuth_quiet_control), which the sites that
  // no test of the function controls pass. Not the groups: a site inside a test's condition
  // (`while (*++p == *++q && *++p == *++q)`) runs before the test's probe, with the group still
  // as it started, yet it need not run on every call.
  std::string CallControl = F.callControl();
  std::string Quiet;
  if (F.usesQuietControl())
    Quiet = "sleuth_quiet_control(&" + F.Ctx.UnitName + ", " + Func + ", " + CallControl + ")";
  std::string Entry = F.Locals.declarations(F.localType("unsigned "));
  if (F.isCxx()) {
    // A destructor, which C++ mostly calls implicitly with no record of the program's, takes the
    // control of the scope's end or of the throw that runs it (sleuth/runtime/scopes.h).
    std::string Entered =
        isa<CXXDestructorDecl>(F.Function) ? std::string(", sleuth::DestructorEntry()") : Fused;
    Entry += " sleuth::Frame " + F.frame() + "(&" + F.Ctx.UnitName + ", " + Func + ", " + Key +
             Entered + "); " + F.localType("unsigned ") + CallControl + " = " + F.frame() +
             ".control();";
    // What a constructor builds, for the library call that may have forwarded to it and moves
    // the object into place unseen (sleuth::Frame::constructs).
    if (const auto *Ctor = dyn_cast<CXXConstructorDecl>(F.Function);
        Ctor && !Ctor->isCopyOrMoveConstructor())
      Entry += " " + F.frame() + ".constructs(this, sizeof(*this));";
    if (!Quiet.empty())
      Entry += " " + F.localType("unsigned ") + F.quietControl() + " = " + Quiet + ";";
    Entry += F.controlDeclarations(/*CallControls=*/false);
    for (const std::string &Group : F.groupLocals())
      Params = "(void)(" + Group + " = " + CallControl + ")" + Sep + Params;
    Entry += " " + Params + memberInitializerWrites(F, Sep, ParamSites);
    ConstructProbe::instrumentInitializers(ParamSites, F);
  } else {
    std::string Groups;
    if (!Quiet.empty())
      Groups += "(void)(" + F.quietControl() + " = " + Quiet + "), ";
    for (const std::string &Group : F.groupLocals())
      Groups += "(void)(" + Group + " = " + CallControl + "), ";
    // A declaration, since C89 allows no statement before the body's declarations. With a
    // return hidden in a macro, the local holds the frame's address until a visible return
    // left the frame, and its cleanup leaves it otherwise (such a return's value gets no node).
    bool Cleanup = F.leavesAtScopeExit();
    // The cleanup's local is a struct (sleuth_exit_frame), which C89 initializes with constants
    // only: a second local enters the frame and fills it in.
    Entry += F.controlDeclarations() +
             (Cleanup ? " struct sleuth_exit_frame __sleuth_frame __attribute__(("
                        "cleanup(sleuth_leave_at_exit))) = {0, 0, 0, 0, 0};"
                        " int __sleuth_entered __attribute__((unused)) = ((void)("
                      : " int __sleuth_frame __attribute__((unused)) = ((void)(") +
             CallControl + " = " +
             std::string(AllKept ? "sleuth_enter_params(&" : "sleuth_enter(&") + F.Ctx.UnitName +
             ", " + Func + ", " + Key + ", __builtin_frame_address(0)" + Fused + ")), " + Groups +
             Params +
             (Cleanup ? "(void)(__sleuth_frame.tu = &" + F.Ctx.UnitName +
                            "), (void)(__sleuth_frame.address = "
                            "(unsigned long)__builtin_frame_address(0)), 0);"
                      : "0);");
    // Falling off the end of the body leaves the frame too.
    if (!Cleanup)
      F.Ctx.insertBefore(F.Ctx.SM.getFileLoc(Body->getRBracLoc()),
                         "sleuth_leave(__builtin_frame_address(0)); ");
  }
  F.Ctx.insertAfterToken(F.Ctx.SM.getFileLoc(Body->getLBracLoc()), Entry);
  return true;
}

// A return of a value spelled inside a macro's body (`#define REQUIRE(c, e) if (!(c)) return e`)
// can take no probe, but the statement that invokes the macro can be surrounded: while it runs,
// the frame local names a return node made for it, at the invocation, which the cleanup that
// leaves the frame completes (sleuth_leave_at_exit). The node consumes the reads pending then
// (those of the macro's arguments) and the caller reads it, as any return's. Only statements
// that stand in a list of statements (a block, after a label) and declare nothing: elsewhere
// the text put around them would change what they mean (an `if` without braces), or put a
// statement before a declaration (C89). Such returns keep leaving without a node.
// The invocation of a macro that expands to several statements of Block, one of them S (bzip2's
// BZ_GET_FAST: a check that returns, then three assignments), if every statement of Block it
// spells lies inside it and none declares anything; an invalid range otherwise.
static CharSourceRange invocationOfStatements(const Stmt *S, const CompoundStmt *Block,
                                              const Context &Ctx) {
  const SourceManager &SM = Ctx.SM;
  if (!S->getBeginLoc().isMacroID())
    return {};
  CharSourceRange Invocation = SM.getExpansionRange(S->getBeginLoc());
  CharSourceRange R = Lexer::makeFileCharRange(Invocation, SM, Ctx.Ast.getLangOpts());
  if (R.isInvalid() || !Ctx.instrumentable(R.getBegin()))
    return {};
  unsigned Begin = SM.getFileOffset(R.getBegin()), End = SM.getFileOffset(R.getEnd());
  FileID File = SM.getFileID(R.getBegin());
  auto Inside = [&](SourceLocation L) {
    auto [F, Offset] = SM.getDecomposedLoc(SM.getExpansionLoc(L));
    return F == File && Offset >= Begin && Offset < End;
  };
  for (const Stmt *Child : Block->body()) {
    bool First = Inside(Child->getBeginLoc()), Last = Inside(Child->getEndLoc());
    if (First != Last || ((First || Child == S) && isa<DeclStmt>(Child) && Ctx.isC()))
      return {};
  }
  return R;
}

// Maps to Site the branches inside the macro text of S that no test site has (the macro's own
// `if`, `&&` in its arguments), leaving lambdas alone.
static void mapMacroBranches(const Stmt *S, unsigned Site, FunctionInstrumenter &F) {
  if (!S || isa<LambdaExpr, BlockExpr>(S))
    return;
  bool Branch = isa<IfStmt, WhileStmt, DoStmt, ForStmt, SwitchStmt, AbstractConditionalOperator>(S);
  if (const auto *B = dyn_cast<BinaryOperator>(S))
    Branch = B->isLogicalOp();
  if (Branch && !F.hasTerminatorSite(S))
    F.mapTerminator(S, Site);
  for (const Stmt *Child : S->children())
    mapMacroBranches(Child, Site, F);
}

// The statement whose place in the CFG a site made for S takes its control from: a block's (a
// macro's `{ REQUIRE(a, e); REQUIRE(b, e); }`, which is no element of the CFG) is its first
// statement's.
static const Stmt *anchorOf(const Stmt *S) {
  while (const auto *Block = dyn_cast<CompoundStmt>(S)) {
    if (Block->body_empty())
      break;
    S = Block->body_front();
  }
  return S;
}

// The statement that makes the test node of a macro's invocation, Test, with the probe Probe
// (sleuth_test, sleuth_test_keep), and then sets the control locals of the statements it
// controls (its effects, known once the body has been walked).
static std::string testStatement(const char *Probe, unsigned Test, FunctionInstrumenter &F) {
  std::string Call =
      std::string(Probe) + "(" + F.Ctx.unitAndSite(Test) + ", " + F.control(Test) + ", 1)";
  std::string Discard = F.isCxx() ? "static_cast<void>(" : "(void)(";
  return F.defer([&F, Test, Discard] { return F.testEffects(Test).empty() ? Discard : "if ("; }) +
         Call + F.defer([&F, Test] {
           std::string Effects = F.testEffects(Test);
           return Effects.empty() ? ");" : ") { " + Effects + "; }";
         });
}

// The tests of a macro invocation that may return (S) decide whether the statements after it
// run: a test node at the invocation stands for them. Its probe runs once the invocation is
// done without returning, and takes what the macro's arguments read; the branches inside are
// its own, so the statements they control take their control from it. (On a return, the
// frame's leaving makes the node, and the return node under it.) Returns the probe's text; Test
// is the node's site.
static std::string macroTest(const Stmt *S, SourceLocation At, FunctionInstrumenter &F,
                             unsigned &Test) {
  Test = F.addSite(SiteKind::Test, anchorOf(S), At, "<test>");
  mapMacroBranches(S, Test, F);
  F.countProbe();
  return testStatement("sleuth_test", Test, F);
}

// The value of a macro's invocation that may return from inside (`TRY(f(x))` in
// `sum = TRY(f(x));`, a GNU statement expression): the innermost expression around Return that
// the invocation's text spells as a whole, below Statement; null if that is Statement itself
// (an invocation that stands alone) or not a scalar value.
static const Expr *invocationValue(const ReturnStmt *Return, const Stmt *Statement,
                                   FunctionInstrumenter &F) {
  const Stmt *S = Return;
  while (S != Statement) {
    auto Parents = F.Ctx.Ast.getParents(*S);
    S = Parents.empty() ? nullptr : Parents[0].get<Stmt>();
    if (!S || S == Statement)
      return nullptr;
    if (const auto *E = dyn_cast<Expr>(S); E && F.Ctx.expansionRange(E).isValid())
      return E->getType()->isScalarType() && !E->getType()->isAtomicType() ? E : nullptr;
  }
  return nullptr;
}

// The macro's own tests of such a value (TRY's `if (r_ < 0) return r_;`) decide whether the
// statement goes on and what runs after it, as in macroTest; but the statement's own nodes (the
// write of `sum`) run after them, so the test node is made as soon as the value is known: the
// invocation becomes a statement expression that keeps the value, makes the node (which reads
// what the value read, and leaves those reads to the statement: sleuth_test_keep), and yields the
// value. Test is the node's site.
static void valueTest(const Expr *Value, CharSourceRange R, FunctionInstrumenter &F,
                      unsigned &Test) {
  Test = F.addSite(SiteKind::Test, Value, R.getBegin(), "<test>");
  mapMacroBranches(Value, Test, F);
  // What the value read so far (its call's value, its arguments') is pushed, not checked
  // against the statement's node: the test reads it first, and a return through the macro
  // instead of that node.
  F.pushReads(Value);
  F.countProbe();
  std::string Name = "__sleuth_mv" + std::to_string(Test);
  F.Ctx.wrap(R,
             "__extension__ ({ " + std::string(F.isCxx() ? "auto " : "__auto_type ") + Name + " = ",
             "; " + testStatement("sleuth_test_keep", Test, F) + " " + Name + "; })");
}

// The statement that names the frame's return node while it runs: 1 + the node (0: none), the
// node's control, and 1 + the site of the macro's test that controls the return (0: none).
static std::string hiddenSite(const FunctionInstrumenter &F, const std::string &SitePlusOne,
                              const std::string &Control, const std::string &TestPlusOne) {
  if (F.isCxx())
    return F.frame() + ".hidden(" + SitePlusOne + ", " + Control + ", " + TestPlusOne + ");";
  return "__sleuth_frame.site = " + SitePlusOne + "; __sleuth_frame.ctl = " + Control +
         "; __sleuth_frame.test = " + TestPlusOne + ";";
}

bool FrameProbe::instrumentHidden(const ReturnStmt *Return, FunctionInstrumenter &F) {
  const Expr *Value = Return->getRetValue();
  if ((!F.isCxx() && !F.leavesAtScopeExit()) || !Value || Value->getType()->isVoidType())
    return false;
  // The statement around S, also across a declaration (`int d = TRY(f());`).
  auto Up = [&F](const Stmt *S) -> const Stmt * {
    auto Parents = F.Ctx.Ast.getParents(*S);
    if (Parents.empty())
      return nullptr;
    if (const auto *P = Parents[0].get<Stmt>())
      return P;
    if (const auto *D = Parents[0].get<VarDecl>()) {
      auto Outer = F.Ctx.Ast.getParents(*D);
      return Outer.empty() ? nullptr : Outer[0].get<DeclStmt>();
    }
    return nullptr;
  };
  const Stmt *S = Return;
  const Stmt *Parent = Up(S);
  // Blocks the macro spells (`({ int r = (e); if (r < 0) return r; r; })`, zlib's
  // `#define FLUSH_BLOCK(s, last) { ...; if (...) return ...; }`) do not count: text put
  // around a statement of theirs would go around the invocation, and under `if (bflush)
  // FLUSH_BLOCK(s, 0);` leave the invocation outside the `if`.
  auto SpelledHere = [&F](const Stmt *P) {
    if (const auto *Block = dyn_cast<CompoundStmt>(P))
      return Block->getLBracLoc().isFileID() && Block->getRBracLoc().isFileID() &&
             F.Ctx.instrumentable(Block->getLBracLoc());
    return isa<SwitchCase, LabelStmt>(P) && P->getBeginLoc().isFileID() &&
           F.Ctx.instrumentable(P->getBeginLoc());
  };
  // A macro's invocation that is the branch or the body of a statement written without braces
  // (`else REQUIRE(b, -2);`) is one too: its text goes into braces of its own, with what follows
  // it, so that it stays the branch. (Otherwise its return would be the enclosing statement's,
  // under what controls that, not under the macro's own test.)
  auto IsBranch = [&F](const Stmt *Branch, const Stmt *P) {
    if (!P->getBeginLoc().isFileID() || !F.Ctx.instrumentable(P->getBeginLoc()) ||
        !Branch->getBeginLoc().isMacroID() || !Branch->getEndLoc().isMacroID() ||
        isa<DeclStmt>(Branch) || F.Ctx.expansionRange(Branch).isInvalid())
      return false;
    if (const auto *If = dyn_cast<IfStmt>(P))
      return If->getThen() == Branch || If->getElse() == Branch;
    if (const auto *While = dyn_cast<WhileStmt>(P))
      return While->getBody() == Branch;
    if (const auto *For = dyn_cast<ForStmt>(P))
      return For->getBody() == Branch;
    if (const auto *Do = dyn_cast<DoStmt>(P))
      return Do->getBody() == Branch;
    return false;
  };
  bool InBranch = false;
  while (Parent && !SpelledHere(Parent)) {
    if ((InBranch = IsBranch(S, Parent)))
      break;
    S = Parent;
    Parent = Up(S);
  }
  // C89 has no statement before a declaration.
  if (!Parent || (isa<DeclStmt>(S) && !F.isCxx()))
    return false;
  if (const auto *Case = dyn_cast<SwitchCase>(Parent); Case && Case->getSubStmt() != S)
    return false;
  CharSourceRange R = F.Ctx.expansionRange(S);
  // True if S is the macro's invocation and nothing else (`REQUIRE(c, -1);`, not
  // `x = TRY(f());`): no node of S's own runs after the macro's tests.
  bool Invocation = R.isValid() && S->getBeginLoc().isMacroID() && S->getEndLoc().isMacroID();
  if (R.isInvalid() && isa<CompoundStmt>(Parent)) {
    R = invocationOfStatements(S, cast<CompoundStmt>(Parent), F.Ctx);
    Invocation = R.isValid();
  }
  R = F.Ctx.withSemicolon(R);
  if (R.isInvalid())
    return false;
  unsigned Key = R.getBegin().getRawEncoding();
  if (F.HiddenReturnSites.contains(Key))
    return true;
  std::string Name = "<" + F.Name + "() return value>";
  unsigned Site = F.addSite(SiteKind::Ret, anchorOf(S), R.getBegin(), Name);
  F.HiddenReturnSites[Key] = Site;
  F.countProbe();
  // Queued once the body has been walked (FunctionInstrumenter::run), so that the text goes
  // around the probes of S's own nodes that begin or end where S does.
  // C: the frame local's cleanup completes the node; C++: the frame's destructor (unless an
  // exception unwinds it).
  FunctionInstrumenter::Wrap W;
  W.Range = R;
  W.Site = Site;
  // The macro's test that controls the return, made when the frame is left through it; the
  // frame then holds the test's control.
  unsigned Test = 0;
  if (Invocation) {
    W.After = " " + macroTest(S, R.getBegin(), F, Test);
  } else if (const Expr *Value = invocationValue(Return, S, F)) {
    CharSourceRange VR = F.Ctx.expansionRange(Value);
    valueTest(Value, VR, F, Test);
  } else {
    Test = ~0u;
  }
  W.Test = Test == ~0u ? "0u" : std::to_string(Test) + "u + 1u";
  W.Control = F.control(Test == ~0u ? Site : Test);
  W.Prefix = hiddenSite(F, std::to_string(Site) + "u + 1u", W.Control, W.Test) + " ";
  // A statement in braces of its own: after `while (n--)\n  if (...) ...;` the next statement
  // on the same line would look to Clang's -Wmisleading-indentation like a second statement
  // meant for the loop; a `}` there does not. Not a declaration, whose scope it would end.
  W.Braced = !isa<DeclStmt>(S);
  W.InBranch = InBranch;
  if (W.Braced)
    W.Prefix = "{ " + W.Prefix;
  F.HiddenReturnWraps.push_back(std::move(W));
  return true;
}

bool FrameProbe::instrument(const ReturnStmt *Return, FunctionInstrumenter &F) {
  CharSourceRange R = F.Ctx.expansionRange(Return);
  if (R.isInvalid())
    return instrumentHidden(Return, F);
  const Expr *Value = Return->getRetValue();
  // (Not the lexer's token after the last character: that of `return os << "x";` would start a
  // string literal, and the return would have no node.)
  CharSourceRange Whole = F.Ctx.withSemicolon(R);
  if (Whole.getEnd() == R.getEnd())
    return false;
  SourceLocation After = Whole.getEnd();
  // A C function whose frame a cleanup leaves (leavesAtScopeExit) needs nothing at a return
  // without a value.
  bool LeaveHere = !F.isCxx() && !F.leavesAtScopeExit();
  if (!Value) {
    if (LeaveHere)
      F.Ctx.wrap(Whole, "{ sleuth_leave(__builtin_frame_address(0)); ", " }");
    return true;
  }
  std::string Name = "<" + F.Name + "() return value>";
  // Old C's `return x;` in a void function, which GCC only warns of (Clang casts the value to
  // void): the value is evaluated and dropped, no caller receives one. Evaluated in the frame,
  // as a discarded expression statement is, its reads go nowhere (left pending after the frame
  // was left, the caller's next node would take them).
  CharSourceRange RV = F.Ctx.expansionRange(Value);
  if (!F.isCxx() && !Value->IgnoreImpCasts()->getType()->isVoidType() &&
      F.Function->getReturnType()->isVoidType() && RV.isValid()) {
    F.Ctx.replace(CharSourceRange::getCharRange(R.getBegin(), RV.getBegin()), "{ (void)(");
    F.Ctx.wrap(CharSourceRange::getCharRange(RV.getEnd(), RV.getEnd()), "", ")");
    F.Ctx.wrap(CharSourceRange::getCharRange(After, After), "",
               std::string(" sleuth_discard();") +
                   (LeaveHere ? " sleuth_leave(__builtin_frame_address(0));" : "") + " return; }");
    return true;
  }
  if (Value->getType()->isVoidType()) {
    if (LeaveHere)
      F.Ctx.wrap(Whole, "{ sleuth_leave(__builtin_frame_address(0)); ", " }");
    return true;
  }
  unsigned Site = F.addSite(SiteKind::Ret, Value, Return->getReturnLoc(), Name);
  F.claimReads(Value, Site);
  std::string Unit = F.Ctx.unitAndSite(Site) + ", " + F.control(Site);
  F.countProbe();
  if (F.isCxx()) {
    // The frame's destructor completes the node after the value was computed, which keeps
    // `return x;` eligible for implicit move and NRVO.
    std::string Prefix =
        "{ " + F.frame() + ".ret(" + std::to_string(Site) + "u, " + F.control(Site) + "); ";
    // `return out;` of a class-type local is no read in Clang's AST (no lvalue-to-rvalue
    // conversion); record it before the statement rather than wrap it, which would cost the
    // implicit move and NRVO.
    const Expr *Inner = Value->IgnoreImplicit();
    if (const auto *Construct = dyn_cast<CXXConstructExpr>(Inner);
        Construct && Construct->getNumArgs() == 1)
      Inner = Construct->getArg(0)->IgnoreImplicit();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(Inner->IgnoreParens());
        Ref && isa<VarDecl>(Ref->getDecl()) &&
        (Ref->getType()->isRecordType() || Ref->isTypeDependent()) &&
        !Ref->containsUnexpandedParameterPack()) {
      // A local by its name; anything else as written (`return ::std::cerr;`), which its
      // unqualified name may not reach.
      const auto *Var = cast<VarDecl>(Ref->getDecl());
      std::string Name;
      if (Var->isLocalVarDeclOrParm() && !Ref->hasQualifier())
        Name = Var->getNameAsString();
      else if (F.Ctx.inFile(Ref))
        Name = F.Ctx.text(Ref);
      if (!Name.empty())
        Prefix += "sleuth_getc(&" + F.Ctx.UnitName + ", " + F.readCache() + ", " +
                  std::to_string(Site) + "u, __builtin_addressof(" + Name + "), sizeof(" + Name +
                  ")); ";
    }
    F.Ctx.wrap(Whole, Prefix, " }");
    return true;
  }
  QualType Returned = F.Function->getReturnType().getCanonicalType();
  QualType Given = Value->IgnoreParenImpCasts()->getType().getCanonicalType();
  if (RV.isInvalid())
    return false;
  if (Returned->isPointerType() && Given->isIntegerType()) {
    // `return 0;` from a pointer function: a temporary would turn the null pointer constant
    // into an int. Such a value reads nothing.
    F.Ctx.wrap(Whole,
               "{ sleuth_ret(" + Unit + ", __builtin_frame_address(0));" + F.frameLeft() + " ",
               " }");
    return true;
  }
  // C has no destructors: compute the value into a temporary, complete the node, return it.
  // The temporary has the function's return type, so that the conversion happens where it did,
  // in the initialization: `return 0;` from an `unsigned` or `enum` function, or `return x &
  // 0x7F;` from an `unsigned char` one, would otherwise convert a non-constant `int` temporary
  // and trip -Wsign-conversion, -Wconversion or -Wc++-compat (cjson builds with all three).
  // __auto_type is left for return types that cannot be named (anonymous structs).
  std::string Type = F.Function->getReturnType().getAsString(F.Ctx.Ast.getPrintingPolicy());
  std::string Declared =
      Type.find("(unnamed") == std::string::npos && Type.find("(anonymous") == std::string::npos
          ? "__typeof__(" + Type + ") " + F.localType("")
          : "__auto_type ";
  CharSourceRange Keyword = CharSourceRange::getCharRange(R.getBegin(), RV.getBegin());
  F.Ctx.replace(Keyword, "{ __extension__ " + Declared + "__sleuth_rv = (");
  F.Ctx.wrap(CharSourceRange::getCharRange(RV.getEnd(), RV.getEnd()), "", ")");
  F.Ctx.wrap(CharSourceRange::getCharRange(After, After), "",
             " sleuth_ret(" + Unit + ", __builtin_frame_address(0));" + F.frameLeft() +
                 " return __sleuth_rv; }");
  return true;
}

// After a statement that names a return node, the frame names the node of the innermost such
// statement around it again (`while (k--) if (k) { REQUIRE(a, -1); } else REQUIRE(b, -2);`: the
// loop's node, for the REQUIRE of the next iteration), or none.
void FunctionInstrumenter::applyHiddenReturnWraps() {
  auto Encoded = [](SourceLocation L) { return L.getRawEncoding(); };
  for (const Wrap &W : HiddenReturnWraps) {
    const Wrap *Outer = nullptr;
    for (const Wrap &O : HiddenReturnWraps)
      if (&O != &W && Encoded(O.Range.getBegin()) <= Encoded(W.Range.getBegin()) &&
          Encoded(W.Range.getEnd()) <= Encoded(O.Range.getEnd()) &&
          (!Outer || Encoded(Outer->Range.getBegin()) <= Encoded(O.Range.getBegin())))
        Outer = &O;
    std::string Reset = Outer     ? hiddenSite(*this, std::to_string(Outer->Site) + "u + 1u",
                                               Outer->Control, Outer->Test)
                        : isCxx() ? frame() + ".hidden(0u, 0u);"
                                  : "__sleuth_frame.site = 0;";
    if (W.InBranch)
      Ctx.wrap(W.Range, W.Prefix, " " + Reset + W.After + " }");
    else
      Ctx.wrap(W.Range, W.Prefix, (W.Braced ? " } " : " ") + Reset + W.After);
  }
}

} // namespace sleuth::instrumenter
