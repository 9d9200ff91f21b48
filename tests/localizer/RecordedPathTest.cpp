// A recorded path (docs/path-format.md) as a trace::Path: statements in the order they ran,
// calls inlined, library calls taken as recorded, and the expected output as the assertion.
#include "TestSupport.h"

#include "sleuth/localizer/specification.h"
#include "sleuth/trace/diagnosis.h"

#include <gtest/gtest.h>

#include <fstream>

using namespace sleuth::localizer;
using sleuth::trace::Stmt;

namespace {

/// The path of `prog 3`, which printed 6 where 7 was expected:
///   int twice(int x) { int y = x + x; return y; }                          (lines 1-3)
///   int main(int argc, char **argv) { if (argc != 2) return 2;              (lines 5-6)
///     printf("%d\n", twice(atoi(argv[1]))); return 0; }                     (line 7)
const char *const TwicePath = R"(sleuth-path 1
status exit 0
unit 0 20 0123456789abcdef /s.c
var 0 0 x scalar i32
site 2 0 1 15 param 0
func 0 twice 0
var 0 1 y scalar i32
site 3 0 2 7 assign (v 1) (cast i32 (b + (v 0) (v 0)))
site 4 0 3 3 return (cast i32 (v 1))
var 5 0 argc scalar i32
site 7 5 5 14 param 0
func 5 main 0 -
site 8 5 6 7 cond (b != (v 0) (c i32 2))
site 9 5 7 3 print %25d%0A 1
site 10 5 7 18 arg 0 (cast i32 (call twice (call atoi (x))))
end-unit
steps 9
5 0
7 2
8 0
0 0
2 3
3 6
4 6
1 0
10 6
9 0
6 0
end
)";

std::string write(const std::string &Name, const std::string &Text) {
  std::string Path = ::testing::TempDir() + Name;
  std::ofstream(Path) << Text;
  return Path;
}

TEST(RecordedPathTest, StatementsRunInOrderWithTheCallInlined) {
  std::string Error;
  std::optional<PathTranslation> P = translatePath(write("twice.path", TwicePath), "7\n", Error);
  ASSERT_TRUE(P) << Error;
  ASSERT_EQ(P->Files, std::vector<std::string>{"/s.c"});
  std::vector<std::pair<Stmt::Kind, unsigned>> Got;
  for (const Stmt &S : P->Path.statements)
    Got.push_back({S.kind, S.loc.line});
  // argc bound to its recorded value, the branch, x bound (atoi is a library call: recorded),
  // y's assignment, the return into the caller's temporary, the printed argument, the assertion.
  std::vector<std::pair<Stmt::Kind, unsigned>> Want = {
      {Stmt::Kind::Assign, 0}, {Stmt::Kind::Assume, 6}, {Stmt::Kind::Assign, 0},
      {Stmt::Kind::Assign, 2}, {Stmt::Kind::Assign, 3}, {Stmt::Kind::Assign, 7},
      {Stmt::Kind::Assert, 7}};
  EXPECT_EQ(Got, Want);
  EXPECT_FALSE(P->Path.statements[0].selectable); // an input
  EXPECT_FALSE(P->Path.statements[2].selectable); // a recorded argument
  EXPECT_TRUE(P->Path.statements[3].selectable);
  EXPECT_TRUE(P->Path.statements[4].selectable); // the return
  EXPECT_EQ(P->Path.statements[4].valueActivation, 2u);
  EXPECT_EQ(P->Specification, "line 7: printed 6, expected 7");
  EXPECT_EQ(P->Path.activationCount(), 3u);
}

TEST(RecordedPathTest, TheDiagnosisBlamesWhatThePrintedValueDependsOn) {
  std::string Error;
  std::optional<PathTranslation> P = translatePath(write("twice2.path", TwicePath), "7\n", Error);
  ASSERT_TRUE(P) << Error;
  sleuth::trace::Diagnosis D = sleuth::trace::diagnose(P->Path);
  ASSERT_EQ(D.status, sleuth::trace::Diagnosis::Status::Failing);
  std::set<unsigned> Lines;
  for (const sleuth::trace::CorrectionSet &Set : D.correctionSets)
    for (std::size_t S : Set.statements)
      Lines.insert(P->Path.statements[S].loc.line);
  // x comes from the library (recorded, hard); y's assignment and the return can each be
  // changed to print 7; the branch and the printed argument are hard.
  EXPECT_EQ(Lines, (std::set<unsigned>{2, 3}));
}

TEST(RecordedPathTest, OutputThatAgreesIsNoSpecification) {
  std::string Error;
  std::optional<PathTranslation> P = translatePath(write("twice3.path", TwicePath), "6\n", Error);
  ASSERT_TRUE(P) << Error;
  EXPECT_TRUE(P->Specification.empty());
  std::optional<PathTranslation> Q = translatePath(write("twice4.path", TwicePath), "six\n", Error);
  ASSERT_TRUE(Q) << Error;
  EXPECT_TRUE(Q->Specification.empty());
  ASSERT_FALSE(Q->Notes.empty());
  EXPECT_NE(Q->Notes[0].find("'%d' output the oracle cannot check"), std::string::npos)
      << Q->Notes[0];
}

TEST(RecordedPathTest, MalformedFilesNameTheLine) {
  std::string Error;
  std::string Cut = std::string(TwicePath).substr(0, std::string(TwicePath).find("steps"));
  EXPECT_FALSE(translatePath(write("cut.path", Cut), "7\n", Error));
  EXPECT_NE(Error.find("cut.path: the file ends before its 'end' line"), std::string::npos)
      << Error;
  EXPECT_FALSE(
      translatePath(write("bad.path", "sleuth-path 1\nsite 1 0 1 1 frob (x)\n"), "", Error));
  EXPECT_NE(Error.find("bad.path: line 2: unknown site kind 'frob'"), std::string::npos) << Error;
  EXPECT_FALSE(translatePath(write("other.path", "sleuth-cov 3\n"), "", Error));
  EXPECT_NE(Error.find("not a sleuth path file"), std::string::npos) << Error;
}

} // namespace

namespace {

/// f(3) where `if (x > 0)` (line 2) chose `y = x + 1` (line 3) and `return y` (line 4); the
/// caller printed 4 where 5 was expected.
const char *const BranchPath = R"(sleuth-path 1
status exit 0
unit 0 12 0123456789abcdef /s.c
var 0 0 x scalar i32
site 2 0 1 10 param 0
func 0 f 0
site 3 0 2 7 cond (b > (v 0) (c i32 0))
var 0 1 y scalar i32
site 4 0 3 9 assign (v 1) (cast i32 (b + (v 0) (c i32 1)))
site 5 0 4 5 return (cast i32 (v 1))
func 6 main
site 8 6 6 3 print %25d%0A 1
site 9 6 6 18 arg 0 (cast i32 (call f (call atoi (x))))
end-unit
steps 10
6 0
0 0
2 3
3 1
4 4
5 4
1 0
9 4
8 0
7 0
end
)";

TEST(RecordedPathTest, ABlamedStatementSharesItsBlameWithItsBranch) {
  std::string Error;
  std::optional<PathTranslation> P = translatePath(write("branch.path", BranchPath), "5\n", Error);
  ASSERT_TRUE(P) << Error;
  Program Model;
  Spectrum S;
  ASSERT_TRUE(Model.merge(test::linesOnly("/s.c", 10, {1, 2, 3, 4, 6}), "run", S, Error)) << Error;
  SuiteSpectra Suite;
  Suite.Model = &Model;
  Suite.Spectra.push_back(S);
  Suite.Failed.push_back(true);
  std::string Note;
  std::optional<RunDiagnosis> D = diagnoseRecordedPath(Suite, 0, *P, Note);
  ASSERT_TRUE(D) << Note;
  EXPECT_EQ(Note.rfind("line 6: printed 4, expected 5; 2 correction sets", 0), 0u) << Note;
  unsigned Condition = *Model.lineId(0, 2);
  std::set<std::set<unsigned>> Sets;
  for (const std::vector<unsigned> &Set : D->CorrectionSets)
    Sets.insert(std::set<unsigned>(Set.begin(), Set.end()));
  EXPECT_EQ(Sets, (std::set<std::set<unsigned>>{{Condition, *Model.lineId(0, 3)},
                                                {Condition, *Model.lineId(0, 4)}}));
}

} // namespace
