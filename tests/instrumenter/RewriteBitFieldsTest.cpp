// Bit-fields have no address: their reads and writes are of the bytes that hold their bits
// (BitFieldProbe), and a structured binding of one keeps its origin in a companion (by copy) or
// is reached through a reference to the bound object (by reference).
#include "RewriteTest.h"

#include <regex>

using namespace sleuth;

TEST_F(RewriteTest, BitFieldsAreReadAndWrittenThroughTheBytesThatHoldThem) {
  std::string Text =
      rewrite("bitfields.c", "struct flags { unsigned on : 1; unsigned level : 3; };\n"
                             "struct bytes { unsigned lo : 8; unsigned hi : 8; };\n"
                             "int f(struct flags *p, int x) {\n"
                             "  struct flags g = {0, 0};\n"
                             "  struct bytes w = {0, 0};\n"
                             "  int y;\n"
                             "  g.level = x;\n"
                             "  w.hi = x;\n"
                             "  p->on++;\n"
                             "  y = g.level + w.hi;\n"
                             "  return y + (g.level = 2);\n"
                             "}\n");
  // Written after the store, on the byte of its bits.
  EXPECT_TRUE(std::regex_search(
      Text,
      std::regex("\\(\\(void\\)\\(g\\.level = [^;]*x\\)\\), sleuth_set\\w*\\(&__sleuth_tu, \\d+u, "
                 "[^,]+, \\(\\(const volatile char \\*\\)&\\(g\\) \\+ 0\\), 1u\\)\\);")))
      << Text;
  EXPECT_NE(Text.find("((const volatile char *)&(w) + 1), 1u)"), std::string::npos) << Text;
  EXPECT_TRUE(std::regex_search(Text, std::regex("p\\)->on\\+\\+\\), sleuth_set\\w*\\([^;]*"
                                                 "\\(\\(const volatile char \\*\\)\\(p\\) \\+ "
                                                 "0\\), 1u\\)\\);")))
      << Text;
  // Read from the same bytes, before the value is taken.
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("y = \\(sleuth_getc\\(&__sleuth_tu, [^;]*\\(\\(const volatile char "
                       "\\*\\)&\\(g\\) \\+ 0\\), 1u\\), g\\.level\\) \\+ \\(sleuth_getc\\([^;]*"
                       "\\(\\(const volatile char \\*\\)&\\(w\\) \\+ 1\\), 1u\\), w\\.hi\\)")))
      << Text;
  // An assignment whose value is used: that value is read from the bytes again.
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("\\(\\(void\\)\\(g\\.level = 2\\), \\(void\\)sleuth_set\\w*\\([^;]*\\), "
                       "\\(sleuth_getc\\([^;]*&\\(g\\) \\+ 0\\), 1u\\), g\\.level\\)\\)")))
      << Text;
  // A write that shares its byte with other bits reads them too (a compound write); one that
  // has its bytes to itself does not.
  EXPECT_NE(Text.find("{0, 1, 7, 3, 0, 0, 0, \"g.level\"}"), std::string::npos) << Text;
  EXPECT_NE(Text.find("{0, 0, 8, 3, 0, 0, 0, \"w.hi\"}"), std::string::npos) << Text;
}

TEST_F(RewriteTest, BitFieldsOfThisAndPostfixValuesInCxx) {
  // C++ casts (-Wold-style-cast); `this` where the member is named alone. A postfix ++ whose
  // old value is used cannot be read again after the store: it is left unrecorded.
  std::string Text = rewrite("bitfields.cpp",
                             "struct S {\n"
                             "  unsigned a : 3;\n"
                             "  unsigned b : 5;\n"
                             "  void set(unsigned v) { b = v; }\n"
                             "  unsigned next() { return a++; }\n"
                             "};\n"
                             "unsigned use(S s) { s.set(1); return s.next(); }\n",
                             {"-std=c++17"});
  EXPECT_TRUE(std::regex_search(
      Text, std::regex(
                "\\(\\(void\\)\\(b = [^;]*v\\)\\), sleuth_set\\w*\\([^;]*\\(reinterpret_cast<const "
                "volatile char \\*>\\(this\\) \\+ 0\\), 1u\\)\\);")))
      << Text;
  EXPECT_NE(Text.find("return a++;"), std::string::npos) << Text;
}

TEST_F(RewriteTest, BindingsOfBitFieldsKeepOriginsOrReachTheBoundObject) {
  std::string Text = rewrite("bindings.cpp",
                             "struct Flags { unsigned on : 1; unsigned level : 3; };\n"
                             "unsigned copy(Flags f) {\n"
                             "  auto [on, level] = f;\n"
                             "  level += 1;\n"
                             "  return on ? level : 0u;\n"
                             "}\n"
                             "void raise(Flags &f, unsigned by) {\n"
                             "  auto &[on, level] = f;\n"
                             "  level = level + by;\n"
                             "}\n",
                             {"-std=c++17"});
  // By copy: each binding's origin is a companion, written after the declaration (the second
  // reads f again) and by the program's write, and read from there.
  std::smatch On, Level;
  ASSERT_TRUE(std::regex_search(
      Text, On,
      std::regex("auto \\[on, level\\] = [^;]*f\\); int __sleuth_d\\d+ "
                 "__attribute__\\(\\(unused\\)\\) = \\(\\(void\\)\\((__sleuth_o\\d+_\\d+)"
                 " = sleuth_def\\(")))
      << Text;
  ASSERT_TRUE(std::regex_search(
      Text, Level,
      std::regex("\\(sleuth_getc\\([^;]*__builtin_addressof\\(f\\), sizeof\\(f\\)\\), \\(void\\)\\("
                 "(__sleuth_o\\d+_\\d+) = sleuth_def\\(")))
      << Text;
  EXPECT_NE(Text.find("(sleuth_chk(&__sleuth_tu, &__sleuth_rc["), std::string::npos) << Text;
  EXPECT_NE(Text.find(", " + On[1].str() + "), on) ?"), std::string::npos) << Text;
  EXPECT_NE(Text.find(Level[1].str() + " = sleuth_def"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("__builtin_addressof(on)"), std::string::npos) << Text;
  // By reference: a reference to f after the declaration, through which the bytes are reached.
  std::smatch Alias;
  ASSERT_TRUE(std::regex_search(
      Text, Alias,
      std::regex("auto &\\[on, level\\] = f; auto &(__sleuth_b\\d+_0) = \\(f\\); \\(void\\)\\1;")))
      << Text;
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("\\(\\(void\\)\\(level = \\(sleuth_getc\\([^;]*reinterpret_cast<const "
                       "volatile char \\*>\\(__builtin_addressof\\(" +
                       Alias[1].str() +
                       "\\)\\) \\+ 0\\), 1u\\), level\\) \\+ [^;]*\\), sleuth_set\\w*\\([^;]*" +
                       Alias[1].str() + "\\)\\) \\+ 0\\), 1u\\)\\);")))
      << Text;
}
