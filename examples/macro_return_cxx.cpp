// Error checks that return from inside a macro's body, in C++: REQUIRE returns its error code,
// TRY (a GNU statement expression) passes a negative result on. The frame's destructor completes
// the return node of the statement whose macro returned, unless an exception unwinds the frame
// ('7' throws through TRY: no return node for it, the catch counts it).
#include <cstdio>
#include <stdexcept>

// clang-format off
#define REQUIRE(c, err) if (!(c)) return (err)
#define TRY(e) __extension__ ({ int r_ = (e); if (r_ < 0) return r_; r_; })
// clang-format on

static int parse_digit(char c) {
  REQUIRE(c >= '0', -1);
  REQUIRE(c <= '9', -2);
  if (c == '7')
    throw std::runtime_error("seven");
  return c - '0';
}

static int twice(char c) {
  int d = TRY(parse_digit(c));
  return d * 2;
}

int main() {
  const char *text = "4x72";
  int errors = 0, total = 0;
  for (int i = 0; text[i] != '\0'; i++) {
    try {
      int v = twice(text[i]);
      if (v < 0)
        errors = errors + 1;
      else
        total = total + v;
    } catch (const std::exception &) {
      errors = errors + 10;
    }
  }
  std::printf("%d %d\n", total, errors);
  return 0;
}
