// The probes of small loops take the always-inlined twins of the runtime header's local fast
// paths (`sleuth_getc_hot`, `sleuth::rdc_hot`, ...). Everywhere else a probe calls the file's
// one out-of-line copy: inlined at every probe, those paths make compiles several times
// slower, yet a call per probe is most of what a tight loop costs (zlib's longest_match
// compares two bytes per iteration and spends three quarters of its time in its probes'
// calls).
#pragma once

#include "Context.h"

#include "clang/AST/Stmt.h"

#include <cstddef>
#include <string>

namespace sleuth::instrumenter {

class HotLoops {
public:
  /// A loop with more edits than this (its nested loops' included) keeps the calls but for the
  /// loops inside it: a large body is rarely all hot, and each inlined probe costs compile time.
  static constexpr size_t MaxEditsPerLoop = 128;

  /// Renames the fast-path probes in the edits from FirstEdit on that lie in a loop of S with at
  /// most MaxEditsPerLoop of them (the outermost such loop; lambdas apart) to their inlined twins.
  static void inlineProbes(const clang::Stmt *S, size_t FirstEdit, Context &Ctx);

  /// Text with every call of a local fast path (`sleuth_getc(`, `sleuth::wrote(`, ...) renamed
  /// to its inlined twin.
  static std::string inlined(std::string Text);
};

} // namespace sleuth::instrumenter
