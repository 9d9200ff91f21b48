//===- CrossFile.cpp - Transformations across the files of a set ----------===//
//
// The passes of one file cannot remove a file, or move a header's text to
// the one place that needs it; these can. Each proposes SetChanges on the
// whole set, and the driver picks which to apply as it does for one file.
//
//===----------------------------------------------------------------------===//
#include "FileSet.h"
#include "Transformation.h"

#include <memory>

namespace sleuth::reducer {

CrossFileTransformation::~CrossFileTransformation() = default;

namespace {

/// Empties a file, keeping it (an #include of it still finds it): a header
/// or translation unit the failure does not need goes in one test.
class EmptyFile : public CrossFileTransformation {
public:
  const char *name() const override { return "empty-file"; }
  const char *description() const override { return "empty a whole file (it stays, with no text)"; }
  void collect(const FileSet &Set, std::vector<SetChange> &Out) const override {
    for (std::size_t F = 0; F < Set.Texts.size(); ++F)
      if (!Set.Texts[F].empty())
        Out.push_back({{{F, replaceRange(0, Set.Texts[F].size())}}});
  }
};

/// The includes of each file of the set: per file H, the files of the set
/// that include it and the include lines that do.
std::vector<std::vector<std::pair<std::size_t, QuotedInclude>>> includersOf(const FileSet &Set) {
  std::vector<std::vector<std::pair<std::size_t, QuotedInclude>>> Includers(Set.Texts.size());
  for (Inclusion &I : inclusions(Set))
    Includers[I.Header].emplace_back(I.Includer, std::move(I.Line));
  return Includers;
}

/// Removes one `#include "..."` line: the files that the failure needs stay
/// included, the others stop costing each test a parse. Where the line is the
/// only include of a file of the set, a first instance also empties that
/// file, which then has no use left: the include and what only it needed go
/// in one test.
class RemoveInclude : public CrossFileTransformation {
public:
  const char *name() const override { return "remove-include"; }
  const char *description() const override {
    return "remove one #include \"...\" line (and the file if it had no other includer)";
  }
  void collect(const FileSet &Set, std::vector<SetChange> &Out) const override {
    auto Includers = includersOf(Set);
    for (std::size_t F = 0; F < Set.Texts.size(); ++F)
      for (const QuotedInclude &I : quotedIncludes(Set.Texts[F])) {
        std::size_t H = resolveInclude(Set, F, I.Name);
        if (H < Set.Texts.size() && H != F && Includers[H].size() == 1 && !Set.Texts[H].empty())
          Out.push_back(
              {{{F, replaceRange(I.Begin, I.End)}, {H, replaceRange(0, Set.Texts[H].size())}}});
        Out.push_back({{{F, replaceRange(I.Begin, I.End)}}});
      }
  }
};

/// Moves one top-level declaration of a header (a piece as lexical-decls
/// splits the file) to just after the `#include` of that header in one of
/// its includers: a declaration that only that includer uses then sits
/// beside its use, and a header that is shared, so that inline-header cannot
/// move it whole, can still empty one declaration at a time.
class MoveDeclaration : public CrossFileTransformation {
public:
  const char *name() const override { return "move-decl"; }
  const char *description() const override {
    return "move a header's top-level declaration to after its #include in one includer";
  }
  bool joinsFiles() const override { return true; }
  bool shrinks() const override { return false; }
  void collect(const FileSet &Set, std::vector<SetChange> &Out) const override {
    static const Transformation *Pieces = findTransformation("lexical-decls");
    auto Includers = includersOf(Set);
    std::vector<std::vector<std::size_t>> Includes(Set.Texts.size());
    for (std::size_t H = 0; H < Set.Texts.size(); ++H)
      for (const auto &[F, Line] : Includers[H])
        Includes[F].push_back(H);
    for (std::size_t H = 0; H < Set.Texts.size(); ++H) {
      if (Set.Texts[H].empty() || Includers[H].empty())
        continue;
      const std::string &Header = Set.Texts[H];
      LanguageOptions Lang;
      Lang.CPlusPlus = !Set.Paths[H].ends_with(".c");
      std::vector<Change> Decls = collectInstances(*Pieces, Header, Lang);
      for (const auto &[F, Line] : Includers[H]) {
        // Into a file the header includes, a declaration could move back.
        if (F == H || reaches(Includes, H, F))
          continue;
        bool Unended = Line.End == Set.Texts[F].size() && Set.Texts[F].back() != '\n';
        for (const Change &D : Decls) {
          const Edit &E = D.Edits.front();
          // The declaration takes its line break along; the tokens stay as many, which is what
          // a move must keep (its bytes may differ by a line break).
          std::size_t End = E.Offset + E.Length;
          if (End < Header.size() && Header[End] == '\n')
            ++End;
          std::string Piece = Header.substr(E.Offset, E.Length);
          std::string Text = Unended ? "\n" + Piece : Piece + "\n";
          // Pieces inserted at one offset keep their order in the header.
          Out.push_back({{{H, replaceRange(E.Offset, End)},
                          {F, replaceRange(Line.End, Line.End, std::move(Text))}}});
        }
      }
    }
  }

private:
  /// Whether file From includes file To, directly or not (Includes: the
  /// files each file includes).
  static bool reaches(const std::vector<std::vector<std::size_t>> &Includes, std::size_t From,
                      std::size_t To) {
    std::vector<char> Seen(Includes.size(), 0);
    std::vector<std::size_t> Work = {From};
    while (!Work.empty()) {
      std::size_t F = Work.back();
      Work.pop_back();
      for (std::size_t G : Includes[F]) {
        if (G == To)
          return true;
        if (!Seen[G]) {
          Seen[G] = 1;
          Work.push_back(G);
        }
      }
    }
    return false;
  }
};

/// Replaces the only `#include "h"` of a file of the set by h's text and
/// empties h: the declarations then sit beside their one user, where the
/// passes of one file can remove what that user does not need.
class InlineHeader : public CrossFileTransformation {
public:
  const char *name() const override { return "inline-header"; }
  const char *description() const override {
    return "replace the only #include of a file of the set by its text";
  }
  bool joinsFiles() const override { return true; }
  void collect(const FileSet &Set, std::vector<SetChange> &Out) const override {
    const std::size_t N = Set.Texts.size();
    auto Includers = includersOf(Set);
    for (std::size_t H = 0; H < N; ++H) {
      // An empty header is remove-include's; a header included twice (or by
      // itself) cannot move to one place.
      if (Set.Texts[H].empty() || Includers[H].size() != 1 || Includers[H][0].first == H)
        continue;
      auto &[From, Line] = Includers[H][0];
      std::string Text = Set.Texts[H];
      if (Text.back() != '\n')
        Text += '\n';
      Out.push_back({{{From, replaceRange(Line.Begin, Line.End, std::move(Text))},
                      {H, replaceRange(0, Set.Texts[H].size())}}});
    }
  }
};

} // namespace

const std::vector<const CrossFileTransformation *> &allCrossFileTransformations() {
  static const std::vector<std::unique_ptr<CrossFileTransformation>> Owned = [] {
    std::vector<std::unique_ptr<CrossFileTransformation>> L;
    L.push_back(std::make_unique<EmptyFile>());
    L.push_back(std::make_unique<InlineHeader>());
    L.push_back(std::make_unique<RemoveInclude>());
    L.push_back(std::make_unique<MoveDeclaration>());
    return L;
  }();
  static const std::vector<const CrossFileTransformation *> All = [] {
    std::vector<const CrossFileTransformation *> L;
    for (const auto &T : Owned)
      L.push_back(T.get());
    return L;
  }();
  return All;
}

const CrossFileTransformation *findCrossFileTransformation(std::string_view Name) {
  for (const CrossFileTransformation *T : allCrossFileTransformations())
    if (Name == T->name())
      return T;
  return nullptr;
}

} // namespace sleuth::reducer
