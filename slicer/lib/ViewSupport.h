// What the textual views share: how a node is referred to, and which
// dependences a line or node shows. Internal to the slicer.
#pragma once

#include "sleuth/slicer/dependences.h"

#include <map>
#include <string>
#include <vector>

namespace sleuth::detail {

using Node = DependenceGraph::Node;

/// Names nodes as the views print them: `name (line)` inside the function
/// being shown, `name (function:line)` from another function of the same
/// file, `name (file:line)` from another file; with `:column` after the line
/// when the slice holds another node of that name on that line.
class NodeNamer {
public:
  NodeNamer(const DependenceGraph &G, const Slice &S);

  /// N as seen from function Context.
  std::string ref(Node N, unsigned Context) const;
  /// Just the location part: `7`, `7:10`, `f:7`, `a.c:7:10`.
  std::string location(Node N, unsigned Context) const;
  /// The order of references in an annotation: file, line, column, name.
  bool before(Node A, Node B) const;

private:
  const DependenceGraph &G;
  std::vector<bool> NeedsColumn;
};

/// Short names of the source files of a slice's nodes, for views that name the file of each
/// block when the slice spans several: the shortest path suffix (in whole components) that no
/// other of them ends with (`a.c`, or `src/a.c` and `lib/a.c`).
class FileLabels {
public:
  FileLabels(const DependenceGraph &G, const Slice &S);
  /// True if the slice's nodes lie in more than one source file.
  bool several() const { return Several; }
  /// The label of file id File, which holds a node of the slice.
  const std::string &of(unsigned File) const { return Labels.at(File); }

private:
  std::map<unsigned, std::string> Labels;
  bool Several = false;
};

/// The other ends of the slice edges of a set of nodes, split by kind: the
/// origins for a backward slice, the dependents for a forward one.
struct Related {
  std::vector<Node> Data, Control;
  bool empty() const { return Data.empty() && Control.empty(); }
};

class SliceIndex {
public:
  SliceIndex(const DependenceGraph &G, const Slice &S);

  /// Merged, deduplicated and sorted as references are printed.
  Related relatedTo(const std::vector<Node> &Nodes) const;
  /// `<= a (1), b (2); <- <test> (3)`, or empty if nothing is related.
  std::string annotation(const std::vector<Node> &Nodes, unsigned Context) const;
  /// Functions holding slice nodes, ordered by file path, then first line.
  std::vector<unsigned> functions() const;
  /// Slice nodes of function F ordered by line, column, name.
  std::vector<Node> nodesOf(unsigned F) const;

  const NodeNamer &namer() const { return Namer; }

private:
  const DependenceGraph &G;
  const Slice &S;
  NodeNamer Namer;
  std::vector<std::vector<std::pair<Node, DependenceKind>>> Adjacent;
  std::map<unsigned, std::vector<Node>> ByFunction; ///< Each sorted.
};

/// Replaces bytes that are not valid UTF-8 by U+FFFD, for consumers
/// (Graphviz, JSON) that insist on UTF-8.
std::string validUtf8(std::string_view Text);

} // namespace sleuth::detail
