// Reads hidden in macro expansions (MacroReadProbe): read before the expansion or around the
// argument, and arguments whose text must stay as it was (lvalues, quoted arguments).
#include "RewriteTest.h"

#include <regex>

using namespace sleuth;

TEST_F(RewriteTest, AMacroArgumentReadAndAssignedKeepsItsTextAnLvalue) {
  // zlib's CRC2(state->check, hold) expands to `check = crc32(check, ...)`: the argument's text
  // is read in one place and assigned in another. The reads of `s` and `s->n` inside it go
  // before the whole expansion; the argument stays as it was (a comma expression is no lvalue
  // in C).
  std::string Text = rewrite("arg.c", "#define BUMP(c) ((c) = (c) * 2 + 1)\n"
                                      "struct box { int n; };\n"
                                      "int f(struct box *s) {\n"
                                      "  int y;\n"
                                      "  y = BUMP(s->n);\n"
                                      "  return y;\n"
                                      "}\n");
  EXPECT_TRUE(
      std::regex_search(Text, std::regex("y = \\(" + checked("sleuth_chk") + "__sleuth_o0_0\\), " +
                                         checked("sleuth_getc") +
                                         "&\\(s->n\\), sizeof\\(s->n\\)\\), BUMP\\(s->n\\)\\)")))
      << Text;
}

TEST_F(RewriteTest, ReadsInsideAMacroExpansionAreReadBeforeIt) {
  std::string Text = rewrite("mac.c", "#define SQUARE(v) ((v) * (v))\n"
                                      "#define SCALED (x * factor)\n"
                                      "#define CELL(p) ((p)[index])\n"
                                      "int f(int x, int *cells) {\n"
                                      "  int factor = 3, index = 1, y, z;\n"
                                      "  int *where = &factor;\n"
                                      "  y = SQUARE(x);\n"
                                      "  z = SCALED + *where;\n"
                                      "  CELL(cells) = y;\n"
                                      "  return y + z;\n"
                                      "}\n");
  // SQUARE's argument is spelled once but read twice: one read of x before the expansion,
  // checked against the write of y.
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("y = \\(" + checked("sleuth_chk") + "__sleuth_o0_0\\), SQUARE\\(x\\)\\)")))
      << Text;
  // A macro body naming a kept local and one in the shadow memory (its address is taken).
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("\\(" + checked("sleuth_chk") + "__sleuth_o0_0\\), " +
                       checked("sleuth_getc") + "&\\(factor\\), sizeof\\(factor\\)\\), SCALED\\)")))
      << Text;
  // An lvalue expansion stays as it was: in C a comma expression is no lvalue.
  EXPECT_NE(Text.find("(CELL(cells) = "), std::string::npos) << Text;
}

TEST_F(RewriteTest, MacroArgumentsThatTheMacroQuotesKeepTheirText) {
  // SHOW makes a string of its argument, EXPECT passes its argument on to SHOW, NAME pastes
  // its argument to a suffix: a probe inside any of these arguments would change the program's
  // messages or names; the reads go before the whole invocation. TWICE quotes nothing: its
  // argument's read goes before it too.
  const std::string Source = "int printf(const char *, ...);\n"
                             "#define SHOW(e) printf(\"%s = %d\\n\", #e, (e))\n"
                             "#define EXPECT(c) SHOW(c)\n"
                             "#define NAME(p) p##_max\n"
                             "#define TWICE(v) ((v) + (v))\n"
                             "int f(int x) {\n"
                             "  int y_max = 3, y;\n"
                             "  SHOW(x > 0);\n"
                             "  EXPECT(x + 1 > 2);\n"
                             "  y = NAME(y) + TWICE(x);\n"
                             "  return y;\n"
                             "}\n";
  for (const char *Name : {"quoted.c", "quoted.cpp"}) {
    std::string Text = rewrite(Name, Source);
    EXPECT_NE(Text.find("SHOW(x > 0)"), std::string::npos) << Text;
    EXPECT_NE(Text.find("EXPECT(x + 1 > 2)"), std::string::npos) << Text;
    EXPECT_NE(Text.find(" NAME(y)"), std::string::npos) << Text;
    EXPECT_TRUE(std::regex_search(
        Text, std::regex("\\(" + checked("sleuth_chk") + "__sleuth_o0_0\\), TWICE\\(x\\)\\)")))
        << Text;
  }
}

TEST_F(RewriteTest, AVariableReadInsideAMacroArgumentIsReadAroundTheArgumentInCxx) {
  // REQUIRE's condition reads the parameter c: the read goes around the argument's expression
  // (not around `c` itself, whose text SWAP-like macros may take the type of), as in C.
  std::string Text = rewrite("require.cpp", "#define REQUIRE(c, err) if (!(c)) return (err)\n"
                                            "int digit(char c) {\n"
                                            "  REQUIRE(c >= '0', -1);\n"
                                            "  return c - '0';\n"
                                            "}\n");
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("REQUIRE\\(\\(sleuth_use\\(__sleuth_o0_0\\), c >= '0'\\), -1\\)")))
      << Text;
}

TEST_F(RewriteTest, MemoryReadsInsideMacroArgumentsAreReadBeforeTheExpansion) {
  // glibc's tolower() when optimizing is a statement expression naming its argument several
  // times (LOWER); MAX spells each argument twice. An lvalue written in an argument whose
  // address loads only variables is read by its text just before the expansion. Not one whose
  // address loads memory (the macro may test `p` before `p->next->len`), nor one naming a
  // macro's own local (`*t` in WITH_T), nor a local of a statement expression written in the
  // file, which is out of scope before it (STORE).
  std::string Text = rewrite(
      "args.c", "struct node { int len; struct node *next; };\n"
                "#define LOWER(c) (__extension__({ int r_; if (sizeof(c) > 1) r_ = (c) + 1; "
                "else r_ = (c); r_; }))\n"
                "#define MAX(a, b) ((a) > (b) ? (a) : (b))\n"
                "#define WITH_T(x) (__extension__({ int *t = g; (x); }))\n"
                "#define THEN(p, x) ((p) ? (x) : 0)\n"
                "#define STORE(x) do { h = (x); } while (0)\n"
                "int *g, h;\n"
                "int f(const char *s, struct node *p, int *t, int n) {\n"
                "  int v[3] = {1, 2, 3}, i = n & 1;\n"
                "  int a = LOWER(*s);\n"
                "  int b = MAX(p->len, n) + MAX(v[i], 0);\n"
                "  int c = WITH_T(*t);\n"
                "  int d = THEN(p, p->next->len);\n"
                "  int e = ({ int k = a; STORE(k); k; });\n"
                "  return a + b + c + d + e;\n"
                "}\n");
  auto ReadBefore = [&](const std::string &Lvalue, const std::string &Expansion) {
    return std::regex_search(Text, std::regex(checked("sleuth_getc") + "&\\(" + Lvalue +
                                              "\\), sizeof\\(" + Lvalue + "\\)\\), [^;]*" +
                                              Expansion + "\\)"));
  };
  EXPECT_TRUE(ReadBefore("\\*s", "LOWER\\(\\*s\\)")) << Text;
  // The pointer `s` is read before the expansion too (a kept parameter: its companion).
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("int a = \\(" + checked("sleuth_chk") + "__sleuth_o0_0\\), ")))
      << Text;
  EXPECT_TRUE(ReadBefore("p->len", "MAX\\(p->len, n\\)")) << Text;
  EXPECT_TRUE(ReadBefore("v\\[i\\]", "MAX\\(v\\[i\\], 0\\)")) << Text;
  EXPECT_EQ(Text.find("&(*t)"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("&(p->next->len)"), std::string::npos) << Text;
  EXPECT_NE(Text.find("int e = ({ int k = "), std::string::npos) << Text;
}

TEST_F(RewriteTest, AStatementThatIsAMacroInvocationDropsTheReadsPushedBeforeIt) {
  // glibc's fortified snprintf is such a macro at -O2 (Clang has no __va_arg_pack): the reads
  // pushed before the expansion must not reach the next statement's node.
  std::string Text = rewrite("stmt.c", "int g(int, int);\n"
                                       "#define CALL(a, b) g((a), (b))\n"
                                       "int f(int x, int y) {\n"
                                       "  CALL(x, y);\n"
                                       "  (void)CALL(x, y + 1);\n"
                                       "  int o = 3;\n"
                                       "  return o;\n"
                                       "}\n");
  EXPECT_NE(Text.find("((void)((sleuth_use(__sleuth_o0_0), sleuth_use(__sleuth_o0_1), "
                      "CALL(x, y))), sleuth_discard());"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("((void)((void)(sleuth_use(__sleuth_o0_0), CALL(x, "
                      "(sleuth_use(__sleuth_o0_1), y + 1)))), sleuth_discard());"),
            std::string::npos)
      << Text;
}
