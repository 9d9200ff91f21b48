#include "Probes.h"

using namespace clang;

namespace sleuth::instrumenter {

std::string keptWriteProbe(const ValueDecl *V, const std::string &Name, const std::string &Probe,
                           const std::string &Unit, bool BeforeStore, FunctionInstrumenter &F) {
  const auto *Var = dyn_cast<VarDecl>(V);
  if (!F.Ctx.AddressedLocals || !Var || Var->getStorageClass() == SC_Register)
    return Probe + "(" + Unit + ")";
  return std::string(BeforeStore ? "sleuth_defnow_at(" : "sleuth_def_at(") + Unit + ", " +
         addressOf(V->getType(), Name, F.isCxx()) + ", sizeof(" + Name + "))";
}

static bool canTrackWrite(const Expr *L, FunctionInstrumenter &F) {
  QualType T = L->getType();
  // In a template pattern, C++'s probes are templates themselves: a builtin assignment or ++
  // (whose type Clang resolved) writes an lvalue of the same type in every instantiation.
  return hasAddress(L) && !T->isAtomicType() && !T->isVariablyModifiedType() &&
         (F.isCxx() ? !L->containsUnexpandedParameterPack() : !L->isInstantiationDependent()) &&
         (F.isCxx() || !typeOfC(T, F.Ctx.Ast).empty());
}

// `x` again, as a read: the value of an assignment flows on from the node it created, into
// whatever consumes the enclosing expression.
static std::string rereadC(const Expr *L, const std::string &Text, FunctionInstrumenter &F) {
  auto [Prefix, Suffix] = F.addRead({}, ReadProbe::memoryRead(L, Text, F));
  return Prefix + Text + Suffix;
}

// In a template pattern an assignment whose operands wait for the instantiation may become a
// call to any operator=, whose result is unknown: when its value is discarded and its target is
// an lvalue in every instantiation, the write is recorded beside it, by address: the target's
// text again if it has no side effects, else its address kept by the runtime (sleuth::target).
static bool instrumentDependent(const BinaryOperator *Assign, FunctionInstrumenter &F) {
  const Expr *L = Assign->getLHS()->IgnoreParens();
  if (!F.isCxx() || !isLvalueInEveryInstantiation(L) || !F.Ctx.isDiscarded(Assign) ||
      L->getType().isVolatileQualified() || L->getType()->isArrayType())
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(L); Ref && isa<DecompositionDecl>(Ref->getDecl()))
    return false;
  CharSourceRange RA = F.Ctx.fileRange(Assign), RL = F.Ctx.fileRange(L);
  if (RA.isInvalid() || RL.isInvalid())
    return false;
  std::string Text = F.Ctx.text(RL);
  unsigned Site = F.addSite(SiteKind::Var, Assign, L->getBeginLoc(), Text,
                            Assign->isCompoundAssignmentOp() ? CompoundWrite : 0);
  F.claimReads(Assign, Site);
  if (isRepeatable(L, F.Ctx.Ast)) {
    F.Ctx.wrapWithWriteAfter(RA, Site, F.control(Site), Text);
  } else { // items[size++] = value
    F.Ctx.wrap(RL, "sleuth::target(" + F.Ctx.unitAndSite(Site) + ", " + F.control(Site) + ", ",
               ")");
    F.Ctx.wrap(RA, "((void)(", "), (void)sleuth_commit())");
  }
  F.markConsumed(Assign);
  F.countProbe();
  return true;
}

// A write of a local whose origin lives in a companion local: the runtime returns the new
// origin. In C++ the expression stays an lvalue (a comma expression whose right operand is one).
static bool instrumentLocal(const BinaryOperator *Assign, const std::string &Origin,
                            FunctionInstrumenter &F) {
  const Expr *L = Assign->getLHS();
  CharSourceRange RA = F.Ctx.expansionRange(Assign), RL = F.Ctx.expansionRange(L);
  if (RA.isInvalid() || RL.isInvalid())
    return false;
  std::string Text = F.Ctx.text(RL);
  bool Compound = Assign->isCompoundAssignmentOp();
  unsigned Site =
      F.addSite(SiteKind::Var, Assign, L->getBeginLoc(), Text, Compound ? CompoundWrite : 0);
  F.claimReads(Assign, Site);
  const ValueDecl *V = cast<DeclRefExpr>(L->IgnoreParens())->getDecl();
  if (const auto *Var = dyn_cast<VarDecl>(V))
    F.Statics.noteWrite(Var, Assign, Site, true);
  // A compound write reads the old value first: its origin is still in the companion.
  std::string Prior = Compound ? F.priorRead(V, Assign, Site, Origin) : "";
  std::string Probe = F.Ctx.AddressedLocals ? std::string("sleuth_def")
                                            : F.nodeProbe("sleuth_def", F.fullExpression(Assign));
  std::string Def =
      Prior + "(void)(" + Origin + " = " +
      keptWriteProbe(V, Text, Probe, F.Ctx.unitAndSite(Site) + ", " + F.control(Site), false, F) +
      ")";
  // (A C++ rewrite whose type is void inside the user's `(void)(x = e)` would make that cast
  // useless to GCC: there it yields x, as when the value is used.)
  if (F.Ctx.isDiscarded(Assign) && !(F.isCxx() && F.Ctx.isCastToVoid(Assign))) {
    F.Ctx.wrap(RA, "((void)(", "), " + Def + ")");
  } else if (F.isCxx() && !WriteProbe::readsKeptValue(Assign, F)) {
    F.Ctx.wrap(RA, "((void)(", "), " + Def + ", " + Text + ")");
  } else { // the value of the assignment flows on from the node it created
    auto [Prefix, Suffix] = F.addRead({}, ReadProbe::keptRead(Origin, F));
    F.noteValueRead(Site);
    F.Ctx.wrap(RA, "((void)(", "), " + Def + ", " + Prefix + Text + Suffix + ")");
  }
  F.markConsumed(Assign);
  F.countProbe();
  return true;
}

bool WriteProbe::readsKeptValue(const Expr *E, FunctionInstrumenter &F) {
  const auto *Assign = dyn_cast<BinaryOperator>(E->IgnoreParens());
  if (!F.isCxx() || !Assign || !Assign->isAssignmentOp() || !F.Locals.companion(Assign->getLHS()))
    return false;
  // C++'s assignment is an lvalue, which the enclosing expression converts to a value; the
  // conversion's read would look for the local's origin in the shadow memory, where a kept
  // local has none.
  const Stmt *Parent = F.Ctx.parent(Assign);
  while (isa_and_nonnull<ParenExpr>(Parent))
    Parent = F.Ctx.parent(Parent);
  const auto *Cast = dyn_cast_or_null<ImplicitCastExpr>(Parent);
  return Cast && Cast->getCastKind() == CK_LValueToRValue;
}

bool WriteProbe::instrument(const BinaryOperator *Assign, FunctionInstrumenter &F) {
  const Expr *L = Assign->getLHS();
  if (const std::string *Origin = F.Locals.companion(L))
    return instrumentLocal(Assign, *Origin, F);
  if (isUnresolved(Assign))
    return instrumentDependent(Assign, F);
  if (L->refersToBitField())
    return BitFieldProbe::instrumentWrite(Assign, L, F);
  if (!canTrackWrite(L, F))
    return false;
  CharSourceRange RA = F.Ctx.expansionRange(Assign), RL = F.Ctx.expansionRange(L);
  if (RA.isInvalid() || RL.isInvalid())
    return false;
  // C++20 deprecates using the result of an assignment to a volatile object: record such a
  // write beside the statement, by address, when the target can be named again.
  bool VolatileCxx = F.isCxx() && L->getType().isVolatileQualified();
  if (VolatileCxx && (!F.Ctx.isDiscarded(Assign) ||
                      L->HasSideEffects(F.Ctx.Ast, /*IncludePossibleEffects=*/false)))
    return false;
  std::string Text = F.Ctx.text(RL);
  unsigned Flags = Assign->isCompoundAssignmentOp() ? CompoundWrite : 0;
  unsigned Site = F.addSite(SiteKind::Var, Assign, L->getBeginLoc(), Text, Flags);
  F.claimReads(Assign, Site);
  std::string Unit = F.Ctx.unitAndSite(Site) + ", " + F.control(Site);
  bool Discarded = F.Ctx.isDiscarded(Assign);
  if (VolatileCxx) {
    F.Ctx.wrapWithWriteAfter(RA, Site, F.control(Site), Text);
  } else if (F.isCxx()) {
    // The assignment yields the assigned object: take its address from there, once.
    F.Ctx.wrap(RA, "sleuth::wrote(" + Unit + ", ", ")");
  } else if (isRepeatable(L, F.Ctx.Ast)) {
    std::string Set = F.nodeProbe("sleuth_set", F.fullExpression(Assign)) + "(" + Unit + ", " +
                      addressOfC(L->getType()) + Text + "), " + sizeofLvalue(L, Text) + ")";
    if (Discarded)
      F.Ctx.wrap(RA, "((void)(", "), " + Set + ")");
    else
      F.Ctx.wrap(RA, "((void)(", "), (void)" + Set + ", " + rereadC(L, Text, F) + ")");
  } else {
    // *p++ = v: the target's address is taken once, into a local of the function's, before
    // the store; the write is recorded after it through that address.
    std::string Type = typeOfC(L->getType(), F.Ctx.Ast);
    std::string Target = F.addressLocal();
    F.Ctx.wrap(RL, "(*(" + Type + " *)(" + Target + " = " + addressOfC(L->getType()), ")))");
    std::string Set = F.nodeProbe("sleuth_set", F.fullExpression(Assign)) + "(" + Unit + ", " +
                      Target + ", sizeof(" + Type + "))";
    if (Discarded)
      F.Ctx.wrap(RA, "((void)(", "), " + Set + ")");
    else
      F.Ctx.wrap(RA, "(*(" + Type + " *)((void)(", "), (void)" + Set + ", " + Target + "))");
  }
  F.markConsumed(Assign);
  F.countProbe();
  return true;
}

bool WriteProbe::instrument(const UnaryOperator *IncDec, FunctionInstrumenter &F) {
  const Expr *L = IncDec->getSubExpr();
  if (const std::string *Origin = F.Locals.companion(L)) {
    CharSourceRange RU = F.Ctx.fileRange(IncDec), RL = F.Ctx.fileRange(L);
    if (RU.isInvalid() || RL.isInvalid())
      return false;
    unsigned Site =
        F.addSite(SiteKind::Var, IncDec, L->getBeginLoc(), F.Ctx.text(RL), CompoundWrite);
    std::string Unit = F.Ctx.unitAndSite(Site) + ", " + F.control(Site);
    const ValueDecl *V = cast<DeclRefExpr>(L->IgnoreParens())->getDecl();
    if (const auto *Var = dyn_cast<VarDecl>(V))
      F.Statics.noteWrite(Var, IncDec, Site, true);
    // The write reads the old value, whose origin is still in the companion (with ", ").
    std::string Prior = F.priorRead(V, IncDec, Site, *Origin);
    if (F.Ctx.isDiscarded(IncDec) && !(F.isCxx() && F.Ctx.isCastToVoid(IncDec))) {
      F.claimReads(IncDec, Site);
      std::string Probe = F.Ctx.AddressedLocals
                              ? std::string("sleuth_def")
                              : F.nodeProbe("sleuth_def", F.fullExpression(IncDec));
      F.Ctx.wrap(RU, "((void)(",
                 "), " + Prior + "(void)(" + *Origin + " = " +
                     keptWriteProbe(V, F.Ctx.text(RL), Probe, Unit, false, F) + "))");
    } else { // recorded first, like sleuth_setnow; the expression reads the new node
      auto [Prefix, Suffix] = F.addRead({}, ReadProbe::keptRead(*Origin, F));
      F.noteValueRead(Site);
      F.Ctx.wrap(RU,
                 "(" + Prior + "(void)(" + *Origin + " = " +
                     keptWriteProbe(V, F.Ctx.text(RL), "sleuth_defnow", Unit, true, F) +
                     "), (void)(" + Prefix + "0" + Suffix + "), ",
                 ")");
    }
    F.markConsumed(IncDec);
    F.countProbe();
    return true;
  }
  if (isUnresolved(IncDec)) // an unresolved ++ may be an operator call
    return false;
  if (L->refersToBitField())
    return BitFieldProbe::instrumentWrite(IncDec, L, F);
  if (!canTrackWrite(L, F))
    return false;
  if (F.isCxx() && L->getType().isVolatileQualified())
    return false; // deprecated on volatile objects in C++20; no wrapper may use its result
  CharSourceRange RU = F.Ctx.fileRange(IncDec), RL = F.Ctx.fileRange(L);
  if (RU.isInvalid() || RL.isInvalid())
    return false;
  std::string Text = F.Ctx.text(RL);
  // C++'s postfix form and C's whose value is used are recorded before their store.
  bool BeforeStore =
      F.isCxx() ? IncDec->isPostfix() : !(F.Ctx.isDiscarded(IncDec) && isRepeatable(L, F.Ctx.Ast));
  unsigned Site = F.addSite(SiteKind::Var, IncDec, L->getBeginLoc(), Text,
                            CompoundWrite | (BeforeStore ? WriteBeforeStore : 0u));
  std::string Unit = F.Ctx.unitAndSite(Site) + ", " + F.control(Site);
  // The write consumes the reads of its operand (`a[i]++;`), but for C's ++/-- whose value is
  // used (sleuth_setnow): recorded before the store, those reads belong to the enclosing
  // expression.
  if (F.isCxx() || (F.Ctx.isDiscarded(IncDec) && isRepeatable(L, F.Ctx.Ast)))
    F.claimReads(IncDec, Site);
  if (F.isCxx()) {
    if (IncDec->isPrefix())
      F.Ctx.wrap(RU, "sleuth::wrote(" + Unit + ", ", ")");
    else
      F.Ctx.wrap(RL, "sleuth::wrote(" + Unit + ", ", ")");
  } else if (F.Ctx.isDiscarded(IncDec) && isRepeatable(L, F.Ctx.Ast)) {
    F.Ctx.wrap(RU, "((void)(",
               "), " + F.nodeProbe("sleuth_set", F.fullExpression(IncDec)) + "(" + Unit + ", " +
                   addressOfC(L->getType()) + Text + "), " + sizeofLvalue(L, Text) + "))");
  } else {
    // The value is used (a[i++]): record the write first; the old value's origin is still in
    // the shadow, which is what a compound write reads.
    // The enclosing expression reads the new node (1 + node = base + site): a read of the
    // instrumenter's, static where its consumer's node is evaluated with it, so that the
    // consumer may stay a `_nopending` twin (which drops what setnow pushes).
    std::string Type = typeOfC(L->getType(), F.Ctx.Ast);
    std::string Origin = F.Ctx.UnitName + ".base + " + std::to_string(Site) + "u";
    auto [Prefix, Suffix] = F.addRead({}, ReadProbe::keptRead(Origin, F));
    F.noteValueRead(Site);
    F.Ctx.wrap(RL,
               "(*(" + Type + " *)" + Prefix + "sleuth_setnow(" + Unit + ", " +
                   addressOfC(L->getType()),
               "), sizeof(" + Type + "))" + Suffix + ")");
  }
  F.markConsumed(IncDec);
  F.countProbe();
  return true;
}

} // namespace sleuth::instrumenter
