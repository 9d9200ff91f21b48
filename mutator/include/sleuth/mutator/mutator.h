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

/// What a mutant-schemata guard wraps (see buildSchemata).
enum class GuardKind {
  Expression, ///< An expression whose value the edit changes: guarded by a conditional.
  Condition,  ///< A condition (if, while, for, do, ?:): as Expression, in a boolean context.
  Statement,  ///< A statement the edit deletes: guarded by an `if`.
};

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
  /// The smallest expression or statement that contains the edit and that a schemata guard
  /// can select between original and mutant: bytes [GuardOffset, GuardOffset + GuardLength).
  GuardKind Guard = GuardKind::Expression;
  std::size_t GuardOffset = 0;
  std::size_t GuardLength = 0;
  /// Why no schemata can hold this mutant ("" if one can): the edit lies where only a
  /// constant is allowed once the guard makes it a run-time choice.
  std::string Unguardable;
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

/// Mutant schemata: one source holding many mutants of one file, each selected at run time.
struct Schemata {
  std::string Text;               ///< The schemata source.
  std::vector<unsigned> Included; ///< Ids of the mutants it holds, ascending.
  struct LeftOut {
    unsigned Id = 0;
    std::string Reason;
  };
  std::vector<LeftOut> Excluded; ///< Mutants it cannot hold, with the reason.
  /// Lines before the file's first line: line L of the file is line L + PreludeLines of
  /// the schemata (every guard is written on the lines of the code it guards).
  unsigned PreludeLines = 0;
};

/// The name of the function the schemata calls to read the selected mutant.
inline constexpr std::string_view SchemataSwitch = "__sleuth_mutant";
/// The environment variable that selects the mutant (unset or 0: the original program).
inline constexpr std::string_view SchemataVariable = "SLEUTH_MUTANT";

/// Writes Text (the file FileName, as findMutants parsed it) with every mutant of Mutants
/// guarded by `__sleuth_mutant() == ID` (expressions) or `!= ID` (deleted statements).
/// `__sleuth_mutant()` reads SLEUTH_MUTANT once; a prelude defines it, then `#line 1` names
/// FileName so that diagnostics, __FILE__ and debug information point at the original.
Schemata buildSchemata(std::string_view Text, std::string_view FileName,
                       const std::vector<Mutant> &Mutants);

} // namespace sleuth::mutator
