//===- Tokens.cpp - Raw lexing for token-level passes ---------------------===//
#include "Tokens.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Lex/Lexer.h"

#include <cctype>

namespace sleuth::reducer {

std::vector<Token> lexC(const std::string &Text, bool CPlusPlus) {
  clang::LangOptions LO;
  LO.CPlusPlus = CPlusPlus;
  LO.CPlusPlus11 = LO.CPlusPlus14 = LO.CPlusPlus17 = LO.CPlusPlus20 = CPlusPlus;
  LO.C99 = LO.C11 = !CPlusPlus;
  LO.LineComment = true;
  LO.Digraphs = true;
  LO.Bool = CPlusPlus;
  // A raw lexer over a buffer with no file behind it: token locations are
  // then plain offsets from the start of the buffer.
  const char *Begin = Text.c_str();
  clang::Lexer L(clang::SourceLocation(), LO, Begin, Begin, Begin + Text.size());
  std::vector<Token> Out;
  clang::Token Tok;
  for (;;) {
    L.LexFromRawLexer(Tok);
    if (Tok.is(clang::tok::eof))
      break;
    std::size_t Offset = Tok.getLocation().getRawEncoding();
    if (Tok.getLength() == 0 || Offset >= Text.size())
      continue;
    Out.push_back({Offset, Tok.getLength()});
  }
  return Out;
}

std::vector<Token> lexText(const std::string &Text) {
  std::vector<Token> Out;
  auto Word = [](unsigned char C) { return std::isalnum(C) || C == '_'; };
  auto Space = [](unsigned char C) { return std::isspace(C) != 0; };
  for (std::size_t I = 0; I < Text.size();) {
    std::size_t J = I + 1;
    unsigned char C = Text[I];
    if (Word(C))
      while (J < Text.size() && Word(Text[J]))
        ++J;
    else if (Space(C))
      while (J < Text.size() && Space(Text[J]))
        ++J;
    Out.push_back({I, J - I});
    I = J;
  }
  return Out;
}

} // namespace sleuth::reducer
