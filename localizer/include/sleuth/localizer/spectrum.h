// Spectra: what each test of a suite executed, over one program model merged
// from the tests' coverage files (and, where they exist, dependence files).
#pragma once

#include "sleuth/localizer/coverage.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

namespace sleuth {
class DependenceGraph;
}

namespace sleuth::localizer {

struct Spectrum;

/// The static structure of the code the suite ran: the union of the sources
/// named by all coverage files, each source matched by path and build hash.
class Program {
public:
  struct Source {
    std::string Path, Hash;
    std::string Origin; ///< The coverage file that introduced it (for messages).
    std::vector<unsigned> Functions;
    bool Covered = false; ///< Its structure came from a coverage file.
    /// One version of a file instrumented under different macros (a file compiled on its own
    /// and #included elsewhere) has several CFGs: each variant's structure signature and
    /// its functions. Lines are shared by all variants.
    std::vector<std::pair<std::string, std::vector<unsigned>>> Variants;
    /// Hash is the file's content hash (CoverageFile::Source::ContentHash).
    bool ContentHash = false;
  };
  struct Function {
    unsigned Source = 0;
    unsigned Begin = 0, End = 0;
    unsigned Entry = 0, Exit = 0; ///< Block ids.
    std::string Name;
    std::vector<unsigned> Blocks;
  };
  struct Block {
    unsigned Function = 0;
    std::vector<unsigned> Lines;   ///< Source lines (of the function's source).
    std::vector<unsigned> In, Out; ///< Edge ids.
  };
  struct Edge {
    unsigned From = 0, To = 0;
    EdgeKind Kind = EdgeKind::Seq;
  };
  struct Condition {
    unsigned Block = 0;
    unsigned Line = 0, Column = 0, EndLine = 0, EndColumn = 0;
  };
  struct Line {
    unsigned Source = 0, Number = 0;
  };
  /// A value predicate site (CoverageFile::Value): Left compared with Right at Line:Column.
  struct Value {
    unsigned Source = 0, Line = 0, Column = 0;
    std::string Left, Right;
  };
  /// A dependence seen in some run: `To <= From` (data) or `To <- From` (control).
  struct Dependence {
    bool Control = false;
    unsigned Source = 0;
    unsigned Line = 0; ///< Line of the dependent node.
    std::string Name;  ///< The dependent node as the slicer shows it.
    std::string FromPath;
    unsigned FromLine = 0;
    std::string FromName;
    std::string Function;
  };

  const std::vector<Source> &sources() const { return Sources; }
  const std::vector<Function> &functions() const { return Functions; }
  const std::vector<Block> &blocks() const { return Blocks; }
  const std::vector<Edge> &edges() const { return Edges; }
  const std::vector<Condition> &conditions() const { return Conditions; }
  const std::vector<Line> &lines() const { return Lines; }
  const std::vector<Value> &values() const { return Values; }
  const std::vector<Dependence> &dependences() const { return Dependences; }

  std::optional<unsigned> lineId(unsigned Source, unsigned Number) const;
  std::optional<unsigned> sourceId(std::string_view Path) const;
  /// The source of a block, a condition or an edge.
  unsigned sourceOfBlock(unsigned B) const { return Functions[Blocks[B].Function].Source; }

  /// Adds the static structure of Cov (new sources) and its counts to Into.
  /// Fails, with one line in Error naming both files, when a source was built
  /// differently (another hash) than in the coverage files merged before.
  bool merge(const CoverageFile &Cov, std::string_view CovName, Spectrum &Into, std::string &Error);
  /// Adds the dependences of a run recorded in a dependence file to Into.
  /// Dependences of sources without coverage are added as new sources
  /// (hash "-").
  void mergeDependences(const DependenceGraph &G, Spectrum &Into);

private:
  unsigned addSource(const std::string &Path, const std::string &Hash, std::string_view Origin);

  std::vector<Source> Sources;
  std::vector<Function> Functions;
  std::vector<Block> Blocks;
  std::vector<Edge> Edges;
  std::vector<Condition> Conditions;
  std::vector<Line> Lines;
  std::vector<Value> Values;
  std::vector<Dependence> Dependences;
  std::map<std::string, unsigned, std::less<>> SourceByPath;
  std::map<std::tuple<unsigned, unsigned, EdgeKind>, unsigned> EdgeByBlocks;
  std::map<std::tuple<unsigned, unsigned, unsigned>, unsigned> ConditionByPlace;
  std::map<std::pair<unsigned, unsigned>, unsigned> LineByPlace;
  std::map<std::tuple<unsigned, unsigned, unsigned, std::string, std::string>, unsigned>
      ValueByPlace;
  std::map<std::string, unsigned> DependenceByKey;
};

/// What one test executed; counts are indexed by the Program's ids, and a
/// vector shorter than the table means zero for the rest.
struct Spectrum {
  std::vector<uint64_t> Blocks, Edges, True, False, Lines, Dependences;
  /// Three per value site: how often its value was less than, equal to, greater than the other.
  std::vector<uint64_t> Values;
  std::vector<RunStatus> Processes; ///< One per coverage file merged.

  static uint64_t at(const std::vector<uint64_t> &Counts, unsigned Id) {
    return Id < Counts.size() ? Counts[Id] : 0;
  }
  static void add(std::vector<uint64_t> &Counts, unsigned Id, uint64_t N) {
    if (Id >= Counts.size())
      Counts.resize(Id + 1, 0);
    Counts[Id] += N;
  }
};

/// Kinds of events a spectrum is made of (the Debugging Book's "events").
enum class EventKind {
  Line,       ///< a source line was executed
  Branch,     ///< a condition evaluated true / false (Id = 2 * condition + (false ? 1 : 0))
  Edge,       ///< a CFG edge was taken
  Dependence, ///< a data or control dependence occurred
  Value       ///< a value predicate held (Id = 3 * value site + 0 for <, 1 for ==, 2 for >)
};

struct Event {
  EventKind Kind = EventKind::Line;
  unsigned Id = 0;
  friend auto operator<=>(const Event &, const Event &) = default;
};

/// "line", "branch", "edge", "dependence", "value".
std::string_view eventKindName(EventKind Kind);

/// How often the event occurred in the run (0: not at all).
uint64_t eventCount(const Spectrum &S, Event E);
/// How often the run reached the place where the event could occur: for a value predicate, its
/// site, and for a branch, its condition (whatever the outcome); for other events, eventCount.
uint64_t observationCount(const Spectrum &S, Event E);

/// Every event of the given kind the program model knows.
std::vector<Event> allEvents(const Program &P, EventKind Kind);

/// Where an event is shown: its source and line.
struct Place {
  unsigned Source = 0;
  unsigned Line = 0;
  unsigned Column = 0;
};
Place placeOf(const Program &P, Event E);

/// A short description beyond the place: `branch` -> "`c == '<'` true" (the
/// condition's text is taken from SourceLines, the lines of each source, when
/// given), `edge` -> "line 12 -> line 14 (true)", `dependence` -> "out <= c (11)",
/// `value` -> "m < 0", "m == y", "return value > 0".
std::string describeEvent(const Program &P, Event E,
                          const std::vector<std::vector<std::string>> *SourceLines = nullptr);

} // namespace sleuth::localizer
