// Project files included by the main file are instrumented along with it. The real compiler
// has to see their rewritten text, so the output inlines it in place of the `#include`
// directive, between `#line` directives that keep diagnostics, __FILE__ and __LINE__ as they
// were. System headers and installed libraries are never touched.
#pragma once

#include "clang/Basic/SourceManager.h"
#include "clang/Lex/PPCallbacks.h"
#include "clang/Rewrite/Core/Rewriter.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/DenseSet.h"

#include <memory>
#include <string>
#include <vector>

namespace sleuth::instrumenter {

/// One `#include` (or `#include_next`, `#import`) directive the preprocessor acted on.
struct Inclusion {
  clang::FileID Includer;
  clang::SourceLocation Hash;      // the `#`
  clang::SourceLocation End;       // just past the directive's last character (before `\n`)
  clang::CharSourceRange Filename; // `"a.h"` / `<a.h>` as written
  clang::OptionalFileEntryRef File;
  clang::FileID Entered; // invalid when the file was not entered (include guard, #pragma once)
  bool Angled = false;
  bool IncludeNext = false;
  bool OnOneLine = true; // nothing but white space or a comment follows it on its line
};

class IncludedFiles {
public:
  /// Roots: when not empty, only files under one of these directories are instrumented.
  IncludedFiles(bool Enabled, std::vector<std::string> Roots)
      : Enabled(Enabled), Roots(std::move(Roots)) {}

  /// The preprocessor hook that records the directives (it must outlive preprocessing only).
  std::unique_ptr<clang::PPCallbacks> recorder(clang::SourceManager &SM);

  /// The files that may be rewritten: the main file and every project file that only the main
  /// file or other such files include, entered through a plain one-line directive.
  llvm::DenseSet<clang::FileID> candidates(clang::SourceManager &SM) const;

  /// Distinct, stable table-name suffix of an included file ("" for the main file): the same
  /// header gets the same names in every translation unit.
  std::string suffix(clang::SourceManager &SM, clang::FileID File);

  /// Inlines the rewritten text of each file in Inline (candidates with instrumented code, and
  /// the files that include them) into its includer, and returns the main file's rewritten
  /// text. Paths receives the inlined files' paths as the compiler found them (for depfiles).
  std::string assemble(clang::SourceManager &SM, clang::Rewriter &Rewrite,
                       const llvm::DenseSet<clang::FileID> &Inline,
                       std::vector<std::string> &Paths) const;

  /// The candidates that must be inlined so that the files in WithCode are: themselves and
  /// every candidate on their include chains.
  llvm::DenseSet<clang::FileID> closure(clang::SourceManager &SM,
                                        const llvm::DenseSet<clang::FileID> &WithCode) const;

  /// The main file as the compiler is given it and as Clang was (absolutely): #line
  /// directives name files the way the compiler would.
  void setMainFile(llvm::StringRef AsGiven, llvm::StringRef Absolute);
  std::string asCompilerNames(llvm::StringRef Name) const;

  /// Absolute, normalized path of a file as the compiler found it.
  static std::string absolutePath(clang::SourceManager &SM, clang::FileEntryRef File);

private:
  friend class InclusionRecorder;
  bool isProjectFile(clang::SourceManager &SM, clang::FileID File) const;

  bool Enabled;
  std::vector<std::string> Roots;
  std::string MainGivenDir, MainAbsoluteDir;
  std::vector<Inclusion> Inclusions;
  llvm::DenseMap<clang::FileID, unsigned> EnteredBy; // file -> index of its directive
  llvm::DenseSet<clang::FileID> HasIncludeNext;      // files that contain #include_next
  llvm::DenseMap<clang::FileID, std::string> Suffixes;
  llvm::StringMap<unsigned> SuffixUses;
};

} // namespace sleuth::instrumenter
