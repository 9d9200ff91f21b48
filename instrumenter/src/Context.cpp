#include "Context.h"

#include "clang/AST/Expr.h"
#include "clang/AST/ExprCXX.h"
#include "clang/AST/RecordLayout.h"
#include "clang/AST/Stmt.h"
#include "clang/AST/StmtCXX.h"
#include "clang/Lex/Lexer.h"

#include <algorithm>
#include <map>

using namespace clang;

namespace sleuth::instrumenter {

CharSourceRange Context::fileRange(SourceRange R) const {
  if (R.isInvalid())
    return {};
  SourceLocation B = R.getBegin(), E = R.getEnd();
  if (B.isFileID() && E.isFileID()) {
    CharSourceRange C =
        Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R), SM, Ast.getLangOpts());
    if (C.isInvalid() || !instrumentable(C.getBegin()))
      return {};
    return C;
  }
  // Inside a macro: only the argument of a recorded assert() qualifies, and only if the whole
  // node is spelled inside that argument.
  if (!SM.isMacroArgExpansion(B) || !SM.isMacroArgExpansion(E))
    return {};
  SourceLocation SB = SM.getSpellingLoc(B), SE = SM.getSpellingLoc(E);
  if (!SB.isFileID() || !SE.isFileID() || !instrumentable(SB))
    return {};
  for (const AssertInvocation &A : Asserts) {
    if (SM.isBeforeInTranslationUnit(SB, A.Argument.getBegin()) ||
        SM.isBeforeInTranslationUnit(A.Argument.getEnd(), SE))
      continue;
    // The node's own expansion must come from this assert's expansion.
    SourceLocation Exp = SM.getExpansionLoc(B);
    if (Exp != A.NameBegin)
      continue;
    SourceLocation EndChar = Lexer::getLocForEndOfToken(SE, 0, SM, Ast.getLangOpts());
    return CharSourceRange::getCharRange(SB, EndChar);
  }
  return {};
}

CharSourceRange Context::withSemicolon(CharSourceRange R) const {
  // Scan the text after the last token (white space, then `;`?) rather than asking the lexer
  // for the next token: Lexer::findNextToken needs the start of a token, and the last
  // character of `"str"` would start a new string literal.
  if (R.isInvalid())
    return R;
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(SM.getFileID(R.getEnd()), &Invalid);
  if (Invalid)
    return R;
  unsigned At = SM.getFileOffset(R.getEnd());
  while (At < Buffer.size() &&
         (Buffer[At] == ' ' || Buffer[At] == '\t' || Buffer[At] == '\n' || Buffer[At] == '\r'))
    ++At;
  if (At >= Buffer.size() || Buffer[At] != ';')
    return R;
  return CharSourceRange::getCharRange(
      R.getBegin(), R.getEnd().getLocWithOffset(int(At - SM.getFileOffset(R.getEnd())) + 1));
}

CharSourceRange Context::statementRange(const Stmt *S) const {
  CharSourceRange R = fileRange(S);
  if (R.isInvalid() || isa<CompoundStmt>(S))
    return R;
  return withSemicolon(R);
}

CharSourceRange Context::expansionRange(SourceRange R) const {
  CharSourceRange Plain = fileRange(R);
  if (Plain.isValid() || R.isInvalid())
    return Plain;
  CharSourceRange C =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(R), SM, Ast.getLangOpts());
  if (C.isInvalid() || !instrumentable(C.getBegin()) || touchesQuotedArgument(C))
    return {};
  return C;
}

// File locations of one file compare by their raw encodings (a file's offsets are contiguous in
// the source manager's address space), which is all these ranges need.
static bool encodedBefore(SourceLocation A, SourceLocation B) {
  return A.getRawEncoding() < B.getRawEncoding();
}

void Context::setQuotedArguments(std::vector<QuotedArgumentToken> Tokens) {
  std::sort(Tokens.begin(), Tokens.end(),
            [](const QuotedArgumentToken &A, const QuotedArgumentToken &B) {
              return encodedBefore(A.Begin, B.Begin);
            });
  QuotedArguments = std::move(Tokens);
}

bool Context::touchesQuotedArgument(CharSourceRange R) const {
  SourceLocation B = R.getBegin(), E = R.getEnd();
  auto It = std::lower_bound(
      QuotedArguments.begin(), QuotedArguments.end(), B,
      [](const QuotedArgumentToken &T, SourceLocation L) { return encodedBefore(T.Begin, L); });
  for (; It != QuotedArguments.end() && encodedBefore(It->Begin, E); ++It)
    if (SM.getFileID(It->Begin) == SM.getFileID(B) &&
        (encodedBefore(It->InvocationBegin, B) || encodedBefore(E, It->InvocationEnd)))
      return true;
  return false;
}

std::string Context::text(CharSourceRange R) const {
  bool Invalid = false;
  StringRef T = Lexer::getSourceText(R, SM, Ast.getLangOpts(), &Invalid);
  if (Invalid)
    return "";
  return foldedTokens(T, SM.getFileLoc(R.getBegin()), Ast.getLangOpts());
}

std::string foldedTokens(StringRef Text, SourceLocation Begin, const LangOptions &LangOpts) {
  // Tokens by the raw lexer, which skips comments: a `//` comment inside a multi-line
  // expression, folded onto one line with the code after it, would comment out the rest of the
  // probe (xz's options.c). The lexer stops at a null character: lex a copy that ends in one.
  std::string Copy = Text.str();
  Lexer Raw(Begin, LangOpts, Copy.data(), Copy.data(), Copy.data() + Copy.size());
  std::string Out;
  size_t End = 0;
  Token Tok;
  for (;;) {
    Raw.LexFromRawLexer(Tok);
    if (Tok.is(tok::eof))
      break;
    size_t At = Raw.getCurrentBufferOffset() - Tok.getLength();
    if (At > End && !Out.empty())
      Out += ' ';
    Out.append(Copy, At, Tok.getLength());
    End = At + Tok.getLength();
  }
  return Out;
}

std::string Context::text(const Stmt *S) const { return text(fileRange(S)); }

std::string Context::unitAndSite(unsigned Site) const {
  return "&" + UnitName + ", " + std::to_string(Site) + "u";
}

std::string Context::checkedRead(const std::string &Cache, const std::string &Site,
                                 const std::string &Origin) const {
  return "sleuth_chk(&" + UnitName + ", " + Cache + ", " + Site + ", " + Origin + ")";
}

void Context::wrap(CharSourceRange R, std::string Prefix, std::string Suffix) {
  if (R.isInvalid())
    return;
  Edits.push_back(Edit{R.getBegin(), R.getEnd(), std::move(Prefix), std::move(Suffix)});
}

void Context::wrapInside(std::size_t Position, CharSourceRange R, std::string Prefix,
                         std::string Suffix) {
  if (R.isInvalid())
    return;
  Edits.insert(Edits.begin() + std::ptrdiff_t(std::min(Position, Edits.size())),
               Edit{R.getBegin(), R.getEnd(), std::move(Prefix), std::move(Suffix)});
}

void Context::wrap(const Stmt *S, std::string Prefix, std::string Suffix) {
  wrap(fileRange(S), std::move(Prefix), std::move(Suffix));
}

void Context::wrapWithWriteAfter(CharSourceRange R, unsigned Site, const std::string &Ctl,
                                 const std::string &Text, bool VoidCall) {
  wrap(R, VoidCall ? "((" : "((void)(",
       "), sleuth_set(" + unitAndSite(Site) + ", " + Ctl + ", __builtin_addressof(" + Text +
           "), sizeof(" + Text + ")))");
}

void Context::insertBefore(SourceLocation L, std::string Text) {
  Edits.push_back(Edit{L, L, std::move(Text), ""});
}

void Context::insertAfterToken(SourceLocation TokenBegin, std::string Text) {
  SourceLocation End = Lexer::getLocForEndOfToken(TokenBegin, 0, SM, Ast.getLangOpts());
  Edits.push_back(Edit{End, End, "", std::move(Text)});
}

void Context::replace(CharSourceRange R, std::string Text) {
  Replacements.emplace_back(R, std::move(Text));
}

void Context::applyEdits() {
  // Compose all insertions at one offset: suffixes of nodes that end there (inner first), then
  // prefixes of nodes that begin there (outer first). Edits arrive in post-order. Offsets are
  // those of the whole translation unit (raw file locations), since edits span several files.
  struct At {
    std::string Suffixes;
    std::vector<const std::string *> Prefixes;
  };
  std::map<unsigned, At> ByOffset;
  std::map<unsigned, SourceLocation> Locations;
  for (const Edit &E : Edits) {
    if (!E.Suffix.empty()) {
      unsigned O = E.End.getRawEncoding();
      ByOffset[O].Suffixes += E.Suffix;
      Locations[O] = E.End;
    }
    if (!E.Prefix.empty()) {
      unsigned O = E.Begin.getRawEncoding();
      ByOffset[O].Prefixes.push_back(&E.Prefix);
      Locations[O] = E.Begin;
    }
  }
  for (auto &[Offset, A] : ByOffset) {
    std::string Text = A.Suffixes;
    for (auto I = A.Prefixes.rbegin(); I != A.Prefixes.rend(); ++I)
      Text += **I;
    SourceLocation L = Locations[Offset];
    Rewrite.InsertTextAfter(L, Text);
    auto [File, FileOffset] = SM.getDecomposedLoc(L);
    Applied[File].push_back(AppliedEdit{FileOffset, 0, false, std::move(Text)});
  }
  Edits.clear();
  // By original length: the range-based overload would also swallow text inserted at its end.
  for (auto &[R, T] : Replacements) {
    auto [File, Begin] = SM.getDecomposedLoc(R.getBegin());
    unsigned Length = SM.getFileOffset(R.getEnd()) - Begin;
    Rewrite.ReplaceText(R.getBegin(), Length, T);
    Applied[File].push_back(AppliedEdit{Begin, Length, true, T});
  }
  Replacements.clear();
}

void Context::replay(FileID File, const std::vector<AppliedEdit> &Edits) {
  SourceLocation Start = SM.getLocForStartOfFile(File);
  for (const AppliedEdit &E : Edits) {
    SourceLocation L = Start.getLocWithOffset(int(E.Offset));
    if (E.Replace)
      Rewrite.ReplaceText(L, E.Length, E.Text);
    else
      Rewrite.InsertTextAfter(L, E.Text);
  }
}

const Stmt *Context::parent(const Stmt *S) const {
  auto Parents = Ast.getParents(*S);
  if (Parents.empty())
    return nullptr;
  return Parents[0].get<Stmt>();
}

bool Context::isDiscarded(const Expr *E) const {
  const Stmt *Child = E;
  const Stmt *P = parent(E);
  // (A full expression that creates temporaries, `v.push_back(a + b);`, is wrapped in an
  // ExprWithCleanups, which has the same value.)
  while (P && isa<ParenExpr, ExprWithCleanups>(P)) {
    Child = P;
    P = parent(P);
  }
  if (!P)
    return false;
  if (const auto *C = dyn_cast<CompoundStmt>(P)) {
    // The last statement of a GNU statement expression is its value.
    const Stmt *Outer = parent(C);
    return !(Outer && isa<StmtExpr>(Outer) && C->body_back() == Child);
  }
  if (isa<LabelStmt, CaseStmt, DefaultStmt, AttributedStmt>(P))
    return true;
  if (const auto *If = dyn_cast<IfStmt>(P))
    return Child == If->getThen() || Child == If->getElse();
  if (const auto *W = dyn_cast<WhileStmt>(P))
    return Child == W->getBody();
  if (const auto *D = dyn_cast<DoStmt>(P))
    return Child == D->getBody();
  if (const auto *F = dyn_cast<ForStmt>(P))
    return Child == F->getBody() || Child == F->getInc() || Child == F->getInit();
  if (const auto *F = dyn_cast<CXXForRangeStmt>(P))
    return Child == F->getBody();
  if (const auto *S = dyn_cast<SwitchStmt>(P))
    return Child == S->getBody();
  if (const auto *B = dyn_cast<BinaryOperator>(P)) {
    if (B->getOpcode() != BO_Comma)
      return false;
    // The right operand of a comma is the comma's value: discarded if the comma is.
    return Child == B->getLHS() || isDiscarded(B);
  }
  if (const auto *C = dyn_cast<CastExpr>(P))
    return C->getType()->isVoidType();
  return false;
}

bool Context::isCastToVoid(const Expr *E) const {
  const Stmt *P = parent(E);
  while (P && isa<ParenExpr>(P))
    P = parent(P);
  const auto *Cast = dyn_cast_or_null<ExplicitCastExpr>(P);
  return Cast && Cast->getType()->isVoidType();
}

/// True if S creates a compound literal: a copy of its text would create another object.
static bool createsCompoundLiteral(const Stmt *S) {
  if (!S)
    return false;
  if (isa<CompoundLiteralExpr>(S))
    return true;
  for (const Stmt *Child : S->children())
    if (createsCompoundLiteral(Child))
      return true;
  return false;
}

bool isRepeatable(const Expr *E, ASTContext &Ast) {
  return !E->HasSideEffects(Ast, /*IncludePossibleEffects=*/true) &&
         !E->getType().isVolatileQualified() && !createsCompoundLiteral(E);
}

bool isLibraryDeclaration(const Decl *D, const SourceManager &SM) {
  return D && !isa<TranslationUnitDecl>(D) && D->getLocation().isValid() &&
         SM.isInSystemHeader(SM.getFileLoc(D->getLocation()));
}

bool isBlockDecomposition(const DecompositionDecl *D, const Context &Ctx) {
  auto Parents = Ctx.Ast.getParents(*D);
  const auto *Decl = Parents.empty() ? nullptr : Parents[0].get<DeclStmt>();
  return Decl && Decl->isSingleDecl() && D->getInit() && D->hasLocalStorage() &&
         isa_and_nonnull<CompoundStmt>(Ctx.parent(Decl)) && Ctx.fileRange(Decl).isValid() &&
         Ctx.expansionRange(D->getSourceRange()).isValid();
}

bool hasAddress(const Expr *LValue) {
  const Expr *E = LValue->IgnoreParens();
  if (E->refersToBitField())
    return false;
  if (const auto *D = dyn_cast<DeclRefExpr>(E))
    if (const auto *V = dyn_cast<VarDecl>(D->getDecl()))
      if (V->getStorageClass() == SC_Register)
        return false;
  if (E->getType()->isIncompleteType() || E->getType()->isFunctionType())
    return false;
  // Writes through `register` arrays, vector elements etc.
  if (isa<ExtVectorElementExpr>(E))
    return false;
  if (const auto *A = dyn_cast<ArraySubscriptExpr>(E))
    if (A->getBase()->getType()->isVectorType())
      return false;
  return true;
}

bool isUnresolved(const Expr *E) {
  return E->getType()->isSpecificBuiltinType(BuiltinType::Dependent);
}

bool isLvalueInEveryInstantiation(const Expr *E) {
  E = E->IgnoreParens();
  if (!E->isLValue() || isUnresolved(E) || E->containsUnexpandedParameterPack() || !hasAddress(E))
    return false;
  if (const auto *Ref = dyn_cast<DeclRefExpr>(E))
    return isa<VarDecl>(Ref->getDecl());
  if (const auto *Member = dyn_cast<MemberExpr>(E))
    return isa<FieldDecl, VarDecl>(Member->getMemberDecl());
  if (isa<ArraySubscriptExpr>(E))
    return true;
  if (const auto *U = dyn_cast<UnaryOperator>(E))
    return U->getOpcode() == UO_Deref;
  return false;
}

std::string typeOfC(QualType T, const ASTContext &Ast) {
  PrintingPolicy Policy(Ast.getLangOpts());
  Policy.SuppressTagKeyword = false;
  std::string Name = T.getAsString(Policy);
  if (Name.find("(unnamed") != std::string::npos || Name.find("(anonymous") != std::string::npos)
    return "";
  return "__typeof__(" + Name + ")";
}

std::optional<BitFieldBytes> bitFieldBytes(const Expr *LValue, const Context &Ctx) {
  const auto *Member = dyn_cast<MemberExpr>(LValue->IgnoreParens());
  const auto *Field = Member ? dyn_cast<FieldDecl>(Member->getMemberDecl()) : nullptr;
  if (!Field || !Field->isBitField() || Member->isInstantiationDependent())
    return std::nullopt;
  const RecordDecl *Record = Field->getParent();
  if (Record->isDependentType() || Record->isInvalidDecl() || Record->isAnonymousStructOrUnion() ||
      Field->isZeroLengthBitField(Ctx.Ast))
    return std::nullopt;
  const Expr *Base = Member->getBase();
  std::string Object;
  if (const auto *This = dyn_cast<CXXThisExpr>(Base->IgnoreParenImpCasts());
      This && This->isImplicit()) {
    Object = "this";
  } else {
    CharSourceRange R = Ctx.fileRange(Base);
    if (R.isInvalid() || !isRepeatable(Base, Ctx.Ast))
      return std::nullopt;
    std::string Text = Ctx.text(R);
    if (Member->isArrow())
      Object = "(" + Text + ")";
    else if (!Base->isLValue() || isFreshObject(Base))
      return std::nullopt; // `make().f`: no earlier write of its bytes
    else
      Object = Ctx.isC() ? "&(" + Text + ")" : "__builtin_addressof(" + Text + ")";
  }
  return bitFieldBytesOf(Field, Object, Ctx.Ast);
}

BitFieldBytes bitFieldBytesOf(const FieldDecl *Field, const std::string &Object, ASTContext &Ast) {
  uint64_t Bit = Ast.getASTRecordLayout(Field->getParent()).getFieldOffset(Field->getFieldIndex());
  uint64_t Width = Field->getBitWidthValue(Ast);
  uint64_t First = Bit / 8, Last = (Bit + Width - 1) / 8;
  std::string Bytes = Ast.getLangOpts().CPlusPlus
                          ? "reinterpret_cast<const volatile char *>(" + Object + ")"
                          : "(const volatile char *)" + Object;
  return BitFieldBytes{"(" + Bytes + " + " + std::to_string(First) + ")",
                       static_cast<unsigned>(Last - First + 1), Bit % 8 != 0 || Width % 8 != 0};
}

bool isFreshObject(const Expr *LValue) {
  for (const Expr *E = LValue->IgnoreParens();; E = E->IgnoreParens()) {
    if (isa<CompoundLiteralExpr>(E))
      return true;
    if (const auto *M = dyn_cast<MemberExpr>(E); M && !M->isArrow()) {
      E = M->getBase();
      continue;
    }
    if (const auto *A = dyn_cast<ArraySubscriptExpr>(E)) {
      const auto *Decay = dyn_cast<ImplicitCastExpr>(A->getBase()->IgnoreParens());
      if (Decay && Decay->getCastKind() == CK_ArrayToPointerDecay) {
        E = Decay->getSubExpr();
        continue;
      }
    }
    return false;
  }
}

std::string addressOfC(QualType T) {
  return T.isVolatileQualified() || T.isRestrictQualified() ? "(void *)(__UINTPTR_TYPE__)&(" : "&(";
}

std::string addressOf(QualType T, const std::string &Text, bool Cxx) {
  if (!Cxx)
    return addressOfC(T) + Text + ")";
  if (T.isRestrictQualified())
    return "reinterpret_cast<const volatile void *>(reinterpret_cast<__UINTPTR_TYPE__>("
           "__builtin_addressof(" +
           Text + ")))";
  return "__builtin_addressof(" + Text + ")";
}

std::string sizeofVariable(const ValueDecl *D, const std::string &Text) {
  if (const auto *P = dyn_cast_or_null<ParmVarDecl>(D); P && P->getOriginalType()->isArrayType())
    return "sizeof(__typeof__(" + Text + "))";
  return "sizeof(" + Text + ")";
}

std::string sizeofLvalue(const Expr *L, const std::string &Text) {
  if (const auto *Ref = dyn_cast<DeclRefExpr>(L->IgnoreParens()))
    return sizeofVariable(Ref->getDecl(), Text);
  return "sizeof(" + Text + ")";
}

} // namespace sleuth::instrumenter
