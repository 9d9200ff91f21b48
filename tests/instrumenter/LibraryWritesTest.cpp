// Library calls whose writes the program does not see: inside a template, the pattern's call
// waits for the instantiation (`in >> t`, `std::getline(in, s)`, `std::swap(a, b)` with
// operands of dependent type), and is recorded as the same call outside a template is when
// every instantiation calls the library; so is a member call on an object of dependent type
// (`out.push_back(x)`). And a function of the program's that returns a stream
// by reference: its return is a node even where its value ends in a string literal, and a
// statement that discards it is the output's node.
#include "RewriteFixture.h"

using namespace sleuth;

namespace {

class LibraryWritesTest : public RewriteFixture {
protected:
  /// The rewritten line of Source's that contains Marker (and a probe).
  std::string rewrittenLine(const std::string &Source, const std::string &Marker) {
    return lineWith(rewrite("library.cpp", Source, {"-std=c++17"}), Marker, "sleuth");
  }
};

const char *Templates = "#include <iostream>\n"
                        "#include <sstream>\n"
                        "#include <string>\n"
                        "#include <utility>\n"
                        "template <typename T> T parse(std::istringstream &in) {\n"
                        "  T t{};\n"
                        "  in >> t;\n"
                        "  return t;\n"
                        "}\n"
                        "template <typename T> void swapped(T &a, T &b) { std::swap(a, b); }\n"
                        "template <typename S> S line(std::istream &in) {\n"
                        "  S s;\n"
                        "  std::getline(in, s);\n"
                        "  return s;\n"
                        "}\n"
                        "int main() {\n"
                        "  std::istringstream in(\"31\\nx\\n\");\n"
                        "  int v = parse<int>(in);\n"
                        "  int b = 2;\n"
                        "  swapped(v, b);\n"
                        "  return int(line<std::string>(in).size()) + b;\n"
                        "}\n";

TEST_F(LibraryWritesTest, ExtractionInATemplateWritesItsOperand) {
  // Without it, t kept the origin of `T t{}` and was read as the operator's operand.
  std::string Line = rewrittenLine(Templates, ">> t");
  EXPECT_NE(Line.find(">> t), sleuth_set("), std::string::npos) << Line;
  EXPECT_NE(Line.find("sleuth::address_of(t), sizeof(t))"), std::string::npos) << Line;
  EXPECT_EQ(Line.find("sleuth::rd(t)"), std::string::npos) << Line;
}

TEST_F(LibraryWritesTest, GetlineInATemplateWritesItsString) {
  std::string Line = rewrittenLine(Templates, "std::getline(");
  EXPECT_NE(Line.find("sleuth_set("), std::string::npos) << Line;
  EXPECT_NE(Line.find("sleuth::address_of(s), sizeof(s))"), std::string::npos) << Line;
  EXPECT_EQ(Line.find("sleuth_call("), std::string::npos) << Line;
}

TEST_F(LibraryWritesTest, SwapInATemplateExchangesOrigins) {
  // Not a call record for the program's code, and no read of either object.
  std::string Line = rewrittenLine(Templates, "std::swap(");
  EXPECT_NE(Line.find("((std::swap(a, b)), sleuth_swapped("), std::string::npos) << Line;
  EXPECT_EQ(Line.find("sleuth::rd("), std::string::npos) << Line;
}

TEST_F(LibraryWritesTest, ATemplateThatCallsTheProgramIsLeftToTheCallProbe) {
  // An instantiation that calls the program's own operator>> (instrumented, writing the
  // object's fields itself) is no library write: the pattern is left as it was.
  std::string Line =
      rewrittenLine("#include <istream>\n"
                    "struct P { int x; };\n"
                    "std::istream &operator>>(std::istream &in, P &p) {\n"
                    "  return in >> p.x;\n"
                    "}\n"
                    "template <typename T> T get(std::istream &in) {\n"
                    "  T t{};\n"
                    "  in >> t; // marker\n"
                    "  return t;\n"
                    "}\n"
                    "int f(std::istream &in) { return get<P>(in).x + get<int>(in); }\n",
                    "// marker");
  EXPECT_EQ(Line.find("sleuth_set("), std::string::npos) << Line;
}

TEST_F(LibraryWritesTest, AMemberOfADependentContainerWritesIt) {
  // `out.push_back(x)` of a `std::vector<T>` calls the library's member in every
  // instantiation: as outside a template, the vector is a write after it (its elements watched
  // as it grows), not a call record for the program's code. A member of the program's own
  // class, in one instantiation, leaves the pattern to the call probe.
  const char *Source = "#include <vector>\n"
                       "struct Bag { void push_back(int) {} };\n"
                       "template <typename T> std::vector<T> doubled(const std::vector<T> &v) {\n"
                       "  std::vector<T> out;\n"
                       "  for (const T &x : v)\n"
                       "    out.push_back(2 * x); // vector\n"
                       "  return out;\n"
                       "}\n"
                       "template <typename C> void fill(C &c) {\n"
                       "  c.push_back(1); // either\n"
                       "}\n"
                       "int main() {\n"
                       "  std::vector<long> w{1, 2};\n"
                       "  std::vector<int> i;\n"
                       "  Bag b;\n"
                       "  fill(i);\n"
                       "  fill(b);\n"
                       "  return int(doubled(w).size() + doubled(i).size());\n"
                       "}\n";
  std::string Line = rewrittenLine(Source, "// vector");
  EXPECT_NE(Line.find("(sleuth::watch_all(out), out.push_back("), std::string::npos) << Line;
  EXPECT_NE(Line.find("sleuth::moved_all(out), sleuth_set"), std::string::npos) << Line;
  EXPECT_NE(Line.find("__builtin_addressof(out), sizeof(out))"), std::string::npos) << Line;
  EXPECT_EQ(Line.find("sleuth_call("), std::string::npos) << Line;
  Line = rewrittenLine(Source, "// either");
  EXPECT_EQ(Line.find("sleuth_set"), std::string::npos) << Line;
  EXPECT_NE(Line.find("sleuth_call("), std::string::npos) << Line;
}

TEST_F(LibraryWritesTest, AStreamsMemberWritesWhatItTakesByReference) {
  // `in.get(c)` was a write of the stream, which took the call: c kept its old origin.
  std::string Line = rewrittenLine("#include <istream>\n"
                                   "char first(std::istream &in, char &c) {\n"
                                   "  in.get(c);\n"
                                   "  return c;\n"
                                   "}\n",
                                   ".get(c)");
  EXPECT_NE(Line.find("sleuth::address_of(c), sizeof(c))"), std::string::npos) << Line;
  EXPECT_EQ(Line.find("__builtin_addressof(in)"), std::string::npos) << Line;
}

TEST_F(LibraryWritesTest, AStreamReturnEndingInALiteralIsANode) {
  // The lexer's token after the last character of `" pages)"` was a new string literal: the
  // return had no node, and what the operator printed went nowhere.
  std::string Line = rewrittenLine("#include <iostream>\n"
                                   "struct Doc { int pages; };\n"
                                   "std::ostream &operator<<(std::ostream &os, const Doc &d) {\n"
                                   "  return os << d.pages << \" pages\";\n"
                                   "}\n",
                                   "\" pages\"");
  EXPECT_NE(Line.find(".ret("), std::string::npos) << Line;
}

TEST_F(LibraryWritesTest, ADiscardedStreamOfTheProgramsIsAnOutput) {
  // `std::cout << doc;` calls the program's operator<<, whose value, what it printed, nothing
  // took: the statement is an effect node, as a library call's.
  std::string Line = rewrittenLine("#include <iostream>\n"
                                   "struct Doc { int pages; };\n"
                                   "std::ostream &operator<<(std::ostream &os, const Doc &d) {\n"
                                   "  return os << d.pages;\n"
                                   "}\n"
                                   "void show(const Doc &doc) {\n"
                                   "  std::cout << doc;\n"
                                   "}\n",
                                   "std::cout << doc");
  EXPECT_NE(Line.find("sleuth_effect("), std::string::npos) << Line;
  EXPECT_NE(Line.find("sleuth_callv("), std::string::npos) << Line;
}

} // namespace
