//===- Transformation.h - One kind of reduction, by name --------*- C++ -*-===//
//
// As in C-Vise's clang_delta, each kind of reduction is one class with a
// name and a one-line description. A transformation only lists its
// instances on a given text (as Changes); the driver decides which instances
// to apply and tests them. So "apply transformation X, instance N" is
//
//   collectInstances(X, Text, Lang)[N]
//
// and the search loop stays out of the transformations.
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Edit.h"
#include "Tokens.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace clang {
class ASTContext;
} // namespace clang

namespace sleuth::reducer {

/// How to parse the file: language and extra compiler arguments.
struct LanguageOptions {
  bool CPlusPlus = true;
  std::string Standard;               ///< e.g. "c++20"; empty: a default.
  std::vector<std::string> ExtraArgs; ///< Passed to Clang as written.
  std::string FileName = "input.cpp"; ///< Shown in Clang's diagnostics.
};

/// What a transformation looks at: the text, its tokens and, for AST-based
/// ones, Clang's AST of it (which may be partial if the text has errors).
struct SourceUnit {
  const std::string &Text;
  const std::vector<Token> &Tokens;
  bool CPlusPlus = true;
  clang::ASTContext *AST = nullptr;

  /// Index of the first token that starts at or after Offset.
  std::size_t tokenAtOrAfter(std::size_t Offset) const;
  /// Index of the last token that ends at or before Offset, or npos.
  std::size_t tokenEndingBefore(std::size_t Offset) const;
  std::string_view tokenText(std::size_t I) const {
    return std::string_view(Text).substr(Tokens[I].Offset, Tokens[I].Length);
  }
};

/// Byte ranges of a preprocessed file that came from #included files: from
/// the line marker entering a file (`# 1 "foo.h" 1`) to the end of the one
/// returning from it (`# 5 "main.c" 2`), nested ones included, in the order
/// their return markers appear. Empty for a file without line markers.
std::vector<std::pair<std::size_t, std::size_t>> includedFileRegions(const SourceUnit &U);

/// Granularity, coarse to fine: the driver runs coarse levels first.
enum Level : unsigned {
  Declarations = 0, ///< Whole top-level declarations.
  Members = 1,      ///< Members, statements, function bodies.
  Expressions = 2,  ///< Expressions, parameters, templates, typedefs.
  Lexical = 3       ///< Tokens, lines, names.
};

class Transformation {
public:
  virtual ~Transformation();
  virtual const char *name() const = 0;
  virtual const char *description() const = 0;
  virtual Level level() const = 0;
  virtual bool needsAST() const { return true; }
  /// Try large instances first (rather than in source order).
  virtual bool largestFirst() const { return false; }
  /// Appends every instance found in U to Out.
  virtual void collect(const SourceUnit &U, std::vector<Change> &Out) const = 0;
};

/// All transformations in their default order.
const std::vector<const Transformation *> &allTransformations();
const Transformation *findTransformation(std::string_view Name);

/// Instances of one transformation on Text, in the order the driver tries
/// them. Parses in this process (tests and `--apply`); the driver parses in a
/// child process instead, because the input may crash Clang itself.
std::vector<Change> collectInstances(const Transformation &T, const std::string &Text,
                                     const LanguageOptions &Lang);

/// Instances of every named transformation on Text, computed in a forked
/// child that parses the text once. Returns false if the child crashed or
/// timed out (then only lexical transformations have instances).
bool collectInstancesIsolated(const std::vector<const Transformation *> &Ts,
                              const std::string &Text, const LanguageOptions &Lang,
                              double TimeoutSeconds, std::vector<std::vector<Change>> &Out);

// Registration, one function per source file of transformations.
using TransformationList = std::vector<std::unique_ptr<Transformation>>;
void addDeclarationTransformations(TransformationList &L);
void addStatementTransformations(TransformationList &L);
void addExpressionTransformations(TransformationList &L);
void addTypeTransformations(TransformationList &L);
void addNameTransformations(TransformationList &L);
void addLexicalTransformations(TransformationList &L);

} // namespace sleuth::reducer
