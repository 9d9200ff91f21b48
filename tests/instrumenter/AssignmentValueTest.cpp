// The value of a C++ assignment to a local whose origin lives in a companion local: the
// assignment is an lvalue that the enclosing expression converts to a value, and that read must
// take the origin the write has just put into the companion (the shadow memory holds none for
// such a local).
#include "RewriteFixture.h"

namespace sleuth {
namespace {

using AssignmentValueTest = RewriteFixture;

TEST_F(AssignmentValueTest, CompoundAssignmentReadsTheCompanionAfterTheWrite) {
  std::string Text = rewrite("compound.cpp", "int g(int);\n"
                                             "int f(int n) {\n"
                                             "  int c = n;\n"
                                             "  return g((c += 4) * 2);\n"
                                             "}\n");
  EXPECT_NE(Text.find("(void)(__sleuth_o0_1 = sleuth_def(&__sleuth_tu, 1u, __sleuth_cq0)), "
                      "(sleuth_use(__sleuth_o0_1), c))) * 2"),
            std::string::npos)
      << Text;
  EXPECT_EQ(Text.find("sleuth::rd("), std::string::npos) << Text;
}

TEST_F(AssignmentValueTest, ChainedAssignmentReadsTheInnerTarget) {
  // `a = b = n`: a's write reads b's new value, statically here (no probe: the edge is in the
  // site table) or through the companion, never through the shadow memory.
  std::string Text = rewrite("chain.cpp", "int f(int n) {\n"
                                          "  int a, b;\n"
                                          "  a = b = n + 1;\n"
                                          "  return a * b;\n"
                                          "}\n");
  EXPECT_EQ(Text.find("sleuth::rd"), std::string::npos) << Text;
}

} // namespace
} // namespace sleuth
