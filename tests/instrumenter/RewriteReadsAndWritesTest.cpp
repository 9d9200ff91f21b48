// Reads and writes with no plain assignment's syntax: compound literals, class template members,
// copies the compiler writes, member initializers, structured bindings and lambda captures.
#include "RewriteTest.h"

#include <regex>

using namespace sleuth;

TEST_F(RewriteTest, CompoundLiteralsWhoseAddressIsTakenAreWrites) {
  // `&(struct s){x, y}` and an array literal passed as a pointer: the literal's creation is a
  // write of its whole object whose node the initializer's reads flow into. A literal read by
  // value needs none, and one of an unnamed struct type, which no cast can spell, is left alone.
  std::string Text = rewrite("literals.c", "struct s { int a, b; };\n"
                                           "int use(const struct s *p);\n"
                                           "int total(const int *v, int n);\n"
                                           "int f(int x, int y) {\n"
                                           "  struct s v = (struct s){x, y};\n"
                                           "  int k = use(&(struct s){x, y});\n"
                                           "  k += total((int[]){x, y}, 2);\n"
                                           "  k += (struct s){x, y}.a;\n"
                                           "  k += (&(struct { int c; }){x})->c;\n"
                                           "  return k + v.a;\n"
                                           "}\n");
  std::smatch Struct;
  ASSERT_TRUE(std::regex_search(
      Text, Struct,
      std::regex(
          "use\\(\\(sleuth_arg\\([^;]*\\(\\*\\(struct s \\*\\)sleuth_created\\(&__sleuth_tu, "
          "(\\d+)u, [^,]+, &\\(struct s\\)\\{\\(sleuth_chk\\(&__sleuth_tu, "
          "&__sleuth_rc\\[\\d+\\], (\\d+)u, __sleuth_o\\d+_0\\), x\\), [^}]*\\}, "
          "sizeof\\(struct s\\)\\)\\)\\)")))
      << Text;
  EXPECT_EQ(Struct[1], Struct[2]) << "x's read flows into the literal's node\n" << Text;
  EXPECT_TRUE(std::regex_search(
      Text,
      std::regex(
          "total\\(\\(sleuth_arg\\(&__sleuth_tu, \\d+u, 1\\), \\(\\*\\(int \\(\\*\\)\\[2\\]\\)"
          "sleuth_created\\(&__sleuth_tu, \\d+u, [^;]*, sizeof\\(int\\[2\\]\\)\\)\\)\\), 2\\)")))
      << Text;
  EXPECT_NE(Text.find("\"(struct s){...}\"}"), std::string::npos) << Text;
  EXPECT_NE(Text.find("\"(int[]){...}\"}"), std::string::npos) << Text;
  size_t Count = 0;
  for (size_t At = Text.find("sleuth_created("); At != std::string::npos;
       At = Text.find("sleuth_created(", At + 1))
    ++Count;
  EXPECT_EQ(Count, 2u) << Text;
  // C++ has no address of a compound literal: nothing to record.
  std::string Cxx = rewrite("literals.cpp", "struct s { int a, b; };\n"
                                            "int f(int x) { return (struct s){x, 1}.a; }\n");
  EXPECT_EQ(Cxx.find("sleuth_created("), std::string::npos) << Cxx;
}

TEST_F(RewriteTest, ClassTemplateMembersAreReadAndWrittenWhateverTheirTypes) {
  // In a template pattern Clang leaves out the conversions and operators that wait for the
  // instantiation: reads are taken by syntax where the operand is an lvalue in every
  // instantiation, and assignments that may call an operator= are recorded beside them.
  std::string Text = rewrite("t.cpp",
                             "template <class T, int N> struct Ring {\n"
                             "  T Items[N];\n"
                             "  int Next = 0;\n"
                             "  void push(const T &V) { Items[Next++ % N] = V; }\n"
                             "  void put(int I, const T &V) { Items[I] = V; }\n"
                             "  T &at(int I) { return Items[I]; }\n"
                             "  T copyAt(int I) const { return Items[I]; }\n"
                             "  T first() const { T F = Items[0]; return F; }\n"
                             "};\n"
                             "template <class C> bool any(C &Box) { return Box[0]; }\n"
                             "struct P { int V; };\n"
                             "P make();\n"
                             "int use() {\n"
                             "  Ring<int, 2> R;\n"
                             "  R.push(1);\n"
                             "  R.put(0, 2);\n"
                             "  int A[1] = {1};\n"
                             "  return R.at(0) + R.copyAt(1) + R.first() + any(A) + make().V;\n"
                             "}\n",
                             {"-std=c++17"});
  auto Has = [&](const std::string &Pattern) {
    return std::regex_search(Text, std::regex(Pattern));
  };
  // Members of the class template (typed through `this`, which is dependent).
  EXPECT_TRUE(Has("sleuth::wrote\\(&__sleuth_tu, [0-9]+u, [^,]+, Next\\)\\+\\+")) << Text;
  // A target with side effects: its address is kept by the runtime until the store is done.
  EXPECT_TRUE(Has("\\(\\(void\\)\\(sleuth::target\\(&__sleuth_tu, [0-9]+u, [^,]+, Items\\[.*"
                  "\\]\\) = " +
                  checked("sleuth::rdc") + "V\\)\\), \\(void\\)sleuth_commit\\(\\)\\)"))
      << Text;
  // A repeatable target is named again after the store.
  EXPECT_TRUE(Has("\\), sleuth_set(?:_nopending)?\\(&__sleuth_tu, [0-9]+u, [^,]+, "
                  "__builtin_addressof\\(Items\\[I\\]\\), sizeof\\(Items\\[I\\]\\)\\)\\)"))
      << Text;
  // Returned by reference: no read; by value, and copied into a variable: read.
  // (I, an int whose every use is builtin whatever T is, keeps its origin in a companion.)
  EXPECT_TRUE(Has("return Items\\[\\(" + checked("sleuth_chk") + "__sleuth_o2_0\\), I\\)\\]; \\}"))
      << Text;
  EXPECT_TRUE(Has("return " + checked("sleuth::rdc") + "Items\\[")) << Text;
  EXPECT_TRUE(Has("T F = " + checked("sleuth::rdc") + "Items\\[0\\]\\)")) << Text;
  // The object of a subscript that may be its class's operator[] is not read by it.
  EXPECT_TRUE(Has("return Box\\[0\\]")) << Text;
  // A member of a temporary is an xvalue: no read (sleuth::rd takes lvalues).
  EXPECT_TRUE(Has("make\\(\\)\\)?\\.V")) << Text;
  EXPECT_FALSE(Has("sleuth::rdc?\\([^;]*make\\(\\)\\)?\\.V\\)")) << Text;
}

TEST_F(RewriteTest, CopiesTheCompilerWritesReadTheirSource) {
  // A struct copied by the constructor or assignment the compiler writes has no
  // lvalue-to-rvalue conversion: the copy reads its source all the same, also as an argument
  // passed by value, and `latest = second` is a write of latest.
  std::string Text = rewrite("copies.cpp", "struct R { int a, b; };\n"
                                           "int use(R r) { return r.a; }\n"
                                           "int f(R first, R second) {\n"
                                           "  R copy = first;\n"
                                           "  R latest{0, 0};\n"
                                           "  latest = second;\n"
                                           "  return use(copy) + latest.b;\n"
                                           "}\n");
  EXPECT_TRUE(
      std::regex_search(Text, std::regex("R copy = " + checked("sleuth::rdc") + "first\\)")))
      << Text;
  EXPECT_TRUE(
      std::regex_search(Text, std::regex("sleuth::wrote\\(&__sleuth_tu, \\d+u, [^,]+, latest = " +
                                         checked("sleuth::rdc") + "second\\)\\)")))
      << Text;
  EXPECT_NE(Text.find("use((sleuth_arg(&__sleuth_tu, "), std::string::npos) << Text;
  EXPECT_NE(Text.find("sleuth::rd(copy)"), std::string::npos) << Text;
}

TEST_F(RewriteTest, ConstructorMemberInitializersAreWrites) {
  // Each member initializer (and a default member initializer) is a write at the body's start
  // that reads what its initializer read; a declaration constructed by the program's own
  // constructor makes a node without overwriting what the constructor wrote.
  std::string Text = rewrite("ctor.cpp", "struct C {\n"
                                         "  C(const int &raw, int offset) : value(raw - offset), "
                                         "copy(value) {}\n"
                                         "  int value;\n"
                                         "  int copy;\n"
                                         "  int count = 1;\n"
                                         "};\n"
                                         "int f(int x) {\n"
                                         "  C c(x, 2);\n"
                                         "  return c.copy;\n"
                                         "}\n");
  EXPECT_TRUE(std::regex_search(
      Text,
      std::regex(
          "sleuth_get\\(sleuth::address_of\\(raw\\), sizeof\\(raw\\)\\); "
          "sleuth_use\\(__sleuth_o\\d+_\\d+\\); sleuth_set(?:_nopending)?\\(&__sleuth_tu, \\d+u, "
          "[^,]+, sleuth::address_of\\(this->value\\), sizeof\\(this->value\\)\\); "
          "sleuth_get\\(sleuth::address_of\\(this->value\\), sizeof\\(this->value\\)"
          "\\); sleuth_set\\([^;]*this->copy[^;]*; sleuth_set\\([^;]*this->count")))
      << Text;
  for (const char *Site :
       {"2, 35, 0, 0, 0, \"value\"}", "2, 56, 0, 0, 0, \"copy\"}", "5, 7, 0, 0, 0, \"count\"}"})
    EXPECT_NE(Text.find(Site), std::string::npos) << Site << "\n" << Text;
  // The constructor call carries its record on the argument it can (x, bound to a reference,
  // reads nothing; 2 is no lvalue either): see ConstructorCallsPassTheirArgumentsOn.
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("C c\\(\\(sleuth_construct_arg\\(&__sleuth_tu, \\d+u, [^,]+, \\d+u, 1u\\), "
                       "x\\), 2\\); int __sleuth_d\\d+ "
                       "__attribute__\\(\\(unused\\)\\) = "
                       "\\(\\(void\\)sleuth_def\\(")))
      << Text;
}

TEST_F(RewriteTest, RangeForWithStructuredBindingsWritesEachName) {
  // `for (auto [k, v] : pairs)`: the variable has no name, its bindings are what the body
  // reads (before, the probe took the address of an empty name and the file compiled
  // uninstrumented).
  std::string Text = rewrite("bindings.cpp",
                             "struct P { int k, v; };\n"
                             "int f(P (&ps)[2]) {\n"
                             "  int s = 0;\n"
                             "  for (auto [k, v] : ps)\n"
                             "    s += k * v;\n"
                             "  return s;\n"
                             "}\n",
                             {"-std=c++17"});
  EXPECT_EQ(Text.find("__builtin_addressof()"), std::string::npos) << Text;
  EXPECT_NE(Text.find("__builtin_addressof(k), sizeof(k))"), std::string::npos) << Text;
  EXPECT_NE(Text.find("__builtin_addressof(v), sizeof(v))"), std::string::npos) << Text;
}

TEST_F(RewriteTest, ADecompositionByCopyWritesEachBinding) {
  // `auto [a, b] = p;` copies p into an object the bindings name, unseen: each binding is a
  // write after the declaration, the first taking the initializer's reads, the others reading
  // p again. A bit-field's binding has no address; a declaration by reference names p itself.
  std::string Text = rewrite("decomposition.cpp",
                             "struct P { int a, b; };\n"
                             "struct Flags { unsigned on : 1; unsigned level : 3; };\n"
                             "int f(P p, Flags g) {\n"
                             "  auto [a, b] = p;\n"
                             "  auto [on, level] = g;\n"
                             "  const auto &[c, d] = p;\n"
                             "  return a * b + int(on) + c * d;\n"
                             "}\n",
                             {"-std=c++17"});
  EXPECT_TRUE(std::regex_search(
      Text, std::regex("auto \\[a, b\\] = [^;]*p\\); int __sleuth_d(\\d+) "
                       "__attribute__\\(\\(unused\\)\\) = \\(\\(void\\)sleuth_decl\\(&__sleuth_tu, "
                       "\\1u, [^;]*__builtin_addressof\\(a\\), sizeof\\(a\\)\\), 0\\); int "
                       "__sleuth_d(\\d+) __attribute__\\(\\(unused\\)\\) = \\(sleuth_getc\\("
                       "&__sleuth_tu, &__sleuth_rc\\[\\d+\\], \\2u, __builtin_addressof\\(p\\), "
                       "sizeof\\(p\\)\\), \\(void\\)sleuth_decl\\(&__sleuth_tu, \\2u, [^;]*"
                       "__builtin_addressof\\(b\\), sizeof\\(b\\)\\), 0\\);")))
      << Text;
  EXPECT_EQ(Text.find("__builtin_addressof(on)"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("__builtin_addressof(c)"), std::string::npos) << Text;
}

TEST_F(RewriteTest, BindingsInTemplatesAreReadWhereTheyHaveAnAddress) {
  // In a pattern the bindings wait for the instantiation: each instantiation says whether one
  // is a bit-field (no address); the others are written by the declaration (by copy) and read.
  std::string Text = rewrite("template_bindings.cpp",
                             "#include <utility>\n"
                             "struct Flags { unsigned on : 1; unsigned level : 3; };\n"
                             "template <class P> int product(P p) {\n"
                             "  auto [a, b] = p;\n"
                             "  return a * b;\n"
                             "}\n"
                             "template <class T> unsigned levels(const T &f) {\n"
                             "  auto [on, level] = f;\n"
                             "  return on ? level : 0u;\n"
                             "}\n"
                             "int main() {\n"
                             "  Flags f{1, 3};\n"
                             "  return product(std::pair<int, int>{2, 3}) + int(levels(f));\n"
                             "}\n",
                             {"-std=c++17"});
  EXPECT_NE(Text.find("__builtin_addressof(a), sizeof(a))"), std::string::npos) << Text;
  EXPECT_NE(Text.find("__builtin_addressof(b), sizeof(b))"), std::string::npos) << Text;
  EXPECT_TRUE(std::regex_search(Text, std::regex("return sleuth::rdc\\([^;]*, a\\) \\* "
                                                 "sleuth::rdc\\([^;]*, b\\);")))
      << Text;
  EXPECT_EQ(Text.find("__builtin_addressof(on)"), std::string::npos) << Text;
  EXPECT_NE(Text.find("return on ? level : 0u;"), std::string::npos) << Text;
}

TEST_F(RewriteTest, LambdasReadWhatTheyCaptureByCopy) {
  // The closure copies `offset` and `p` when it is created: they are read by a node of the
  // closure's own (sleuth::made), which what takes the closure reads (the declaration of
  // `shift`); a capture by reference is not read. In the body, which cannot change its copies,
  // `offset` has that node for its origin whatever copy of the closure runs.
  // (A captured local stays in the shadow memory: the closure may outlive its companion.)
  std::string Text =
      rewrite("captures.cpp", "struct P { int a; };\n"
                              "int f(int offset, P p, int &total) {\n"
                              "  auto shift = [offset, p, &total](int v) {\n"
                              "    total += v;\n"
                              "    return v + offset + p.a;\n"
                              "  };\n"
                              "  auto count = [offset]() mutable { offset += 1; return offset; };\n"
                              "  return shift(1) + count();\n"
                              "}\n");
  // A mutable lambda's copies are its own variables: read through the shadow memory.
  EXPECT_TRUE(
      std::regex_search(Text, std::regex("return sleuth::rdc\\(&__sleuth_tu, [^;]*, offset\\);")))
      << Text;
  std::smatch Closure;
  ASSERT_TRUE(std::regex_search(
      Text, Closure,
      std::regex(
          "auto shift = sleuth::made\\(&__sleuth_tu, (\\d+)u, [^,]+, \\(\\(void\\)sleuth::rdc\\("
          "&__sleuth_tu, [^,]+, \\1u, offset\\), \\(void\\)sleuth::rdc\\(&__sleuth_tu, [^,]+, "
          "\\1u, p\\), \\[offset, p, &total\\]")))
      << Text;
  EXPECT_NE(Text.find("(__sleuth_tu.base + " + Closure[1].str() + "u)), offset)"),
            std::string::npos)
      << Text;
  EXPECT_NE(Text.find("\"[offset, p]\"}"), std::string::npos) << "the closure's site\n" << Text;
  EXPECT_EQ(Text.find("rdc(total)"), std::string::npos) << Text;
  EXPECT_EQ(Text.find("address_of(total)"), std::string::npos) << Text;
}
