// The command line through sleuth_mutate_cli: listing, filters, sampling, -o with its
// manifest, --apply, --check-compile, and one-line errors that leave no output behind.
#include "TestUtil.h"

#include <sys/wait.h>

namespace sleuth::mutator::test {
namespace {

struct Outcome {
  int Status = -1;
  std::string Out, Err;
};

/// Runs sleuth_mutate_cli with Args (shell words) in Dir.
Outcome mutate(const std::filesystem::path &Dir, const std::string &Args) {
  std::string Command =
      "cd '" + Dir.string() + "' && '" SLEUTH_MUTATE_CLI "' " + Args + " >out.txt 2>err.txt";
  int Raw = std::system(Command.c_str());
  Outcome R;
  R.Status = WIFEXITED(Raw) ? WEXITSTATUS(Raw) : -1;
  R.Out = readFile(Dir / "out.txt");
  R.Err = readFile(Dir / "err.txt");
  return R;
}

Lines lines(const std::string &Text) {
  Lines Out;
  std::size_t B = 0;
  for (std::size_t E; (E = Text.find('\n', B)) != std::string::npos; B = E + 1)
    Out.push_back(Text.substr(B, E - B));
  if (B < Text.size())
    Out.push_back(Text.substr(B));
  return Out;
}

const char *const Source = "int f(int a, int b) {\n"
                           "  if (a < b && b > 0)\n"
                           "    return a * 2;\n"
                           "  return b;\n"
                           "}\n";

TEST(Cli, ListsOneMutantPerLine) {
  std::filesystem::path Dir = scratchDir();
  writeFile(Dir / "f.c", Source);
  Outcome R = mutate(Dir, "--list f.c -- -std=c89");
  ASSERT_EQ(R.Status, 0) << R.Err;
  Lines L = lines(R.Out);
  ASSERT_EQ(L.size(), 1u + 5u + 1u + 5u + 2u + 4u + 2u);
  EXPECT_EQ(L[0], "1 f.c:2:7 neg 'a < b && b > 0' -> '!(a < b && b > 0)'");
  EXPECT_EQ(L[1], "2 f.c:2:9 ror '<' -> '<='");
  EXPECT_EQ(L[6], "7 f.c:2:13 lcr '&&' -> '||'");
  EXPECT_EQ(L.back(), "20 f.c:3:16 obo '2' -> '1'");
  // Without --list, -o or --apply the list is printed too.
  EXPECT_EQ(mutate(Dir, "f.c -- -std=c89").Out, R.Out);
}

TEST(Cli, FiltersAndSamplesKeepIds) {
  std::filesystem::path Dir = scratchDir();
  writeFile(Dir / "f.c", Source);
  Outcome All = mutate(Dir, "f.c -- -std=c89");
  Outcome Lcr = mutate(Dir, "--operators lcr,neg f.c -- -std=c89");
  ASSERT_EQ(Lcr.Status, 0) << Lcr.Err;
  EXPECT_EQ(lines(Lcr.Out), (Lines{"1 f.c:2:7 neg 'a < b && b > 0' -> '!(a < b && b > 0)'",
                                   "7 f.c:2:13 lcr '&&' -> '||'"}));
  Outcome S1 = mutate(Dir, "--sample 5 --seed 7 f.c -- -std=c89");
  Outcome S2 = mutate(Dir, "--sample 5 --seed 7 f.c -- -std=c89");
  Outcome S3 = mutate(Dir, "--sample 5 --seed 8 f.c -- -std=c89");
  ASSERT_EQ(S1.Status, 0) << S1.Err;
  EXPECT_EQ(S1.Out, S2.Out);
  EXPECT_NE(S1.Out, S3.Out);
  Lines Picked = lines(S1.Out), Every = lines(All.Out);
  ASSERT_EQ(Picked.size(), 5u);
  for (const std::string &L : Picked)
    EXPECT_NE(std::find(Every.begin(), Every.end(), L), Every.end()) << L;
}

TEST(Cli, WritesMutantsAndManifest) {
  std::filesystem::path Dir = scratchDir();
  writeFile(Dir / "src/f.c", Source);
  Outcome R = mutate(Dir, "-o out --operators lcr src/f.c -- -std=c89");
  ASSERT_EQ(R.Status, 0) << R.Err;
  EXPECT_EQ(R.Out, "");
  EXPECT_EQ(readFile(Dir / "out/m0007/src/f.c"),
            "int f(int a, int b) {\n  if (a < b || b > 0)\n    return a * 2;\n  return b;\n}\n");
  std::string Manifest = readFile(Dir / "out/mutants.json");
  for (const char *Field :
       {"\"id\": 7", "\"dir\": \"m0007\"", "\"file\": \"src/f.c\"", "\"line\": 2", "\"column\": 13",
        "\"operator\": \"lcr\"", "\"function\": \"f\"", "\"original\": \"&&\"",
        "\"replacement\": \"||\""})
    EXPECT_NE(Manifest.find(Field), std::string::npos) << Field << " in " << Manifest;
  // Only the mutant directory and the manifest; no scratch left.
  unsigned Entries = 0;
  for (auto &E : std::filesystem::directory_iterator(Dir / "out"))
    Entries += E.exists();
  EXPECT_EQ(Entries, 2u);
  for (auto &E : std::filesystem::directory_iterator(Dir))
    EXPECT_EQ(E.path().filename().string().find(".partial"), std::string::npos);
  // A second run does not overwrite.
  Outcome Again = mutate(Dir, "--output out src/f.c -- -std=c89");
  EXPECT_EQ(Again.Status, 1);
  EXPECT_EQ(Again.Err, "sleuth mutate: out: exists and is not an empty directory\n");
}

TEST(Cli, AppliesOneMutant) {
  std::filesystem::path Dir = scratchDir();
  writeFile(Dir / "f.c", Source);
  Outcome R = mutate(Dir, "--apply 20 f.c -- -std=c89");
  ASSERT_EQ(R.Status, 0) << R.Err;
  EXPECT_EQ(R.Out,
            "int f(int a, int b) {\n  if (a < b && b > 0)\n    return a * 1;\n  return b;\n}\n");
  Outcome Bad = mutate(Dir, "--apply 99 f.c -- -std=c89");
  EXPECT_EQ(Bad.Status, 2);
  EXPECT_EQ(Bad.Err, "sleuth mutate: --apply: no mutant 99 (there are 20)\n");
}

TEST(Cli, ChecksThatMutantsCompile) {
  std::filesystem::path Dir = scratchDir();
  // The scratch copy is compiled beside f.c, so that it finds f.h.
  writeFile(Dir / "f.h", "#define N 2\n");
  writeFile(Dir / "f.c", "#include \"f.h\"\nint f(void) { int a[N] = {0}; return a[0] % 2; }\n");
  Outcome R = mutate(Dir, "--operators aor --check-compile 'cc -fsyntax-only {} && grep -q "
                          "\"return a\\[0\\] [-+] 2\" {}' "
                          "f.c -- -std=c89");
  ASSERT_EQ(R.Status, 0) << R.Err;
  EXPECT_EQ(lines(R.Out).size(), 2u) << R.Out;
  EXPECT_NE(R.Err.find("2 of 4 mutants dropped"), std::string::npos) << R.Err;
  // The scratch copy beside f.c is gone.
  unsigned Files = 0;
  for (auto &E : std::filesystem::directory_iterator(Dir))
    Files += E.path().extension() == ".c";
  EXPECT_EQ(Files, 1u);
}

TEST(Cli, ErrorsAreOneLineAndLeaveNoOutput) {
  std::filesystem::path Dir = scratchDir();
  writeFile(Dir / "f.c", Source);
  writeFile(Dir / "bad.c", "int f( { return 1 }\n");
  // Usage errors exit 2, bad input 1.
  Outcome Unknown = mutate(Dir, "--operators ror,xyz f.c");
  EXPECT_EQ(Unknown.Status, 2);
  EXPECT_EQ(Unknown.Err,
            "sleuth mutate: unknown operator 'xyz' (known: ror, aor, lcr, obo, neg, sdl)\n");
  Outcome Missing = mutate(Dir, "-o out missing.c");
  EXPECT_EQ(Missing.Status, 1);
  EXPECT_EQ(Missing.Err, "sleuth mutate: missing.c: no such file\n");
  Outcome Bad = mutate(Dir, "-o out f.c bad.c -- -std=c89");
  EXPECT_EQ(Bad.Status, 1);
  EXPECT_EQ(lines(Bad.Err).size(), 1u) << Bad.Err;
  EXPECT_EQ(Bad.Err.rfind("sleuth mutate: bad.c:1:", 0), 0u) << Bad.Err;
  EXPECT_FALSE(std::filesystem::exists(Dir / "out"));
  Outcome Option = mutate(Dir, "--bogus f.c");
  EXPECT_EQ(Option.Status, 2);
  EXPECT_EQ(Option.Err, "sleuth mutate: unknown option '--bogus' (see --help)\n");
  Outcome Sample = mutate(Dir, "--sample x f.c");
  EXPECT_EQ(Sample.Status, 2);
  EXPECT_EQ(Sample.Err, "sleuth mutate: invalid value 'x' for '--sample'\n");
  Outcome NoInput = mutate(Dir, "");
  EXPECT_EQ(NoInput.Status, 2);
  EXPECT_EQ(NoInput.Err, "sleuth mutate: no input file (see --help)\n");
  Outcome NoValue = mutate(Dir, "f.c --output");
  EXPECT_EQ(NoValue.Status, 2);
  EXPECT_EQ(NoValue.Err, "sleuth mutate: option '--output' needs a value\n");
}

TEST(Cli, ListsOperators) {
  std::filesystem::path Dir = scratchDir();
  Outcome R = mutate(Dir, "--list-operators");
  ASSERT_EQ(R.Status, 0);
  EXPECT_EQ(lines(R.Out).size(), 6u);
  EXPECT_EQ(R.Out.rfind("ror  relational operator replacement", 0), 0u) << R.Out;
}

} // namespace
} // namespace sleuth::mutator::test
