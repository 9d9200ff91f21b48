#include "Probes.h"

#include "clang/Lex/Lexer.h"

using namespace clang;

namespace sleuth::instrumenter {

// Whether a name of a variable, spelled again before the macro, names the same variable there:
// the variable is not declared inside a macro (a statement expression's local may hide an
// outer one of the same name), and is a local of this function or has static storage.
static bool isNameableBefore(const DeclRefExpr *Ref, FunctionInstrumenter &F) {
  const auto *V = dyn_cast<VarDecl>(Ref->getDecl());
  if (!V || V->getLocation().isMacroID() || V->getType()->isReferenceType() ||
      Ref->refersToEnclosingVariableOrCapture() || Ref->isNonOdrUse() != NOUR_None)
    return false;
  return V->hasGlobalStorage() ||
         (V->hasLocalStorage() &&
          V->getDeclContext() == static_cast<const DeclContext *>(F.Function));
}

// The variable a read of a local or parameter names, if the read can be repeated by name
// before the macro: declared outside any macro (so the name means it there too) in this
// function, and addressable unless its origin lives in a companion.
static const VarDecl *repeatableVariable(const Expr *L, FunctionInstrumenter &F) {
  const auto *Ref = dyn_cast<DeclRefExpr>(L->IgnoreParens());
  const auto *V = Ref ? dyn_cast<VarDecl>(Ref->getDecl()) : nullptr;
  if (!V || !V->hasLocalStorage() || !isNameableBefore(Ref, F))
    return nullptr;
  if (F.Locals.companion(V))
    return V;
  QualType T = V->getType();
  if (T->isAtomicType() || T->isVariablyModifiedType() || T.isVolatileQualified() ||
      !hasAddress(Ref) || (!F.isCxx() && typeOfC(T, F.Ctx.Ast).empty()))
    return nullptr;
  return V;
}

static bool addressLoadsOnlyVariables(const Expr *L, FunctionInstrumenter &F);

// A pointer value computed from variables alone: a nameable variable's value, or an array
// whose address loads only variables.
static bool pointerLoadsOnlyVariables(const Expr *E, FunctionInstrumenter &F) {
  const auto *Cast = dyn_cast<ImplicitCastExpr>(E->IgnoreParens());
  if (!Cast)
    return false;
  const Expr *Operand = Cast->getSubExpr();
  switch (Cast->getCastKind()) {
  case CK_ArrayToPointerDecay:
    return addressLoadsOnlyVariables(Operand, F);
  case CK_LValueToRValue: {
    const auto *Ref = dyn_cast<DeclRefExpr>(Operand->IgnoreParens());
    return Ref && isNameableBefore(Ref, F);
  }
  case CK_NoOp:
    return pointerLoadsOnlyVariables(Operand, F);
  default:
    return false;
  }
}

// An index that is a constant or a nameable variable's value.
static bool indexLoadsOnlyVariables(const Expr *E, FunctionInstrumenter &F) {
  if (!E->isValueDependent() && E->isIntegerConstantExpr(F.Ctx.Ast))
    return true;
  const auto *Cast = dyn_cast<ImplicitCastExpr>(E->IgnoreParens());
  if (!Cast)
    return false;
  if (Cast->getCastKind() == CK_IntegralCast)
    return indexLoadsOnlyVariables(Cast->getSubExpr(), F);
  const auto *Ref = dyn_cast<DeclRefExpr>(Cast->getSubExpr()->IgnoreParens());
  return Cast->getCastKind() == CK_LValueToRValue && Ref && isNameableBefore(Ref, F);
}

// Whether computing the address of the lvalue L loads nothing but nameable variables (`*s`,
// `p->len`, `v[i]`, `b.f`): its address can be taken before the macro even where the macro
// evaluates it only under a condition (`p ? p->len : 0`), which `p->next->len` could not (the
// load of `p->next` may fault).
static bool addressLoadsOnlyVariables(const Expr *L, FunctionInstrumenter &F) {
  L = L->IgnoreParens();
  if (const auto *Ref = dyn_cast<DeclRefExpr>(L))
    return isNameableBefore(Ref, F);
  if (const auto *U = dyn_cast<UnaryOperator>(L))
    return U->getOpcode() == UO_Deref && pointerLoadsOnlyVariables(U->getSubExpr(), F);
  if (const auto *M = dyn_cast<MemberExpr>(L))
    return isa<FieldDecl>(M->getMemberDecl()) &&
           (M->isArrow() ? pointerLoadsOnlyVariables(M->getBase(), F)
                         : addressLoadsOnlyVariables(M->getBase(), F));
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(L))
    return pointerLoadsOnlyVariables(A->getBase(), F) && indexLoadsOnlyVariables(A->getIdx(), F);
  return false;
}

// The text of a memory lvalue read inside a macro argument (`tolower(*s)`, `MAX(p->len, n)`),
// if it can be read again by that text before the expansion: the whole lvalue is spelled in
// one argument, has no side effects, an address, and one that loads only variables.
static std::optional<std::string> repeatableArgument(const Expr *L, FunctionInstrumenter &F) {
  L = L->IgnoreParens(); // the macro's own parentheses: `(c)`
  QualType T = L->getType();
  if (!L->isLValue() || !L->getBeginLoc().isMacroID() ||
      !F.Ctx.SM.isMacroArgExpansion(L->getBeginLoc()) || !isRepeatable(L, F.Ctx.Ast) ||
      !hasAddress(L) || isFreshObject(L) || T->isAtomicType() || T->isVariablyModifiedType() ||
      T->isArrayType() || !addressLoadsOnlyVariables(L, F))
    return std::nullopt;
  // makeFileCharRange gives the spelling only when both ends come from the same argument.
  CharSourceRange R = F.Ctx.expansionRange(L);
  if (R.isInvalid())
    return std::nullopt;
  std::string Text = F.Ctx.text(R);
  if (Text.empty())
    return std::nullopt;
  return Text;
}

void MacroReadProbe::record(const ImplicitCastExpr *Read, FunctionInstrumenter &F) {
  if (F.Function->isTemplated() || !Read->getBeginLoc().isMacroID())
    return;
  FunctionInstrumenter::MacroRead Entry;
  if (const VarDecl *V = repeatableVariable(Read->getSubExpr(), F)) {
    Entry.Variable = V;
  } else if (std::optional<std::string> Text = repeatableArgument(Read->getSubExpr(), F)) {
    Entry.Lvalue = Read->getSubExpr()->IgnoreParens();
    Entry.Text = std::move(*Text);
  } else {
    return;
  }
  // The nearest enclosing expression with text of its own is the whole expansion (or one that
  // contains a macro argument's use): widen it over implicit nodes of the same extent. Not a
  // macro argument that is an lvalue (`state->check`, `c`, read through its conversion): the
  // expansion may assign the same text elsewhere (zlib's `CRC2(state->check, hold)` expands to
  // `check = crc32(check, ...)`), which a comma expression around it would break in C, and in
  // C++ `decltype(a)` of SWAP's argument would turn into a reference; the reads go before an
  // enclosing expression instead.
  const Stmt *Top = Read;
  while (true) {
    CharSourceRange R;
    while (true) {
      const Stmt *P = F.Ctx.parent(Top);
      if (!P)
        return;
      Top = P;
      // Statements inside a statement expression that one macro expansion wrote (glibc's
      // tolower() when optimizing); a statement written in the file may declare what the read
      // names.
      if (!isa<Expr>(P)) {
        SourceLocation B = P->getBeginLoc(), E = P->getEndLoc();
        if (!B.isMacroID() || !E.isMacroID() ||
            F.Ctx.SM.getExpansionLoc(B) != F.Ctx.SM.getExpansionLoc(E))
          return;
        continue;
      }
      R = F.Ctx.expansionRange(Top);
      if (R.isValid())
        break;
    }
    while (const Stmt *P = F.Ctx.parent(Top)) {
      if (!isa<Expr>(P) || F.Ctx.expansionRange(P).getAsRange() != R.getAsRange())
        break;
      Top = P;
    }
    // Not a callee: `(reads, doc->load_string)(text)` would call no member (a bound member
    // function and an overload set are no values), pugixml's `CHECK(doc->load_string(STR(...)))`.
    const auto *TopExpr = cast<Expr>(Top);
    const auto *Call = dyn_cast_or_null<CallExpr>(F.Ctx.parent(Top));
    if (TopExpr->getType()->isPlaceholderType() ||
        (F.isCxx() && Call && Call->getCallee()->IgnoreParenImpCasts() == TopExpr))
      continue;
    if (!TopExpr->IgnoreParenImpCasts()->isGLValue())
      break;
  }
  std::vector<FunctionInstrumenter::MacroRead> &Reads = F.MacroReads[cast<Expr>(Top)];
  auto Same = [&](const FunctionInstrumenter::MacroRead &Other) {
    return Entry.Variable ? Other.Variable == Entry.Variable : Other.Text == Entry.Text;
  };
  if (std::find_if(Reads.begin(), Reads.end(), Same) == Reads.end())
    Reads.push_back(std::move(Entry));
}

bool MacroReadProbe::instrument(const Expr *E, FunctionInstrumenter &F) {
  auto Found = F.MacroReads.find(E);
  // A glvalue stays one: in C a comma expression is no lvalue (`TOP(L) = v`, `&FIELD(p)`). So
  // does a macro argument read here (the conversion of `state->check` has the argument's text)
  // and written in another place of the same expansion (zlib's `CRC2(state->check, hold)`
  // assigns `check = crc32(check, ...)`): the text is the argument's, for both.
  if (Found == F.MacroReads.end() || E->isGLValue() || E->IgnoreParenImpCasts()->isGLValue())
    return false;
  CharSourceRange R = F.Ctx.expansionRange(E);
  if (R.isInvalid())
    return false;
  // Each read is one of the expression's reads: checked against the node that consumes the
  // expression, or pushed.
  std::string Prefix = "(";
  std::string Unit = "&" + F.Ctx.UnitName;
  for (const FunctionInstrumenter::MacroRead &Read : Found->second) {
    const VarDecl *V = Read.Variable;
    FunctionInstrumenter::ReadForms Forms;
    if (const std::string *Origin = V ? F.Locals.companion(V) : nullptr) {
      Forms = {"sleuth_use(" + *Origin + "), ", "",
               "sleuth_chk(" + Unit + ", @CACHE@, @SITE@, " + *Origin + "), ", ""};
    } else {
      std::string Text = V ? V->getNameAsString() : Read.Text;
      QualType T = V ? V->getType() : Read.Lvalue->getType();
      std::string Object = addressOf(T, Text, F.isCxx());
      Object += ", " + (V ? sizeofVariable(V, Text) : "sizeof(" + Text + ")");
      Forms = {"sleuth_get(" + Object + "), ", "",
               "sleuth_getc(" + Unit + ", @CACHE@, @SITE@, " + Object + "), ", ""};
    }
    auto [Before, After] = F.addRead({}, std::move(Forms));
    Prefix += Before + After;
  }
  F.Ctx.wrap(R, Prefix, ")");
  if (auto Consumer = F.MacroReadConsumers.find(E); Consumer != F.MacroReadConsumers.end())
    F.claimReads(E, Consumer->second);
  F.countProbe();
  return true;
}

} // namespace sleuth::instrumenter
