// Loop statements whose parts are no statements of their own: a pointer declared by a for
// statement, and a ++/-- whose value a loop's condition uses.
#include "RewriteFixture.h"

namespace sleuth {
namespace {

using LoopStatementTest = RewriteFixture;

TEST_F(LoopStatementTest, PointerDeclaredByForIsWritten) {
  // The specifiers (`struct node`) take no int: the write is recorded by a dummy pointer
  // declarator, a null pointer in C's spelling and in C++'s.
  const char *Source = "struct node { struct node *next; };\n"
                       "int count(struct node *head) {\n"
                       "  int n = 0;\n"
                       "  for (struct node *p = head; p; p = p->next)\n"
                       "    n++;\n"
                       "  return n;\n"
                       "}\n";
  std::string C = rewrite("walk.c", Source);
  EXPECT_NE(C.find("*__sleuth_d"), std::string::npos) << C;
  EXPECT_NE(C.find("(void *)0); "), std::string::npos) << C;
  std::string Cxx = rewrite("walk.cpp", Source);
  EXPECT_NE(Cxx.find("*__sleuth_d"), std::string::npos) << Cxx;
  EXPECT_NE(Cxx.find("nullptr); "), std::string::npos) << Cxx;
}

TEST_F(LoopStatementTest, ConditionReadingADecrementLooksForPendingReads) {
  // `--c->left` records its node first and pushes it for the enclosing expression: the test
  // must consume it, so it is no `_nopending` probe.
  std::string Text = rewrite("left.c", "struct counter { int left; };\n"
                                       "int rounds(struct counter *c) {\n"
                                       "  int n = 0;\n"
                                       "  while (--c->left > 0)\n"
                                       "    n++;\n"
                                       "  return n;\n"
                                       "}\n");
  EXPECT_NE(Text.find("sleuth_setnow("), std::string::npos) << Text;
  EXPECT_EQ(Text.find("sleuth_test_nopending"), std::string::npos) << Text;
  EXPECT_NE(Text.find("sleuth_test"), std::string::npos) << Text;
}

} // namespace
} // namespace sleuth
