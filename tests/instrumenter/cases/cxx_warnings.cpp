// Constructs whose instrumented code once gave warnings that the original does not give, under
// the strict flags check_example.sh compiles with (-Wshadow, -Wold-style-cast, GCC's
// -Wuseless-cast, Clang's -Wcomma, -O2's flow analyses, and -Wconversion).
/* check_example flags: -DSLEUTH_FLOW_WARNINGS -Wconversion -Wsign-conversion */
#include <cstddef>
#include <cstdio>
#include <stdexcept>
#include <vector>

static int Calls = 0;
void touch() { ++Calls; }
void touchTwice() {
  touch();
  touch();
}

// A switch on a size_t: no cast of it to its own type.
int bucket(std::size_t N) {
  switch (N) {
  case 0:
    return 1;
  default:
    return 2;
  }
}

// Statements of void type: calls, a library member call, a delete, a user's cast to void, a
// conditional of two void calls, and a throw.
int statements(bool Flag) {
  std::vector<int> Values;
  if (Flag)
    touch();
  else
    touchTwice();
  Values.push_back(Calls);
  (void)Values.size();
  Flag ? touch() : touchTwice();
  int *Owned = new int(3);
  delete Owned;
  try {
    if (Values.size() > 0)
      throw std::runtime_error("thrown");
  } catch (const std::runtime_error &) {
    touch();
  }
  return static_cast<int>(Values.size()) + Calls;
}

// A lambda inside a lambda inside a function: each has a frame of its own, none hides another.
int nested(int X) {
  auto Outer = [](int Y) {
    auto Inner = [](int Z) { return Z + 1; };
    return Inner(Y) * 2;
  };
  return Outer(X);
}

// A variable set only where the condition holds, read only there: GCC must still see that the
// test's outcome is the condition's.
static bool parse(const char *Text, int *Out) {
  if (Text[0] >= '0' && Text[0] <= '9') {
    *Out = Text[0] - '0';
    return true;
  }
  return false;
}
int parsed(const char *Text) {
  int Value;
  if (parse(Text, &Value) && Value > 2)
    return Value;
  return -1;
}

// Increments of kept locals whose values are used, as fmt's code_point_index and bigint do.
int counted(const char *Text, int Limit) {
  int Seen = 0;
  for (int I = 0, J = 9; Text[I] != '\0'; ++I, --J)
    if (++Seen > Limit)
      return I + J--;
  return Seen;
}

// A pointer declared in a for-init and passed by reference, as jsoncpp's valueToQuotedStringN
// walks a string: it keeps its origin in the shadow memory, and the extra declarator that
// records its declaration has the specifiers' type, a char.
static void skipDigits(const char *&P) {
  while (P[1] >= '0' && P[1] <= '9')
    ++P;
}
int letters(const char *Text) {
  int Count = 0;
  for (const char *C = Text; *C != '\0'; ++C) {
    Count += *C >= 'a' && *C <= 'z';
    skipDigits(C);
  }
  return Count;
}

int main() {
  std::printf("%d %d %d %d %d %d %d\n", bucket(0), bucket(7), statements(true), statements(false),
              nested(4), parsed("7") + parsed("x"), counted("abcdef", 3) + letters("a1b"));
  return 0;
}
