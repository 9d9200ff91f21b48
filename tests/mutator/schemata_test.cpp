// Mutant schemata: the text of the guards for each kind of mutant on small inputs, nesting,
// what is left out and why, the prelude, line numbers kept, and the --schemata command line.
#include "TestUtil.h"
#include "sleuth/slicer/source_hash.h"

#include <sys/wait.h>

namespace sleuth::mutator::test {
namespace {

/// The schemata of Source holding the mutants of Operator ("" for all), without its prelude.
struct Built {
  Schemata S;
  std::string Body;
};

Built schemata(const std::string &Source, const std::string &Operator,
               const std::string &Name = "input.cpp") {
  MutateResult R = parse(Source, Name);
  EXPECT_TRUE(R.Ok) << R.Error;
  std::vector<Mutant> Selected;
  for (const Mutant &M : R.Mutants)
    if (Operator.empty() || M.Operator == Operator)
      Selected.push_back(M);
  Built B{buildSchemata(R.Text, Name, Selected), ""};
  std::string Line = "#line 1 \"" + Name + "\"\n";
  std::size_t At = B.S.Text.find(Line);
  EXPECT_NE(At, std::string::npos) << B.S.Text;
  if (At != std::string::npos)
    B.Body = B.S.Text.substr(At + Line.size());
  return B;
}

TEST(Schemata, GuardsAnOperatorByAConditionalOnTheSwitch) {
  Built B = schemata("int f(int a, int b) { return a + b; }", "aor");
  EXPECT_EQ(B.Body, "int f(int a, int b) { return (__sleuth_mutant() == 1 ? (a - b) : "
                    "__sleuth_mutant() == 2 ? (a * b) : __sleuth_mutant() == 3 ? (a / b) : "
                    "__sleuth_mutant() == 4 ? (a % b) : (a + b)); }");
  EXPECT_EQ(B.S.Included, (std::vector<unsigned>{1, 2, 3, 4}));
  EXPECT_TRUE(B.S.Excluded.empty());
}

TEST(Schemata, NestsGuardsAndLeavesInnerMutantsOutOfOuterAlternatives) {
  // In `a * b + c` the outer `+` holds the inner `*`: the inner guard is in the original
  // branch only, since while an outer mutant is selected the inner one is not.
  Built B = schemata("int f(int a, int b, int c) { return a * b + c; }", "aor");
  EXPECT_EQ(B.Body, "int f(int a, int b, int c) { return (__sleuth_mutant() == 5 ? (a * b - c) : "
                    "__sleuth_mutant() == 6 ? (a * b * c) : __sleuth_mutant() == 7 ? (a * b / c) : "
                    "__sleuth_mutant() == 8 ? (a * b % c) : ((__sleuth_mutant() == 1 ? (a + b) : "
                    "__sleuth_mutant() == 2 ? (a - b) : __sleuth_mutant() == 3 ? (a / b) : "
                    "__sleuth_mutant() == 4 ? (a % b) : (a * b)) + c)); }");
}

TEST(Schemata, GuardsADeletedStatementByAnIfInBraces) {
  // The braces keep `else` with its own `if`.
  Built B = schemata("void f(int &x, bool c) { if (c) x++; else x--; }", "sdl");
  EXPECT_EQ(B.Body, "void f(int &x, bool c) { if (c) { if (__sleuth_mutant() != 2) x++; } "
                    "else { if (__sleuth_mutant() != 3) x--; } }");
}

TEST(Schemata, ConvertsConditionsWhereANegationChangesTheirType) {
  // `!(p)` is a bool, p a pointer: both branches become bools as `if (p)` converts p.
  Built B = schemata("int f(int *p) { if (p) return 1; return 2; }", "neg");
  EXPECT_EQ(B.Body, "int f(int *p) { if ((__sleuth_mutant() == 1 ? (!(p)) : (!!(p)))) "
                    "return 1; return 2; }");
  // Relational mutants of the same condition share its guard.
  Built Both = schemata("int f(int a) { if (a < 3) return 1; return 2; }", "");
  EXPECT_NE(Both.Body.find("if ((__sleuth_mutant() == 1 ? (!(a < 3)) : __sleuth_mutant() == 2 "
                           "? (!!(a <= 3)) : "),
            std::string::npos)
      << Both.Body;
}

TEST(Schemata, LeavesOutMutantsWhereAConstantIsNeeded) {
  // C: a static initializer must be a constant.
  Built C = schemata("int f(void) { static int n = 4; return n + 1; }", "obo", "input.c");
  ASSERT_EQ(C.S.Excluded.size(), 2u);
  EXPECT_EQ(C.S.Excluded[0].Reason, "in the initializer of a static variable");
  EXPECT_EQ(C.S.Included, (std::vector<unsigned>{7, 8}));
  EXPECT_NE(C.Body.find("static int n = 4;"), std::string::npos) << C.Body;
  // C++: a const integer initialized by a constant may be an array bound.
  Built Cpp = schemata("int f() { const int n = 2; int a[n] = {}; return a[0] + 7; }", "obo");
  ASSERT_EQ(Cpp.S.Excluded.size(), 2u);
  EXPECT_EQ(Cpp.S.Excluded[1].Reason, "in the initializer of a const integer");
  EXPECT_NE(Cpp.Body.find("const int n = 2;"), std::string::npos) << Cpp.Body;
  // Operators on a template's dependent operands may not exist in every instantiation.
  Built T = schemata("template <typename T> bool f(T a, T b) { return a < b; }", "ror");
  ASSERT_EQ(T.S.Excluded.size(), 5u);
  EXPECT_EQ(T.S.Excluded[0].Reason, "its operands have dependent types");
  EXPECT_TRUE(T.S.Included.empty());
}

TEST(Schemata, LeavesOutC89InitializerListsOnly) {
  const char *Source = "int f(void) { int a[2] = {1, 2}; return a[0]; }";
  MutateRequest R;
  R.File = writeFile(scratchDir() / "input.c", Source);
  R.Arguments = {"-std=c89"};
  MutateResult Old = findMutants(R);
  ASSERT_TRUE(Old.Ok) << Old.Error;
  EXPECT_EQ(buildSchemata(Old.Text, "input.c", Old.Mutants).Excluded.size(), 4u);
  R.Arguments = {"-std=c99"};
  MutateResult New = findMutants(R);
  ASSERT_TRUE(New.Ok) << New.Error;
  EXPECT_TRUE(buildSchemata(New.Text, "input.c", New.Mutants).Excluded.empty());
}

TEST(Schemata, GuardsWholeMacroExpansionsInAnExpression) {
  Built B = schemata("#define MAX 9\nint f(int i) { return i < MAX; }", "ror");
  EXPECT_TRUE(B.S.Excluded.empty());
  EXPECT_NE(B.Body.find("return (__sleuth_mutant() == 1 ? (i <= MAX) : "), std::string::npos)
      << B.Body;
}

TEST(Schemata, KeepsLineNumbersAndNamesTheOriginalFile) {
  Built B = schemata("int f(int a,\n      int b) {\n  return a +\n         b;\n}\n"
                     "int g() { return __LINE__; }\n",
                     "aor");
  EXPECT_EQ(std::count(B.Body.begin(), B.Body.end(), '\n'), 6) << B.Body;
  EXPECT_NE(B.Body.find("__sleuth_mutant() == 1 ? (a -          b) : "), std::string::npos)
      << B.Body;
  // A line comment inside the expression would swallow the rest of a joined line: such a
  // mutant is left out rather than shift the lines below it.
  Built Comment = schemata("int f(int a, int b) {\n  return a + // the sum\n    b;\n}\n", "aor");
  EXPECT_TRUE(Comment.S.Included.empty());
  ASSERT_EQ(Comment.S.Excluded.size(), 4u);
  EXPECT_EQ(Comment.S.Excluded[0].Reason, "its expression spans lines around a comment");
  EXPECT_EQ(std::count(Comment.S.Text.begin(), Comment.S.Text.end(), '\n'),
            Comment.S.PreludeLines + 4);
  Schemata Quoted = buildSchemata("int x;\n", "dir/a\"b.c", {});
  EXPECT_NE(Quoted.Text.find("\n#line 1 \"dir/a\\\"b.c\"\nint x;\n"), std::string::npos)
      << Quoted.Text;
}

//===--- the command line ----------------------------------------------------===//

int run(const std::filesystem::path &Dir, const std::string &Args, std::string &Err) {
  std::string Command =
      "cd '" + Dir.string() + "' && '" SLEUTH_MUTATE_CLI "' " + Args + " >out.txt 2>err.txt";
  int Raw = std::system(Command.c_str());
  Err = readFile(Dir / "err.txt");
  return WIFEXITED(Raw) ? WEXITSTATUS(Raw) : -1;
}

TEST(SchemataCli, WritesTheSchemataAndItsManifest) {
  std::filesystem::path Dir = scratchDir();
  writeFile(Dir / "f.c", "int f(int a) {\n  static int n = 1;\n  return a + n;\n}\n");
  std::string Err;
  ASSERT_EQ(run(Dir, "--schemata out.c f.c -- -std=c99", Err), 0) << Err;
  EXPECT_EQ(Err, "sleuth mutate: out.c: 4 of 6 mutants; left out: 2 in the initializer of a "
                 "static variable; (see out.c.json)\n");
  std::string Text = readFile(Dir / "out.c");
  EXPECT_NE(Text.find("#line 1 \"f.c\"\n"), std::string::npos);
  EXPECT_NE(Text.find("static int __sleuth_mutant(void)"), std::string::npos);
  std::string Manifest = readFile(Dir / "out.c.json");
  EXPECT_NE(Manifest.find("\"variable\": \"SLEUTH_MUTANT\""), std::string::npos) << Manifest;
  // The hash of the schemata's text, by which a reader sees a mismatched pair.
  EXPECT_NE(Manifest.find("\"schemata_hash\": \"" + sleuth::sourceHash(Text) + "\""),
            std::string::npos)
      << Manifest;
  EXPECT_NE(Manifest.find("\"reason\": \"in the initializer of a static variable\""),
            std::string::npos)
      << Manifest;
  // --operators selects what the schemata holds; ids stay those of --list.
  ASSERT_EQ(run(Dir, "--schemata aor.c --operators aor --list f.c -- -std=c99", Err), 0) << Err;
  EXPECT_EQ(readFile(Dir / "out.txt").substr(0, 26), "3 f.c:3:12 aor '+' -> '-'\n");
}

TEST(SchemataCli, RejectsSeveralFilesAndOtherOutputs) {
  std::filesystem::path Dir = scratchDir();
  writeFile(Dir / "f.c", "int f(int a) { return a + 1; }\n");
  writeFile(Dir / "g.c", "int g(int a) { return a - 1; }\n");
  std::string Err;
  EXPECT_EQ(run(Dir, "--schemata out.c f.c g.c", Err), 2);
  EXPECT_EQ(Err, "sleuth mutate: --schemata takes one FILE (its guards read one switch)\n");
  EXPECT_EQ(run(Dir, "--schemata out.c --apply 1 f.c", Err), 2);
  EXPECT_EQ(Err, "sleuth mutate: --schemata does not go with --apply or -o\n");
  EXPECT_FALSE(std::filesystem::exists(Dir / "out.c"));
  EXPECT_EQ(run(Dir, "--schemata ./f.c f.c", Err), 2);
  EXPECT_EQ(Err, "sleuth mutate: --schemata ./f.c: would overwrite the input\n");
  EXPECT_EQ(readFile(Dir / "f.c"), "int f(int a) { return a + 1; }\n");
}

} // namespace
} // namespace sleuth::mutator::test
