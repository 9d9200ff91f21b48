// The fixture of the RewriteTest suite: rewrites with static reads off unless a test turns them
// on, the last rewrite's counts, and where a local's reads go (a companion or the shadow memory).
#pragma once

#include "RewriteFixture.h"

#include <gtest/gtest.h>
#include <regex>
#include <string>
#include <vector>

namespace sleuth {

class RewriteTest : public RewriteFixture {
protected:
  std::string rewrite(const std::string &Name, const std::string &Source,
                      std::vector<std::string> Args = {}) {
    InstrumentResult Result =
        instrumentSource(Name, Source, std::move(Args),
                         [this](InstrumentRequest &R) { R.StaticReads = StaticReads; });
    EXPECT_TRUE(Result.Ok) << Result.Error;
    LastProbes = Result.Probes;
    LastSkipped = Result.SkippedBy;
    return Result.Text;
  }

  /// The prefix of a read checked against node site N (any N if N is empty) with its cache
  /// (in an innermost loop, the probe's inlined twin: HotLoops).
  static std::string checked(const std::string &Probe, const std::string &N = "[0-9]+") {
    return Probe + "(?:_hot)?\\(&__sleuth_tu, &__sleuth_rc\\[[0-9]+\\], " + N + "u, ";
  }
  /// True if reads of Var go through a companion.
  static bool kept(const std::string &Text, const std::string &Var) {
    return std::regex_search(Text, std::regex("\\((sleuth_use\\(|" + checked("sleuth_chk") +
                                              ")__sleuth_o[0-9]+_[0-9]+\\), " + Var + "\\)"));
  }
  /// True if reads of Var go through the shadow memory.
  static bool shadowed(const std::string &Text, const std::string &Var) {
    return Text.find("sleuth_get(&(" + Var + ")") != std::string::npos ||
           Text.find("sleuth_get_hot(&(" + Var + ")") != std::string::npos ||
           Text.find("sleuth_getp((void *)(__UINTPTR_TYPE__)&(" + Var + ")") != std::string::npos ||
           Text.find("sleuth::rd(" + Var + ")") != std::string::npos ||
           Text.find("sleuth::rd_hot(" + Var + ")") != std::string::npos ||
           std::regex_search(Text, std::regex("(" + checked("sleuth_getc") + "&\\(" + Var + "\\)|" +
                                              checked("sleuth_getcp") +
                                              "\\(void \\*\\)\\(__UINTPTR_TYPE__\\)&\\(" + Var +
                                              "\\)|" + checked("sleuth::rdc") + Var + "\\))"));
  }

  /// Each of Kept reads through a companion; each of Shadowed through the shadow memory.
  static void expectPlaces(const std::string &Text, std::vector<std::string> Kept,
                           std::vector<std::string> Shadowed) {
    for (const std::string &Var : Kept)
      EXPECT_TRUE(kept(Text, Var) && !shadowed(Text, Var)) << Var << " not kept:\n" << Text;
    for (const std::string &Var : Shadowed)
      EXPECT_TRUE(shadowed(Text, Var) && !kept(Text, Var)) << Var << " not shadowed:\n" << Text;
  }

  /// Off unless a test says otherwise: these tests look at each read's probe, which a read with
  /// a static edge does not have (ReadsThatOneWriteReachesHaveStaticEdges turns it on).
  bool StaticReads = false;
  unsigned LastProbes = 0;  // the last rewrite's count of probes (--stats)
  SkipCounts LastSkipped{}; // and of functions left as they were, by reason
};

} // namespace sleuth
