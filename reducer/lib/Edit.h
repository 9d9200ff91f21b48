//===- Edit.h - Text changes proposed by reduction passes -------*- C++ -*-===//
//
// Every pass, textual or AST-based, proposes its reductions as Changes: sets
// of byte-range replacements on the text it looked at. The driver picks which
// changes to apply; a change that overlaps one applied before it is skipped,
// so alternatives for the same node (then-branch or else-branch) and nested
// proposals (a class and one of its members) can share one list.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace sleuth::reducer {

struct Edit {
  std::size_t Offset = 0;
  std::size_t Length = 0;
  std::string Text; ///< Replacement for [Offset, Offset + Length).
};

struct Change {
  std::vector<Edit> Edits;
  /// Bytes this change removes; used to try large reductions first.
  std::size_t weight() const;
};

/// Applies the given changes to Base in order, skipping any change that
/// overlaps an already applied one or falls outside Base.
std::string applyChanges(const std::string &Base, const std::vector<const Change *> &Changes);

/// Convenience: a change replacing one range.
Change replaceRange(std::size_t Begin, std::size_t End, std::string Text = {});

/// Drops exact duplicates, keeping the first occurrence.
void dedupeChanges(std::vector<Change> &Changes);

} // namespace sleuth::reducer
