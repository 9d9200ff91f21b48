// Coverage mode for one function: builds Clang's CFG, places block and condition counters, and
// expresses every block's and edge's count as a formula over those counters.
#pragma once

#include "../Context.h"
#include "CoverageTable.h"

#include "clang/AST/Decl.h"

namespace sleuth::instrumenter {

class FunctionCoverage {
public:
  FunctionCoverage(Context &Ctx, CoverageTable &Table, const clang::FunctionDecl *Function,
                   std::string Name);

  /// Returns false if the function must be left as it was (then nothing was changed).
  bool run();
  /// Counter increments placed (for statistics).
  unsigned probes() const { return Probes; }

private:
  Context &Ctx;
  CoverageTable &Table;
  const clang::FunctionDecl *Function;
  std::string Name;
  unsigned Probes = 0;
};

} // namespace sleuth::instrumenter
