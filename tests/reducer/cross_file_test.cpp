// The pieces of multi-file reduction: the runner's bundle of files, include
// resolution within the set, changes of several files, and each cross-file
// transformation with its input and output side by side.
#include "FileSet.h"
#include "Tokens.h"

#include <gtest/gtest.h>

using namespace sleuth::reducer;

namespace {

FileSet set(std::vector<std::string> Paths, std::vector<std::string> Texts,
            std::vector<std::string> IncludeDirs = {}) {
  return FileSet{std::move(Paths), std::move(Texts), std::move(IncludeDirs)};
}

std::vector<SetChange> instances(const char *Pass, const FileSet &Set) {
  const CrossFileTransformation *T = findCrossFileTransformation(Pass);
  EXPECT_NE(T, nullptr) << Pass;
  std::vector<SetChange> Out;
  if (T)
    T->collect(Set, Out);
  return Out;
}

/// The texts after applying instance N (1-based) of Pass to Set.
std::vector<std::string> apply(const char *Pass, const FileSet &Set, std::size_t N = 1) {
  std::vector<SetChange> I = instances(Pass, Set);
  if (N == 0 || N > I.size())
    return {"<no instance " + std::to_string(N) + " of " + std::to_string(I.size()) + ">"};
  return applySetChanges(Set.Texts, {&I[N - 1]});
}

} // namespace

TEST(FileBundle, RoundTripsAnyTexts) {
  std::vector<std::string> Texts = {"int a;\n", "", std::string("x\0y\n12\n", 7), "7\n"};
  std::string Bundle = encodeFiles(Texts);
  std::vector<std::string> Back;
  ASSERT_TRUE(decodeFiles(Bundle, Back));
  EXPECT_EQ(Back, Texts);
  // Two texts and one whose bytes run into the next differ.
  EXPECT_NE(encodeFiles({"ab", "c"}), encodeFiles({"a", "bc"}));
}

TEST(FileBundle, RejectsWhatIsNotABundle) {
  std::vector<std::string> Out;
  EXPECT_FALSE(decodeFiles("int a;\n", Out));
  EXPECT_FALSE(decodeFiles("5\nabc", Out)); // Shorter than its length.
  EXPECT_FALSE(decodeFiles("\nabc", Out));
  EXPECT_TRUE(decodeFiles("", Out));
  EXPECT_TRUE(Out.empty());
}

TEST(QuotedIncludes, FindsQuotedIncludeLinesOnly) {
  std::string Text = "#include <vector>\n"
                     "  #  include \"a.h\" // note\n"
                     "int x; // #include \"no.h\"\n"
                     "#include \"sub/b.h\"";
  std::vector<QuotedInclude> I = quotedIncludes(Text);
  ASSERT_EQ(I.size(), 2u);
  EXPECT_EQ(I[0].Name, "a.h");
  EXPECT_EQ(Text.substr(I[0].Begin, I[0].End - I[0].Begin), "  #  include \"a.h\" // note\n");
  EXPECT_EQ(I[1].Name, "sub/b.h");
  EXPECT_EQ(I[1].End, Text.size());
}

TEST(ResolveInclude, BesideTheIncluderThenBaseThenIncludeDirs) {
  FileSet S =
      set({"src/b.cpp", "src/a.h", "a.h", "inc/c.h", "inc/d.h"}, {"", "", "", "", ""}, {"inc"});
  EXPECT_EQ(resolveInclude(S, 0, "a.h"), 1u);       // Beside src/b.cpp wins.
  EXPECT_EQ(resolveInclude(S, 3, "a.h"), 2u);       // From inc/: the base directory.
  EXPECT_EQ(resolveInclude(S, 0, "../a.h"), 2u);    // Normalized.
  EXPECT_EQ(resolveInclude(S, 0, "c.h"), 3u);       // An include directory.
  EXPECT_EQ(resolveInclude(S, 0, "inc/d.h"), 4u);   // Relative to the base.
  EXPECT_EQ(resolveInclude(S, 0, "missing.h"), 5u); // None of the set.
  S.IncludeDirs.clear();
  EXPECT_EQ(resolveInclude(S, 0, "c.h"), 5u);
}

TEST(ApplySetChanges, AppliesAChangeWholeOrNotAtAll) {
  std::vector<std::string> Texts = {"abcdef", "uvwxyz"};
  SetChange Both{{{0, replaceRange(0, 2, "A")}, {1, replaceRange(4, 6)}}};
  // Overlaps Both's part in file 1, so none of it applies, not even file 0's part.
  SetChange Clash{{{0, replaceRange(3, 4, "D")}, {1, replaceRange(5, 6, "Z")}}};
  SetChange Later{{{0, replaceRange(5, 6, "F")}}};
  EXPECT_EQ(applySetChanges(Texts, {&Both, &Clash, &Later}),
            (std::vector<std::string>{"AcdeF", "uvwx"}));
  EXPECT_EQ(applySetChanges(Texts, {&Clash, &Both}),
            (std::vector<std::string>{"abcDef", "uvwxyZ"}));
  // A part outside its file, or in no file of the set, sinks the change.
  SetChange Outside{{{0, replaceRange(0, 1)}, {1, replaceRange(3, 9)}}};
  SetChange NoFile{{{2, replaceRange(0, 1)}}};
  EXPECT_EQ(applySetChanges(Texts, {&Outside, &NoFile}), Texts);
}

TEST(CrossFilePasses, EmptyFileEmptiesOneFileAndKeepsIt) {
  FileSet S = set({"a.h", "b.cpp", "c.h"}, {"int a;\n", "#include \"a.h\"\nint b;\n", ""});
  EXPECT_EQ(instances("empty-file", S).size(), 2u); // c.h is empty already.
  EXPECT_EQ(apply("empty-file", S, 1),
            (std::vector<std::string>{"", "#include \"a.h\"\nint b;\n", ""}));
  EXPECT_EQ(apply("empty-file", S, 2), (std::vector<std::string>{"int a;\n", "", ""}));
}

TEST(CrossFilePasses, RemoveIncludeRemovesOneIncludeLine) {
  FileSet S = set({"a.h", "b.cpp"},
                  {"#include \"c.h\"\nint a;\n", "#include <stdio.h>\n#include \"a.h\"\nint b;\n"});
  // c.h is no file of the set: its line alone. a.h has one includer: first
  // the line with a.h emptied, then the line alone.
  ASSERT_EQ(instances("remove-include", S).size(), 3u);
  EXPECT_EQ(apply("remove-include", S, 1), (std::vector<std::string>{"int a;\n", S.Texts[1]}));
  EXPECT_EQ(apply("remove-include", S, 2),
            (std::vector<std::string>{"", "#include <stdio.h>\nint b;\n"}));
  EXPECT_EQ(apply("remove-include", S, 3),
            (std::vector<std::string>{S.Texts[0], "#include <stdio.h>\nint b;\n"}));
}

TEST(CrossFilePasses, RemoveIncludeKeepsAHeaderOthersInclude) {
  FileSet S =
      set({"a.h", "b.cpp", "c.cpp"}, {"int a;\n", "#include \"a.h\"\n", "#include \"a.h\"\n"});
  std::vector<SetChange> I = instances("remove-include", S);
  ASSERT_EQ(I.size(), 2u);
  for (const SetChange &C : I)
    EXPECT_EQ(C.Parts.size(), 1u); // a.h is never emptied with one of its includes.
}

TEST(CrossFilePasses, MoveDeclMovesOneDeclarationAfterTheInclude) {
  // a.h is shared, so inline-header cannot move it; its declarations can go
  // one at a time, each to either includer, just after the include line.
  FileSet S =
      set({"a.h", "b.cpp", "c.cpp"},
          {"struct P { int x; };\nint only_b(P p);\n",
           "int f();\n#include \"a.h\"\nint g() { return only_b({1}); }\n", "#include \"a.h\""});
  ASSERT_EQ(instances("move-decl", S).size(), 4u); // 2 declarations x 2 includers.
  EXPECT_EQ(apply("move-decl", S, 2),
            (std::vector<std::string>{
                "struct P { int x; };\n", // The newline goes with the declaration.
                "int f();\n#include \"a.h\"\nint only_b(P p);\nint g() { return only_b({1}); }\n",
                S.Texts[2]}));
  // c.cpp's include is its last line, without a newline: the moved text
  // starts on a line of its own, and no newline is added after it.
  EXPECT_EQ(apply("move-decl", S, 3),
            (std::vector<std::string>{"int only_b(P p);\n", S.Texts[1],
                                      "#include \"a.h\"\nstruct P { int x; };"}));
  // Both declarations to b.cpp keep the header's order.
  std::vector<SetChange> I = instances("move-decl", S);
  EXPECT_EQ(applySetChanges(S.Texts, {&I[0], &I[1]}),
            (std::vector<std::string>{"",
                                      "int f();\n#include \"a.h\"\nstruct P { int x; };\nint "
                                      "only_b(P p);\nint g() { return only_b({1}); }\n",
                                      S.Texts[2]}));
}

TEST(CrossFilePasses, InlineHeaderMovesAHeaderIntoItsOnlyIncluder) {
  FileSet S = set({"inc/a.h", "src/b.cpp"},
                  {"struct A { int x; };", "int f();\n#include \"../inc/a.h\"\nA g();\n"});
  ASSERT_EQ(instances("inline-header", S).size(), 1u);
  EXPECT_EQ(apply("inline-header", S),
            (std::vector<std::string>{"", "int f();\nstruct A { int x; };\nA g();\n"}));
}

TEST(CrossFilePasses, InlineHeaderLeavesSharedEmptyAndOutsideHeaders) {
  // a.h has two includers; e.h is empty; x.h is not a file of the set.
  FileSet S = set({"a.h", "b.cpp", "c.cpp", "e.h"},
                  {"int a;\n", "#include \"a.h\"\n#include \"e.h\"\n#include \"x.h\"\n",
                   "#include \"a.h\"\n", ""});
  EXPECT_TRUE(instances("inline-header", S).empty());
  // With one includer left, a.h can move.
  S.Texts[2] = "";
  EXPECT_EQ(instances("inline-header", S).size(), 1u);
}

TEST(IncludersFirst, PutsEachFileBeforeTheFilesItIncludes) {
  // main.cpp includes b.h, which includes a.h; other.cpp includes a.h; x.h
  // is not in the set.
  FileSet S = set({"a.h", "b.h", "main.cpp", "other.cpp", "lone.h"},
                  {"int a;\n", "#include \"a.h\"\n", "#include \"b.h\"\n#include \"x.h\"\n",
                   "#include \"a.h\"\n", ""});
  EXPECT_EQ(includersFirst(S), (std::vector<std::size_t>{2, 3, 4, 1, 0}));
  // A cycle of includes ends, with the file outside it first.
  FileSet Cycle = set({"x.h", "y.h", "main.c"},
                      {"#include \"y.h\"\n", "#include \"x.h\"\n", "#include \"x.h\"\n"});
  std::vector<std::size_t> Order = includersFirst(Cycle);
  ASSERT_EQ(Order.size(), 3u);
  EXPECT_EQ(Order[0], 2u);
}

TEST(CrossFilePasses, MoveDeclKeepsTheTokensAndNeverMovesIntoAnIncludedFile) {
  // x.h and y.h include each other; main.c includes x.h. A declaration of x.h may go to main.c
  // but not to y.h, from where it could come back.
  FileSet S = set({"x.h", "y.h", "main.c"},
                  {"#include \"y.h\"\nint x; // the x\nint z;", "#include \"x.h\"\nint y;\n",
                   "#include \"x.h\"\nint main(void) { return x; }\n"});
  std::vector<SetChange> I = instances("move-decl", S);
  for (const SetChange &C : I)
    for (const FileEdit &P : C.Parts)
      EXPECT_NE(P.File, 1u) << "a move into y.h, which x.h includes, or out of y.h into x.h";
  auto Tokens = [](const std::vector<std::string> &Texts) {
    std::size_t N = 0;
    for (const std::string &T : Texts)
      N += lexC(T, false).size();
    return N;
  };
  ASSERT_FALSE(I.empty());
  for (const SetChange &C : I)
    EXPECT_EQ(Tokens(applySetChanges(S.Texts, {&C})), Tokens(S.Texts));
}

TEST(CrossFilePasses, InlineHeaderAndMoveDeclJoinFiles) {
  for (const CrossFileTransformation *T : allCrossFileTransformations())
    EXPECT_EQ(T->joinsFiles(),
              std::string(T->name()) == "inline-header" || std::string(T->name()) == "move-decl")
        << T->name();
}
