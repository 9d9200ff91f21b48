#include "HeaderCache.h"

#include "sleuth/instrumenter/instrumenter.h"

#include "clang/Basic/LangStandard.h"
#include "clang/Lex/PreprocessorLexer.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"
#include "llvm/Support/xxhash.h"

#include <cstdio>
#include <cstdlib>

using namespace clang;

namespace sleuth::instrumenter {
namespace {

constexpr llvm::StringLiteral Magic = "sleuth-header-cache 2\n";

std::string hex(uint64_t V) {
  char Buffer[17];
  std::snprintf(Buffer, sizeof Buffer, "%016llx", static_cast<unsigned long long>(V));
  return Buffer;
}

/// Folds V into the running digest H (a multiply-xorshift step: stable across runs and hosts,
/// unlike llvm::hash_combine, whose seed may change per process).
void mix(uint64_t &H, uint64_t V) {
  H ^= V + 0x9e3779b97f4a7c15ULL + (H << 6) + (H >> 2);
  H *= 0xff51afd7ed558ccdULL;
  H ^= H >> 33;
}

/// The sleuth binary that instruments: entries written by another build of it are stale.
std::string toolIdentity() {
  llvm::sys::fs::file_status Status;
  if (llvm::sys::fs::status("/proc/self/exe", Status))
    return "unknown";
  return std::to_string(Status.getSize()) + "-" +
         std::to_string(Status.getLastModificationTime().time_since_epoch().count());
}

} // namespace

HeaderCache::HeaderCache(std::string Directory, std::string Configuration)
    : Directory(std::move(Directory)),
      Configuration(std::move(Configuration) + " tool=" + toolIdentity()) {}

void HeaderCache::watch(Preprocessor &PP) {
  if (!enabled())
    return;
  SM = &PP.getSourceManager();
  this->PP = &PP;
  PP.setTokenWatcher([this](const Token &T) { observe(T); });
}

bool HeaderCache::isProjectHeader(FileID File) const {
  return File.isValid() && File != SM->getMainFileID() &&
         SM->getFileCharacteristic(SM->getLocForStartOfFile(File)) == SrcMgr::C_User;
}

void HeaderCache::observe(const Token &T) {
  // Only project headers are ever looked up: the main file's and system headers' tokens, most
  // of a translation unit, need no digest. The file being lexed (where a macro is expanded, for
  // a macro's tokens) tells cheaply which file a token is in.
  PreprocessorLexer *Lexer = PP->getCurrentFileLexer();
  FileID Lexed = Lexer ? Lexer->getFileID() : FileID();
  if (Lexed != LastLexed) {
    LastLexed = Lexed;
    LastLexedMatters = isProjectHeader(Lexed);
  }
  if (!LastLexedMatters)
    return;
  SourceLocation Loc = T.getLocation();
  if (Loc.isInvalid())
    return;
  SourceLocation At = Loc.isFileID() ? Loc : SM->getExpansionLoc(Loc);
  auto [File, Offset] = SM->getDecomposedLoc(At);
  if (File != LastFile) {
    if (LastFile.isValid())
      Digests[LastFile] = LastDigest;
    LastFile = File;
    auto It = Digests.find(File);
    LastDigest = It == Digests.end() ? 0 : It->second;
  }
  uint64_t &H = LastDigest;
  mix(H, (uint64_t(T.getKind()) << 32) | Offset);
  // An annotation (`#pragma pack` becomes annot_pragma_pack) holds no identifier but the
  // pragma's data, a raw identifier its text: neither may be read as an IdentifierInfo.
  if (T.isAnnotation())
    return mixSpelling(H, Loc, File);
  if (T.is(tok::raw_identifier))
    mix(H, llvm::xxh3_64bits(T.getRawIdentifier()));
  else if (const IdentifierInfo *II = T.getIdentifierInfo())
    mix(H, llvm::xxh3_64bits(II->getName()));
  else if (T.isLiteral() && T.getLiteralData())
    mix(H, llvm::xxh3_64bits(llvm::StringRef(T.getLiteralData(), T.getLength())));
  mixSpelling(H, Loc, File);
}

void HeaderCache::mixSpelling(uint64_t &H, SourceLocation Loc, FileID File) const {
  if (Loc.isMacroID()) {
    // Rewrites keep away from macro bodies but wrap macro arguments spelled in the file: where
    // a token was spelled matters, not only where it was expanded.
    auto [SpellingFile, SpellingOffset] = SM->getDecomposedLoc(SM->getSpellingLoc(Loc));
    mix(H, SpellingFile == File ? SpellingOffset : ~uint64_t(0));
  }
}

std::string HeaderCache::keyOf(SourceManager &SM, const LangOptions &LO, FileID File,
                               const std::string &Path, const std::string &Suffix) const {
  uint64_t Tokens = File == LastFile ? LastDigest : 0;
  if (File != LastFile)
    if (auto It = Digests.find(File); It != Digests.end())
      Tokens = It->second;
  bool Invalid = false;
  llvm::StringRef Bytes = SM.getBufferData(File, &Invalid);
  std::string Key;
  llvm::raw_string_ostream Out(Key);
  Out << Configuration << " std=" << unsigned(LO.LangStd) << (LO.CPlusPlus ? " c++" : " c")
      << " path=" << Path << " suffix=" << Suffix
      << " bytes=" << hex(Invalid ? 0 : llvm::xxh3_64bits(Bytes)) << " tokens=" << hex(Tokens);
  return Key;
}

std::string HeaderCache::slotOf(const std::string &Path, const std::string &Suffix) const {
  std::string Name = hex(llvm::xxh3_64bits(Configuration + "\n" + Path + "\n" + Suffix));
  llvm::SmallString<256> P(Directory);
  llvm::sys::path::append(P, Name.substr(0, 2), Name + ".hdr");
  return std::string(P);
}

std::string HeaderCache::serialize(const std::string &Key, const CachedHeader &Entry) {
  std::string Text;
  llvm::raw_string_ostream Out(Text);
  Out << Magic << Key << "\n"
      << Entry.Functions << " " << Entry.Probes << " " << Entry.Sites << " " << Entry.Edits.size()
      << " " << Entry.Tables.size();
  for (unsigned Count : Entry.Skipped)
    Out << " " << Count;
  Out << "\n";
  for (const AppliedEdit &E : Entry.Edits)
    Out << (E.Replace ? "R " : "I ") << E.Offset << " " << E.Length << " " << E.Text.size() << "\n"
        << E.Text;
  Out << Entry.Tables;
  return Text;
}

namespace {

/// Reads unsigned numbers and byte strings off the front of a serialized entry.
struct Reader {
  llvm::StringRef Rest;
  bool Ok = true;

  unsigned number() {
    Rest = Rest.ltrim(' ');
    size_t End = Rest.find_first_not_of("0123456789");
    unsigned long long V = 0;
    if (End == 0 || Rest.substr(0, End).getAsInteger(10, V) || V > ~0u)
      Ok = false;
    Rest = Rest.drop_front(End == llvm::StringRef::npos ? Rest.size() : End);
    return unsigned(V);
  }
  void expect(char C) {
    if (!Rest.consume_front(llvm::StringRef(&C, 1)))
      Ok = false;
  }
  std::string bytes(size_t N) {
    if (Rest.size() < N) {
      Ok = false;
      return "";
    }
    std::string S = Rest.substr(0, N).str();
    Rest = Rest.drop_front(N);
    return S;
  }
};

} // namespace

std::optional<CachedHeader> HeaderCache::deserialize(llvm::StringRef Text, const std::string &Key) {
  if (!Text.consume_front(Magic) || !Text.consume_front(Key) || !Text.consume_front("\n"))
    return std::nullopt;
  Reader R{Text};
  CachedHeader Entry;
  Entry.Functions = R.number();
  Entry.Probes = R.number();
  Entry.Sites = R.number();
  unsigned NumEdits = R.number();
  unsigned TablesSize = R.number();
  for (unsigned &Count : Entry.Skipped)
    Count = R.number();
  R.expect('\n');
  for (unsigned I = 0; I < NumEdits && R.Ok; ++I) {
    AppliedEdit E;
    if (R.Rest.consume_front("R "))
      E.Replace = true;
    else if (!R.Rest.consume_front("I "))
      R.Ok = false;
    E.Offset = R.number();
    E.Length = R.number();
    unsigned Size = R.number();
    R.expect('\n');
    E.Text = R.bytes(Size);
    Entry.Edits.push_back(std::move(E));
  }
  Entry.Tables = R.bytes(TablesSize);
  if (!R.Ok || !R.Rest.empty())
    return std::nullopt;
  return Entry;
}

std::optional<CachedHeader> HeaderCache::lookup(SourceManager &SM, const LangOptions &LO,
                                                FileID File, const std::string &Path,
                                                const std::string &Suffix) {
  if (!enabled())
    return std::nullopt;
  auto Buffer = llvm::MemoryBuffer::getFile(slotOf(Path, Suffix), /*IsText=*/false,
                                            /*RequiresNullTerminator=*/false);
  if (!Buffer)
    return std::nullopt;
  std::optional<CachedHeader> Entry =
      deserialize((*Buffer)->getBuffer(), keyOf(SM, LO, File, Path, Suffix));
  if (!Entry)
    return std::nullopt;
  // An edit past the end of the file would make the rewriter assert: trust nothing on disk.
  unsigned Size = SM.getBufferData(File).size();
  for (const AppliedEdit &E : Entry->Edits)
    if (E.Offset > Size || E.Length > Size - E.Offset)
      return std::nullopt;
  return Entry;
}

void HeaderCache::store(SourceManager &SM, const LangOptions &LO, FileID File,
                        const std::string &Path, const std::string &Suffix,
                        const CachedHeader &Entry) {
  if (!enabled())
    return;
  std::string Slot = slotOf(Path, Suffix);
  if (llvm::sys::fs::create_directories(llvm::sys::path::parent_path(Slot)))
    return;
  std::string Text = serialize(keyOf(SM, LO, File, Path, Suffix), Entry);
  llvm::SmallString<256> Temporary;
  int FD = -1;
  if (llvm::sys::fs::createUniqueFile(Slot + ".%%%%%%.tmp", FD, Temporary))
    return;
  bool Written;
  {
    llvm::raw_fd_ostream Out(FD, /*shouldClose=*/true);
    Out << Text;
    Out.close();
    Written = !Out.has_error();
    Out.clear_error();
  }
  if (!Written || llvm::sys::fs::rename(Temporary, Slot))
    llvm::sys::fs::remove(Temporary);
}

} // namespace sleuth::instrumenter

namespace sleuth {

std::string defaultHeaderCacheDirectory() {
  llvm::SmallString<256> Dir;
  if (const char *Xdg = std::getenv("XDG_CACHE_HOME"); Xdg && *Xdg == '/') {
    Dir = Xdg;
  } else if (const char *Home = std::getenv("HOME"); Home && *Home == '/') {
    Dir = Home;
    llvm::sys::path::append(Dir, ".cache");
  } else {
    return "";
  }
  llvm::sys::path::append(Dir, "sleuth", "headers");
  if (llvm::sys::fs::create_directories(Dir))
    return "";
  return std::string(Dir);
}

} // namespace sleuth
