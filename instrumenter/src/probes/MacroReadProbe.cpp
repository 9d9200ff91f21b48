#include "Probes.h"

#include "clang/AST/ExprCXX.h"
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

// Whether the text of E begins with `{`: a braced list (`#define BUF_INIT(m) { m, 0 }`, an
// initializer spelled in the file around a macro's elements, C++'s list-initialization), which
// is no expression: a comma expression cannot hold it.
static bool beginsWithBrace(const Expr *E, FunctionInstrumenter &F) {
  bool Invalid = false;
  const char *C = F.Ctx.SM.getCharacterData(F.Ctx.SM.getSpellingLoc(E->getBeginLoc()), &Invalid);
  return !Invalid && C && *C == '{';
}

// Whether E is an initializer spelled without `=`, whose text is no expression: a variable's
// (`point p(ARGS(m));`, `point p LIST(m, 3);`: it begins with the variable's name) or a new
// expression's (`new point(ARGS(m))`: before it, `(reads, point(...))` would be a placement).
static bool isDirectInitializer(const Expr *E, FunctionInstrumenter &F) {
  if (const auto *New = dyn_cast_or_null<CXXNewExpr>(F.Ctx.parent(E)))
    return New->getInitializer() == E;
  auto Parents = F.Ctx.Ast.getParents(*E);
  const auto *V = Parents.empty() ? nullptr : Parents[0].get<VarDecl>();
  return V && V->getInit() == E && V->getInitStyle() != VarDecl::CInit;
}

// Whether the reads can go just before E, as `(reads, E)`: E is a value (in C a comma
// expression is no lvalue: `TOP(L) = v`, `&FIELD(p)`), no braced list nor direct initializer,
// and not a callee (`(reads, doc->load_string)(text)` would call no member: a bound member
// function and an overload set are no values; pugixml's `CHECK(doc->load_string(STR(...)))`).
static bool takesReadsBefore(const Expr *E, FunctionInstrumenter &F) {
  const auto *Call = dyn_cast_or_null<CallExpr>(F.Ctx.parent(E));
  return !E->getType()->isPlaceholderType() &&
         !(F.isCxx() && Call && Call->getCallee()->IgnoreParenImpCasts() == E) && !E->isGLValue() &&
         !E->IgnoreParenImpCasts()->isGLValue() && !beginsWithBrace(E, F) &&
         !isDirectInitializer(E, F);
}

// Whether a statement of the instrumentation's may go just before S: S is in a block, also
// under a label or case of one (not `if (c) return LIST(m);`, whose `if` would take it alone).
static bool inBlock(const Stmt *S, FunctionInstrumenter &F) {
  const Stmt *P = F.Ctx.parent(S);
  if (P && isa<SwitchCase, LabelStmt>(P))
    return inBlock(P, F);
  return P && isa<CompoundStmt>(P);
}

// The statement before which the reads of E go where E takes none before it (a braced list, an
// lvalue, a direct initializer: no comma expression can hold them): the declaration of the
// local variable that E initializes, in a block (`struct buf b = BUF_INIT(m);`, `int a[] =
// LIST(x, y);`), or the return statement whose value E is (C++'s `return BUF_INIT(m);`). Null
// for anything else.
static const Stmt *statementBefore(const Expr *E, FunctionInstrumenter &F) {
  if (const auto *Return = dyn_cast_or_null<ReturnStmt>(F.Ctx.parent(E))) {
    CharSourceRange R = F.Ctx.expansionRange(Return);
    if (Return->getRetValue() != E || R.isInvalid() || !Return->getBeginLoc().isFileID() ||
        !inBlock(Return, F))
      return nullptr;
    return Return;
  }
  auto Parents = F.Ctx.Ast.getParents(*E);
  const auto *V = Parents.empty() ? nullptr : Parents[0].get<VarDecl>();
  if (!V || V->getInit() != E || !V->hasLocalStorage())
    return nullptr;
  auto Statements = F.Ctx.Ast.getParents(*V);
  const auto *Decl = Statements.empty() ? nullptr : Statements[0].get<DeclStmt>();
  const Stmt *Block = Decl ? F.Ctx.parent(Decl) : nullptr;
  if (!Block || !isa<CompoundStmt>(Block) || F.Ctx.expansionRange(Decl).isInvalid())
    return nullptr;
  return Decl;
}

// Whether Read names a variable that Declaration declares: before it, the name means another
// variable or none (`struct buf a = BUF_INIT(n), b = BUF_INIT(a.len);`; an outer variable of the
// same name as a later declarator, `int m = 1; { struct buf a = BUF_INIT(m), m = ...; }`, is
// what the name means before the declaration too).
static bool namesDeclared(const FunctionInstrumenter::MacroRead &Read,
                          const DeclStmt *Declaration) {
  llvm::SmallVector<const Expr *, 8> Work;
  llvm::SmallVector<const Decl *, 4> Named;
  if (Read.Variable)
    Named.push_back(Read.Variable);
  else
    Work.push_back(Read.Lvalue);
  while (!Work.empty()) {
    const Expr *E = Work.pop_back_val();
    if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
      Named.push_back(Ref->getDecl());
    for (const Stmt *Child : E->children())
      if (const auto *ChildExpr = dyn_cast_or_null<Expr>(Child))
        Work.push_back(ChildExpr);
  }
  for (const Decl *D : Declaration->decls())
    if (llvm::is_contained(Named, D))
      return true;
  return false;
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
      // A variable's whole initializer or a returned value, which takes no reads before it:
      // they go before the statement.
      if (const auto *Whole = dyn_cast<Expr>(Top); Whole && (!P || isa<ReturnStmt>(P))) {
        if (const Stmt *S = statementBefore(Whole, F)) {
          const auto *Decl = dyn_cast<DeclStmt>(S);
          if (Decl && namesDeclared(Entry, Decl))
            return;
          break;
        }
      }
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
    if (R.isInvalid())
      break; // reads before a statement (above)
    while (const Stmt *P = F.Ctx.parent(Top)) {
      if (!isa<Expr>(P) || F.Ctx.expansionRange(P).getAsRange() != R.getAsRange())
        break;
      Top = P;
    }
    if (takesReadsBefore(cast<Expr>(Top), F))
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
  if (Found == F.MacroReads.end())
    return false;
  // A glvalue stays one: in C a comma expression is no lvalue (`TOP(L) = v`, `&FIELD(p)`). So
  // does a macro argument read here (the conversion of `state->check` has the argument's text)
  // and written in another place of the same expansion (zlib's `CRC2(state->check, hold)`
  // assigns `check = crc32(check, ...)`): the text is the argument's, for both. A braced list
  // takes no comma expression either: a variable's initializer or a returned value has its
  // reads before the statement (statementBefore).
  CharSourceRange R;
  const Stmt *Before = nullptr;
  if (takesReadsBefore(E, F))
    R = F.Ctx.expansionRange(E);
  if (R.isInvalid() && !(Before = statementBefore(E, F)))
    return false;
  // Each read is one of the expression's reads: checked against the node that consumes the
  // expression, or pushed.
  std::string Reads;
  std::string Unit = "&" + F.Ctx.UnitName;
  for (const FunctionInstrumenter::MacroRead &Read : Found->second) {
    const VarDecl *V = Read.Variable;
    FunctionInstrumenter::ReadForms Forms;
    if (const std::string *Origin = V ? F.Locals.companion(V) : nullptr) {
      Forms = {"sleuth_use(" + *Origin + "), ", "",
               F.Ctx.checkedRead("@CACHE@", "@SITE@", *Origin) + ", ", ""};
    } else {
      std::string Text = V ? V->getNameAsString() : Read.Text;
      QualType T = V ? V->getType() : Read.Lvalue->getType();
      std::string Object = addressOf(T, Text, F.isCxx());
      Object += ", " + (V ? sizeofVariable(V, Text) : "sizeof(" + Text + ")");
      Forms = {"sleuth_get(" + Object + "), ", "",
               "sleuth_getc(" + Unit + ", @CACHE@, @SITE@, " + Object + "), ", ""};
    }
    auto [Before, After] = F.addRead({}, std::move(Forms));
    Reads += Before + After;
  }
  if (const auto *Decl = dyn_cast_or_null<DeclStmt>(Before)) {
    // A declaration of the instrumentation's (C89 allows no statement among declarations),
    // named after the function and the declaration's offset: unique in its scope.
    SourceLocation At = F.Ctx.expansionRange(Decl).getBegin();
    std::string Name = "__sleuth_m" + std::to_string(F.FunctionId) + "_" +
                       std::to_string(F.Ctx.SM.getFileOffset(At));
    F.Ctx.insertBefore(At, "int " + Name + " __attribute__((unused)) = (" + Reads + "0); ");
  } else if (Before) {
    F.Ctx.insertBefore(Before->getBeginLoc(), "(void)(" + Reads + "0); ");
  } else {
    F.Ctx.wrap(R, "(" + Reads, ")");
  }
  if (auto Consumer = F.MacroReadConsumers.find(E); Consumer != F.MacroReadConsumers.end())
    F.claimReads(E, Consumer->second);
  F.countProbe();
  return true;
}

} // namespace sleuth::instrumenter
