#include "HotLoops.h"

#include "clang/AST/ExprCXX.h"
#include "clang/AST/StmtCXX.h"

#include <array>
#include <utility>

using namespace clang;

namespace sleuth::instrumenter {

// The probes whose fast path runtime.h defines as a local function, and their inlined twins.
static constexpr std::array<std::pair<const char *, const char *>, 15> Twins = {{
    {"sleuth_get(", "sleuth_get_hot("},
    {"sleuth_getc(", "sleuth_getc_hot("},
    {"sleuth_getcp(", "sleuth_getcp_hot("},
    {"sleuth_def(", "sleuth_def_hot("},
    {"sleuth_def_nopending(", "sleuth_def_nopending_hot("},
    {"sleuth_defnow(", "sleuth_defnow_hot("},
    {"sleuth_test(", "sleuth_test_hot("},
    {"sleuth_test_nopending(", "sleuth_test_nopending_hot("},
    {"sleuth_switch(", "sleuth_switch_hot("},
    {"sleuth_set(", "sleuth_set_hot("},
    {"sleuth_set_nopending(", "sleuth_set_nopending_hot("},
    {"sleuth_decl(", "sleuth_decl_hot("},
    {"sleuth::rd(", "sleuth::rd_hot("},
    {"sleuth::rdc(", "sleuth::rdc_hot("},
    {"sleuth::wrote(", "sleuth::wrote_hot("},
}};

static bool isNamePart(char C) {
  return (C >= 'a' && C <= 'z') || (C >= 'A' && C <= 'Z') || (C >= '0' && C <= '9') || C == '_' ||
         C == ':';
}

std::string HotLoops::inlined(std::string Text) {
  for (auto [Name, Twin] : Twins) {
    std::string From = Name, To = Twin;
    for (size_t At = Text.find(From); At != std::string::npos; At = Text.find(From, At)) {
      if (At > 0 && isNamePart(Text[At - 1])) {
        At += From.size();
        continue;
      }
      Text.replace(At, From.size(), To);
      At += To.size();
    }
  }
  return Text;
}

// The edits from FirstEdit on inside S's text (none if S has no plain file range) that insert
// text: a read whose edge is static (StaticOrigins.h) left an empty one, which costs nothing.
static std::vector<Edit *> editsInside(const Stmt *S, size_t FirstEdit, Context &Ctx) {
  std::vector<Edit *> Inside;
  CharSourceRange R = Ctx.fileRange(S);
  if (R.isInvalid())
    return Inside;
  FileID File = Ctx.SM.getFileID(R.getBegin());
  unsigned Begin = Ctx.SM.getFileOffset(R.getBegin()), End = Ctx.SM.getFileOffset(R.getEnd());
  for (size_t I = FirstEdit; I < Ctx.Edits.size(); ++I) {
    Edit &E = Ctx.Edits[I];
    if (Ctx.SM.getFileID(E.Begin) != File || (E.Prefix.empty() && E.Suffix.empty()))
      continue;
    unsigned At = Ctx.SM.getFileOffset(E.Begin);
    if (At >= Begin && At < End)
      Inside.push_back(&E);
  }
  return Inside;
}

void HotLoops::inlineProbes(const Stmt *S, size_t FirstEdit, Context &Ctx) {
  if (!S || isa<LambdaExpr, BlockExpr>(S)) // another function's body
    return;
  if (isa<ForStmt, WhileStmt, DoStmt, CXXForRangeStmt>(S)) {
    std::vector<Edit *> Inside = editsInside(S, FirstEdit, Ctx);
    if (!Inside.empty() && Inside.size() <= MaxEditsPerLoop) {
      for (Edit *E : Inside) {
        E->Prefix = inlined(std::move(E->Prefix));
        E->Suffix = inlined(std::move(E->Suffix));
      }
      return;
    }
  }
  for (const Stmt *Child : S->children())
    inlineProbes(Child, FirstEdit, Ctx);
}

} // namespace sleuth::instrumenter
