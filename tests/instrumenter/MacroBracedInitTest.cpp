// Reads hidden in a macro whose expansion is no expression (MacroReadProbe): a braced list
// (`#define BUF_INIT(m) { m, 0 }`), a direct initializer (`point p LIST(m, 3);`, `new
// point(ARGS(m))`). No comma expression can hold them: a variable's initializer has its reads
// in a declaration of the instrumentation's before the declaration, a returned value before
// the return statement, and a new expression is read around as a whole. The rewritten text
// must compile; each test parses it again.
#include "RewriteFixture.h"

#include <regex>

using namespace sleuth;

namespace {

class MacroBracedInitTest : public RewriteFixture {
protected:
  InstrumentResult instrumentFile(const std::string &Name, const std::string &Source,
                                  std::vector<std::string> Args) {
    return instrumentSource(Name, Source, std::move(Args),
                            [](InstrumentRequest &R) { R.StaticReads = false; });
  }

  /// The rewritten text of Source, which must itself parse (with the runtime's headers) as C
  /// or C++ under Args: the instrumenter parses it again.
  std::string rewrite(const std::string &Name, const std::string &Source,
                      const std::vector<std::string> &Args) {
    InstrumentResult Result = instrumentFile(Name, Source, Args);
    EXPECT_TRUE(Result.Ok) << Result.Error;
    std::vector<std::string> Again = Args;
    Again.insert(Again.end(), {"-isystem", runtimeIncludeDir()});
    InstrumentResult Parsed = instrumentFile("rewritten-" + Name, Result.Text, Again);
    EXPECT_TRUE(Parsed.Ok) << "the rewritten text does not compile: " << Parsed.Error << "\n"
                           << Result.Text;
    return Result.Text;
  }
};

/// The site of the node that records the write of Var's declaration (`sleuth_decl` of its
/// address, or `sleuth_def` of its companion), or -1.
int declarationSite(const std::string &Text, const std::string &Var) {
  std::smatch M;
  if (std::regex_search(Text, M,
                        std::regex("sleuth_decl\\(&__sleuth_tu, ([0-9]+)u, [^;]*&\\(" + Var +
                                   "\\), sizeof\\(" + Var + "\\)\\)")) ||
      std::regex_search(Text, M,
                        std::regex("sleuth_decl\\(&__sleuth_tu, ([0-9]+)u, [^;]*__builtin_"
                                   "addressof\\(" +
                                   Var + "\\), sizeof\\(" + Var + "\\)\\)")))
    return std::stoi(M[1]);
  return -1;
}

/// The text of a declaration of the instrumentation's that reads before `Declaration` (its
/// text as written, a regular expression): the reads, or "" if there is none.
std::string readsBefore(const std::string &Text, const std::string &Declaration) {
  std::smatch M;
  std::regex Before("int __sleuth_m[0-9]+_[0-9]+ __attribute__\\(\\(unused\\)\\) = \\(([^;]*)"
                    "0\\); " +
                    Declaration);
  return std::regex_search(Text, M, Before) ? std::string(M[1]) : "";
}

/// True if Reads (a read's text) is checked against node Site.
bool checkedAgainst(const std::string &Reads, int Site) {
  return std::regex_search(Reads, std::regex("(sleuth_chk|sleuth_getc)\\(&__sleuth_tu, "
                                             "&__sleuth_rc\\[[0-9]+\\], " +
                                             std::to_string(Site) + "u, "));
}

TEST_F(MacroBracedInitTest, ABracedInitializerReadsBeforeTheDeclaration) {
  std::string Text = rewrite("buf.c",
                             "struct buf { int len; int cap; };\n"
                             "#define BUF_INIT(m) { m, 0 }\n"
                             "int use(int m) {\n"
                             "  struct buf b = BUF_INIT(m);\n"
                             "  return b.len;\n"
                             "}\n",
                             {"-std=c99"});
  // Not around the list: `(sleuth_chk(...), BUF_INIT(m))` is no initializer.
  EXPECT_EQ(Text.find(", BUF_INIT(m))"), std::string::npos) << Text;
  // The parameter's read goes before the declaration, checked against b's node.
  std::string Reads = readsBefore(Text, "struct buf b = BUF_INIT\\(m\\);");
  EXPECT_NE(Reads.find("__sleuth_o0_0"), std::string::npos) << Text;
  EXPECT_TRUE(checkedAgainst(Reads, declarationSite(Text, "b"))) << Text;
}

TEST_F(MacroBracedInitTest, ListsArraysDesignatorsAndCallsInsideTheBraces) {
  std::string Text = rewrite("forms.c",
                             "struct buf { int len; int cap; };\n"
                             "struct pair { struct buf b; int n; };\n"
                             "#define BUF_INIT(m) { m, 0 }\n"
                             "#define LIST(x, y) { x, y }\n"
                             "#define ELEMS(x, y) x, y\n"
                             "#define DESIG(m) { .cap = 1, .len = m }\n"
                             "#define PAIR(m) { BUF_INIT(m), 1 }\n"
                             "#define CALLED(m) { twice(m), 0 }\n"
                             "static int twice(int x) { return 2 * x; }\n"
                             "int use(int m) {\n"
                             "  int *where = &m;\n"
                             "  int a[] = LIST(m, *where);\n"
                             "  int e[] = { ELEMS(m, 1) };\n"
                             "  struct buf d = DESIG(m);\n"
                             "  struct pair q = PAIR(m);\n"
                             "  struct buf c = CALLED(m);\n"
                             "  struct buf j = (struct buf)BUF_INIT(m);\n"
                             "  return a[1] + e[0] + d.len + q.b.len + c.len + j.len;\n"
                             "}\n",
                             {"-std=c99"});
  // m's address is taken: read through the shadow memory, by its address.
  for (const char *Declaration :
       {"int a\\[\\] = LIST\\(m, \\*where\\);", "int e\\[\\] = \\{ ELEMS\\(m, 1\\) \\};",
        "struct buf d = DESIG\\(m\\);", "struct pair q = PAIR\\(m\\);",
        "struct buf c = CALLED\\(m\\);", "struct buf j = \\(struct buf\\)BUF_INIT\\(m\\);"}) {
    std::string Reads = readsBefore(Text, Declaration);
    EXPECT_NE(Reads.find("&(m), sizeof(m)"), std::string::npos) << Declaration << "\n" << Text;
  }
  // A lvalue of a macro argument whose address loads only variables (`*where`) too.
  EXPECT_NE(readsBefore(Text, "int a\\[\\] = LIST").find("&(*where), sizeof(*where)"),
            std::string::npos)
      << Text;
  EXPECT_TRUE(
      checkedAgainst(readsBefore(Text, "struct buf c = CALLED"), declarationSite(Text, "c")))
      << Text;
}

TEST_F(MacroBracedInitTest, AVariableOfTheSameDeclarationIsNotReadBeforeIt) {
  std::string Text = rewrite("same.c",
                             "struct buf { int len; int cap; };\n"
                             "#define BUF_INIT(m) { m, 0 }\n"
                             "int use(int n) {\n"
                             "  struct buf a = BUF_INIT(n), b = BUF_INIT(a.len);\n"
                             "  return b.len;\n"
                             "}\n",
                             {"-std=c99"});
  // n is the parameter's name before the declaration as in a's initializer; a is not declared
  // yet there.
  std::string Reads = readsBefore(Text, "struct buf a = ");
  EXPECT_NE(Reads.find("__sleuth_o0_0"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("&(a.len)"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("&(a)"), Text.rfind("&(a)")) << "a is only written:\n" << Text;
}

TEST_F(MacroBracedInitTest, CxxListAndDirectInitializersAndReturnedLists) {
  std::string Text = rewrite("forms.cpp",
                             "#include <vector>\n"
                             "struct buf { int len; int cap; };\n"
                             "struct point {\n"
                             "  point(int x, int y) : x_(x), y_(y) {}\n"
                             "  int x_, y_;\n"
                             "};\n"
                             "#define BUF_INIT(m) { m, 0 }\n"
                             "#define LIST(x, y) { x, y }\n"
                             "#define ARGS(m) m, 5\n"
                             "buf made(int m) { return BUF_INIT(m); }\n"
                             "int use(int m) {\n"
                             "  buf b = BUF_INIT(m);\n"
                             "  std::vector<int> v = LIST(m, b.len);\n"
                             "  point p LIST(m, 3);\n"
                             "  point q(ARGS(m));\n"
                             "  point *r = new point(ARGS(m));\n"
                             "  int k = b.len + v[1] + p.x_ + q.x_ + r->x_;\n"
                             "  delete r;\n"
                             "  return k;\n"
                             "}\n",
                             {"-std=c++20"});
  for (const char *Declaration :
       {"buf b = BUF_INIT\\(m\\);", "std::vector<int> v = LIST\\(m, b.len\\);",
        "point p LIST\\(m, 3\\);", "point q\\(ARGS\\(m\\)\\);"})
    EXPECT_NE(readsBefore(Text, Declaration), "") << Declaration << "\n" << Text;
  // A new expression is read around as a whole, not its type: `new (reads, point(...))` would be
  // a placement new.
  EXPECT_TRUE(std::regex_search(Text, std::regex("point \\*r = \\(sleuth_getc\\([^;]*\\), new "
                                                 "point\\(ARGS\\(m\\)\\)\\)")))
      << Text;
  // A returned list: the reads go before the return statement.
  EXPECT_TRUE(std::regex_search(Text, std::regex("\\(void\\)\\(sleuth_getc\\([^;]*, 0\\); return "
                                                 "BUF_INIT\\(m\\);")))
      << Text;
}

} // namespace
