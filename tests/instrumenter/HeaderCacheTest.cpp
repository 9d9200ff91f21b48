// The header cache: a project header seen alike by a later translation unit is not instrumented
// again, and the rewritten text is the same as without the cache; a header seen otherwise
// (other macros, other text), a damaged entry or another mode is instrumented afresh.
#include "HeaderCache.h"

#include "sleuth/instrumenter/instrumenter.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <fstream>
#include <gtest/gtest.h>
#include <sstream>

using namespace sleuth;
using namespace sleuth::instrumenter;

namespace {

class HeaderCacheTest : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("sleuth-header-cache-test", Root));
    Cache = path("cache");
    write("util.h", "#ifndef UTIL_H\n#define UTIL_H\n"
                    "static int twice(int x) {\n"
                    "#ifdef HALF\n  return x / 2;\n#else\n  int y = x + x;\n  return y;\n#endif\n"
                    "}\n"
                    "#endif\n");
    write("a.c", "#include \"util.h\"\nint a(int v) { return twice(v) + 1; }\n");
    write("b.c", "#include \"util.h\"\nint b(int v) { if (v > 2) return twice(v); return 0; }\n");
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

  std::string path(const std::string &Name) const {
    llvm::SmallString<256> P(Root);
    llvm::sys::path::append(P, Name);
    return std::string(P);
  }
  void write(const std::string &Name, const std::string &Text) {
    std::ofstream(path(Name), std::ios::binary) << Text;
  }
  std::string read(const std::string &Name) const {
    std::ifstream In(Name, std::ios::binary);
    std::stringstream S;
    S << In.rdbuf();
    return S.str();
  }
  InstrumentResult run(const std::string &File, bool WithCache, std::vector<std::string> Args = {},
                       InstrumentMode Mode = InstrumentMode::Dependences) {
    InstrumentRequest R;
    R.File = path(File);
    R.Arguments = std::move(Args);
    R.ShowDiagnostics = false;
    R.Mode = Mode;
    if (WithCache)
      R.HeaderCacheDirectory = Cache;
    InstrumentResult Result = instrument(R);
    EXPECT_TRUE(Result.Ok) << Result.Error;
    return Result;
  }
  std::vector<std::string> entries() const {
    std::vector<std::string> Out;
    std::error_code EC;
    for (llvm::sys::fs::recursive_directory_iterator I(Cache, EC), E; I != E && !EC;
         I.increment(EC))
      if (llvm::StringRef(I->path()).ends_with(".hdr"))
        Out.push_back(I->path());
    return Out;
  }

  llvm::SmallString<128> Root;
  std::string Cache;
};

TEST_F(HeaderCacheTest, SecondUnitReplaysTheHeaderAndGetsTheSameText) {
  InstrumentResult First = run("a.c", true);
  EXPECT_EQ(First.HeadersFromCache, 0u);
  ASSERT_EQ(entries().size(), 1u);
  InstrumentResult Second = run("b.c", true);
  EXPECT_EQ(Second.HeadersFromCache, 1u);
  InstrumentResult Plain = run("b.c", false);
  EXPECT_EQ(Second.Text, Plain.Text);
  EXPECT_EQ(Second.Functions, Plain.Functions);
  EXPECT_EQ(Second.Probes, Plain.Probes);
  EXPECT_EQ(Second.Sites, Plain.Sites);
  EXPECT_EQ(Second.IncludedFiles, Plain.IncludedFiles);
  EXPECT_NE(Second.Text.find("__sleuth_tu_"), std::string::npos); // the header's own unit
}

// A header's functions left as they were are counted by reason also when it is replayed.
TEST_F(HeaderCacheTest, ReplayedHeadersReportWhatTheyLeftAndWhy) {
  write("defs.h", "#define BODY { return 1; }\n"
                  "static inline int one(void) BODY\n"
                  "inline int two(void) { return 2; }\n"
                  "static int three(void) { return 3; }\n");
  write("d.c", "#include \"defs.h\"\nint d(void) { return one() + two() + three(); }\n");
  write("e.c", "#include \"defs.h\"\nint e(void) { return three(); }\n");
  InstrumentResult First = run("d.c", true);
  EXPECT_EQ(First.Skipped, 2u);
  EXPECT_EQ(First.SkippedBy[unsigned(SkipReason::BodyFromMacro)], 1u);
  EXPECT_EQ(First.SkippedBy[unsigned(SkipReason::CInlineDefinition)], 1u);
  EXPECT_EQ(describeSkipCounts(First.SkippedBy), "c-inline=1,macro-body=1");
  InstrumentResult Second = run("e.c", true);
  EXPECT_EQ(Second.HeadersFromCache, 1u);
  EXPECT_EQ(Second.SkippedBy, First.SkippedBy);
  EXPECT_EQ(Second.Skipped, 2u);
}

// `#pragma pack` in a header reaches the token watcher as an annotation token, which holds no
// identifier (jsoncpp's config.h: the wrapper crashed on every file including it).
TEST_F(HeaderCacheTest, PragmasInAHeaderAreDigested) {
  write("packed.h", "#pragma once\n#pragma pack(push, 1)\nstruct P { char c; int i; };\n"
                    "#pragma pack(pop)\n#pragma GCC diagnostic push\n"
                    "static int size(struct P *p) { return p->i + (int)sizeof *p; }\n"
                    "#pragma GCC diagnostic pop\n");
  write("c.c", "#include \"packed.h\"\nint c(struct P *p) { return size(p); }\n");
  InstrumentResult First = run("c.c", true);
  EXPECT_EQ(First.HeadersFromCache, 0u);
  InstrumentResult Second = run("c.c", true);
  EXPECT_EQ(Second.HeadersFromCache, 1u);
  EXPECT_EQ(Second.Text, run("c.c", false).Text);
}

TEST_F(HeaderCacheTest, OtherMacrosMeanAnotherRewriting) {
  run("a.c", true);
  InstrumentResult Half = run("b.c", true, {"-DHALF"});
  EXPECT_EQ(Half.HeadersFromCache, 0u);
  EXPECT_EQ(Half.Text, run("b.c", false, {"-DHALF"}).Text);
  // The entry now holds the -DHALF rewriting; without HALF the header is instrumented again.
  InstrumentResult Again = run("a.c", true);
  EXPECT_EQ(Again.HeadersFromCache, 0u);
  EXPECT_EQ(Again.Text, run("a.c", false).Text);
  EXPECT_EQ(entries().size(), 1u); // one slot per header and mode
}

TEST_F(HeaderCacheTest, ChangedHeaderTextIsInstrumentedAfresh) {
  run("a.c", true);
  // Same tokens at the same offsets, but a comment changed: the text is part of the key.
  std::string Header = read(path("util.h"));
  Header += "/* changed */\n";
  write("util.h", Header);
  InstrumentResult After = run("b.c", true);
  EXPECT_EQ(After.HeadersFromCache, 0u);
  EXPECT_EQ(After.Text, run("b.c", false).Text);
}

TEST_F(HeaderCacheTest, ModesDoNotShareEntries) {
  run("a.c", true);
  InstrumentResult Coverage = run("b.c", true, {}, InstrumentMode::Coverage);
  EXPECT_EQ(Coverage.HeadersFromCache, 0u);
  EXPECT_EQ(Coverage.Text, run("b.c", false, {}, InstrumentMode::Coverage).Text);
  EXPECT_EQ(entries().size(), 2u);
  EXPECT_EQ(run("a.c", true, {}, InstrumentMode::Coverage).HeadersFromCache, 1u);
}

TEST_F(HeaderCacheTest, DamagedEntriesAreIgnored) {
  run("a.c", true);
  ASSERT_EQ(entries().size(), 1u);
  std::string Entry = entries()[0];
  std::string Good = read(Entry);
  std::string Plain = run("b.c", false).Text;
  for (std::string Bad : {Good.substr(0, Good.size() / 2), std::string("garbage"), std::string(),
                          Good + "trailing"}) {
    std::ofstream(Entry, std::ios::binary) << Bad;
    InstrumentResult R = run("b.c", true);
    EXPECT_EQ(R.HeadersFromCache, 0u);
    EXPECT_EQ(R.Text, Plain);
    std::ofstream(Entry, std::ios::binary) << Bad; // b.c stored a good entry: damage it again
  }
}

TEST_F(HeaderCacheTest, EditsPastTheEndOfTheFileAreRejected) {
  run("a.c", true);
  std::string Entry = entries()[0];
  std::string Text = read(Entry);
  // Move the first edit far beyond the header's end, keeping the entry well-formed.
  size_t At = Text.find("\nI ");
  ASSERT_NE(At, std::string::npos);
  size_t NumberEnd = Text.find(' ', At + 3);
  Text.replace(At + 3, NumberEnd - (At + 3), "999999");
  std::ofstream(Entry, std::ios::binary) << Text;
  InstrumentResult R = run("b.c", true);
  EXPECT_EQ(R.HeadersFromCache, 0u);
  EXPECT_EQ(R.Text, run("b.c", false).Text);
}

TEST(HeaderCacheFormat, RoundTripAndKeyCheck) {
  CachedHeader E;
  E.Edits = {{3, 0, false, "sleuth_get(&x, 4),"},
             {10, 2, true, std::string("a\nb\0c", 5)},
             {12, 0, false, ""}};
  E.Tables = "static struct sleuth_tu __sleuth_tu_1234;\n";
  E.Functions = 2;
  E.Skipped[unsigned(SkipReason::BodyFromMacro)] = 3;
  E.Skipped[unsigned(SkipReason::NoControlFlowGraph)] = 1;
  E.Probes = 7;
  E.Sites = 5;
  std::string Text = HeaderCache::serialize("key 1", E);
  std::optional<CachedHeader> Back = HeaderCache::deserialize(Text, "key 1");
  ASSERT_TRUE(Back);
  ASSERT_EQ(Back->Edits.size(), 3u);
  EXPECT_EQ(Back->Edits[1].Text, E.Edits[1].Text);
  EXPECT_TRUE(Back->Edits[1].Replace);
  EXPECT_EQ(Back->Edits[1].Length, 2u);
  EXPECT_EQ(Back->Edits[0].Offset, 3u);
  EXPECT_EQ(Back->Tables, E.Tables);
  EXPECT_EQ(Back->Functions, 2u);
  EXPECT_EQ(Back->Skipped, E.Skipped);
  EXPECT_EQ(Back->Probes, 7u);
  EXPECT_EQ(Back->Sites, 5u);
  EXPECT_FALSE(HeaderCache::deserialize(Text, "key 2"));
  EXPECT_FALSE(HeaderCache::deserialize(Text, "key"));
  for (size_t Cut = 0; Cut < Text.size(); ++Cut)
    EXPECT_FALSE(HeaderCache::deserialize(llvm::StringRef(Text).take_front(Cut), "key 1")) << Cut;
}

} // namespace
