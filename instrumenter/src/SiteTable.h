// The table of static sites of one translation unit, emitted into the rewritten file as
// `struct sleuth_site` records (see runtime/include/sleuth/runtime.h).
#pragma once

#include <set>
#include <string>
#include <vector>

namespace sleuth::instrumenter {

/// As sleuth_site_kind of the runtime's header.
enum class SiteKind : unsigned {
  Var = 0,
  Param = 1,
  Test = 2,
  Ret = 3,
  Assert = 4,
  Call = 5,
  Effect = 6
};

/// Site flag: the write also reads the old value (x += y, x++); SLEUTH_FLAG_COMPOUND.
inline constexpr unsigned CompoundWrite = 1;
/// Site flag: a test inside an expression whose value reads it; SLEUTH_FLAG_VALUE.
inline constexpr unsigned ValueTest = 2;
/// Site flag: its one controller always ran before it in its frame; its probes pass no control
/// and the runtime writes the edge for it if it ran; SLEUTH_FLAG_STATIC_CONTROL.
inline constexpr unsigned StaticControl = 4;
/// Site flag: a write whose probe runs before the store it records (++/-- whose old value is
/// used); SLEUTH_FLAG_BEFORE_STORE.
inline constexpr unsigned WriteBeforeStore = 8;

struct Site {
  SiteKind Kind;
  unsigned Flags = 0;
  unsigned Line = 0, Column = 0;
  unsigned Function = 0;
  std::string Name;
  std::vector<unsigned> Controllers; // local ids of test sites (static control dependences)
};

struct FunctionEntry {
  unsigned BeginLine = 0, EndLine = 0;
  std::string Name;
};

class SiteTable {
public:
  unsigned add(Site S) {
    Sites.push_back(std::move(S));
    return unsigned(Sites.size() - 1);
  }
  unsigned addFunction(FunctionEntry F) {
    Functions.push_back(std::move(F));
    return unsigned(Functions.size() - 1);
  }
  /// A pair of slots in the unit's read cache (`__sleuth_rc`), for one checked read.
  unsigned addReadSlot() { return ReadSlots++; }
  /// A static data edge (sleuth_tu::static_data): node `Site` reads what node `Origin` wrote
  /// whenever `Site` ran, or, with WitnessIsOrigin, whenever `Origin` ran. Each edge once.
  void addStaticData(unsigned Site, unsigned Origin, bool WitnessIsOrigin) {
    unsigned Encoded = Origin | (WitnessIsOrigin ? StaticWitnessIsOrigin : 0u);
    if (StaticDataSeen.insert({Site, Encoded}).second)
      StaticData.push_back({Site, Encoded});
  }
  size_t numStaticData() const { return StaticData.size(); }
  /// As SLEUTH_STATIC_WITNESS_ORIGIN of the runtime's header.
  static constexpr unsigned StaticWitnessIsOrigin = 0x80000000u;
  Site &operator[](unsigned Id) { return Sites[Id]; }
  size_t size() const { return Sites.size(); }
  size_t numFunctions() const { return Functions.size(); }

  /// The table declarations that go before the first line of the rewritten file (after
  /// `#include "sleuth/runtime.h"`). Source is the file's original text (its content hash goes
  /// into the unit); Suffix tells apart the names of several files' tables.
  std::string tables(const std::string &AbsolutePath, const std::string &Source,
                     const std::string &Suffix) const;

private:
  std::vector<Site> Sites;
  std::vector<FunctionEntry> Functions;
  unsigned ReadSlots = 0;
  std::vector<std::pair<unsigned, unsigned>> StaticData;
  std::set<std::pair<unsigned, unsigned>> StaticDataSeen;
};

/// A C string literal for S.
std::string cStringLiteral(const std::string &S);

} // namespace sleuth::instrumenter
