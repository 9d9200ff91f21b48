// The static description of one translation unit in coverage mode: counters, functions, CFG
// blocks and edges with their count formulas, conditions and executable lines. Emitted into the
// rewritten file as the tables of `struct sleuth_cov_unit` (runtime/include/sleuth/coverage.h).
#pragma once

#include <map>
#include <string>
#include <vector>

namespace sleuth::instrumenter {

/// A count expressed as a signed sum of counters: {counter -> coefficient}.
using CountFormula = std::map<unsigned, int>;

enum class EdgeKind : unsigned { Seq = 0, True = 1, False = 2, Case = 3 };

struct CoverageFunction {
  unsigned BeginLine = 0, EndLine = 0;
  unsigned Entry = 0, Exit = 0; // block ids
  std::string Name;
};

struct CoverageBlock {
  unsigned Function = 0;
  CountFormula Count;
  std::vector<unsigned> Lines; // sorted, unique
};

struct CoverageEdge {
  unsigned From = 0, To = 0;
  EdgeKind Kind = EdgeKind::Seq;
  CountFormula Count;
};

struct CoverageCondition {
  unsigned Block = 0;
  unsigned Line = 0, Column = 0, EndLine = 0, EndColumn = 0;
  CountFormula TrueCount, FalseCount; // its block's true and false out-edges
};

/// A value site: where an assignment or a return left a value, and what it is compared with
/// (Right is "0" or another scalar's name). Counter, Counter + 1 and Counter + 2 count the
/// outcomes "less", "equal" and "greater".
struct CoverageValue {
  unsigned Line = 0, Column = 0;
  std::string Left, Right;
  unsigned Counter = 0;
};

class CoverageTable {
public:
  unsigned newCounter() { return NumCounters++; }
  unsigned numCounters() const { return NumCounters; }

  std::vector<CoverageFunction> Functions;
  std::vector<CoverageBlock> Blocks;
  std::vector<CoverageEdge> Edges;
  std::vector<CoverageCondition> Conditions;
  std::vector<CoverageValue> Values;

  /// The table declarations that go before the first line of the rewritten file (after
  /// `#include "sleuth/coverage.h"`). Source is the file's original text (it goes into the
  /// source hash); Suffix tells apart the names of several files' tables.
  std::string tables(const std::string &AbsolutePath, const std::string &Source,
                     const std::string &Suffix) const;

private:
  unsigned NumCounters = 0;
};

/// The name of the counter array in rewritten files.
inline const std::string CounterArray = "__sleuth_cov";

} // namespace sleuth::instrumenter
