// Reading dependence files: the example of docs/dependence-format.md, and
// every way a file can be wrong.
#include "SlicerTestSupport.h"
#include "sleuth/slicer/source_hash.h"
#include "sleuth/slicer/views.h"

#include <random>

using namespace sleuth;
using namespace sleuth::test;

namespace {

/// The middle run with its line number Line (1-based) replaced by Text, or
/// removed if Text is empty.
std::string withLine(unsigned Line, const std::string &Text) {
  std::string Deps = middleDeps("/src/middle.cpp");
  std::vector<std::string> Lines;
  std::istringstream In(Deps);
  for (std::string L; std::getline(In, L);)
    Lines.push_back(L);
  std::string Out;
  for (unsigned I = 0; I < Lines.size(); ++I) {
    if (I + 1 != Line)
      Out += Lines[I] + "\n";
    else if (!Text.empty())
      Out += Text + "\n";
  }
  return Out;
}

/// The error parsing Text gives; empty if it parses.
std::string parseError(const std::string &Text) {
  std::string Error;
  std::optional<DependenceGraph> G = DependenceGraph::parse(Text, "run.deps", Error);
  EXPECT_EQ(G.has_value(), Error.empty());
  return Error;
}

// Line numbers in middleDeps(): 1 header, 2 program, 3 status, 4 file,
// 5-6 func, 7-18 site, 19-27 hit, 28-39 edges, 40 last, 41 end.

} // namespace

TEST(LoadTest, ReadsTheFormatDocumentExample) {
  const char *Example = "sleuth-deps 1\n"
                        "program ./middle\n"
                        "status exit 0\n"
                        "file 0 /home/u/examples/middle.cpp\n"
                        "func 0 0 1 15 middle\n"
                        "func 1 0 17 21 main\n"
                        "site 0 param 0 1 16 x\n"
                        "site 1 param 0 1 23 y\n"
                        "site 2 param 0 1 30 z\n"
                        "site 3 test 0 2 9 <test>\n"
                        "site 4 ret 0 6 13 <middle()%20return%20value>\n"
                        "hit 0 1\n"
                        "hit 3 1\n"
                        "hit 4 1\n"
                        "data 3 1\n"
                        "data 3 2\n"
                        "data 4 1\n"
                        "ctrl 4 3\n"
                        "last 0 4\n"
                        "end\n";
  std::string Error;
  std::optional<DependenceGraph> G = DependenceGraph::parse(Example, "example.deps", Error);
  ASSERT_TRUE(G) << Error;
  EXPECT_EQ(G->program(), "./middle");
  EXPECT_FALSE(G->status().Signaled);
  EXPECT_EQ(G->status().Code, 0u);
  ASSERT_EQ(G->files().size(), 1u);
  EXPECT_EQ(G->files()[0].Path, "/home/u/examples/middle.cpp");
  ASSERT_EQ(G->functions().size(), 2u);
  EXPECT_EQ(G->functions()[1].Name, "main");
  EXPECT_EQ(G->functions()[1].Begin, 17u);
  EXPECT_EQ(G->functions()[1].End, 21u);
  ASSERT_EQ(G->size(), 5u);
  EXPECT_EQ(G->site(4).Name, "<middle() return value>");
  EXPECT_EQ(G->site(4).Kind, SiteKind::Ret);
  EXPECT_EQ(G->site(4).Line, 6u);
  EXPECT_EQ(G->site(4).Column, 13u);
  EXPECT_TRUE(G->site(0).executed());
  EXPECT_FALSE(G->site(1).executed());
  EXPECT_EQ(G->last(0), 4u);
  EXPECT_EQ(G->last(1), std::nullopt);

  // Edges run from origin to dependent: 1 -> 3 is `data 3 1`.
  const auto &Graph = G->graph();
  EXPECT_EQ(boost::num_edges(Graph), 4u);
  auto [E, Found] = boost::edge(1, 3, Graph);
  ASSERT_TRUE(Found);
  EXPECT_EQ(Graph[E].Kind, DependenceKind::Data);
  std::tie(E, Found) = boost::edge(3, 4, Graph);
  ASSERT_TRUE(Found);
  EXPECT_EQ(Graph[E].Kind, DependenceKind::Control);
  EXPECT_FALSE(boost::edge(4, 3, Graph).second);
}

// sleuth_flush() writes the file while the program still runs.
TEST(LoadTest, AcceptsRunningStatus) {
  std::string Error;
  std::optional<DependenceGraph> G =
      DependenceGraph::parse(withLine(3, "status running"), "run.deps", Error);
  ASSERT_TRUE(G) << Error;
  EXPECT_TRUE(G->status().Running);
  EXPECT_FALSE(G->status().Signaled);
  EXPECT_EQ(parseError(withLine(3, "status walking 1")),
            "run.deps:3: status must be 'exit' or 'signal', not 'walking'");
}

TEST(LoadTest, DecodesEscapesAndSignals) {
  std::string Text = withLine(3, "status signal 11");
  Text = Text.replace(Text.find("/src/middle.cpp"), 15, "/my%20src/100%25%09x.cpp");
  std::string Error;
  std::optional<DependenceGraph> G = DependenceGraph::parse(Text, "run.deps", Error);
  ASSERT_TRUE(G) << Error;
  EXPECT_TRUE(G->status().Signaled);
  EXPECT_EQ(G->status().Code, 11u);
  EXPECT_EQ(G->files()[0].Path, "/my src/100%\tx.cpp");
}

TEST(LoadTest, AcceptsEndWithoutFinalNewline) {
  std::string Text = middleDeps("/a.cpp");
  Text.pop_back();
  EXPECT_EQ(parseError(Text), "");
}

TEST(LoadTest, MissingFile) {
  std::string Error;
  EXPECT_FALSE(DependenceGraph::load("/nonexistent/run.deps", Error));
  EXPECT_EQ(Error, "/nonexistent/run.deps: cannot open dependence file: No "
                   "such file or directory");
}

TEST(LoadTest, DirectoryInsteadOfFile) {
  TempDir Dir;
  std::string Error;
  EXPECT_FALSE(DependenceGraph::load(Dir.Path.string(), Error));
  EXPECT_NE(Error.find("is a directory"), std::string::npos) << Error;
}

TEST(LoadTest, EmptyFile) {
  EXPECT_EQ(parseError(""), "run.deps: empty file, not a sleuth dependence file");
}

TEST(LoadTest, BadMagic) {
  EXPECT_EQ(parseError(withLine(1, "sleuth-dips 1")),
            "run.deps:1: not a sleuth dependence file (expected "
            "'sleuth-deps 2')");
  EXPECT_EQ(parseError("\x7f"
                       "ELF\x02\x01\x01"),
            "run.deps:1: not a sleuth dependence file (expected "
            "'sleuth-deps 2')");
}

TEST(LoadTest, BadVersion) {
  EXPECT_EQ(parseError(withLine(1, "sleuth-deps 3")),
            "run.deps:1: unsupported dependence file version 3 (this sleuth "
            "reads versions 1 to 2)");
  EXPECT_EQ(parseError(withLine(1, "sleuth-deps 0")),
            "run.deps:1: unsupported dependence file version 0 (this sleuth "
            "reads versions 1 to 2)");
}

// The content hash is 64-bit FNV-1a (its published test vectors).
TEST(SourceHashTest, IsFnv1a64) {
  EXPECT_EQ(sourceHash(""), "cbf29ce484222325");
  EXPECT_EQ(sourceHash("a"), "af63dc4c8601ec8c");
  EXPECT_EQ(sourceHash("foobar"), "85944171f73967e8");
  EXPECT_TRUE(isSourceHash("85944171f73967e8"));
  EXPECT_FALSE(isSourceHash("85944171F73967E8"));
  EXPECT_FALSE(isSourceHash("85944171f73967e"));
}

// Version 2 records each file's content hash; version 1 (the other tests' files) has none.
TEST(LoadTest, Version2FilesRecordTheContentHash) {
  std::string Error;
  std::optional<DependenceGraph> G =
      DependenceGraph::parse("sleuth-deps 2\nprogram p\nstatus exit 0\n"
                             "file 0 00112233445566ff /a%20b.c\nend\n",
                             "v2.deps", Error);
  ASSERT_TRUE(G) << Error;
  ASSERT_EQ(G->files().size(), 1u);
  EXPECT_EQ(G->files()[0].Path, "/a b.c");
  EXPECT_EQ(G->files()[0].Hash, "00112233445566ff");
  G = DependenceGraph::parse("sleuth-deps 1\nprogram p\nstatus exit 0\nfile 0 /a.c\nend\n",
                             "v1.deps", Error);
  ASSERT_TRUE(G) << Error;
  EXPECT_EQ(G->files()[0].Hash, "");
  EXPECT_EQ(parseError("sleuth-deps 2\nprogram p\nstatus exit 0\nfile 0 /a.c\nend\n"),
            "run.deps:4: 'file' record expects 3 fields: F HASH PATH, found 2");
  EXPECT_EQ(parseError("sleuth-deps 2\nprogram p\nstatus exit 0\nfile 0 xyz /a.c\nend\n"),
            "run.deps:4: file hash must be 16 hex digits, not 'xyz'");
  EXPECT_EQ(parseError(withLine(1, "sleuth-deps one")),
            "run.deps:1: version must be an unsigned decimal number, not "
            "'one'");
}

TEST(LoadTest, WrongFieldCount) {
  EXPECT_EQ(parseError(withLine(7, "site 0 param 0 1 16")),
            "run.deps:7: 'site' record expects 6 fields: S KIND G LINE COL "
            "NAME, found 5");
  EXPECT_EQ(parseError(withLine(28, "data 3 1 2")),
            "run.deps:28: 'data' record expects 2 fields: A B, found 3");
  EXPECT_EQ(parseError(withLine(41, "end now")),
            "run.deps:41: 'end' record expects 0 fields, found 1");
  // Two spaces make an empty field, which no record has.
  EXPECT_EQ(parseError(withLine(5, "func 0 0 1 14  middle")),
            "run.deps:5: 'func' record expects 5 fields: G F BEGIN END NAME, "
            "found 6");
}

TEST(LoadTest, BadNumbers) {
  EXPECT_EQ(parseError(withLine(7, "site 0 param 0 -1 16 x")),
            "run.deps:7: LINE must be an unsigned decimal number, not '-1'");
  EXPECT_EQ(parseError(withLine(7, "site 0 param 0 1 99999999999 x")),
            "run.deps:7: COL '99999999999' is too large");
  EXPECT_EQ(parseError(withLine(19, "hit 0 0")),
            "run.deps:19: hit count must be at least 1 (unexecuted sites have "
            "no 'hit')");
}

// Compilers report line 0 for locations they do not know, and a body ending
// in a macro can end "before" it begins; such files are still valid.
TEST(LoadTest, AcceptsUnknownLocations) {
  EXPECT_EQ(parseError(withLine(7, "site 0 param 0 0 0 x")), "");
  EXPECT_EQ(parseError(withLine(5, "func 0 0 14 1 middle")), "");
}

TEST(LoadTest, UndeclaredIds) {
  EXPECT_EQ(parseError(withLine(28, "data 3 42")), "run.deps:28: edge names undeclared site 42");
  EXPECT_EQ(parseError(withLine(19, "hit 12 1")), "run.deps:19: hit names undeclared site 12");
  EXPECT_EQ(parseError(withLine(40, "last 0 99")), "run.deps:40: last names undeclared site 99");
  EXPECT_EQ(parseError(withLine(7, "site 0 param 7 1 16 x")),
            "run.deps:7: site names undeclared function 7");
  EXPECT_EQ(parseError(withLine(5, "func 0 3 1 14 middle")),
            "run.deps:5: function names undeclared file 3");
}

TEST(LoadTest, IdsMustBeDense) {
  EXPECT_EQ(parseError(withLine(8, "site 2 param 0 1 23 y")),
            "run.deps:8: site id 2 out of sequence: expected 1 (ids are dense "
            "from 0)");
  EXPECT_EQ(parseError(withLine(6, "func 0 0 16 19 main")),
            "run.deps:6: function id 0 out of sequence: expected 1 (ids are "
            "dense from 0)");
}

TEST(LoadTest, RecordOrder) {
  // A hit among the sites.
  EXPECT_EQ(parseError(withLine(18, "hit 5 1\nsite 11 ret 1 18 5 r")),
            "run.deps:19: 'site' record out of order: it must come before the "
            "'hit' records");
  EXPECT_EQ(parseError(withLine(2, "")), "run.deps:2: expected 'program' record, found 'status'");
  EXPECT_EQ(parseError(withLine(4, "status exit 0")), "run.deps:4: duplicate 'status' record");
  std::string AfterEnd = middleDeps("/a.cpp") + "hit 1 1\n";
  EXPECT_EQ(parseError(AfterEnd), "run.deps:42: content after the 'end' record");
}

TEST(LoadTest, UnknownRecordAndKind) {
  EXPECT_EQ(parseError(withLine(19, "hits 0 1")), "run.deps:19: unknown record 'hits'");
  EXPECT_EQ(parseError(withLine(7, "site 0 global 0 1 16 x")),
            "run.deps:7: unknown site kind 'global' (expected var, param, "
            "test, ret or assert)");
  EXPECT_EQ(parseError(withLine(3, "status crashed 1")),
            "run.deps:3: status must be 'exit' or 'signal', not 'crashed'");
}

TEST(LoadTest, Duplicates) {
  EXPECT_EQ(parseError(withLine(20, "hit 0 3")), "run.deps:20: duplicate 'hit' for site 0");
  EXPECT_EQ(parseError(withLine(29, "data 3 1")), "run.deps:29: duplicate 'data' edge 3 1");
  // The same pair as data and as control is two different edges.
  EXPECT_EQ(parseError(withLine(29, "ctrl 3 1")), "");
  std::string TwoLast = withLine(40, "last 0 11\nlast 0 10");
  EXPECT_EQ(parseError(TwoLast), "run.deps:41: duplicate 'last' for thread 0");
}

TEST(LoadTest, BadEscapesAndRawBytes) {
  EXPECT_EQ(parseError(withLine(7, "site 0 param 0 1 16 x%2")),
            "run.deps:7: bad %-escape in NAME 'x%2'");
  EXPECT_EQ(parseError(withLine(7, "site 0 param 0 1 16 x%zz")),
            "run.deps:7: bad %-escape in NAME 'x%zz'");
  EXPECT_EQ(parseError(withLine(7, "site 0 param 0 1 16 a\tb")),
            "run.deps:7: raw tab byte in record (must be %-escaped)");
  EXPECT_EQ(parseError(withLine(7, "site 0 param 0 1 16 x\r")),
            "run.deps:7: line ends with CR (DOS line endings are not allowed)");
}

TEST(LoadTest, Truncated) {
  const std::string Expected = "run.deps: truncated dependence file (no 'end' record)";
  std::string Text = middleDeps("/a.cpp");
  // Cut after every complete line but the last, and in the middle of lines.
  for (std::size_t Cut = 1; Cut + 1 < Text.size(); ++Cut) {
    std::string Error = parseError(Text.substr(0, Cut));
    ASSERT_FALSE(Error.empty()) << "prefix of " << Cut << " bytes parsed";
    EXPECT_EQ(Error, Expected) << "prefix of " << Cut << " bytes";
  }
}

TEST(LoadTest, TruncatedFileOnDisk) {
  TempDir Dir;
  std::string Text = middleDeps("/a.cpp");
  std::string Path = Dir.write("run.deps", Text.substr(0, Text.find("hit 3")));
  std::string Error;
  EXPECT_FALSE(DependenceGraph::load(Path, Error));
  EXPECT_EQ(Error, Path + ": truncated dependence file (no 'end' record)");
}

// Random damage must give a one-line error naming the file, never a crash or
// a half-built graph.
TEST(LoadTest, FuzzedInputNeverCrashes) {
  std::mt19937 Random(20240601);
  const std::string Good = middleDeps("/a.cpp");
  const std::string Alphabet = "0123456789 \n%abcdeflpst-\t\r\x80\xff";
  unsigned Failures = 0;
  for (unsigned Round = 0; Round < 3000; ++Round) {
    std::string Text = Good;
    unsigned Edits = 1 + Random() % 4;
    for (unsigned E = 0; E < Edits; ++E) {
      std::size_t At = Random() % Text.size();
      switch (Random() % 4) {
      case 0:
        Text[At] = Alphabet[Random() % Alphabet.size()];
        break;
      case 1:
        Text.erase(At, 1 + Random() % 8);
        break;
      case 2:
        Text.insert(At, 1, static_cast<char>(Random() % 256));
        break;
      case 3:
        Text.resize(At);
        break;
      }
      if (Text.empty())
        Text = "x";
    }
    std::string Error;
    std::optional<DependenceGraph> G = DependenceGraph::parse(Text, "fuzz.deps", Error);
    if (G) {
      EXPECT_TRUE(Error.empty());
      // Whatever parsed must be usable by every view.
      for (const Slice &S : {wholeGraph(*G, {}), computeSlice(*G, {0, G->size() / 2}, {})}) {
        std::string Text = codeView(*G, S) + depsView(*G, S) + dotView(*G, S) + jsonView(*G, S);
        EXPECT_FALSE(Text.empty() && !S.Nodes.empty());
      }
      continue;
    }
    ++Failures;
    EXPECT_TRUE(Error.starts_with("fuzz.deps:")) << Error;
    EXPECT_EQ(Error.find('\n'), std::string::npos) << Error;
  }
  EXPECT_GT(Failures, 2000u);

  for (unsigned Round = 0; Round < 200; ++Round) {
    std::string Garbage(Random() % 512, '\0');
    for (char &C : Garbage)
      C = static_cast<char>(Random() % 256);
    std::string Error;
    EXPECT_FALSE(DependenceGraph::parse(Garbage, "garbage.deps", Error));
    EXPECT_TRUE(Error.starts_with("garbage.deps:")) << Error;
  }
}
