// Project headers are instrumented once, not once per translation unit: the first translation
// unit that instruments a header stores the header's edits and tables in a cache directory; the
// next ones that see the header alike replay them instead of instrumenting its functions again.
//
// "Alike" is decided by what the parser saw of the header: a digest of the tokens it was given
// whose expansion location lies in the header (their kinds, spellings, offsets and whether they
// came from a macro), of the header's bytes, of the language standard and of the
// configuration (mode, counter placement, the sleuth binary). A header read under other macro
// definitions (`#ifdef` branches, macros expanding differently) has another digest and is
// instrumented afresh. What the digest does not see is a type declared differently before the
// header in two translation units of one program, which C++ forbids (the one-definition rule)
// and C programs rarely do; the compile of the rewritten text reports such a mismatch and the
// wrappers then compile the source uninstrumented.
//
// One cache slot per header, mode and counter placement: a new digest replaces the entry, so the
// directory holds at most three files per project header. Entries are written to a temporary
// file and renamed into place, so parallel compiles never read a partial one.
#pragma once

#include "Context.h"
#include "sleuth/instrumenter/instrumenter.h"

#include "clang/Basic/LangOptions.h"
#include "clang/Basic/SourceManager.h"
#include "clang/Lex/Preprocessor.h"
#include "llvm/ADT/DenseMap.h"

#include <optional>
#include <string>
#include <vector>

namespace sleuth::instrumenter {

/// What a translation unit needs from an instrumented header: its edits, the declarations of its
/// tables, and the counts the statistics report.
struct CachedHeader {
  std::vector<AppliedEdit> Edits;
  std::string Tables;
  unsigned Functions = 0, Probes = 0, Sites = 0;
  SkipCounts Skipped{}; // functions left as they were, by reason
};

class HeaderCache {
public:
  /// Directory "" disables the cache. Configuration tells apart entries that must not be shared
  /// (mode, counter placement).
  HeaderCache(std::string Directory, std::string Configuration);

  bool enabled() const { return !Directory.empty(); }

  /// Digests the tokens the preprocessor hands the parser (installs PP's token watcher).
  void watch(clang::Preprocessor &PP);

  /// The entry for File if one was stored for the same digest.
  std::optional<CachedHeader> lookup(clang::SourceManager &SM, const clang::LangOptions &LO,
                                     clang::FileID File, const std::string &Path,
                                     const std::string &Suffix);
  /// Stores File's entry (best effort: a cache that cannot be written is no error).
  void store(clang::SourceManager &SM, const clang::LangOptions &LO, clang::FileID File,
             const std::string &Path, const std::string &Suffix, const CachedHeader &Entry);

  /// Serialization, public for the unit tests.
  static std::string serialize(const std::string &Key, const CachedHeader &Entry);
  static std::optional<CachedHeader> deserialize(llvm::StringRef Text, const std::string &Key);

private:
  std::string keyOf(clang::SourceManager &SM, const clang::LangOptions &LO, clang::FileID File,
                    const std::string &Path, const std::string &Suffix) const;
  std::string slotOf(const std::string &Path, const std::string &Suffix) const;
  void observe(const clang::Token &T);
  /// Mixes into H where a token expanded at Loc in File was spelled, if in a macro.
  void mixSpelling(uint64_t &H, clang::SourceLocation Loc, clang::FileID File) const;
  bool isProjectHeader(clang::FileID File) const;

  std::string Directory;
  std::string Configuration;
  clang::SourceManager *SM = nullptr;
  clang::Preprocessor *PP = nullptr;
  llvm::DenseMap<clang::FileID, uint64_t> Digests;
  clang::FileID LastFile; // the file of the previous token, and its digest so far
  uint64_t LastDigest = 0;
  clang::FileID LastLexed;       // the file being lexed at the previous token, and whether it is a
  bool LastLexedMatters = false; // project header
};

} // namespace sleuth::instrumenter
