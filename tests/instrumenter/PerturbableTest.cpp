// A build for the soundness oracle (InstrumentRequest::AddressedLocals, `sleuth instrument
// --perturbable`): the writes of kept locals pass the local's address, so that a perturbed run
// can change what they stored; and every build marks the writes whose probe runs before their
// store (SLEUTH_FLAG_BEFORE_STORE), whose value a perturbed run changes only after the store.
#include "RewriteFixture.h"

#include <regex>

using namespace sleuth;

namespace {

class PerturbableTest : public RewriteFixture {
protected:
  std::string rewrite(const std::string &Name, const std::string &Source, bool Addressed) {
    return RewriteFixture::rewrite(Name, Source, {},
                                   [&](InstrumentRequest &R) { R.AddressedLocals = Addressed; });
  }

  static size_t count(const std::string &Text, const std::string &Pattern) {
    std::regex Re(Pattern);
    return size_t(
        std::distance(std::sregex_iterator(Text.begin(), Text.end(), Re), std::sregex_iterator()));
  }
};

const char *const KeptWrites = "int f(int n) {\n"
                               "  int s = n;\n"   // a declaration
                               "  s = s * 2;\n"   // an assignment
                               "  s++;\n"         // ++ discarded
                               "  int t = s++;\n" // ++ whose old value is used
                               "  register int r = t; r = r + 1;\n"
                               "  return s + t + r;\n"
                               "}\n";

TEST_F(PerturbableTest, KeptLocalsOfAnOracleBuildPassTheirAddress) {
  std::string Text = rewrite("a.c", KeptWrites, true);
  // s's declaration, assignment and discarded ++, and t's declaration: after their store.
  EXPECT_EQ(count(Text, "sleuth_def_at\\(&__sleuth_tu, [0-9]+u, [^,]+, &\\(s\\), sizeof\\(s\\)\\)"),
            3u)
      << Text;
  EXPECT_EQ(count(Text, "sleuth_def_at\\(&__sleuth_tu, [0-9]+u, [^,]+, &\\(t\\), sizeof\\(t\\)\\)"),
            1u)
      << Text;
  // `s++` whose value is used: before its store.
  EXPECT_EQ(
      count(Text, "sleuth_defnow_at\\(&__sleuth_tu, [0-9]+u, [^,]+, &\\(s\\), sizeof\\(s\\)\\)"),
      1u)
      << Text;
  // A register variable has no address: its writes stay sleuth_def.
  EXPECT_EQ(count(Text, "&\\(r\\)"), 0u) << Text;
  EXPECT_EQ(count(Text, "= sleuth_def(?:_nopending)?(?:_hot)?\\(&__sleuth_tu, [0-9]+u, [^,]+\\)"),
            2u)
      << Text;
}

TEST_F(PerturbableTest, ADefaultBuildPassesNoAddressOfKeptLocals) {
  std::string Text = rewrite("a.c", KeptWrites, false);
  EXPECT_EQ(count(Text, "sleuth_def(?:now)?_at\\("), 0u) << Text;
  EXPECT_EQ(count(Text, "&\\([str]\\)"), 0u) << Text;
}

TEST_F(PerturbableTest, CxxKeptLocalsPassTheirAddressByBuiltin) {
  std::string Text = rewrite("a.cpp", "int f(int n) { int s = n; s += 2; return s; }\n", true);
  EXPECT_EQ(count(Text, "sleuth_def_at\\(&__sleuth_tu, [0-9]+u, [^,]+, __builtin_addressof\\(s\\), "
                        "sizeof\\(s\\)\\)"),
            2u)
      << Text;
}

/// The flags of the sites named Name in the unit's table, in order.
std::vector<unsigned> flagsOf(const std::string &Text, const std::string &Name) {
  std::vector<unsigned> Flags;
  std::regex Row("\\{0, ([0-9]+), [0-9]+, [0-9]+, [0-9]+, [0-9]+, [0-9]+, \"" + Name + "\"\\}");
  for (auto It = std::sregex_iterator(Text.begin(), Text.end(), Row); It != std::sregex_iterator();
       ++It)
    Flags.push_back(unsigned(std::stoul((*It)[1])));
  return Flags;
}

TEST_F(PerturbableTest, WritesRecordedBeforeTheirStoreAreMarked) {
  // x stays in the shadow memory (its address is taken): C's `x++` whose value is used is
  // recorded before its store (sleuth_setnow), a discarded one after it.
  std::string C = rewrite("b.c",
                          "int g(int *p);\n"
                          "int f(void) { int x = 1; g(&x); int y = x++; x++; return y + x; }\n",
                          false);
  EXPECT_EQ(flagsOf(C, "x"), (std::vector<unsigned>{0u, 9u, 1u})) << C;
  // C++ records a postfix ++ before its store (sleuth::wrote around the operand), a prefix one
  // after it.
  std::string Cxx = rewrite("b.cpp",
                            "int g(int *p);\n"
                            "int f() { int x = 1; g(&x); x++; ++x; int y = x--; return y; }\n",
                            false);
  EXPECT_EQ(flagsOf(Cxx, "x"), (std::vector<unsigned>{0u, 9u, 1u, 9u})) << Cxx;
}

} // namespace
