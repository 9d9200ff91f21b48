// The coverage file reader and writer, and merging spectra by source and
// build.
#include "TestSupport.h"

#include "sleuth/localizer/spectrum.h"

#include <gtest/gtest.h>

using namespace sleuth::localizer;

namespace {

const std::string Fixtures = SLEUTH_LOCALIZER_FIXTURES;

std::string parseError(const std::string &Text) {
  std::string Error;
  EXPECT_FALSE(CoverageFile::parse(Text, "x.cov", Error));
  return Error;
}

const char *Minimal = "sleuth-cov 1\nprogram ./p\nstatus exit 0\nfile 0 0123456789abcdef /s.c\n"
                      "func 0 0 1 3 0 1 f\nblock 0 0 1 -\nblock 1 0 1 2,3\nedge 0 1 seq 1\n"
                      "line 0 2 1\nend\n";

TEST(CoverageTest, ReadsTheFixture) {
  std::string Error;
  std::optional<CoverageFile> Cov = CoverageFile::load(Fixtures + "/two_units.cov", Error);
  ASSERT_TRUE(Cov) << Error;
  EXPECT_EQ(Cov->Program, "./two units");
  EXPECT_EQ(Cov->Status, (RunStatus{RunStatus::Signal, 11}));
  ASSERT_EQ(Cov->Files.size(), 2u);
  EXPECT_EQ(Cov->Files[1].Path, "/src/lib.c");
  ASSERT_EQ(Cov->Blocks.size(), 6u);
  EXPECT_EQ(Cov->Blocks[4].Lines, std::vector<unsigned>{2});
  EXPECT_TRUE(Cov->Blocks[0].Lines.empty());
  ASSERT_EQ(Cov->Edges.size(), 5u);
  EXPECT_EQ(Cov->Edges[2].Kind, EdgeKind::True);
  ASSERT_EQ(Cov->Conditions.size(), 1u);
  EXPECT_EQ(Cov->Conditions[0].Column, 9u);
  // Written back, it reads the same.
  std::optional<CoverageFile> Again = CoverageFile::parse(Cov->write(), "again", Error);
  ASSERT_TRUE(Again) << Error;
  EXPECT_EQ(Again->write(), Cov->write());
}

// Version 2's file hash is the content hash; version 1's is not, and a file written from a
// version-1 file stays version 1, so that the views never take it for one.
TEST(CoverageTest, KnowsWhichVersionHasContentHashes) {
  std::string Error;
  std::string Version1 = Minimal;
  std::optional<CoverageFile> Old = CoverageFile::parse(Version1, "old.cov", Error);
  ASSERT_TRUE(Old) << Error;
  EXPECT_FALSE(Old->Files[0].ContentHash);
  EXPECT_EQ(Old->write().substr(0, 13), "sleuth-cov 1\n");
  std::string Version2 = "sleuth-cov 2" + Version1.substr(12);
  std::optional<CoverageFile> New = CoverageFile::parse(Version2, "new.cov", Error);
  ASSERT_TRUE(New) << Error;
  EXPECT_TRUE(New->Files[0].ContentHash);
  EXPECT_EQ(New->write(), Version2);
}

TEST(CoverageTest, RejectsBrokenFiles) {
  EXPECT_EQ(parseError(""), "x.cov:0: empty file");
  EXPECT_EQ(parseError("sleuth-deps 1\n"),
            "x.cov:1: not a sleuth coverage file (expected 'sleuth-cov 3')");
  EXPECT_EQ(parseError("sleuth-cov 4\n"),
            "x.cov:1: unsupported coverage format version 4 (this sleuth reads 1 to 3)");
  std::string Text = Minimal;
  EXPECT_EQ(parseError(Text.substr(0, Text.size() - 4)),
            "x.cov:9: no 'end' record: the file is truncated");
  EXPECT_EQ(parseError(Text.substr(0, Text.size() - 1)),
            "x.cov:10: last line has no newline (file truncated?)");
  std::string Swapped = Text;
  Swapped.replace(Swapped.find("status exit 0\n"), 14, "");
  Swapped.insert(Swapped.find("end\n"), "status exit 0\n");
  EXPECT_EQ(parseError(Swapped), "x.cov:9: 'status' record out of order");
  std::string BadEdge = Text;
  BadEdge.replace(BadEdge.find("edge 0 1"), 8, "edge 0 7");
  EXPECT_EQ(parseError(BadEdge), "x.cov:8: undeclared block 7");
  std::string BadHash = Text;
  BadHash.replace(BadHash.find("0123456789abcdef"), 16, "xyz");
  EXPECT_EQ(parseError(BadHash), "x.cov:4: file hash 'xyz' is not 16 hex digits");
  std::string BadKind = Text;
  BadKind.replace(BadKind.find("seq"), 3, "jump");
  EXPECT_EQ(parseError(BadKind), "x.cov:8: unknown edge kind 'jump'");
}

TEST(CoverageTest, MergesBySourceNotById) {
  // The same source linked into two programs: different ids, one model.
  std::string Error;
  std::optional<CoverageFile> Two = CoverageFile::load(Fixtures + "/two_units.cov", Error);
  ASSERT_TRUE(Two) << Error;
  CoverageFile LibOnly;
  LibOnly.Program = "./other";
  LibOnly.Files = {Two->Files[1]};
  LibOnly.Functions = {{0, 1, 6, 0, 1, "helper"}};
  LibOnly.Blocks = {{0, 3, {}}, {0, 3, {}}, {0, 3, {2}}, {0, 2, {4}}};
  LibOnly.Edges = {{0, 2, EdgeKind::Seq, 3},
                   {2, 3, EdgeKind::True, 2},
                   {2, 1, EdgeKind::False, 1},
                   {3, 1, EdgeKind::Seq, 2}};
  LibOnly.Conditions = {{2, 2, 9, 2, 13, 2, 1}};
  LibOnly.Lines = {{0, 2, 3}, {0, 4, 2}};
  Program Model;
  Spectrum A, B;
  ASSERT_TRUE(Model.merge(*Two, "two.cov", A, Error)) << Error;
  ASSERT_TRUE(Model.merge(LibOnly, "lib.cov", B, Error)) << Error;
  EXPECT_EQ(Model.sources().size(), 2u);
  EXPECT_EQ(Model.functions().size(), 2u);
  EXPECT_EQ(Model.edges().size(), 5u);
  unsigned Line4 = *Model.lineId(*Model.sourceId("/src/lib.c"), 4);
  EXPECT_EQ(eventCount(A, {EventKind::Line, Line4}), 0u);
  EXPECT_EQ(eventCount(B, {EventKind::Line, Line4}), 2u);
  EXPECT_EQ(eventCount(B, {EventKind::Branch, 0}), 2u); // true twice
  EXPECT_EQ(eventCount(B, {EventKind::Branch, 1}), 1u); // false once
  EXPECT_EQ(B.Processes.size(), 1u);
}

TEST(CoverageTest, RefusesSpectraOfAnotherBuild) {
  Program Model;
  Spectrum S;
  std::string Error;
  ASSERT_TRUE(Model.merge(test::linesOnly("/src/a.c", 3, {1}), "old.cov", S, Error));
  EXPECT_FALSE(
      Model.merge(test::linesOnly("/src/a.c", 3, {1}, "ffffffffffffffff"), "new.cov", S, Error));
  EXPECT_EQ(Error, "new.cov: '/src/a.c' comes from another build (hash ffffffffffffffff) than in "
                   "'old.cov' (hash 00112233aabbccdd); rebuild and rerun the whole suite");
}

TEST(CoverageTest, KeepsVariantsOfOneSource) {
  // The same source text instrumented under other macros (cJSON.c in its library and included
  // by a test): another CFG of the same file. Both are kept; lines are the file's.
  Program Model;
  Spectrum First, Second, Third;
  std::string Error;
  ASSERT_TRUE(Model.merge(test::linesOnly("/src/a.c", 3, {1}), "lib.cov", First, Error));
  ASSERT_TRUE(Model.merge(test::linesOnly("/src/a.c", 4, {1, 4}), "test.cov", Second, Error))
      << Error;
  ASSERT_EQ(Model.sources().size(), 1u);
  EXPECT_EQ(Model.sources()[0].Variants.size(), 2u);
  EXPECT_EQ(Model.functions().size(), 2u);
  EXPECT_EQ(Model.lines().size(), 4u); // lines 1-3 shared, 4 from the second variant
  unsigned Line1 = *Model.lineId(0, 1);
  EXPECT_EQ(eventCount(First, {EventKind::Line, Line1}), 1u);
  EXPECT_EQ(eventCount(Second, {EventKind::Line, Line1}), 1u);
  // A third file with the first structure joins the first variant.
  ASSERT_TRUE(Model.merge(test::linesOnly("/src/a.c", 3, {2}), "again.cov", Third, Error)) << Error;
  EXPECT_EQ(Model.sources()[0].Variants.size(), 2u);
  EXPECT_EQ(Model.functions().size(), 2u);
  EXPECT_EQ(eventCount(Third, {EventKind::Line, *Model.lineId(0, 2)}), 1u);
}

TEST(CoverageTest, DescribesEvents) {
  std::string Error;
  std::optional<CoverageFile> Cov = CoverageFile::load(Fixtures + "/two_units.cov", Error);
  ASSERT_TRUE(Cov) << Error;
  Program Model;
  Spectrum S;
  ASSERT_TRUE(Model.merge(*Cov, "two.cov", S, Error)) << Error;
  std::vector<std::vector<std::string>> Sources = {{}, {"int helper(int x) {", "    if (x > 0) {"}};
  EXPECT_EQ(describeEvent(Model, {EventKind::Branch, 0}, &Sources), "`x > 0` is true");
  EXPECT_EQ(describeEvent(Model, {EventKind::Branch, 1}, nullptr), "condition at 2:9 is false");
  EXPECT_EQ(describeEvent(Model, {EventKind::Edge, 1}), "entry of helper -> line 2 (seq)");
  EXPECT_EQ(describeEvent(Model, {EventKind::Edge, 3}), "line 2 -> exit of helper (false)");
  Place P = placeOf(Model, {EventKind::Branch, 0});
  EXPECT_EQ(P.Line, 2u);
  EXPECT_EQ(P.Column, 9u);
}

} // namespace
