// Loop statements whose parts are no statements of their own: a pointer declared by a for
// statement, and a ++/-- whose value a loop's condition uses.
#include "RewriteFixture.h"

#include <regex>

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

TEST_F(LoopStatementTest, ConditionReadsWhatADecrementWrote) {
  // `--c->left` records its node first (sleuth_setnow); the test, evaluated with it, reads that
  // node: a static edge of the value's (the high bit), test <- write, in the unit's table.
  std::string Text = rewrite("left.c", "struct counter { int left; };\n"
                                       "int rounds(struct counter *c) {\n"
                                       "  int n = 0;\n"
                                       "  while (--c->left > 0)\n"
                                       "    n++;\n"
                                       "  return n;\n"
                                       "}\n");
  std::smatch Write, Test, Edges;
  ASSERT_TRUE(std::regex_search(Text, Write, std::regex(R"(sleuth_setnow\(&__sleuth_tu, (\d+)u)")))
      << Text;
  ASSERT_TRUE(std::regex_search(Text, Test, std::regex(R"(sleuth_test\w*\(&__sleuth_tu, (\d+)u)")))
      << Text;
  ASSERT_TRUE(std::regex_search(Text, Edges, std::regex(R"(__sleuth_sd\[\] = \{([^}]*)\})")))
      << Text;
  unsigned long Value = 0x80000000ul | std::stoul(Write[1]);
  EXPECT_NE(Edges[1].str().find(Test[1].str() + "u, " + std::to_string(Value) + "u"),
            std::string::npos)
      << Text;
}

} // namespace
} // namespace sleuth
