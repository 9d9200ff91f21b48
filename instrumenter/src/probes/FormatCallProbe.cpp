#include "Probes.h"

#include "clang/Basic/Builtins.h"
#include "clang/Lex/Lexer.h"

#include <optional>

using namespace clang;

namespace sleuth::instrumenter {

namespace {
// The runtime header's twin of a formatting call into memory, and the arguments it takes at
// least (variadic) or exactly.
struct Formatter {
  const char *Twin;
  unsigned NumArgs;
  bool Variadic;
};
} // namespace

static std::optional<Formatter> formatter(const FunctionDecl *Callee) {
  switch (Callee->getBuiltinID()) {
  case Builtin::BIsprintf:
  case Builtin::BI__builtin_sprintf:
    return Formatter{"sleuth_sprintf", 2, true};
  case Builtin::BIsnprintf:
  case Builtin::BI__builtin_snprintf:
    return Formatter{"sleuth_snprintf", 3, true};
  case Builtin::BIvsprintf:
  case Builtin::BI__builtin_vsprintf:
    return Formatter{"sleuth_vsprintf", 3, false};
  case Builtin::BIvsnprintf:
  case Builtin::BI__builtin_vsnprintf:
    return Formatter{"sleuth_vsnprintf", 4, false};
  default:
    return std::nullopt;
  }
}

// glibc's fortified sprintf and snprintf in C, as Clang parses them (no __va_arg_pack), are
// macros around the checking builtins: `sprintf(d, f, x)` expands to
// `__builtin___sprintf_chk(d, 1, __builtin_object_size(d, 1), f, x)`. Such an invocation,
// spelled in the file, is renamed as a call would be (the object-size check goes, as for
// memcpy). Returns the twin, and sets NameRange to the macro's name and Open to its `(`.
static std::optional<Formatter> fortifiedFormatter(const CallExpr *Call, CharSourceRange &NameRange,
                                                   SourceLocation &Open, FunctionInstrumenter &F) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (!Callee)
    return std::nullopt;
  std::optional<Formatter> Format;
  StringRef Macro;
  switch (Callee->getBuiltinID()) {
  case Builtin::BI__builtin___sprintf_chk:
    Format = Formatter{"sleuth_sprintf", 2, true}, Macro = "sprintf";
    break;
  case Builtin::BI__builtin___snprintf_chk:
    Format = Formatter{"sleuth_snprintf", 3, true}, Macro = "snprintf";
    break;
  default:
    return std::nullopt;
  }
  const SourceManager &SM = F.Ctx.SM;
  const LangOptions &Lang = F.Ctx.Ast.getLangOpts();
  SourceLocation Begin = Call->getBeginLoc(), End = Call->getEndLoc();
  if (!Begin.isMacroID() || Lexer::getImmediateMacroName(Begin, SM, Lang) != Macro)
    return std::nullopt;
  // The whole call is the one invocation, written in the file.
  CharSourceRange Invocation = SM.getImmediateExpansionRange(Begin);
  if (!Invocation.getBegin().isFileID() ||
      SM.getImmediateExpansionRange(End).getAsRange() != Invocation.getAsRange())
    return std::nullopt;
  NameRange =
      Lexer::makeFileCharRange(CharSourceRange::getTokenRange(Invocation.getBegin()), SM, Lang);
  std::optional<Token> Paren = Lexer::findNextToken(Invocation.getBegin(), SM, Lang);
  if (NameRange.isInvalid() || !Paren || !Paren->is(tok::l_paren))
    return std::nullopt;
  Open = Paren->getLocation();
  return Format;
}

// The destination's text where the file spells it (an argument of a call, or of the fortified
// macro).
static std::string destinationText(const Expr *Destination, FunctionInstrumenter &F) {
  CharSourceRange R = F.Ctx.fileRange(Destination);
  if (R.isValid())
    return F.Ctx.text(R);
  const SourceManager &SM = F.Ctx.SM;
  SourceLocation B = Destination->getBeginLoc(), E = Destination->getEndLoc();
  if (!SM.isMacroArgExpansion(B) || !SM.isMacroArgExpansion(E))
    return "";
  R = Lexer::makeFileCharRange(
      CharSourceRange::getTokenRange(SM.getSpellingLoc(B), SM.getSpellingLoc(E)), SM,
      F.Ctx.Ast.getLangOpts());
  return R.isValid() ? F.Ctx.text(R) : "";
}

// The write of the bytes a call formats into the buffer spelled Text, named after what they
// are (`*buf`, `*(out + n)`): the arguments' reads flow into it, and the call's value then
// reads it (the runtime pushes it).
static unsigned addFormattedWrite(const CallExpr *Call, const std::string &Text,
                                  FunctionInstrumenter &F) {
  bool Simple = std::all_of(Text.begin(), Text.end(),
                            [](char C) { return isAsciiIdentifierContinue(C) || C == '.'; });
  unsigned Site =
      F.addSite(SiteKind::Var, Call, Call->getBeginLoc(), Simple ? "*" + Text : "*(" + Text + ")");
  F.claimReads(Call, Site);
  F.markRecordedCall(Call);
  return Site;
}

// `strftime(buf, size, format, tm)`: the bytes it formatted into buf (its value, plus the
// terminator; none when it returns 0) are a write that depends on the arguments' reads, as
// sprintf's are. No twin (the runtime header cannot declare strftime as <time.h> does): the
// call is wrapped, and buf's text, which must be repeatable, is evaluated once more.
static bool instrumentTimeFormat(const CallExpr *Call, const FunctionDecl *Callee,
                                 FunctionInstrumenter &F) {
  SourceLocation Declared = Callee->getCanonicalDecl()->getLocation();
  if (!Callee->getDeclName().isIdentifier() || Callee->getName() != "strftime" ||
      Call->getNumArgs() != 4 || Declared.isInvalid() || !F.Ctx.SM.isInSystemHeader(Declared))
    return false;
  const Expr *Buffer = Call->getArg(0)->IgnoreParenImpCasts();
  CharSourceRange R = F.Ctx.fileRange(Call), BufferRange = F.Ctx.fileRange(Buffer);
  if (R.isInvalid() || BufferRange.isInvalid() || !isRepeatable(Buffer, F.Ctx.Ast))
    return false;
  std::string Text = F.Ctx.text(BufferRange);
  unsigned Site = addFormattedWrite(Call, Text, F);
  F.Ctx.wrap(R,
             "sleuth_time_formatted(" + F.Ctx.unitAndSite(Site) + ", " + F.control(Site) + ", " +
                 Text + ", ",
             ")");
  F.countProbe();
  return true;
}

bool FormatCallProbe::instrument(const CallExpr *Call, FunctionInstrumenter &F) {
  const FunctionDecl *Callee = Call->getDirectCallee();
  if (Callee && instrumentTimeFormat(Call, Callee, F))
    return true;
  std::optional<Formatter> Format = Callee ? formatter(Callee) : std::nullopt;
  CharSourceRange NameRange;
  SourceLocation Open;
  bool Fortified = false;
  if (Format) {
    // The callee must be its name in the file, followed by the call's `(` (not a macro; not a
    // pointer).
    const auto *Name = dyn_cast<DeclRefExpr>(Call->getCallee()->IgnoreParenImpCasts());
    if (!Name || Name->getEndLoc().isMacroID())
      return false;
    NameRange = F.Ctx.fileRange(Name);
    std::optional<Token> Paren =
        Lexer::findNextToken(Name->getEndLoc(), F.Ctx.SM, F.Ctx.Ast.getLangOpts());
    if (NameRange.isInvalid() || !Paren || !Paren->is(tok::l_paren) ||
        Paren->getLocation().isMacroID())
      return false;
    Open = Paren->getLocation();
  } else {
    Format = fortifiedFormatter(Call, NameRange, Open, F);
    Fortified = true;
  }
  if (!Format || Call->getNumArgs() < Format->NumArgs ||
      (!Format->Variadic && Call->getNumArgs() != Format->NumArgs))
    return false;
  std::string Text = destinationText(Call->getArg(0), F);
  if (Text.empty())
    return false;
  unsigned Site = addFormattedWrite(Call, Text, F);
  if (Fortified) // the arguments' reads are the macro's, read before the expansion
    F.MacroReadConsumers[Call] = Site;
  F.Ctx.Replacements.emplace_back(NameRange, Format->Twin);
  F.Ctx.insertAfterToken(Open, F.Ctx.unitAndSite(Site) + ", " + F.control(Site) + ", ");
  F.countProbe();
  return true;
}

} // namespace sleuth::instrumenter
