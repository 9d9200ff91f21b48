// The reads of what a library call takes: objects, and the strings it reads to their end.
#include "LibraryCalls.h"

#include "clang/AST/Attr.h"
#include "clang/Basic/CharInfo.h"
#include "clang/Lex/Lexer.h"
#include "llvm/ADT/StringSet.h"

using namespace clang;

namespace sleuth::instrumenter::library {

// Reads E, a class-type object (with Scalars, also a scalar one bound to a reference); with
// Whole, a contiguous container's elements as well (isContiguousContainer). False if E is no
// object it can read.
bool readObject(const Expr *E, FunctionInstrumenter &F, bool Scalars, bool Whole) {
  if (!isTrackableObject(E, F, Scalars))
    return false;
  // A local kept in a companion has no origin in the shadow memory: its companion is read
  // (`return v;` of a parameter into a std::optional<int> binds it to the constructor's U&&).
  if (const std::string *Origin = F.Locals.companion(E)) {
    F.addRead(F.Ctx.fileRange(E), ReadProbe::keptRead(*Origin, F));
    F.countProbe();
    return true;
  }
  if (Whole && isContiguousContainer(E->getType(), F.Ctx.Ast))
    F.addRead(F.Ctx.fileRange(E),
              {"sleuth::rd_all(", ")", "sleuth::rdc_all(&" + F.Ctx.UnitName + ", @CACHE@, @SITE@, ",
               ")"});
  else
    F.addRead(F.Ctx.fileRange(E), ReadProbe::cxxRead(F));
  F.countProbe();
  return true;
}

// The library functions whose `const char *` parameters are strings they read to the '\0'.
// (Not strncmp, strnlen or the like: those bytes need no terminator.)
static bool readsStrings(const FunctionDecl *Callee) {
  static const llvm::StringSet<> Names = {
      "puts",    "fputs",  "strlen",  "strcmp",  "strcasecmp", "strcoll", "strchr",
      "strrchr", "strstr", "strspn",  "strcspn", "strpbrk",    "strdup",  "atoi",
      "atol",    "atoll",  "atof",    "strtol",  "strtoul",    "strtoll", "strtoull",
      "strtod",  "strtof", "strtold", "getenv",  "system",     "perror",  "fopen"};
  return Callee->getDeclName().isIdentifier() && Names.contains(Callee->getName());
}

// The arguments of a printf-like call (format checked, `__attribute__((format(printf, ...)))`)
// that its format, a string literal, prints with a plain `%s` (no precision, which allows an
// unterminated buffer; not `%ls`). None for a format that is no literal.
static std::vector<unsigned> printedStrings(const CallExpr *Call, const FunctionDecl *Callee) {
  std::vector<unsigned> Strings;
  unsigned FormatIndex = 0, Next = 0;
  if (const auto *Format = Callee->getAttr<FormatAttr>()) {
    if (!Format->getType()->getName().contains("printf") || Format->getFirstArg() == 0)
      return Strings;
    FormatIndex = Format->getFormatIdx() - 1, Next = Format->getFirstArg() - 1;
  } else if (Callee->getDeclName().isIdentifier() && Callee->getName() == "__printf_chk") {
    FormatIndex = 1, Next = 2; // glibc's fortified printf (_FORTIFY_SOURCE), a macro in Clang
  } else if (Callee->getDeclName().isIdentifier() &&
             (Callee->getName() == "__fprintf_chk" || Callee->getName() == "__dprintf_chk")) {
    FormatIndex = 2, Next = 3;
  } else {
    return Strings;
  }
  if (isa<CXXMethodDecl>(Callee) && !cast<CXXMethodDecl>(Callee)->isStatic()) {
    --FormatIndex; // (the implicit object counts as the first)
    --Next;
  }
  if (FormatIndex >= Call->getNumArgs())
    return Strings;
  const auto *Literal = dyn_cast<StringLiteral>(Call->getArg(FormatIndex)->IgnoreParenImpCasts());
  if (!Literal || !Literal->isOrdinary())
    return Strings;
  StringRef Text = Literal->getString();
  for (size_t I = 0; I < Text.size(); ++I) {
    if (Text[I] != '%')
      continue;
    if (++I < Text.size() && Text[I] == '%')
      continue;
    while (I < Text.size() && StringRef("-+ #0'").contains(Text[I]))
      ++I;
    if (I < Text.size() && Text[I] == '*')
      ++Next, ++I; // the width is an argument
    while (I < Text.size() && isDigit(Text[I]))
      ++I;
    bool Precision = I < Text.size() && Text[I] == '.';
    if (Precision) {
      ++I;
      if (I < Text.size() && Text[I] == '*')
        ++Next, ++I;
      while (I < Text.size() && isDigit(Text[I]))
        ++I;
    }
    bool Modified = false;
    while (I < Text.size() && StringRef("hlLqjzt").contains(Text[I]))
      Modified = true, ++I;
    if (I >= Text.size() || Text[I] == 'm') // glibc's %m prints errno's message: no argument
      continue;
    if (Text[I] == 's' && !Precision && !Modified)
      Strings.push_back(Next);
    ++Next;
  }
  return Strings;
}

// The file text of `printf(...)` (fprintf, dprintf) where glibc's _FORTIFY_SOURCE makes it a
// macro around __printf_chk, as Clang parses it: the whole call is that one invocation.
static CharSourceRange fortifiedInvocation(const CallExpr *Call, FunctionInstrumenter &F) {
  const SourceManager &SM = F.Ctx.SM;
  const LangOptions &Lang = F.Ctx.Ast.getLangOpts();
  SourceLocation Begin = Call->getBeginLoc(), End = Call->getEndLoc();
  if (!Begin.isMacroID())
    return {};
  StringRef Macro = Lexer::getImmediateMacroName(Begin, SM, Lang);
  if (Macro != "printf" && Macro != "fprintf" && Macro != "dprintf")
    return {};
  CharSourceRange Invocation = SM.getImmediateExpansionRange(Begin);
  if (!Invocation.getBegin().isFileID() ||
      SM.getImmediateExpansionRange(End).getAsRange() != Invocation.getAsRange())
    return {};
  return Lexer::makeFileCharRange(Invocation, SM, Lang);
}

// Strings the library call reads (printf's `%s`, `puts(s)`, `strcmp(a, b)`): the origins of
// their bytes are read just before the call, so that what it prints or computes leads to the
// writes of the characters (a buffer sprintf or strcpy filled, input fgets stored), not only
// to the pointer. Where the argument's text may be evaluated again, before the call; else (a
// call's value, `printf("%s", version())`) where the argument is evaluated, by a probe that
// yields it.
void readStringArguments(const CallExpr *Call, const FunctionDecl *Callee,
                         FunctionInstrumenter &F) {
  std::vector<unsigned> Strings = printedStrings(Call, Callee);
  if (Strings.empty() && readsStrings(Callee))
    for (unsigned I = 0; I < Call->getNumArgs() && I < Callee->getNumParams(); ++I) {
      QualType T = Callee->getParamDecl(I)->getType();
      if (T->isPointerType() && T->getPointeeType()->isCharType() &&
          T->getPointeeType().isConstQualified())
        Strings.push_back(I);
    }
  if (Strings.empty())
    return;
  CharSourceRange CallRange = F.Ctx.fileRange(Call);
  if (CallRange.isInvalid())
    CallRange = fortifiedInvocation(Call, F);
  if (CallRange.isInvalid())
    return;
  const SourceManager &SM = F.Ctx.SM;
  // The argument's text as the file spells it inside the call: an argument of the fortified
  // macro is spelled in the invocation, unless a macro of the program's made it (luac's
  // `S(x)` expands to `x`'s uses in the macro's body, which the file cannot name).
  auto Inside = [&](CharSourceRange R) {
    auto [File, Begin] = SM.getDecomposedLoc(R.getBegin());
    auto [EndFile, End] = SM.getDecomposedLoc(R.getEnd());
    auto [CallFile, CallBegin] = SM.getDecomposedLoc(CallRange.getBegin());
    unsigned CallEnd = SM.getDecomposedLoc(CallRange.getEnd()).second;
    return File == CallFile && EndFile == CallFile && Begin >= CallBegin && End <= CallEnd;
  };
  std::string Reads;
  for (unsigned I : Strings) {
    if (I >= Call->getNumArgs())
      continue;
    const Expr *Arg = Call->getArg(I)->IgnoreParenImpCasts();
    QualType T = Arg->getType();
    bool Chars = (T->isPointerType() && T->getPointeeType()->isCharType()) ||
                 (T->isArrayType() && T->getPointeeOrArrayElementType()->isCharType());
    CharSourceRange R = F.Ctx.fileRange(Arg);
    if (R.isInvalid() && SM.isMacroArgExpansion(Arg->getBeginLoc()) &&
        SM.isMacroArgExpansion(Arg->getEndLoc()))
      R = Lexer::makeFileCharRange(
          CharSourceRange::getTokenRange(SM.getSpellingLoc(Arg->getBeginLoc()),
                                         SM.getSpellingLoc(Arg->getEndLoc())),
          SM, F.Ctx.Ast.getLangOpts());
    if (!Chars || isa<StringLiteral>(Arg) || R.isInvalid() || !Inside(R) ||
        Arg->isInstantiationDependent())
      continue;
    if (isRepeatable(Arg, F.Ctx.Ast)) {
      Reads += "sleuth_get_string(" + F.Ctx.text(R) + "), ";
    } else if (F.Ctx.fileRange(Arg).isValid()) { // not spelled by a macro's body
      F.Ctx.wrap(F.Ctx.fileRange(Arg), "sleuth_got_string(", ")");
      F.countProbe();
    }
  }
  if (Reads.empty())
    return;
  F.Ctx.wrap(CallRange, "(" + Reads, ")");
  F.countProbe();
}
} // namespace sleuth::instrumenter::library
