//===- FileSet.h - Several files reduced together ---------------*- C++ -*-===//
//
// `sleuth reduce TEST FILE...` reduces a set of files: a source and its
// headers, or several translation units. The test runner and its cache see
// one string per candidate, so a candidate set is encoded as a bundle (each
// file's length and bytes, in the order of the set's paths); the runner
// decodes it into the scratch directory, each file under its relative path.
//
// Cross-file transformations look at the whole set and propose SetChanges:
// edits in one or more files that are applied all together or not at all
// (inlining a header edits its includer and empties the header).
//
//===----------------------------------------------------------------------===//
#pragma once

#include "Edit.h"

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace sleuth::reducer {

/// The files of a multi-file reduction, by path relative to the base
/// directory ('/'-separated, normalized: no "." or ".." parts).
struct FileSet {
  std::vector<std::string> Paths;
  std::vector<std::string> Texts;
  /// Further directories searched for `#include "..."`, relative to the base.
  std::vector<std::string> IncludeDirs;
};

/// Texts as one string: for each text its decimal length, '\n', its bytes.
std::string encodeFiles(const std::vector<std::string> &Texts);
/// The inverse of encodeFiles; false if Bundle is not one.
bool decodeFiles(const std::string &Bundle, std::vector<std::string> &Texts);

/// One `#include "NAME"` directive: the bytes of its whole line (with the
/// newline) and the name between the quotes.
struct QuotedInclude {
  std::size_t Begin = 0, End = 0;
  std::string Name;
};
/// Every `#include "..."` line of Text, in order (angle-bracket includes are
/// not files of the set).
std::vector<QuotedInclude> quotedIncludes(const std::string &Text);

/// The index in Set of the file that `#include "Name"` in file From names,
/// looked up as a compiler does: beside the includer, then in the base
/// directory, then in Set.IncludeDirs. Set.Paths.size() if none of the set.
std::size_t resolveInclude(const FileSet &Set, std::size_t From, std::string_view Name);

/// One `#include "..."` in a file of the set (Includer) that names a file of
/// the set (Header).
struct Inclusion {
  std::size_t Includer = 0, Header = 0;
  QuotedInclude Line;
};
/// Every such include, by includer, in the order of its lines: the include
/// graph that the cross-file passes and includersFirst work from.
std::vector<Inclusion> inclusions(const FileSet &Set);

/// The indices of Set's files, each file before the files of the set it
/// includes (directly or not); otherwise in the set's order. A source's
/// passes then run while its headers are whole, as a preprocessed file's
/// main file goes before its headers: once the source is small, most of a
/// header goes in a few large chunks.
std::vector<std::size_t> includersFirst(const FileSet &Set);

/// A change in one file of a set.
struct FileEdit {
  std::size_t File = 0;
  Change Edit;
};
/// A change of a set of files, applied whole or not at all.
struct SetChange {
  std::vector<FileEdit> Parts;
};

/// Applies Changes to Texts in order, skipping a change any part of which
/// overlaps a part of one applied before it or falls outside its file.
std::vector<std::string> applySetChanges(const std::vector<std::string> &Texts,
                                         const std::vector<const SetChange *> &Changes);

/// A transformation of the whole set, as Transformation is one of a file.
class CrossFileTransformation {
public:
  virtual ~CrossFileTransformation();
  virtual const char *name() const = 0;
  virtual const char *description() const = 0;
  /// Appends every instance found in Set to Out.
  virtual void collect(const FileSet &Set, std::vector<SetChange> &Out) const = 0;
  /// Whether an instance joins files into one (a header into its includer).
  /// Such passes run after the passes of each file in a round: joined early,
  /// a header's text would be reduced as part of its includer, before the
  /// includer's own code is small enough to leave most of the header unused.
  virtual bool joinsFiles() const { return false; }
  /// Whether every instance makes the set smaller. Instances of a pass that
  /// only moves text are accepted with as many tokens too; moves go one way
  /// (out of a header, never into a file it includes), so they end.
  virtual bool shrinks() const { return true; }
};

/// All cross-file transformations in their default order.
const std::vector<const CrossFileTransformation *> &allCrossFileTransformations();
const CrossFileTransformation *findCrossFileTransformation(std::string_view Name);

} // namespace sleuth::reducer
