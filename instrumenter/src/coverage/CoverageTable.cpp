#include "CoverageTable.h"

#include "../SiteTable.h"

#include "sleuth/slicer/source_hash.h"

#include <cstdio>
#include <map>

namespace sleuth::instrumenter {
namespace {

/// Appends `N, v1, ..., vN` to Pool and returns where it starts.
template <class Range> unsigned addList(std::vector<unsigned> &Pool, const Range &Values) {
  unsigned At = unsigned(Pool.size());
  Pool.push_back(unsigned(Values.size()));
  Pool.insert(Pool.end(), Values.begin(), Values.end());
  return At;
}

unsigned addFormula(std::vector<unsigned> &Pool, const CountFormula &F) {
  std::vector<unsigned> Terms;
  for (auto [Counter, Coefficient] : F) {
    // Coefficients are ±1 in practice; larger ones repeat the term.
    for (int I = 0; I < (Coefficient < 0 ? -Coefficient : Coefficient); ++I)
      Terms.push_back(2 * Counter + (Coefficient < 0 ? 1 : 0));
  }
  return addList(Pool, Terms);
}

std::string array(const char *Type, const std::string &Name, const std::vector<unsigned> &Values) {
  std::string Out = std::string("static const ") + Type + " " + Name + "[] = {";
  for (size_t I = 0; I < Values.size(); ++I) {
    Out += std::to_string(Values[I]);
    Out += (I + 1) % 24 == 0 ? ",\n  " : ", ";
  }
  return Out + "0};\n"; // C forbids empty initializer lists
}

} // namespace

std::string CoverageTable::tables(const std::string &AbsolutePath, const std::string &Source,
                                  const std::string &Suffix) const {
  std::vector<unsigned> Pool, Funcs, BlockTable, EdgeTable, CondTable, LineTable;
  for (const CoverageFunction &F : Functions)
    Funcs.insert(Funcs.end(), {F.BeginLine, F.EndLine, F.Entry, F.Exit});
  std::map<unsigned, std::vector<unsigned>> BlocksOfLine;
  for (size_t B = 0; B < Blocks.size(); ++B) {
    const CoverageBlock &Block = Blocks[B];
    unsigned Formula = addFormula(Pool, Block.Count);
    BlockTable.insert(BlockTable.end(), {Block.Function, Formula, addList(Pool, Block.Lines)});
    for (unsigned L : Block.Lines)
      BlocksOfLine[L].push_back(unsigned(B));
  }
  for (const CoverageEdge &E : Edges)
    EdgeTable.insert(EdgeTable.end(), {E.From, E.To, unsigned(E.Kind), addFormula(Pool, E.Count)});
  for (const CoverageCondition &C : Conditions)
    CondTable.insert(CondTable.end(),
                     {C.Block, C.Line, C.Column, C.EndLine, C.EndColumn,
                      addFormula(Pool, C.TrueCount), addFormula(Pool, C.FalseCount)});
  for (auto &[Line, Blocks] : BlocksOfLine)
    LineTable.insert(LineTable.end(), {Line, addList(Pool, Blocks)});

  std::vector<unsigned> ValueTable;
  std::vector<std::string> Names;
  std::map<std::string, unsigned> NameIds;
  auto NameId = [&](const std::string &Name) {
    auto [It, New] = NameIds.try_emplace(Name, unsigned(Names.size()));
    if (New)
      Names.push_back(Name);
    return It->second;
  };
  for (const CoverageValue &V : Values)
    ValueTable.insert(ValueTable.end(),
                      {V.Line, V.Column, NameId(V.Left), NameId(V.Right), V.Counter});

  const std::string Counters = CounterArray + Suffix;
  std::string Tables;
  Tables += "static unsigned long " + Counters + "[" +
            std::to_string(NumCounters ? NumCounters : 1) + "];\n";
  Tables += "static const char *const __sleuth_cov_names" + Suffix + "[] = {";
  for (const CoverageFunction &F : Functions)
    Tables += cStringLiteral(F.Name) + ", ";
  Tables += "SLEUTH_COV_NULL};\n";
  Tables += array("unsigned", "__sleuth_cov_funcs" + Suffix, Funcs);
  Tables += array("unsigned", "__sleuth_cov_blocks" + Suffix, BlockTable);
  Tables += array("unsigned", "__sleuth_cov_edges" + Suffix, EdgeTable);
  Tables += array("unsigned", "__sleuth_cov_conds" + Suffix, CondTable);
  Tables += array("unsigned", "__sleuth_cov_lines" + Suffix, LineTable);
  Tables += array("unsigned", "__sleuth_cov_pool" + Suffix, Pool);
  Tables += array("unsigned", "__sleuth_cov_values" + Suffix, ValueTable);
  Tables += "static const char *const __sleuth_cov_value_names" + Suffix + "[] = {";
  for (const std::string &Name : Names)
    Tables += cStringLiteral(Name) + ", ";
  Tables += "SLEUTH_COV_NULL};\n";

  // The source's content hash: spectra of different versions of a file must not be merged, and
  // the localizer's views warn when the file changed after the run. One version instrumented
  // under different macros (cJSON.c in its library and included by cjson's tests, where
  // <math.h> defines isnan otherwise) is told apart by the localizer from its structure.
  const std::string Hash = sourceHash(Source);

  std::string Out = Tables;
  Out += "static struct sleuth_cov_unit __sleuth_cov_unit" + Suffix + " = {" +
         cStringLiteral(AbsolutePath) + ", \"" + Hash + "\", " + Counters + ", " +
         std::to_string(NumCounters) + "u, __sleuth_cov_names" + Suffix + ", __sleuth_cov_funcs" +
         Suffix + ", " + std::to_string(Functions.size()) + "u, __sleuth_cov_blocks" + Suffix +
         ", " + std::to_string(Blocks.size()) + "u, __sleuth_cov_edges" + Suffix + ", " +
         std::to_string(Edges.size()) + "u, __sleuth_cov_conds" + Suffix + ", " +
         std::to_string(Conditions.size()) + "u, __sleuth_cov_lines" + Suffix + ", " +
         std::to_string(LineTable.size() / 2) + "u, __sleuth_cov_pool" + Suffix +
         ", __sleuth_cov_values" + Suffix + ", " + std::to_string(Values.size()) +
         "u, __sleuth_cov_value_names" + Suffix + ", SLEUTH_COV_NULL};\n";
  // A constructor registers the unit even if none of its code runs: its lines still count as
  // executable (with count 0).
  Out += "static void __sleuth_cov_init" + Suffix + "(void) __attribute__((constructor));\n";
  Out += "static void __sleuth_cov_init" + Suffix +
         "(void) { sleuth_cov_register(&__sleuth_cov_unit" + Suffix + "); }\n";
  return Out;
}

} // namespace sleuth::instrumenter
