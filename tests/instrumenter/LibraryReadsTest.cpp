// Strings that library calls read: the bytes' origins are read where the argument is known.
#include "RewriteFixture.h"

namespace sleuth {
namespace {

using LibraryReadsTest = RewriteFixture;

TEST_F(LibraryReadsTest, StringFromACallIsReadWhereItIsEvaluated) {
  // A call's value cannot be evaluated again before printf: the probe wraps the argument and
  // yields the string. A variable's is read before the call, as before.
  std::string Text = rewrite("returned.c", "#include <stdio.h>\n"
                                           "const char *name(void);\n"
                                           "void show(const char *tag) {\n"
                                           "  printf(\"%s %s\\n\", name(), tag);\n"
                                           "  puts(name());\n"
                                           "}\n");
  EXPECT_NE(Text.find("sleuth_got_string((sleuth_call"), std::string::npos) << Text;
  EXPECT_NE(Text.find("(sleuth_get_string(tag), printf("), std::string::npos) << Text;
  EXPECT_NE(Text.find("puts(sleuth_got_string("), std::string::npos) << Text;
}

} // namespace
} // namespace sleuth
