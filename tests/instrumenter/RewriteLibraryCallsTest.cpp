// C library calls: the runtime's twins of memory and string copies, formatting calls and
// strftime writing their destination, effect nodes, qsort, and the strings calls read.
#include "RewriteTest.h"

#include <regex>

using namespace sleuth;

TEST_F(RewriteTest, MemoryCallsTakeTheRuntimesTwins) {
  // memcpy, memmove and memset call the runtime header's twins, which carry or clear the
  // bytes' origins; the arguments keep their read probes. A callee spelled by a macro (zlib's
  // zmemcpy) or called through a pointer is left as it was.
  std::string Text = rewrite("mem.c", "#include <string.h>\n"
                                      "#define zmemcpy memcpy\n"
                                      "struct p { int x, y; };\n"
                                      "void f(struct p *q, char *buf, int n) {\n"
                                      "  struct p a;\n"
                                      "  void *(*copy)(void *, const void *, size_t) = memcpy;\n"
                                      "  memcpy(&a, q, sizeof a);\n"
                                      "  memmove(buf, buf + 1, n);\n"
                                      "  memset(buf, n, 4);\n"
                                      "  zmemcpy(q, &a, sizeof a);\n"
                                      "  copy(q, &a, sizeof a);\n"
                                      "}\n");
  EXPECT_TRUE(std::regex_search(Text, std::regex("sleuth_memcpy\\(&a, [^;]*q\\), sizeof a\\)")))
      << Text;
  EXPECT_TRUE(
      std::regex_search(Text, std::regex("sleuth_memmove\\([^;]*buf\\) \\+ 1, [^;]*n\\)\\)")))
      << Text;
  EXPECT_TRUE(std::regex_search(Text, std::regex("sleuth_memset\\([^;]*n\\), 4\\)"))) << Text;
  EXPECT_NE(Text.find("zmemcpy("), std::string::npos) << Text;
  EXPECT_EQ(Text.find("sleuth_memcpy(q"), std::string::npos) << Text;
  EXPECT_NE(Text.find("= memcpy;"), std::string::npos) << Text;
  // C++: std::memcpy too.
  std::string Cxx = rewrite("mem.cpp", "#include <cstring>\n"
                                       "void g(int *d, const int *s) { std::memcpy(d, s, 8); }\n");
  EXPECT_TRUE(
      std::regex_search(Cxx, std::regex("[^:]sleuth_memcpy\\([^;]*, d\\), [^;]*, s\\), 8\\)")))
      << Cxx;
  EXPECT_EQ(Cxx.find("std::"), std::string::npos) << Cxx;
}

TEST_F(RewriteTest, FormattingCallsWriteTheirDestinationAsANodeOfTheirOwn) {
  // sprintf and snprintf call their twins with a write site named after the destination, whose
  // node the arguments' reads flow into (checked against it, not left to the assignment that
  // takes the call's value); the format's checks stay the call's. A callee spelled by a macro
  // is left alone.
  std::string Text = rewrite("fmt.c", "#include <stdio.h>\n"
                                      "#define PRINT_NUMBER sprintf\n"
                                      "int f(char *out, double d, int n) {\n"
                                      "  char buffer[32];\n"
                                      "  int k = sprintf(buffer, \"%g\", d);\n"
                                      "  k += snprintf(out + k, 8, \"%d\", n);\n"
                                      "  PRINT_NUMBER(buffer, \"%d\", n);\n"
                                      "  return k;\n"
                                      "}\n");
  std::smatch Sprintf, Snprintf;
  ASSERT_TRUE(
      std::regex_search(Text, Sprintf,
                        std::regex("sleuth_sprintf\\(&__sleuth_tu\\w*, (\\d+)u, [^,]+, buffer, "
                                   "\"%g\", \\(sleuth_chk\\([^;]*, (\\d+)u, __sleuth_o\\d+_1\\), "
                                   "d\\)\\)")))
      << Text;
  EXPECT_EQ(Sprintf[1], Sprintf[2]) << "d's read flows into the sprintf node\n" << Text;
  ASSERT_TRUE(std::regex_search(
      Text, Snprintf,
      std::regex(
          "sleuth_snprintf\\(&__sleuth_tu\\w*, (\\d+)u, [^;]*, (\\d+)u, __sleuth_o\\d+_0\\), "
          "out\\) \\+ [^;]*k\\), 8, ")))
      << Text;
  EXPECT_EQ(Snprintf[1], Snprintf[2]) << "out's read flows into the snprintf node\n" << Text;
  EXPECT_NE(Text.find("\"*buffer\"}"), std::string::npos) << Text;
  EXPECT_NE(Text.find("\"*(out + k)\"}"), std::string::npos) << Text;
  EXPECT_NE(Text.find("PRINT_NUMBER(buffer"), std::string::npos) << Text;
  // glibc's fortified sprintf is a macro in C as Clang parses it: the invocation is renamed.
  std::string Fortified = rewrite("fortified.c",
                                  "#include <stdio.h>\n"
                                  "int g(char *out, int n) { return sprintf(out, \"%d\", n); }\n",
                                  {"-O2", "-D_FORTIFY_SOURCE=2"});
  EXPECT_TRUE(std::regex_search(
      Fortified, std::regex("sleuth_sprintf\\(&__sleuth_tu\\w*, \\d+u, [^,]+, out, ")))
      << Fortified;
  EXPECT_NE(Fortified.find("\"*out\"}"), std::string::npos) << Fortified;
}

TEST_F(RewriteTest, DiscardedLibraryCallsAreEffectNodes) {
  // A call into the library whose value the statement discards is a node the call's reads flow
  // into, so that a slice can start at the line that printed a value; also without reads
  // (its control). Not a call whose probe made a node (sprintf), a call of an instrumented
  // function (its parameters take the reads), nor a compiler builtin.
  std::string Text = rewrite("effects.c", "#include <setjmp.h>\n"
                                          "#include <stdarg.h>\n"
                                          "#include <stdio.h>\n"
                                          "#include <stdlib.h>\n"
                                          "static jmp_buf env;\n"
                                          "static void note(int n) { (void)n; }\n"
                                          "int f(char *buf, int n, ...) {\n"
                                          "  va_list ap;\n"
                                          "  va_start(ap, n);\n"
                                          "  printf(\"%d\\n\", n);\n"
                                          "  (void)fflush(stdout);\n"
                                          "  sprintf(buf, \"%d\", n);\n"
                                          "  note(n);\n"
                                          "  va_end(ap);\n"
                                          "  if (n < 0)\n"
                                          "    exit(n);\n"
                                          "  if (n == 7)\n"
                                          "    longjmp(env, n);\n"
                                          "  return n;\n"
                                          "}\n");
  std::smatch Printf;
  ASSERT_TRUE(std::regex_search(
      Text, Printf,
      std::regex("printf\\(\"%d\\\\n\", \\(sleuth_getc\\(&__sleuth_tu, &__sleuth_rc\\[\\d+\\], "
                 "(\\d+)u, &\\(n\\), sizeof\\(n\\)\\), n\\)\\)\\), sleuth_effect\\(&__sleuth_tu, "
                 "(\\d+)u, ")))
      << Text;
  EXPECT_EQ(Printf[1], Printf[2]) << "n's read flows into the printf node\n" << Text;
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("\\(\\(void\\)\\(\\(void\\)fflush\\(stdout\\)\\), sleuth_effect\\(")))
      << Text;
  EXPECT_NE(Text.find("\"<printf()>\"}"), std::string::npos) << Text;
  EXPECT_NE(Text.find("{6, 0, 10, 3, "), std::string::npos) << "an effect site at 10:3\n" << Text;
  for (const char *Name : {"<sprintf()>", "<note()>", "<__builtin_va_end()>", "<longjmp()>"})
    EXPECT_EQ(Text.find(Name), std::string::npos) << Name << "\n" << Text;
  // A library call that does not return (exit) has its node before it: its status's reads are
  // checked against it as they are evaluated. Not longjmp, whose reads are setjmp's value's.
  std::smatch Exit;
  ASSERT_TRUE(std::regex_search(
      Text, Exit,
      std::regex("\\(sleuth_effect\\(&__sleuth_tu, (\\d+)u, [^)]*\\), exit\\(\\(sleuth_getc\\("
                 "&__sleuth_tu, &__sleuth_rc\\[\\d+\\], (\\d+)u, &\\(n\\)")))
      << Text;
  EXPECT_EQ(Exit[1], Exit[2]) << "n's read flows into the exit node\n" << Text;
  EXPECT_NE(Text.find("\"<exit()>\"}"), std::string::npos) << Text;
  // C++: `std::cout << n;` (a library operator), a void library call in a block of its own.
  std::string Cxx = rewrite("effects.cpp", "#include <cstdlib>\n"
                                           "#include <iostream>\n"
                                           "void g(int n, int *p) {\n"
                                           "  std::cout << n;\n"
                                           "  std::free(p);\n"
                                           "}\n");
  EXPECT_NE(Cxx.find("\"<operator<<()>\"}"), std::string::npos) << Cxx;
  EXPECT_TRUE(std::regex_search(
      Cxx, std::regex(
               "\\{ std::free\\([^;]*p\\)\\); sleuth_effect\\(&__sleuth_tu, \\d+u, [^;]*\\); \\}")))
      << Cxx;
}

TEST_F(RewriteTest, StringCopiesTakeTheRuntimesTwins) {
  // strcpy, stpcpy, strncpy, strcat, strncat and mempcpy call their twins too; strlen and
  // strchr, which write nothing, and a local function that happens to be named like one of them
  // in C++ (no builtin) are left alone.
  std::string Text = rewrite("str.c", "#define _GNU_SOURCE\n"
                                      "#include <string.h>\n"
                                      "char *f(char *d, const char *s, unsigned long n) {\n"
                                      "  strcpy(d, s);\n"
                                      "  strncpy(d, s, n);\n"
                                      "  strcat(d, s);\n"
                                      "  strncat(d, s, n);\n"
                                      "  mempcpy(d, s, n);\n"
                                      "  n = strlen(d) + (strchr(d, 'a') != 0);\n"
                                      "  return stpcpy(d, s);\n"
                                      "}\n");
  for (const char *Twin : {"sleuth_strcpy(", "sleuth_strncpy(", "sleuth_strcat(", "sleuth_strncat(",
                           "sleuth_mempcpy(", "sleuth_stpcpy("})
    EXPECT_NE(Text.find(Twin), std::string::npos) << Twin << "\n" << Text;
  EXPECT_NE(Text.find(" strlen("), std::string::npos) << Text;
  EXPECT_NE(Text.find("strchr("), std::string::npos) << Text;
  EXPECT_EQ(Text.find("sleuth_strlen"), std::string::npos) << Text;
  std::string Cxx = rewrite("str.cpp", "namespace mine { char *strcpy(char *d, const char *) "
                                       "{ return d; } }\n"
                                       "char *g(char *d) { return mine::strcpy(d, \"x\"); }\n");
  EXPECT_NE(Cxx.find("mine::strcpy("), std::string::npos) << Cxx;
  EXPECT_EQ(Cxx.find("sleuth_strcpy"), std::string::npos) << Cxx;
}

TEST_F(RewriteTest, QsortWritesTheWholeArray) {
  // The library permutes the array: after the call it is a compound write of its elements
  // (an array or a pointer with the count and size it was given), when the arguments may be
  // evaluated again; not `qsort(next(), ...)`.
  std::string Text = rewrite("sort.c", "#include <stdlib.h>\n"
                                       "int cmp(const void *a, const void *b);\n"
                                       "int *next(void);\n"
                                       "int f(int *p, int n) {\n"
                                       "  int a[4] = {4, 3, 2, 1};\n"
                                       "  qsort(a, 4, sizeof a[0], cmp);\n"
                                       "  qsort(p, n, sizeof *p, cmp);\n"
                                       "  qsort(next(), 2, sizeof(int), cmp);\n"
                                       "  return a[0] + p[0];\n"
                                       "}\n");
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("\\(\\(qsort\\(a, 4, sizeof a\\[0\\], cmp\\)\\), "
                       "sleuth_set(?:_nopending)?\\(&__sleuth_tu, "
                       "\\d+u, [^,]+, a, \\(unsigned long\\)\\(4\\) \\* \\(unsigned "
                       "long\\)\\(sizeof a\\[0\\]\\)\\)\\)")))
      << Text;
  EXPECT_TRUE(
      std::regex_search(Text, std::regex("sleuth_set\\([^;]*, p, \\(unsigned long\\)\\(n\\) "
                                         "\\* \\(unsigned long\\)\\(sizeof \\*p\\)\\)")))
      << Text;
  EXPECT_EQ(Text.find("(unsigned long)(2)"), std::string::npos) << Text;
  EXPECT_NE(Text.find("\"a\"}"), std::string::npos) << "a write named after the array\n" << Text;
}

TEST_F(RewriteTest, LibraryCallsReadTheStringsTheyRead) {
  // printf's plain `%s` arguments (after a `*` width's argument; not `%.*s`, whose buffer may
  // have no terminator, nor `%p`), puts and strcmp's strings are read to their '\0' before
  // the call; a literal is not; fwrite's buffer is no string.
  std::string Text = rewrite("strings.c", "#include <stdio.h>\n"
                                          "#include <string.h>\n"
                                          "int f(char *name, const char *tag, char *raw, int n) {\n"
                                          "  printf(\"%*d %s %.*s %p %%s %s\\n\", n, n, name, n, "
                                          "raw, (void *)raw, \"lit\");\n"
                                          "  puts(tag);\n"
                                          "  fwrite(raw, 1, 3, stdout);\n"
                                          "  return strcmp(name, tag);\n"
                                          "}\n");
  EXPECT_NE(Text.find("(sleuth_get_string(name), printf("), std::string::npos) << Text;
  EXPECT_EQ(Text.find("sleuth_get_string(raw)"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("sleuth_get_string(\"lit\")"), std::string::npos) << Text;
  EXPECT_NE(Text.find("(sleuth_get_string(tag), puts("), std::string::npos) << Text;
  EXPECT_NE(Text.find("(sleuth_get_string(name), sleuth_get_string(tag), strcmp("),
            std::string::npos)
      << Text;
}

TEST_F(RewriteTest, StrftimeWritesTheBytesItFormats) {
  // The call is wrapped: a write named after the buffer, whose node the arguments' reads (the
  // year's) flow into; not where the buffer's text has side effects.
  std::string Text =
      rewrite("stamp.c", "#include <time.h>\n"
                         "unsigned long f(struct tm *t, char *p) {\n"
                         "  char buf[32];\n"
                         "  unsigned long n = strftime(buf, sizeof buf, \"%Y\", t);\n"
                         "  n += strftime(p++, 8, \"%d\", t);\n"
                         "  return n + (unsigned long)buf[0];\n"
                         "}\n");
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("sleuth_time_formatted\\(&__sleuth_tu, \\d+u, [^,]+, buf, strftime\\(buf, "
                       "sizeof buf, \"%Y\", [^;]*t\\)\\)\\)")))
      << Text;
  EXPECT_NE(Text.find("\"*buf\"}"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("p++, strftime"), std::string::npos) << Text;
}

TEST_F(RewriteTest, FortifiedPrintfReadsOnlyStringsTheFileSpells) {
  // With _FORTIFY_SOURCE glibc's printf is a macro (as Clang parses it): its `%s` arguments
  // spelled in the invocation are read; one that a macro of the program's made (luac's
  // `S(x)`, whose `SS(x)` is `x` in the macro's body) is not: its text would name `x`.
  std::string Text = rewrite("fortified.c",
                             "#include <stdio.h>\n"
                             "#define SS(x) ((x == 1) ? \"\" : \"s\")\n"
                             "#define S(x) (int)(x), SS(x)\n"
                             "void f(int n, const char *w) {\n"
                             "  printf(\"%d thing%s %s\\n\", S(n), w);\n"
                             "}\n",
                             {"-O2", "-D_FORTIFY_SOURCE=2"});
  EXPECT_NE(Text.find("(sleuth_get_string(w), printf(\"%d thing%s %s\\n\", S(n), w))"),
            std::string::npos)
      << Text;
  EXPECT_EQ(Text.find("sleuth_get_string(x"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("sleuth_get_string(((x"), std::string::npos) << Text;
}
