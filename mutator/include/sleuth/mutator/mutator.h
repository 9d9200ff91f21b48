// Mutants of C and C++ sources: faulty versions with known fault locations.
//
// findMutants() parses one source file with Clang and lists every place where a mutation
// operator applies; applyMutant() turns the file's text into one mutant's text. Clang stays
// behind this header: a mutant is plain data (a byte range of the file and its replacement).
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace sleuth::mutator {

/// One mutation operator: a short name (`ror`) and a one-line description.
struct OperatorInfo {
  std::string_view Name;
  std::string_view Description;
};

/// Every operator, in the order their mutants are numbered at one position.
const std::vector<OperatorInfo> &mutationOperators();
/// Whether Name is an operator's name.
bool isMutationOperator(std::string_view Name);

/// One mutant: replace Length bytes at Offset of the file by Replacement.
struct Mutant {
  unsigned Id = 0;   ///< 1-based; in source order, stable for the same file and arguments.
  std::string File;  ///< As given in the request.
  unsigned Line = 0; ///< Where the replaced text starts (1-based line and column).
  unsigned Column = 0;
  unsigned EndLine = 0;   ///< Where it ends (multi-line conditions).
  std::string Operator;   ///< An OperatorInfo::Name.
  std::string Function;   ///< The enclosing function, qualified.
  std::size_t Offset = 0; ///< Byte offset of the replaced text in the file.
  std::size_t Length = 0;
  std::string Original;    ///< The replaced text.
  std::string Replacement; ///< What replaces it.
};

struct MutateRequest {
  std::string File;
  std::vector<std::string> Arguments; ///< Compiler arguments, without compiler and input.
  std::string Directory;              ///< Working directory of the compile command.
  bool ShowDiagnostics = false;       ///< Print Clang's diagnostics on stderr.
};

struct MutateResult {
  bool Ok = false;
  std::string Error;           ///< One line, naming the file (and position) at fault.
  std::string Text;            ///< The file's text, as parsed.
  std::vector<Mutant> Mutants; ///< Every mutant of every operator, numbered 1, 2, ...
};

/// Parses Request.File and lists its mutants: code written in that file (not in headers, not
/// in macro expansions), inside function bodies, outside constexpr/consteval functions and
/// constant expressions; templates by their written pattern. Fails if Clang reports an error.
MutateResult findMutants(const MutateRequest &Request);

/// The text of Text with M applied.
std::string applyMutant(std::string_view Text, const Mutant &M);

} // namespace sleuth::mutator
