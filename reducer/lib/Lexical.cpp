//===- Lexical.cpp - Token-level transformations --------------------------===//
//
// These need no AST, so they work on anything: code Clang rejects, code that
// crashes Clang, and what is left when every AST pass is stuck. They also
// cost nothing to compute.
//
//===----------------------------------------------------------------------===//
#include "Transformation.h"

#include <algorithm>
#include <cctype>

namespace sleuth::reducer {
namespace {

bool isOpen(std::string_view T) { return T == "(" || T == "[" || T == "{"; }
bool isClose(std::string_view T) { return T == ")" || T == "]" || T == "}"; }
char closerOf(std::string_view T) { return T == "(" ? ')' : T == "[" ? ']' : '}'; }

/// For each token, the index of its matching bracket (or npos).
std::vector<std::size_t> matchBrackets(const SourceUnit &U) {
  std::vector<std::size_t> Match(U.Tokens.size(), std::string::npos);
  std::vector<std::size_t> Stack;
  for (std::size_t I = 0; I < U.Tokens.size(); ++I) {
    std::string_view T = U.tokenText(I);
    if (isOpen(T)) {
      Stack.push_back(I);
    } else if (isClose(T)) {
      // Unbalanced closers (code with errors) are skipped, not matched.
      auto It = std::find_if(Stack.rbegin(), Stack.rend(),
                             [&](std::size_t O) { return closerOf(U.tokenText(O)) == T[0]; });
      if (It == Stack.rend())
        continue;
      std::size_t O = *It;
      Stack.erase(std::next(It).base(), Stack.end());
      Match[O] = I;
      Match[I] = O;
    }
  }
  return Match;
}

/// Whether token I is a `#` that starts a line (a directive or line marker).
bool startsDirective(const SourceUnit &U, std::size_t I) {
  if (U.tokenText(I) != "#")
    return false;
  for (std::size_t P = U.Tokens[I].Offset; P > 0; --P) {
    char C = U.Text[P - 1];
    if (C == '\n')
      return true;
    if (C != ' ' && C != '\t')
      return false;
  }
  return true;
}

/// Index one past the last token on the line of token I.
std::size_t endOfLine(const SourceUnit &U, std::size_t I) {
  std::size_t NL = U.Text.find('\n', U.Tokens[I].Offset);
  std::size_t J = I + 1;
  while (J < U.Tokens.size() && U.Tokens[J].Offset < NL)
    ++J;
  return J;
}

/// Splits tokens [Begin, End) into declaration- or statement-like pieces:
/// each ends at a ';' or at a '}' closing a block at this level (taking a
/// following ';'), and directives are pieces of their own.
void splitPieces(const SourceUnit &U, const std::vector<std::size_t> &Match, std::size_t Begin,
                 std::size_t End, std::vector<Change> &Out) {
  std::size_t Start = Begin;
  auto Emit = [&](std::size_t Last) {
    if (Start <= Last)
      Out.push_back(replaceRange(U.Tokens[Start].Offset, U.Tokens[Last].end()));
    Start = Last + 1;
  };
  for (std::size_t I = Begin; I < End; ++I) {
    if (startsDirective(U, I)) {
      if (Start < I)
        Emit(I - 1);
      std::size_t J = std::min(endOfLine(U, I), End);
      Emit(J - 1);
      I = J - 1;
      continue;
    }
    std::string_view T = U.tokenText(I);
    if (isOpen(T) && Match[I] != std::string::npos && Match[I] < End) {
      std::size_t Close = Match[I];
      if (T == "{") {
        // A block ends a piece, unless ';' or a declarator follows
        // (`struct S {...} s;`), in which case the ';' does.
        std::size_t Next = Close + 1;
        if (Next < End && U.tokenText(Next) == ";") {
          Emit(Next);
          I = Next;
          continue;
        }
        if (Next < End && U.tokenText(Next) != "}" && Start < I &&
            (U.tokenText(Start) == "struct" || U.tokenText(Start) == "union" ||
             U.tokenText(Start) == "enum" || U.tokenText(Start) == "class" ||
             U.tokenText(Start) == "typedef")) {
          I = Close;
          continue;
        }
        Emit(Close);
        I = Close;
        continue;
      }
      I = Close;
      continue;
    }
    if (T == ";")
      Emit(I);
  }
  if (Start < End)
    Emit(End - 1);
}

/// Deletes the top-level pieces of the file (declarations as the lexer sees
/// them), which works even where Clang cannot parse.
class LexicalDecls : public Transformation {
public:
  const char *name() const override { return "lexical-decls"; }
  const char *description() const override {
    return "remove a top-level declaration found by bracket matching";
  }
  Level level() const override { return Declarations; }
  bool needsAST() const override { return false; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    std::vector<std::size_t> Match = matchBrackets(U);
    splitPieces(U, Match, 0, U.Tokens.size(), Out);
  }
};

/// Deletes pieces inside braces: statements and members as the lexer sees
/// them.
class LexicalStmts : public Transformation {
public:
  const char *name() const override { return "lexical-stmts"; }
  const char *description() const override {
    return "remove a statement or member found by bracket matching";
  }
  Level level() const override { return Members; }
  bool needsAST() const override { return false; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    std::vector<std::size_t> Match = matchBrackets(U);
    for (std::size_t I = 0; I < U.Tokens.size(); ++I)
      if (U.tokenText(I) == "{" && Match[I] != std::string::npos && Match[I] > I + 1)
        splitPieces(U, Match, I + 1, Match[I], Out);
  }
};

/// Deletes preprocessor directives and line markers (`# 12 "foo.h"`).
class RemoveDirectives : public Transformation {
public:
  const char *name() const override { return "remove-directives"; }
  const char *description() const override {
    return "remove a preprocessor directive or line marker";
  }
  Level level() const override { return Declarations; }
  bool needsAST() const override { return false; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    for (std::size_t I = 0; I < U.Tokens.size(); ++I)
      if (startsDirective(U, I)) {
        std::size_t J = endOfLine(U, I);
        Out.push_back(replaceRange(U.Tokens[I].Offset, U.Tokens[J - 1].end()));
        I = J - 1;
      }
  }
};

/// Deletes what an #include brought into a preprocessed file, both line
/// markers included, since a return marker without its entry is an error.
/// Headers are the bulk of a preprocessed file and each one is a single
/// candidate here, so most of the text can go in a handful of tests.
class RemoveIncludedFile : public Transformation {
public:
  const char *name() const override { return "remove-included-file"; }
  const char *description() const override {
    return "remove the text of an included file (between line markers)";
  }
  Level level() const override { return Declarations; }
  bool needsAST() const override { return false; }
  bool largestFirst() const override { return true; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    for (auto [Begin, End] : includedFileRegions(U))
      Out.push_back(replaceRange(Begin, End));
  }
};

/// Balanced bracket groups: `{...}`, `(...)` or `[...]`.
class BalancedPass : public Transformation {
public:
  enum Mode { Delete, Empty, Unwrap };
  BalancedPass(const char *Name, const char *Desc, char Open, Mode M)
      : Name(Name), Desc(Desc), Open(Open), M(M) {}
  const char *name() const override { return Name; }
  const char *description() const override { return Desc; }
  Level level() const override { return Open == '{' && M != Unwrap ? Members : Lexical; }
  bool needsAST() const override { return false; }
  bool largestFirst() const override { return true; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    std::vector<std::size_t> Match = matchBrackets(U);
    for (std::size_t I = 0; I < U.Tokens.size(); ++I) {
      if (U.tokenText(I) != std::string_view(&Open, 1) || Match[I] == std::string::npos)
        continue;
      const Token &O = U.Tokens[I], &C = U.Tokens[Match[I]];
      switch (M) {
      case Delete:
        Out.push_back(replaceRange(O.Offset, C.end()));
        break;
      case Empty:
        if (Match[I] > I + 1)
          Out.push_back(replaceRange(O.end(), C.Offset));
        break;
      case Unwrap: {
        Change Ch;
        Ch.Edits.push_back({O.Offset, O.Length, ""});
        Ch.Edits.push_back({C.Offset, C.Length, ""});
        Out.push_back(std::move(Ch));
        break;
      }
      }
    }
  }

private:
  const char *Name, *Desc;
  char Open;
  Mode M;
};

/// Deletes `<...>` groups (template argument and parameter lists, as far as
/// a lexer can tell them from comparisons).
class BalancedAngles : public Transformation {
public:
  const char *name() const override { return "balanced-angles"; }
  const char *description() const override {
    return "remove a <...> group (template arguments or parameters)";
  }
  Level level() const override { return Lexical; }
  bool needsAST() const override { return false; }
  bool largestFirst() const override { return true; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    std::vector<std::size_t> Match = matchBrackets(U);
    for (std::size_t I = 0; I < U.Tokens.size(); ++I) {
      if (U.tokenText(I) != "<")
        continue;
      int Depth = 0;
      for (std::size_t J = I; J < U.Tokens.size(); ++J) {
        std::string_view T = U.tokenText(J);
        if (T == "<") {
          ++Depth;
        } else if (T == ">" || T == ">>") {
          Depth -= int(T.size());
          if (Depth <= 0) {
            if (Depth == 0)
              Out.push_back(replaceRange(U.Tokens[I].Offset, U.Tokens[J].end()));
            break;
          }
        } else if (isOpen(T) && T != "{" && Match[J] != std::string::npos) {
          J = Match[J];
        } else if (T == ";" || T == "{" || T == "}" || isClose(T)) {
          break;
        }
      }
    }
  }
};

/// Deletes a line.
class RemoveLine : public Transformation {
public:
  const char *name() const override { return "lines"; }
  const char *description() const override { return "remove a line"; }
  Level level() const override { return Lexical; }
  bool needsAST() const override { return false; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    for (std::size_t B = 0; B < U.Text.size();) {
      std::size_t E = U.Text.find('\n', B);
      E = E == std::string::npos ? U.Text.size() : E + 1;
      if (U.Text.find_first_not_of(" \t\r\n", B) < E)
        Out.push_back(replaceRange(B, E));
      B = E;
    }
  }
};

/// Deletes tokens First..Last. Where text touches the run on both sides, a
/// space is left, so that the neighbours stay two tokens (`requires(T)`
/// without its `(` is `requires T)`, not `requiresT)`).
Change removeTokens(const SourceUnit &U, std::size_t First, std::size_t Last) {
  std::size_t Begin = U.Tokens[First].Offset, End = U.Tokens[Last].end();
  auto Blank = [](char C) { return C == ' ' || C == '\t' || C == '\n' || C == '\r'; };
  bool Touching =
      Begin > 0 && End < U.Text.size() && !Blank(U.Text[Begin - 1]) && !Blank(U.Text[End]);
  return replaceRange(Begin, End, Touching ? " " : "");
}

/// Deletes a token.
class RemoveToken : public Transformation {
public:
  const char *name() const override { return "tokens"; }
  const char *description() const override { return "remove a token"; }
  Level level() const override { return Lexical; }
  bool needsAST() const override { return false; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    for (std::size_t I = 0; I < U.Tokens.size(); ++I)
      Out.push_back(removeTokens(U, I, I));
  }
};

/// Deletes a run of two to four adjacent tokens, at every offset. A chunk of
/// the `tokens` pass holds neighbours only where it happens to be aligned, so
/// a pair that must go together (`= 0` of an initializer, `( )` of a call
/// whose parentheses the balanced passes keep) can be missed; C-Reduce's
/// rm-toks passes try such runs too. Longer runs first.
class RemoveTokenRun : public Transformation {
public:
  static constexpr std::size_t Longest = 4;
  const char *name() const override { return "token-runs"; }
  const char *description() const override { return "remove 2 to 4 adjacent tokens"; }
  Level level() const override { return Lexical; }
  bool needsAST() const override { return false; }
  bool largestFirst() const override { return true; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    for (std::size_t N = Longest; N >= 2; --N)
      for (std::size_t I = 0; I + N <= U.Tokens.size(); ++I)
        Out.push_back(removeTokens(U, I, I + N - 1));
  }
};

/// Collapses runs of white space and comments to one space or one newline.
/// Saves only bytes, but makes the result readable.
class CollapseWhitespace : public Transformation {
public:
  const char *name() const override { return "whitespace"; }
  const char *description() const override {
    return "collapse white space and comments between tokens";
  }
  Level level() const override { return Lexical; }
  bool needsAST() const override { return false; }
  void collect(const SourceUnit &U, std::vector<Change> &Out) const override {
    std::size_t Prev = 0;
    for (std::size_t I = 0; I <= U.Tokens.size(); ++I) {
      std::size_t Next = I < U.Tokens.size() ? U.Tokens[I].Offset : U.Text.size();
      std::string_view Gap(U.Text.data() + Prev, Next - Prev);
      bool Newline = Gap.find('\n') != std::string_view::npos;
      std::string Want;
      if (I == U.Tokens.size())
        Want = Newline ? "\n" : "";
      else if (I > 0)
        Want = Newline ? "\n" : " ";
      if (Gap.size() > Want.size())
        Out.push_back(replaceRange(Prev, Next, Want));
      if (I < U.Tokens.size())
        Prev = U.Tokens[I].end();
    }
  }
};

} // namespace

std::vector<std::pair<std::size_t, std::size_t>> includedFileRegions(const SourceUnit &U) {
  std::vector<std::pair<std::size_t, std::size_t>> Regions;
  std::vector<std::size_t> Open; // Where the entering markers' lines begin.
  for (std::size_t I = 0; I < U.Tokens.size(); ++I) {
    if (!startsDirective(U, I))
      continue;
    std::size_t J = endOfLine(U, I);
    // `# LINE "FILE" FLAGS...`; flag 1 enters a file, flag 2 returns.
    std::size_t K = I + 1;
    if (K + 1 < J && std::isdigit(static_cast<unsigned char>(U.tokenText(K)[0])) &&
        U.tokenText(K + 1).front() == '"') {
      std::size_t LineBegin = U.Text.rfind('\n', U.Tokens[I].Offset);
      LineBegin = LineBegin == std::string::npos ? 0 : LineBegin + 1;
      std::size_t LineEnd = U.Text.find('\n', U.Tokens[J - 1].end());
      LineEnd = LineEnd == std::string::npos ? U.Text.size() : LineEnd + 1;
      for (std::size_t F = K + 2; F < J; ++F) {
        if (U.tokenText(F) == "1") {
          Open.push_back(LineBegin);
        } else if (U.tokenText(F) == "2" && !Open.empty()) {
          Regions.emplace_back(Open.back(), LineEnd);
          Open.pop_back();
        }
      }
    }
    I = J - 1;
  }
  return Regions;
}

void addLexicalTransformations(TransformationList &L) {
  L.push_back(std::make_unique<RemoveIncludedFile>());
  L.push_back(std::make_unique<LexicalDecls>());
  L.push_back(std::make_unique<RemoveDirectives>());
  L.push_back(std::make_unique<LexicalStmts>());
  L.push_back(std::make_unique<BalancedPass>("balanced-braces", "remove a {...} group", '{',
                                             BalancedPass::Delete));
  L.push_back(std::make_unique<BalancedPass>("empty-braces", "empty a {...} group to {}", '{',
                                             BalancedPass::Empty));
  L.push_back(std::make_unique<BalancedPass>("balanced-parens", "remove a (...) group", '(',
                                             BalancedPass::Delete));
  L.push_back(std::make_unique<BalancedPass>("empty-parens", "empty a (...) group to ()", '(',
                                             BalancedPass::Empty));
  L.push_back(std::make_unique<BalancedPass>("unwrap-parens",
                                             "remove a pair of parentheses, keeping what is inside",
                                             '(', BalancedPass::Unwrap));
  L.push_back(std::make_unique<BalancedPass>("unwrap-braces",
                                             "remove a pair of braces, keeping what is inside", '{',
                                             BalancedPass::Unwrap));
  L.push_back(std::make_unique<BalancedAngles>());
  L.push_back(std::make_unique<RemoveLine>());
  L.push_back(std::make_unique<RemoveToken>());
  L.push_back(std::make_unique<RemoveTokenRun>());
  L.push_back(std::make_unique<CollapseWhitespace>());
}

} // namespace sleuth::reducer
