// Operands the instrumenter must spell as written: a returned global named with its namespace
// (`return ::std::cout;`), and a conditional whose operands are lvalues of two types (a
// `char *const` and a `const char *const`), a value for GCC and an lvalue for Clang.
#include <cstdio>
#include <iostream>

struct Report {
  std::ostream &out() { return ::std::cout; }
  int lines = 0;
};

int main(int argc, char **argv) {
  char *const program = argv[0];
  const char *const fixed = "fixed";
  const char *name(argc > 1 ? program : fixed);
  Report r;
  r.lines = argc + 2;
  r.out() << name[0] << ' ' << r.lines << '\n';
  return 0;
}
