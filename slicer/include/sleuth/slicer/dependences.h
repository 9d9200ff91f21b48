// The dependence graph of one run, read from a dependence file
// (docs/dependence-format.md), and the slices taken from it. Presentation lives
// in views.h.
#pragma once

#include <boost/graph/adjacency_list.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sleuth {

/// Effect: a call into the uninstrumented library whose value the program discards
/// (`printf(...);`, `free(p);`), which depends on what its arguments read.
enum class SiteKind { Var, Param, Test, Ret, Assert, Effect };
enum class DependenceKind { Data, Control };

/// The spelling used in the dependence file and in JSON: "var", "param", ...
std::string_view siteKindName(SiteKind Kind);

struct SourceFile {
  std::string Path; ///< Absolute path of the original source.
  /// Its content hash when the program was built (sleuth/slicer/source_hash.h); empty in files
  /// of format version 1, which have none.
  std::string Hash;
};

struct Function {
  unsigned File = 0;
  unsigned Begin = 0, End = 0; ///< Lines of the definition.
  std::string Name;            ///< Possibly qualified: `ns::Cls::f`.
};

/// A node: one static location; all its executions are merged.
struct Site {
  SiteKind Kind = SiteKind::Var;
  unsigned Function = 0;
  unsigned Line = 0, Column = 0;
  std::string Name; ///< As shown: `x`, `a[i]`, `<test>`, `<f() return value>`.
  uint64_t Hits = 0;
  bool executed() const { return Hits != 0; }
};

struct Dependence {
  DependenceKind Kind = DependenceKind::Data;
};

struct RunStatus {
  bool Signaled = false; ///< Killed by signal Code rather than exiting with Code.
  unsigned Code = 0;
  bool Running = false; ///< Flushed by the program while it ran (no Code).
};

class DependenceGraph {
public:
  /// Edges point in the direction of influence, origin -> dependent, so a
  /// backward slice follows in-edges and a forward slice out-edges.
  using Graph =
      boost::adjacency_list<boost::vecS, boost::vecS, boost::bidirectionalS, Site, Dependence>;
  /// Equal to the site id of the dependence file.
  using Node = Graph::vertex_descriptor;

  /// Reads and validates a dependence file. On failure returns nullopt and
  /// sets Error to one line, `PATH:LINE: what is wrong` (without a prefix).
  static std::optional<DependenceGraph> load(const std::string &Path, std::string &Error);
  /// As load(), for text already in memory; FileName is used in messages.
  static std::optional<DependenceGraph> parse(std::string_view Text, std::string_view FileName,
                                              std::string &Error);

  const Graph &graph() const { return G; }
  std::size_t size() const { return boost::num_vertices(G); }
  const Site &site(Node N) const { return G[N]; }
  const std::vector<SourceFile> &files() const { return Files; }
  const std::vector<Function> &functions() const { return Functions; }
  const Function &functionOf(Node N) const { return Functions[G[N].Function]; }
  const SourceFile &fileOf(Node N) const { return Files[functionOf(N).File]; }
  const std::string &program() const { return Program; }
  RunStatus status() const { return Status; }
  /// The node thread Thread created last (0 = main thread), if recorded.
  std::optional<Node> last(unsigned Thread = 0) const;

private:
  friend class DependenceParser;
  Graph G;
  std::vector<SourceFile> Files;
  std::vector<Function> Functions;
  std::string Program;
  RunStatus Status;
  std::vector<std::pair<unsigned, Node>> Last;
};

struct SliceOptions {
  bool Forward = false;          ///< What the criterion influenced.
  std::optional<unsigned> Depth; ///< At most this many edges from a criterion.
  bool Data = true;              ///< Follow data dependences.
  bool Control = true;           ///< Follow control dependences.
};

struct SliceEdge {
  DependenceGraph::Node From, To; ///< From is the origin, To the dependent.
  DependenceKind Kind;
  friend bool operator==(const SliceEdge &, const SliceEdge &) = default;
};

/// A set of nodes and the followed edges between them.
struct Slice {
  std::vector<DependenceGraph::Node> Nodes;    ///< Sorted.
  std::vector<SliceEdge> Edges;                ///< Sorted by (From, To, Kind).
  std::vector<DependenceGraph::Node> Criteria; ///< Sorted; empty: whole graph.
  std::string Criterion;                       ///< As the user wrote it; empty: whole graph.
  bool Forward = false;
  std::vector<bool> Member; ///< Indexed by node.

  bool contains(DependenceGraph::Node N) const { return N < Member.size() && Member[N]; }
};

/// The nodes reachable from Criteria against (backward) or along (forward)
/// the edges Opts selects.
Slice computeSlice(const DependenceGraph &G, std::vector<DependenceGraph::Node> Criteria,
                   const SliceOptions &Opts);

/// Every executed node and the selected edges between them (no criterion).
Slice wholeGraph(const DependenceGraph &G, const SliceOptions &Opts);

/// Resolves `FILE:LINE[:VAR]`, `FUNCTION:return`, `VAR@FUNCTION[:LINE]`,
/// `crash` or `last` to nodes. On failure returns nullopt and sets Error to
/// one line naming the criterion and what was close.
std::optional<std::vector<DependenceGraph::Node>>
resolveCriterion(const DependenceGraph &G, std::string_view Criterion, std::string &Error);

} // namespace sleuth
