// Instruments one function body: walks it in post-order, asks each probe kind to instrument
// the node, then computes the static control dependences of the sites it created.
//
// Some of a probe's text is known only once the whole body has been seen: the controlling test
// that a node passes (the control dependences come from the CFG, after the walk), and whether
// a read is checked against the node that consumes it or pushed for one the run decides (an
// assignment claims the reads of its operands when it is visited, after them). Probes write a
// placeholder for such text (`defer`), which run() replaces before the edits are applied.
#pragma once

#include "Context.h"
#include "InstantiatedGraph.h"
#include "LocalOrigins.h"
#include "StaticOrigins.h"

#include "clang/AST/Decl.h"
#include "clang/AST/Expr.h"
#include "clang/AST/ParentMap.h"
#include "clang/AST/StmtCXX.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"
#include "llvm/ADT/MapVector.h"

#include <functional>
#include <map>
#include <optional>

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
  /// Which of their writes reach which reads (probes note the writes).
  StaticOrigins Statics;
  /// A declaration by reference of bindings to bit-fields (`auto &[on, level] = f;`): the
  /// reference to its object that the instrumentation declares after it (DeclarationProbe),
  /// through which BitFieldProbe reaches the bytes of those bit-fields.
  llvm::DenseMap<const clang::DecompositionDecl *, std::string> BoundObjects;

  /// In a lambda that is not `mutable`, the origin of a variable that `E` names and that the
  /// lambda captured by copy (the node that created the closure, see Context::ClosureSites);
  /// null otherwise.
  const std::string *captureOrigin(const clang::Expr *E);
  const std::string *captureOrigin(const clang::VarDecl *V);

  /// Creates a site anchored at `Anchor` (whose CFG block decides the site's controllers).
  unsigned addSite(SiteKind Kind, const clang::Stmt *Anchor, clang::SourceLocation Loc,
                   std::string SiteName, unsigned Flags = 0);

  /// A placeholder for text that Make produces once the function has been analysed.
  std::string defer(std::function<std::string()> Make);
  /// The full expression that E belongs to: E's outermost enclosing expression.
  const clang::Stmt *fullExpression(const clang::Expr *E) const;
  /// The name of node probe `Name` (sleuth_def, sleuth_test, sleuth_set) for a node of full
  /// expression Full (or of a declaration), or of its `_nopending` twin where nothing in Full
  /// pushes a read (no call in it, every read checked or static): the frame then holds no
  /// pending read for the node to consume, which the twin does not look for. Deferred: the
  /// reads' claims are final once the function has been analysed.
  std::string nodeProbe(const char *Name, const clang::Stmt *Full);
  /// The expression a node probe of `Site` passes as its control (`ctl`): 1 + the node of its
  /// controlling test in this execution, 0 for none (deferred: see the file comment). A site
  /// that no test of this function controls passes the call's control, which the entry probe
  /// keeps in a local; a site one test controls and whose probe always runs after that test's
  /// passes that test (ConstantControl); every other site the local that its controllers set
  /// when they run (the one run last in this frame; the call's control before any has).
  std::string control(unsigned Site);
  /// What a test probe of `Site` must do once its outcome is known: set the locals of the
  /// groups of controllers the test belongs to (`g1 = g2 = base + Site`); empty if it belongs
  /// to none. Known only once the function has been analysed: call it from deferred text.
  std::string testEffects(unsigned Site) const;
  /// The control a call probe of `Site` passes on to its callee: as control(), but the call's
  /// control itself where control() gives the quiet one (deferred).
  std::string callSiteControl(unsigned Site);
  /// The type of the instrumentation's locals of type Type (`unsigned`): volatile in a function
  /// that calls setjmp, as C requires of a local changed between setjmp and a longjmp back to it
  /// (else its value is indeterminate there, and GCC's -Wclobbered says so).
  std::string localType(const std::string &Type) const { return LocalQualifier + Type; }
  /// The local holding the call's control (see sleuth_enter).
  std::string callControl() const { return "__sleuth_cc" + std::to_string(FunctionId); }
  /// The C++ function's sleuth::Frame: one name per function, since a lambda's would hide its
  /// enclosing function's (-Wshadow).
  std::string frame() const { return "__sleuth_frame" + std::to_string(FunctionId); }
  /// True if the C function has a return the rewriter cannot see (spelled inside a macro's
  /// body, `#define CHECK(c) if (!(c)) return -1`): its frame is left by a cleanup at scope
  /// exit instead of at each return (see FrameProbe::instrumentEntry).
  bool leavesAtScopeExit() const { return LeavesAtScopeExit; }
  /// What a visible return of such a function adds after leaving the frame itself, so that
  /// the cleanup does not leave it again (empty otherwise).
  std::string frameLeft() const { return LeavesAtScopeExit ? " __sleuth_frame.address = 0;" : ""; }
  /// The return node of each statement (or run of statements a macro spells) that invokes a
  /// macro with a return of a value inside, by the raw location where its text begins (made by
  /// the first such return found in it; FrameProbe::instrumentHidden).
  std::map<unsigned, unsigned> HiddenReturnSites;
  /// The text that goes around each of those statements: their range, the prefix that names
  /// their return node (Site, under Control, or under Test, made under Control), and what follows
  /// the statement once the frame names again the node of the statement around it, if any
  /// (applyHiddenReturnWraps).
  struct Wrap {
    clang::CharSourceRange Range;
    unsigned Site = 0;
    bool Braced = false;   // the statement is put in braces of its own
    bool InBranch = false; // ... with what follows it: it is a branch written without braces
    std::string Control, Prefix, After;
    std::string Test; // 1 + the site of the macro's test that controls the return, or 0
  };
  std::vector<Wrap> HiddenReturnWraps;
  void applyHiddenReturnWraps();
  /// The local holding the quiet control (see sleuth_quiet_control), which the sites that no
  /// test controls pass instead of the call's. Only where usesQuietControl().
  std::string quietControl() const { return "__sleuth_cq" + std::to_string(FunctionId); }
  /// True if the sites that no test controls run on every normal return (known once the
  /// function has been analysed): the function has a CFG and no try statement; and it calls
  /// no setjmp (whose second return GCC's -Wclobbered would warn about the local for).
  bool usesQuietControl() const { return QuietControls; }
  /// A fresh local of the function's for the address of a write's target whose lvalue has
  /// side effects (`*p++ = v`), taken once before the store (declared by the entry probe).
  std::string addressLocal() {
    std::string Name =
        "__sleuth_w" + std::to_string(FunctionId) + "_" + std::to_string(AddressLocals.size());
    AddressLocals.push_back(Name);
    return Name;
  }
  /// A local of the function's for a switch's value (declared by the entry probe).
  std::string switchValue() {
    NeedsSwitchValue = true;
    return "__sleuth_sw" + std::to_string(FunctionId);
  }
  /// The declarations of the function's own locals for control, for the top of the body
  /// (without the call's and the quiet control if not CallControls); and their uses, each cast
  /// to void and followed by Separator (see LocalOrigins::uses).
  std::string controlDeclarations(bool CallControls = true) const;
  std::string controlUses(const std::string &Separator) const;
  const std::vector<std::string> &groupLocals() const { return GroupLocals; }

  /// A read, in its two forms: pushed onto the pending reads (`Push`, for a consumer the run
  /// decides), or checked against the node that consumes it (`Check`, where `@SITE@` and
  /// `@CACHE@` stand for the node's site and the read's cache slots). Wraps R (or, with an
  /// invalid R, returns the placeholder to put into a probe's own text). Reads are claimed by
  /// the consumer probes visited after them (claimReads); unclaimed reads are pushed.
  struct ReadForms {
    std::string PushPrefix, PushSuffix, CheckPrefix, CheckSuffix;
  };
  std::pair<std::string, std::string> addRead(clang::CharSourceRange R, ReadForms Forms);
  /// The read just added (addRead) is of kept local V, evaluated at CFG element At (its
  /// lvalue-to-rvalue conversion): if one write of V reaches it and it runs on every execution
  /// of the node that claims it, its edge is static (see StaticOrigins.h) and it has no probe.
  void noteKeptRead(const clang::VarDecl *V, const clang::Stmt *At);
  /// The read just added reads the value that the write at `WriteSite` gave its kept local,
  /// right after that write: its origin is that write, and the write running shows it ran.
  void noteValueRead(unsigned WriteSite);
  /// The read just added is pushed, whatever node consumes the expression around it.
  void pushLastRead() { Reads.back().Claim = Pushed; }
  /// The check, followed by ", ", of the old value of kept local V (companion Origin) that
  /// compound write `Site` (anchored at Anchor) reads; empty (deferred) where the origin is
  /// static, the write itself showing that the read ran.
  std::string priorRead(const clang::ValueDecl *V, const clang::Stmt *Anchor, unsigned Site,
                        const std::string &Origin);
  /// Reads registered inside S (and not claimed yet) flow into node `Site`.
  void claimReads(const clang::Stmt *S, unsigned Site);
  /// Reads registered inside S (not claimed yet) are pushed: a callee decides.
  void pushReads(const clang::Stmt *S);
  /// Reads registered inside S (not claimed yet) are left out: a probe passes them otherwise.
  void omitReads(const clang::Stmt *S);
  /// A fresh pair of slots in the unit's read cache, for a read checked against a node the
  /// probe knows itself (`&__sleuth_rc[2k]`).
  std::string readCache();
  /// Control-flow decisions inside the condition of test `Site` (&&, ||, ?:) map to it.
  void mapTerminator(const clang::Stmt *Terminator, unsigned Site);
  /// The statements of `Handler` that no test inside it controls are controlled by its
  /// <catch> test `Site` (Clang's CFG has no edges for exceptions).
  void mapHandler(const clang::CXXCatchStmt *Handler, unsigned Site) {
    HandlerSites[Handler] = Site;
  }
  bool hasTerminatorSite(const clang::Stmt *Terminator) const {
    return TerminatorSites.contains(Terminator);
  }
  /// Number of probes emitted so far (lets a probe tell whether a subtree read anything).
  unsigned probeCount() const { return Probes; }
  void countProbe() { ++Probes; }

  /// Nodes whose pending reads a probe already consumes (no discard needed).
  void markConsumed(const clang::Stmt *S) { Consumed.insert(S); }
  bool isConsumed(const clang::Stmt *S) const { return Consumed.contains(S); }
  /// Library calls whose probe made a node of their own (sprintf's write of its buffer): the
  /// line has its node, a discarded call needs no <effect> one.
  void markRecordedCall(const clang::Stmt *S) { RecordedCalls.insert(S); }
  bool isRecordedCall(const clang::Stmt *S) const { return RecordedCalls.contains(S); }
  /// True if a probe was emitted inside E (an argument that reads something).
  bool hasProbesInside(const clang::Expr *E) const {
    auto I = ProbesInside.find(E);
    return I != ProbesInside.end() && I->second > 0;
  }

  /// A read that a macro expansion hides, repeated before it: a variable by its name, or an
  /// lvalue written in a macro argument (`*s`, `p->len`) by its text.
  struct MacroRead {
    const clang::VarDecl *Variable = nullptr;
    const clang::Expr *Lvalue = nullptr;
    std::string Text;
  };
  /// The reads inside the macro expansion that an expression is, by expression (MacroReadProbe).
  llvm::MapVector<const clang::Expr *, std::vector<MacroRead>> MacroReads;
  /// Expressions whose macro reads flow into a node of their own (a fortified sprintf's: its
  /// write, see FormatCallProbe), by expression: the site.
  llvm::DenseMap<const clang::Expr *, unsigned> MacroReadConsumers;

  bool isCxx() const { return !Ctx.isC(); }
  static unsigned calleeKey(const clang::FunctionDecl *F);
  /// True if the body of F, a callee, is left as it is: a `constexpr` or `consteval` function
  /// (not a lambda, which is implicitly constexpr: see FunctionFinder), whose body cannot call
  /// the runtime; or a function of this translation unit's own (`static`, an unnamed
  /// namespace's) defined in a file that is not instrumented (a header outside the project,
  /// Csmith's `safe_math.h`). A call of it is a library call: no record waits for its entry.
  bool isLeftUninstrumented(const clang::FunctionDecl *F) const;
  static std::string displayName(const clang::FunctionDecl *F);
  /// For a template pattern, its statements paired with those of each of its instantiations
  /// in this unit (made on first use); empty for a function that is no pattern, or one never
  /// instantiated here.
  llvm::ArrayRef<StmtCorrespondence> instances();

private:
  bool hasHiddenReturn(const clang::Stmt *S) const;
  static bool hasTry(const clang::Stmt *S);
  static bool callsSetjmp(const clang::Stmt *S);
  void walk(const clang::Stmt *S);
  void walkChildren(const clang::Stmt *S);
  void visit(const clang::Stmt *S);
  void computeControlDependences();
  /// The sites' controllers from the CFG of the function, or of the instantiation Same pairs
  /// with it; merged into those already found where Merge is set. False without a CFG.
  bool controlFrom(const StmtCorrespondence *Same, bool Merge);
  void controlHandlers(const clang::ParentMap &Parents,
                       const llvm::DenseMap<unsigned, const clang::Stmt *> &AnchorOf);
  /// True if Call may throw and is inside the try block of a try statement of this function.
  bool mayThrowInsideTry(const clang::CallExpr *Call) const;
  void computeControlGroups();
  void resolveDeferred(size_t FirstEdit, size_t FirstReplacement);
  std::pair<unsigned, unsigned> readRange(const clang::Stmt *S) const;

  static constexpr unsigned Unclaimed = ~0u, Pushed = ~0u - 1, Omitted = ~0u - 2;
  struct Read {
    ReadForms Forms;
    unsigned Claim = Unclaimed;            // the consuming site, or Unclaimed / Pushed / Omitted
    std::string Cache;                     // its slots, once it is checked
    const clang::VarDecl *Local = nullptr; // a kept local's read (noteKeptRead)...
    const clang::Stmt *At = nullptr;       // ...evaluated there
    unsigned ValueOf = ~0u;                // the write whose value it reads (noteValueRead)
    int Static = -1;                       // decided: 1 if its edge is static
  };
  /// True if read R (claimed by a node) has a static edge, which is then in the site table.
  bool isStaticRead(Read &R);
  /// True if the node of `Site` can stand for the reads it consumes: a graph node whose
  /// execution completes what its anchor evaluates.
  bool consumesStatically(unsigned Site) const;
  /// True if the node of `Site` runs only after At was evaluated, in every execution: At lies
  /// in its anchor, outside any operand evaluated only sometimes (&&, ||, ?:) and outside the
  /// target of a write (a store through a null pointer faults after At's check would have
  /// recorded it, the node never completing).
  bool evaluatedWithNode(const clang::Stmt *At, unsigned Site);
  llvm::DenseMap<unsigned, const clang::Stmt *> AnchorOfSite;
  std::string readText(unsigned Index, bool Prefix);
  std::string expand(const std::string &Text, std::vector<std::string> &Done,
                     std::vector<bool> &Ready);
  std::vector<Read> Reads;
  llvm::DenseMap<const clang::Stmt *, std::pair<unsigned, unsigned>> ReadRanges;
  std::vector<std::function<std::string()>> Deferred;
  /// Sites created by this function, and for a site controlled by several tests the local
  /// that holds the one executed last; for a test, the locals it sets.
  std::vector<unsigned> OwnSites;
  std::map<unsigned, std::string> GroupOfSite;
  std::map<unsigned, std::vector<std::string>> GroupsOfTest;
  std::vector<std::string> GroupLocals;
  llvm::DenseSet<unsigned> ConstantControl;
  /// Sites without a controller that a branch which is no test site may keep from running
  /// (or that the CFG lacks): they pass the call's control, never the quiet one.
  llvm::DenseSet<unsigned> LooseControl;
  bool QuietControls = false;
  /// `volatile ` where the function calls setjmp (or vfork...), else empty: see localType().
  std::string LocalQualifier;
  bool LeavesAtScopeExit = false;
  bool NeedsSwitchValue = false;
  std::vector<std::string> AddressLocals;
  std::map<const clang::VarDecl *, std::string> CaptureOrigins;

  unsigned Probes = 0;
  std::vector<std::pair<unsigned, const clang::Stmt *>> Anchors;
  llvm::DenseMap<const clang::Stmt *, unsigned> TerminatorSites;
  llvm::DenseMap<const clang::CXXCatchStmt *, unsigned> HandlerSites;
  llvm::DenseMap<const clang::Stmt *, unsigned> ProbesInside;
  llvm::DenseSet<const clang::Stmt *> Consumed;
  llvm::DenseSet<const clang::Stmt *> RecordedCalls;
  std::optional<std::vector<StmtCorrespondence>> InstanceStatements;
};

} // namespace sleuth::instrumenter
