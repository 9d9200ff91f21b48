#include "Probes.h"

using namespace clang;

namespace sleuth::instrumenter {

// The read of the bytes, as any read of memory.
static FunctionInstrumenter::ReadForms bytesRead(const BitFieldBytes &Bytes,
                                                 FunctionInstrumenter &F) {
  return ReadProbe::bytesRead(Bytes.Address, std::to_string(Bytes.Size) + "u", F);
}

std::optional<BitFieldBytes> BitFieldProbe::bytesOf(const Expr *L, FunctionInstrumenter &F) {
  const auto *Ref = dyn_cast<DeclRefExpr>(L->IgnoreParens());
  const auto *B = Ref ? dyn_cast<BindingDecl>(Ref->getDecl()) : nullptr;
  if (!B)
    return bitFieldBytes(L, F.Ctx);
  // A binding by reference: a member of the object that the instrumentation's reference names.
  auto Object = F.BoundObjects.find(dyn_cast_or_null<DecompositionDecl>(B->getDecomposedDecl()));
  const auto *Member = dyn_cast_or_null<MemberExpr>(B->getBinding());
  const auto *Field = Member ? dyn_cast<FieldDecl>(Member->getMemberDecl()) : nullptr;
  // (A member of a base class is reached through a conversion, at an offset of its own.)
  if (Object == F.BoundObjects.end() || !Field || !Field->isBitField() ||
      !isa<DeclRefExpr>(Member->getBase()->IgnoreParens()))
    return std::nullopt;
  return bitFieldBytesOf(Field, "__builtin_addressof(" + Object->second + ")", F.Ctx.Ast);
}

bool BitFieldProbe::instrumentRead(const ImplicitCastExpr *Cast, FunctionInstrumenter &F) {
  const Expr *L = Cast->getSubExpr();
  std::optional<BitFieldBytes> Bytes = bytesOf(L, F);
  if (!Bytes)
    return false;
  CharSourceRange R = F.Ctx.fileRange(L);
  if (R.isInvalid())
    return false;
  F.addRead(R, bytesRead(*Bytes, F));
  F.countProbe();
  return true;
}

bool BitFieldProbe::instrumentWrite(const Expr *Write, const Expr *L, FunctionInstrumenter &F) {
  std::optional<BitFieldBytes> Bytes = bytesOf(L, F);
  if (!Bytes || L->getType().isVolatileQualified())
    return false;
  const auto *IncDec = dyn_cast<UnaryOperator>(Write);
  bool Discarded = F.Ctx.isDiscarded(Write);
  // A postfix ++/-- yields the old value, which reading the bits again after the store cannot
  // give; C++'s `(void)(b.f = v)` keeps its cast meaningful only around a value.
  if ((!Discarded && IncDec && IncDec->isPostfix()) ||
      (Discarded && F.isCxx() && F.Ctx.isCastToVoid(Write)))
    return false;
  CharSourceRange RW = F.Ctx.fileRange(Write), RL = F.Ctx.fileRange(L);
  if (RW.isInvalid() || RL.isInvalid())
    return false;
  // A write of a bit-field that shares its bytes reads their old value: the other bits stay,
  // and a later read of the fields that own them finds this write's node as their origin.
  bool Compound = Bytes->Shared || IncDec || cast<BinaryOperator>(Write)->isCompoundAssignmentOp();
  unsigned Site = F.addSite(SiteKind::Var, Write, L->getBeginLoc(), F.Ctx.text(RL),
                            Compound ? CompoundWrite : 0);
  F.claimReads(Write, Site);
  std::string Set = F.nodeProbe("sleuth_set", F.fullExpression(Write)) + "(" +
                    F.Ctx.unitAndSite(Site) + ", " + F.control(Site) + ", " + Bytes->Address +
                    ", " + std::to_string(Bytes->Size) + "u)";
  if (Discarded) {
    F.Ctx.wrap(RW, "((void)(", "), " + Set + ")");
  } else { // `x = (b.f = v)`: the value flows on from the new node, read from the bytes again
    auto [Prefix, Suffix] = F.addRead({}, bytesRead(*Bytes, F));
    F.Ctx.wrap(RW, "((void)(", "), (void)" + Set + ", " + Prefix + F.Ctx.text(RL) + Suffix + ")");
  }
  F.markConsumed(Write);
  F.countProbe();
  return true;
}

} // namespace sleuth::instrumenter
