// One coverage file (`*.cov`, docs/coverage-format.md) as written by a program
// built in coverage mode: plain records, ids as in the file.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace sleuth::localizer {

/// How a run ended, as the `status` record says.
struct RunStatus {
  enum Kind { Exit, Signal, Running } How = Exit;
  unsigned Code = 0; ///< Exit status or signal number.
  friend bool operator==(const RunStatus &, const RunStatus &) = default;
};

enum class EdgeKind { Seq, True, False, Case };

/// "seq", "true", "false", "case".
std::string_view edgeKindName(EdgeKind Kind);

struct CoverageFile {
  struct Source {
    std::string Hash; ///< 16 hex digits: the instrumented build of the file.
    std::string Path; ///< Absolute path of the original source.
    /// Hash is the file's content hash (sleuth/slicer/source_hash.h), as in format version 2;
    /// version 1 hashed the path with the text.
    bool ContentHash = true;
  };
  struct Function {
    unsigned File = 0;
    unsigned Begin = 0, End = 0;
    unsigned Entry = 0, Exit = 0; ///< Block ids.
    std::string Name;
  };
  struct Block {
    unsigned Function = 0;
    uint64_t Count = 0;
    std::vector<unsigned> Lines; ///< Lines its statements start on.
  };
  struct Edge {
    unsigned From = 0, To = 0;
    EdgeKind Kind = EdgeKind::Seq;
    uint64_t Count = 0;
  };
  struct Condition {
    unsigned Block = 0;
    unsigned Line = 0, Column = 0, EndLine = 0, EndColumn = 0;
    uint64_t True = 0, False = 0;
  };
  struct Line {
    unsigned File = 0, Number = 0;
    uint64_t Count = 0;
  };

  /// A value predicate site (format version 3): how often the value assigned or returned at
  /// LINE:COLUMN compared as less than, equal to and greater than Right ("0" or another
  /// variable). Left is the variable, or "return".
  struct Value {
    unsigned File = 0, Line = 0, Column = 0;
    std::string Left, Right;
    uint64_t Counts[3] = {0, 0, 0};
  };

  std::string Program;
  RunStatus Status;
  std::vector<Source> Files;
  std::vector<Function> Functions;
  std::vector<Block> Blocks;
  std::vector<Edge> Edges;
  std::vector<Condition> Conditions;
  std::vector<Line> Lines;
  std::vector<Value> Values;

  /// Reads and validates a coverage file. On failure returns nullopt and sets
  /// Error to one line, `PATH:LINE: what is wrong`.
  static std::optional<CoverageFile> load(const std::string &Path, std::string &Error);
  /// As load(), for text in memory; FileName is used in messages.
  static std::optional<CoverageFile> parse(std::string_view Text, std::string_view FileName,
                                           std::string &Error);
  /// The file in the format load() reads: version 3 with values, else 2, or 1 when a source's
  /// hash is of version 1 (which has no values).
  std::string write() const;
};

/// Escapes space, `%`, tab, CR and LF as the file formats do (`%20`, ...).
std::string escapeField(std::string_view Text);

} // namespace sleuth::localizer
