//===- Tokens.h - Splitting text into tokens ---------------------*- C++
//-*-===//
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace sleuth::reducer {

struct Token {
  std::size_t Offset = 0;
  std::size_t Length = 0;
  std::size_t end() const { return Offset + Length; }
};

/// C or C++ tokens as Clang's raw lexer sees them (no preprocessing, so
/// directives and line markers are tokens too; comments are skipped).
std::vector<Token> lexC(const std::string &Text, bool CPlusPlus);

/// Tokens of arbitrary text: runs of identifier characters, runs of
/// whitespace, and single other characters. Concatenating them gives the text.
std::vector<Token> lexText(const std::string &Text);

/// What progress is measured in: tokens first, bytes to break ties.
struct Size {
  std::size_t Tokens = 0;
  std::size_t Bytes = 0;
  bool operator<(const Size &O) const {
    return Tokens != O.Tokens ? Tokens < O.Tokens : Bytes < O.Bytes;
  }
};

} // namespace sleuth::reducer
