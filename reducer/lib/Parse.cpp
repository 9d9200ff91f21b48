//===- Parse.cpp - Parsing candidates and collecting instances ------------===//
//
// Clang parses the text with error recovery on (no error limit), so a file
// that only GCC accepts, or one that only crashes a compiler, still yields a
// partial AST. Because the input may crash Clang itself, the driver parses in
// a forked child and receives the instances through a pipe.
//
//===----------------------------------------------------------------------===//
#include "AstUtil.h"
#include "Runner.h"

#include "clang/Basic/Diagnostic.h"
#include "clang/Frontend/ASTUnit.h"
#include "clang/Lex/Lexer.h"
#include "clang/Tooling/Tooling.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <fcntl.h>
#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SLEUTH_CLANG_RESOURCE_DIR
#define SLEUTH_CLANG_RESOURCE_DIR ""
#endif

namespace sleuth::reducer {

Transformation::~Transformation() = default;

//===----------------------------------------------------------------------===//
// Registry
//===----------------------------------------------------------------------===//

const std::vector<const Transformation *> &allTransformations() {
  static const std::vector<const Transformation *> All = [] {
    static TransformationList Owned;
    addDeclarationTransformations(Owned);
    addStatementTransformations(Owned);
    addExpressionTransformations(Owned);
    addTypeTransformations(Owned);
    addNameTransformations(Owned);
    addLexicalTransformations(Owned);
    std::vector<const Transformation *> V;
    for (auto &T : Owned)
      V.push_back(T.get());
    // Coarse levels first. Among the declaration passes, the lexical ones go
    // first: they need no parse and delete the largest pieces (whole
    // included files, whole top-level blocks).
    std::stable_sort(V.begin(), V.end(), [](const Transformation *A, const Transformation *B) {
      if (A->level() != B->level())
        return A->level() < B->level();
      return A->level() == Declarations && !A->needsAST() && B->needsAST();
    });
    return V;
  }();
  return All;
}

const Transformation *findTransformation(std::string_view Name) {
  for (const Transformation *T : allTransformations())
    if (Name == T->name())
      return T;
  return nullptr;
}

//===----------------------------------------------------------------------===//
// SourceUnit and AstHelper
//===----------------------------------------------------------------------===//

std::size_t SourceUnit::tokenAtOrAfter(std::size_t Offset) const {
  auto It = std::lower_bound(Tokens.begin(), Tokens.end(), Offset,
                             [](const Token &T, std::size_t O) { return T.Offset < O; });
  return It - Tokens.begin();
}

std::size_t SourceUnit::tokenEndingBefore(std::size_t Offset) const {
  std::size_t I = tokenAtOrAfter(Offset);
  while (I > 0) {
    --I;
    if (Tokens[I].end() <= Offset)
      return I;
  }
  return std::string::npos;
}

AstHelper::AstHelper(const SourceUnit &U) : U(U) {}

bool AstHelper::isInMainFile(clang::SourceLocation L) const {
  return L.isValid() && L.isFileID() && sm().getFileID(L) == sm().getMainFileID();
}

std::optional<Span> AstHelper::span(clang::SourceRange R) const {
  if (R.isInvalid())
    return std::nullopt;
  clang::CharSourceRange CR = clang::Lexer::makeFileCharRange(
      clang::CharSourceRange::getTokenRange(R), sm(), ctx().getLangOpts());
  if (CR.isInvalid() || !isInMainFile(CR.getBegin()) || !isInMainFile(CR.getEnd()))
    return std::nullopt;
  Span S{sm().getFileOffset(CR.getBegin()), sm().getFileOffset(CR.getEnd())};
  if (S.End <= S.Begin || S.End > U.Text.size())
    return std::nullopt;
  return S;
}

std::optional<std::size_t> AstHelper::offset(clang::SourceLocation L) const {
  if (!isInMainFile(L))
    return std::nullopt;
  return sm().getFileOffset(L);
}

Span AstHelper::withSemicolon(Span S) const {
  std::size_t I = U.tokenAtOrAfter(S.End);
  if (I < U.Tokens.size() && U.tokenText(I) == ";")
    S.End = U.Tokens[I].end();
  return S;
}

Edit AstHelper::deleteListElementEdit(const std::vector<Span> &Elems, std::size_t I) const {
  Span S = Elems[I];
  if (Elems.size() > 1) {
    if (I + 1 < Elems.size())
      S.End = Elems[I + 1].Begin;
    else
      S.Begin = Elems[I - 1].End;
  }
  return Edit{S.Begin, S.size(), ""};
}

Change AstHelper::deleteListElement(const std::vector<Span> &Elems, std::size_t I) const {
  Change C;
  C.Edits.push_back(deleteListElementEdit(Elems, I));
  return C;
}

std::vector<std::vector<clang::Decl *>> declGroups(clang::DeclContext *DC, const AstHelper &H) {
  std::vector<std::vector<clang::Decl *>> Groups;
  std::optional<Span> Last;
  for (clang::Decl *D : DC->decls()) {
    if (D->isImplicit())
      continue;
    std::optional<Span> S = H.span(D);
    if (!S)
      continue;
    if (Last && S->Begin < Last->End) {
      Groups.back().push_back(D);
      Last->End = std::max(Last->End, S->End);
      continue;
    }
    Groups.push_back({D});
    Last = S;
  }
  return Groups;
}

//===----------------------------------------------------------------------===//
// Parsing
//===----------------------------------------------------------------------===//

namespace {

std::vector<std::string> clangArgs(const LanguageOptions &Lang) {
  std::vector<std::string> Args;
  if (Lang.CPlusPlus) {
    Args = {"-x", "c++"};
    Args.push_back("-std=" + (Lang.Standard.empty() ? std::string("gnu++20") : Lang.Standard));
  } else {
    Args = {"-x", "c"};
    Args.push_back("-std=" + (Lang.Standard.empty() ? std::string("gnu17") : Lang.Standard));
  }
  // Keep going after any number of errors: a partial AST is still useful.
  for (const char *A : {"-w", "-ferror-limit=0", "-fno-spell-checking",
                        "-fno-delayed-template-parsing", "-Wno-everything"})
    Args.push_back(A);
  if (*SLEUTH_CLANG_RESOURCE_DIR) {
    Args.push_back("-resource-dir");
    Args.push_back(SLEUTH_CLANG_RESOURCE_DIR);
  }
  Args.insert(Args.end(), Lang.ExtraArgs.begin(), Lang.ExtraArgs.end());
  return Args;
}

std::unique_ptr<clang::ASTUnit> parse(const std::string &Text, const LanguageOptions &Lang) {
  static clang::IgnoringDiagConsumer Ignore;
  return clang::tooling::buildASTFromCodeWithArgs(
      Text, clangArgs(Lang), Lang.FileName, "clang-tool",
      std::make_shared<clang::PCHContainerOperations>(),
      clang::tooling::getClangStripDependencyFileAdjuster(), clang::tooling::FileContentMappings(),
      &Ignore);
}

void collectAll(const std::vector<const Transformation *> &Ts, const std::string &Text,
                const LanguageOptions &Lang, std::vector<std::vector<Change>> &Out) {
  std::vector<Token> Tokens = lexC(Text, Lang.CPlusPlus);
  std::unique_ptr<clang::ASTUnit> AST;
  bool NeedAST = std::any_of(Ts.begin(), Ts.end(), [](auto *T) { return T->needsAST(); });
  if (NeedAST)
    AST = parse(Text, Lang);
  SourceUnit U{Text, Tokens, Lang.CPlusPlus, AST ? &AST->getASTContext() : nullptr};
  Out.assign(Ts.size(), {});
  for (std::size_t I = 0; I < Ts.size(); ++I) {
    if (Ts[I]->needsAST() && !U.AST)
      continue;
    Ts[I]->collect(U, Out[I]);
    dedupeChanges(Out[I]);
    if (Ts[I]->largestFirst())
      std::stable_sort(Out[I].begin(), Out[I].end(),
                       [](const Change &A, const Change &B) { return A.weight() > B.weight(); });
  }
}

// The wire format between the child and the parent: native-endian words.
void putWord(std::string &S, std::uint64_t W) {
  S.append(reinterpret_cast<const char *>(&W), sizeof W);
}
bool getWord(const std::string &S, std::size_t &Pos, std::uint64_t &W) {
  if (Pos + sizeof W > S.size())
    return false;
  std::memcpy(&W, S.data() + Pos, sizeof W);
  Pos += sizeof W;
  return true;
}

} // namespace

std::vector<Change> collectInstances(const Transformation &T, const std::string &Text,
                                     const LanguageOptions &Lang) {
  std::vector<std::vector<Change>> Out;
  collectAll({&T}, Text, Lang, Out);
  return std::move(Out[0]);
}

bool collectInstancesIsolated(const std::vector<const Transformation *> &Ts,
                              const std::string &Text, const LanguageOptions &Lang,
                              double TimeoutSeconds, std::vector<std::vector<Change>> &Out) {
  Out.assign(Ts.size(), {});
  int Fds[2];
  if (pipe(Fds) != 0)
    return false;
  pid_t Pid = fork();
  if (Pid < 0) {
    close(Fds[0]);
    close(Fds[1]);
    return false;
  }
  if (Pid == 0) {
    close(Fds[0]);
    int Null = open("/dev/null", O_WRONLY);
    if (Null >= 0)
      dup2(Null, 2);
    signal(SIGINT, SIG_IGN); // The parent decides when to stop.
    std::vector<std::vector<Change>> Lists;
    collectAll(Ts, Text, Lang, Lists);
    std::string Msg;
    putWord(Msg, Lists.size());
    for (const auto &L : Lists) {
      putWord(Msg, L.size());
      for (const Change &C : L) {
        putWord(Msg, C.Edits.size());
        for (const Edit &E : C.Edits) {
          putWord(Msg, E.Offset);
          putWord(Msg, E.Length);
          putWord(Msg, E.Text.size());
          Msg += E.Text;
        }
      }
    }
    putWord(Msg, 0x51e07); // End marker: the message arrived whole.
    std::size_t Done = 0;
    while (Done < Msg.size()) {
      ssize_t N = write(Fds[1], Msg.data() + Done, Msg.size() - Done);
      if (N <= 0)
        _exit(1);
      Done += N;
    }
    _exit(0);
  }
  close(Fds[1]);
  std::string Msg;
  char Buf[65536];
  double Start = monotonicSeconds();
  bool Killed = false;
  for (;;) {
    if (TestRunner::stopRequested() || monotonicSeconds() - Start > TimeoutSeconds) {
      kill(Pid, SIGKILL);
      Killed = true;
      break;
    }
    struct pollfd P = {Fds[0], POLLIN, 0};
    int R = ::poll(&P, 1, 100);
    if (R < 0 && errno != EINTR)
      break;
    if (R <= 0)
      continue;
    ssize_t N = read(Fds[0], Buf, sizeof Buf);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    Msg.append(Buf, N);
  }
  close(Fds[0]);
  int Status = 0;
  while (waitpid(Pid, &Status, 0) < 0 && errno == EINTR) {
  }
  if (Killed || !WIFEXITED(Status) || WEXITSTATUS(Status) != 0)
    return false;

  std::size_t Pos = 0;
  std::uint64_t NLists, NChanges, NEdits, Off, Len, TLen, Marker;
  if (!getWord(Msg, Pos, NLists) || NLists != Ts.size())
    return false;
  for (auto &L : Out) {
    if (!getWord(Msg, Pos, NChanges))
      return false;
    L.resize(NChanges);
    for (Change &C : L) {
      if (!getWord(Msg, Pos, NEdits))
        return false;
      C.Edits.resize(NEdits);
      for (Edit &E : C.Edits) {
        if (!getWord(Msg, Pos, Off) || !getWord(Msg, Pos, Len) || !getWord(Msg, Pos, TLen) ||
            Pos + TLen > Msg.size())
          return false;
        E = Edit{Off, Len, Msg.substr(Pos, TLen)};
        Pos += TLen;
      }
    }
  }
  return getWord(Msg, Pos, Marker) && Marker == 0x51e07;
}

} // namespace sleuth::reducer
