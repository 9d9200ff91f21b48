#include "IncludedFiles.h"

#include "clang/Basic/FileManager.h"
#include "clang/Basic/IdentifierTable.h"
#include "clang/Lex/Token.h"
#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/xxhash.h"

#include <algorithm>
#include <cstdio>
#include <set>

using namespace clang;

namespace sleuth::instrumenter {

/// Pairs each directive with the file it entered: the file the lexer enters right after a
/// directive, included from the directive's file, is the one it named.
class InclusionRecorder : public PPCallbacks {
public:
  InclusionRecorder(IncludedFiles &Files, SourceManager &SM) : Files(Files), SM(SM) {}

  void InclusionDirective(SourceLocation HashLoc, const Token &IncludeTok, StringRef, bool IsAngled,
                          CharSourceRange FilenameRange, OptionalFileEntryRef File, StringRef,
                          StringRef, const Module *, bool, SrcMgr::CharacteristicKind) override {
    if (!HashLoc.isFileID() || !FilenameRange.getEnd().isFileID())
      return;
    Inclusion I;
    I.Includer = SM.getFileID(HashLoc);
    I.Hash = HashLoc;
    I.Filename = FilenameRange;
    I.File = File;
    I.Angled = IsAngled;
    const IdentifierInfo *Kind = IncludeTok.getIdentifierInfo();
    I.IncludeNext = Kind && Kind->getName() == "include_next";
    if (I.IncludeNext)
      Files.HasIncludeNext.insert(I.Includer);
    // The directive ends at the end of its line; a continuation or a comment running on to the
    // next line would make replacing it more than a one-line affair.
    bool Invalid = false;
    StringRef Buffer = SM.getBufferData(I.Includer, &Invalid);
    unsigned At = SM.getFileOffset(FilenameRange.getEnd());
    if (Invalid || SM.getFileID(FilenameRange.getEnd()) != I.Includer || At > Buffer.size())
      return;
    size_t Eol = Buffer.find('\n', At);
    if (Eol == StringRef::npos)
      Eol = Buffer.size();
    StringRef Rest = Buffer.slice(At, Eol);
    if (Rest.ends_with("\r"))
      Rest = Rest.drop_back();
    StringRef Trimmed = Rest.trim();
    I.OnOneLine = !Rest.ends_with("\\") && (Trimmed.empty() || Trimmed.starts_with("//") ||
                                            (Trimmed.starts_with("/*") && Trimmed.ends_with("*/") &&
                                             Trimmed.find("*/") == Trimmed.size() - 2));
    I.End = FilenameRange.getEnd().getLocWithOffset(int(Rest.size()));
    Pending = unsigned(Files.Inclusions.size());
    Files.Inclusions.push_back(I);
  }

  void LexedFileChanged(FileID FID, LexedFileChangeReason Reason, SrcMgr::CharacteristicKind,
                        FileID, SourceLocation) override {
    if (Reason != LexedFileChangeReason::EnterFile || Pending == None)
      return;
    Inclusion &I = Files.Inclusions[Pending];
    Pending = None;
    SourceLocation From = SM.getIncludeLoc(FID);
    if (From.isValid() && SM.getFileID(From) == I.Includer) {
      I.Entered = FID;
      Files.EnteredBy[FID] = unsigned(&I - Files.Inclusions.data());
    }
  }

  void FileSkipped(const FileEntryRef &, const Token &, SrcMgr::CharacteristicKind) override {
    Pending = None;
  }

private:
  static constexpr unsigned None = ~0u;
  IncludedFiles &Files;
  SourceManager &SM;
  unsigned Pending = None;
};

std::unique_ptr<PPCallbacks> IncludedFiles::recorder(SourceManager &SM) {
  return std::make_unique<InclusionRecorder>(*this, SM);
}

std::string IncludedFiles::absolutePath(SourceManager &SM, FileEntryRef File) {
  llvm::SmallString<256> Path(File.getName());
  SM.getFileManager().makeAbsolutePath(Path);
  llvm::sys::path::remove_dots(Path, /*remove_dot_dot=*/true);
  return std::string(Path);
}

bool IncludedFiles::isProjectFile(SourceManager &SM, FileID File) const {
  if (SM.getFileCharacteristic(SM.getLocForStartOfFile(File)) != SrcMgr::C_User)
    return false;
  OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
  if (!Entry)
    return false;
  std::string Path = absolutePath(SM, *Entry);
  // Installed libraries' headers reached through -I (pkg-config) are not the project's.
  for (const char *Installed : {"/usr/", "/opt/", "/nix/store/"})
    if (llvm::StringRef(Path).starts_with(Installed))
      return false;
  if (Roots.empty())
    return true;
  for (const std::string &Root : Roots) {
    llvm::StringRef R(Root);
    if (R.ends_with("/"))
      R = R.drop_back();
    if (llvm::StringRef(Path).starts_with(R) && (Path.size() == R.size() || Path[R.size()] == '/'))
      return true;
  }
  return false;
}

llvm::DenseSet<FileID> IncludedFiles::candidates(SourceManager &SM) const {
  llvm::DenseSet<FileID> Out;
  Out.insert(SM.getMainFileID());
  if (!Enabled)
    return Out;
  // Directives come in the order the preprocessor met them: an includer is decided before
  // the files it includes.
  for (const Inclusion &I : Inclusions) {
    if (I.Entered.isInvalid() || !Out.contains(I.Includer) || I.IncludeNext || !I.OnOneLine)
      continue;
    if (HasIncludeNext.contains(I.Entered) || !isProjectFile(SM, I.Entered))
      continue;
    Out.insert(I.Entered);
  }
  return Out;
}

llvm::DenseSet<FileID> IncludedFiles::closure(SourceManager &SM,
                                              const llvm::DenseSet<FileID> &WithCode) const {
  llvm::DenseSet<FileID> Out;
  FileID Main = SM.getMainFileID();
  for (FileID F : WithCode) {
    while (F.isValid() && F != Main && Out.insert(F).second) {
      auto It = EnteredBy.find(F);
      F = It == EnteredBy.end() ? FileID() : Inclusions[It->second].Includer;
    }
  }
  return Out;
}

std::string IncludedFiles::asCompilerNames(llvm::StringRef Name) const {
  // Clang was given the main file by absolute path; the compiler by the path on its command
  // line. Names found relative to the main file's directory begin accordingly.
  if (MainAbsoluteDir.empty() || !Name.starts_with(MainAbsoluteDir + "/"))
    return std::string(Name);
  llvm::StringRef Rest = Name.drop_front(MainAbsoluteDir.size() + 1);
  return MainGivenDir.empty() ? std::string(Rest) : MainGivenDir + "/" + std::string(Rest);
}

void IncludedFiles::setMainFile(llvm::StringRef AsGiven, llvm::StringRef Absolute) {
  MainGivenDir = std::string(llvm::sys::path::parent_path(AsGiven));
  MainAbsoluteDir = std::string(llvm::sys::path::parent_path(Absolute));
}

std::string IncludedFiles::suffix(SourceManager &SM, FileID File) {
  if (File == SM.getMainFileID())
    return "";
  auto It = Suffixes.find(File);
  if (It != Suffixes.end())
    return It->second;
  OptionalFileEntryRef Entry = SM.getFileEntryRefForID(File);
  std::string Path = Entry ? absolutePath(SM, *Entry) : std::to_string(File.getHashValue());
  char Hex[9];
  std::snprintf(Hex, sizeof Hex, "%08x", unsigned(llvm::xxh3_64bits(Path)));
  std::string S = std::string("_") + Hex;
  // A file without a guard may be entered twice (X-macro lists).
  if (unsigned Uses = SuffixUses[S]++)
    S += "_" + std::to_string(Uses + 1);
  Suffixes[File] = S;
  return S;
}

namespace {

/// `"text"` with `\` and `"` escaped, for #line and #include.
std::string quoted(llvm::StringRef Text) {
  std::string Out = "\"";
  for (char C : Text) {
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out + "\"";
}

const std::string PushHeaderDiagnostics = "#pragma GCC diagnostic push\n"
                                          "#pragma GCC diagnostic ignored \"-Wunused-macros\"\n"
                                          "#pragma GCC diagnostic ignored \"-Wunused-function\"\n"
                                          "#pragma GCC diagnostic ignored \"-Wunused-variable\"\n"
                                          "#pragma GCC diagnostic ignored "
                                          "\"-Wunused-const-variable\"\n";
const std::string PopHeaderDiagnostics = "#pragma GCC diagnostic pop\n";

/// Blanks `#pragma once` lines: inlined into the main file they mean nothing but a warning.
void blankPragmaOnce(SourceManager &SM, Rewriter &Rewrite, FileID File) {
  bool Invalid = false;
  StringRef Buffer = SM.getBufferData(File, &Invalid);
  if (Invalid)
    return;
  size_t Line = 0;
  while (Line < Buffer.size()) {
    size_t Eol = Buffer.find('\n', Line);
    if (Eol == StringRef::npos)
      Eol = Buffer.size();
    StringRef Text = Buffer.slice(Line, Eol).trim();
    if (Text.consume_front("#")) {
      Text = Text.ltrim();
      if (Text.consume_front("pragma") && Text.ltrim().starts_with("once") &&
          Text.ltrim().drop_front(4).trim().empty())
        Rewrite.ReplaceText(SM.getLocForStartOfFile(File).getLocWithOffset(int(Line)),
                            unsigned(Eol - Line), "");
    }
    Line = Eol + 1;
  }
}

} // namespace

std::string IncludedFiles::assemble(SourceManager &SM, Rewriter &Rewrite,
                                    const llvm::DenseSet<FileID> &Inline,
                                    std::vector<std::string> &Paths) const {
  FileID Main = SM.getMainFileID();
  std::set<const FileEntry *> InlinedEntries;
  for (FileID F : Inline)
    if (OptionalFileEntryRef E = SM.getFileEntryRefForID(F))
      InlinedEntries.insert(&E->getFileEntry());

  // Directives of the files whose text goes out: skipped re-inclusions of an inlined file
  // (which the inlined include guard or #pragma once made no-ops) disappear, since the
  // original file would now be read afresh; other quoted includes of inlined files name their
  // target by absolute path, since the includer's directory is no longer where it is read.
  for (const Inclusion &I : Inclusions) {
    if (I.Includer != Main && !Inline.contains(I.Includer))
      continue;
    if (I.Entered.isValid() && Inline.contains(I.Entered))
      continue; // replaced below
    if (I.Entered.isInvalid() && I.File && InlinedEntries.count(&I.File->getFileEntry()) &&
        I.OnOneLine) {
      Rewrite.ReplaceText(CharSourceRange::getCharRange(I.Hash, I.End), "");
      continue;
    }
    if (I.Includer != Main && !I.Angled && I.File && I.Filename.isValid())
      Rewrite.ReplaceText(I.Filename, quoted(absolutePath(SM, *I.File)));
  }

  // Innermost files first: a file's text is complete once the files it includes are in it.
  std::vector<FileID> Order(Inline.begin(), Inline.end());
  // Local FileIDs grow in the order files were entered: an includer's is always smaller.
  std::sort(Order.begin(), Order.end(), [](FileID A, FileID B) { return B < A; });
  for (FileID F : Order) {
    if (F == Main)
      continue;
    auto It = EnteredBy.find(F);
    if (It == EnteredBy.end())
      continue;
    const Inclusion &I = Inclusions[It->second];
    blankPragmaOnce(SM, Rewrite, F);
    std::string Text;
    if (const RewriteBuffer *B = Rewrite.getRewriteBufferFor(F))
      Text.assign(B->begin(), B->end());
    else
      Text = SM.getBufferData(F).str();
    if (!Text.empty() && Text.back() != '\n')
      Text += '\n';
    PresumedLoc Inside = SM.getPresumedLoc(SM.getLocForStartOfFile(F));
    PresumedLoc At = SM.getPresumedLoc(I.Hash);
    // Compilers treat macros, static functions and constants defined in the main file
    // differently from those in headers (-Wunused-macros, -Wunused-function,
    // -Wunused-const-variable warn about the main file's only): the inlined text keeps the
    // header's silence.
    std::string Replacement =
        PushHeaderDiagnostics + "#line 1 " +
        quoted(asCompilerNames(Inside.isValid() ? Inside.getFilename() : "")) + "\n" + Text +
        PopHeaderDiagnostics + "#line " + std::to_string(At.isValid() ? At.getLine() + 1 : 1) +
        " " + quoted(asCompilerNames(At.isValid() ? At.getFilename() : ""));
    Rewrite.ReplaceText(CharSourceRange::getCharRange(I.Hash, I.End), Replacement);
    if (OptionalFileEntryRef E = SM.getFileEntryRefForID(F))
      Paths.push_back(std::string(E->getName()));
  }
  std::sort(Paths.begin(), Paths.end());
  Paths.erase(std::unique(Paths.begin(), Paths.end()), Paths.end());

  if (const RewriteBuffer *B = Rewrite.getRewriteBufferFor(Main))
    return std::string(B->begin(), B->end());
  return SM.getBufferData(Main).str();
}

} // namespace sleuth::instrumenter
