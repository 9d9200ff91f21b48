//===- CrossFile.cpp - Transformations across the files of a set ----------===//
//
// The passes of one file cannot remove a file, or move a header's text to
// the one place that needs it; these can. Each proposes SetChanges on the
// whole set, and the driver picks which to apply as it does for one file.
//
//===----------------------------------------------------------------------===//
#include "FileSet.h"

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

/// Removes one `#include "..."` line, and nothing else: the files that the
/// failure needs stay included, the others stop costing each test a parse.
class RemoveInclude : public CrossFileTransformation {
public:
  const char *name() const override { return "remove-include"; }
  const char *description() const override { return "remove one #include \"...\" line"; }
  void collect(const FileSet &Set, std::vector<SetChange> &Out) const override {
    for (std::size_t F = 0; F < Set.Texts.size(); ++F)
      for (const QuotedInclude &I : quotedIncludes(Set.Texts[F]))
        Out.push_back({{{F, replaceRange(I.Begin, I.End)}}});
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
    // Per file of the set: the include lines that name it.
    std::vector<std::vector<std::pair<std::size_t, QuotedInclude>>> Includers(N);
    for (std::size_t F = 0; F < N; ++F)
      for (QuotedInclude &I : quotedIncludes(Set.Texts[F])) {
        std::size_t H = resolveInclude(Set, F, I.Name);
        if (H < N)
          Includers[H].emplace_back(F, std::move(I));
      }
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
