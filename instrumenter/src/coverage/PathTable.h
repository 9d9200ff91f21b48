// The site table of one translation unit's path recording: which statements ("sites") the
// rewritten functions report when they run, each described in the statement IR's text form
// (docs/path-format.md), so that the localizer can turn a failing run's steps into a trace
// formula without parsing the source again. Emitted as `struct sleuth_path_unit`
// (runtime/include/sleuth/path.h).
#pragma once

#include <string>
#include <vector>

namespace sleuth::instrumenter {

class PathTable {
public:
  /// Reserves Count consecutive site ids; returns the first.
  unsigned newSites(unsigned Count) {
    unsigned First = NumSites;
    NumSites += Count;
    return First;
  }
  unsigned numSites() const { return NumSites; }
  bool empty() const { return Lines.empty(); }
  /// One line of the table (without its newline).
  void add(std::string Line) { Lines.push_back(std::move(Line)); }

  /// The declarations that go before the rewritten file's first line: the table's text, the
  /// unit and its constructor. Hash is the coverage table's source hash.
  std::string tables(const std::string &AbsolutePath, const std::string &Hash,
                     const std::string &Suffix) const;

private:
  std::vector<std::string> Lines;
  unsigned NumSites = 0;
};

/// The unit's name in rewritten files.
inline const std::string PathUnit = "__sleuth_path_unit";

} // namespace sleuth::instrumenter
