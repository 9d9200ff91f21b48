// Idioms of real libraries whose instrumented text once did not compile, or warned where the
// original did not (found building Debian's pugixml and xz).
/* check_example flags: -Wimplicit-fallthrough */
#include <cstdio>
#include <cstdlib>

enum Kind { None, Number, Text };

static Kind kindOf(char C) { return C >= '0' && C <= '9' ? Number : C ? Text : None; }

// Several declarators of an enumeration type: an extra declarator would take an int, which no
// enumeration does in C++.
static int sameKind(const char *A, const char *B) {
  Kind Left = kindOf(*A), Right = kindOf(*B);
  return Left == Right;
}

// A loop that only a return leaves, with no return after it: the compiler must still see the
// constant condition (-Wreturn-type is on by default in C++).
static const char *skipTo(const char *S, char Stop) {
  while (true) {
    if (*S == Stop)
      return S;
    if (!*S)
      return nullptr;
    ++S;
  }
}

// A member call inside a macro argument whose own arguments hold another macro: the read of
// the object pointer goes before the whole call, not around the member it names.
struct Document {
  int Loaded = 0;
  bool load(const char *Text) {
    Loaded += Text[0] != '\0';
    return Loaded > 0;
  }
};
#define TEXT(x) x
#define CHECK(condition)                                                                           \
  if (condition)                                                                                   \
    ;                                                                                              \
  else                                                                                             \
    std::printf("failed: %s\n", #condition)

// __restrict parameters and locals: Clang converts no `int *__restrict *` to the probes'
// `const volatile void *`.
static unsigned sumOf(const unsigned *__restrict Values, unsigned Count,
                      unsigned *__restrict Out) {
  const unsigned *__restrict Cursor = Values;
  unsigned Sum = 0;
  for (unsigned I = 0; I < Count; ++I)
    Sum += Cursor[I];
  // Its address taken, Out lives in memory: its parameter and its reads go through the shadow.
  unsigned *__restrict *Where = &Out;
  **Where = Sum;
  return Sum + *Out - **Where;
}

// Two void calls joined by a comma, which Clang's -Wcomma accepts: the probe's comma before the
// left one must not make Clang doubt it.
static int Calls = 0;
static void count(int N) { Calls += N; }
template <class T> static void countAs(T N) { Calls += static_cast<int>(N); }
static void countTwice() { count(1), countAs<long>(2); }

[[noreturn]] static void usage(int Status) {
  std::printf("usage\n");
  std::exit(Status);
}

// A call that does not return before a case label: no -Wimplicit-fallthrough.
static int option(char C) {
  int Level = 0;
  switch (C) {
  case 'v':
    Level = 1;
    break;
  case 'h':
    usage(0);
  default:
    Level = -1;
    break;
  }
  return Level;
}

// A write of a kept local whose value the program casts to void itself: the rewrite inside the
// cast must not be void, which GCC's -Wuseless-cast would call a useless cast.
static int voidedWrites(int A) {
  int X = A;
  (void)(X = A + 1);
  static_cast<void>(X += 2);
  (void)++X;
  return X;
}

// Macros that quote an argument (a message, a pasted name) keep its text; a macro argument that
// is a variable's value read by an expansion that takes its type keeps it a name, so that SWAP's
// decltype(a) is no reference (the read goes around the enclosing expression instead).
#define SHOW(e) std::printf("%s = %d\n", #e, (e))
#define EXPECT(c) SHOW(c)
#define SWAP(a, b)                                                                                 \
  do {                                                                                             \
    decltype(a) t_ = a;                                                                            \
    a = b;                                                                                         \
    b = t_;                                                                                        \
  } while (0)

static int quoted(int X) {
  int Low = X, High = X * 3;
  SHOW(X * 2 + 1);
  EXPECT(Low < High);
  SWAP(Low, High);
  return High - Low;
}

int main() {
  unsigned Values[3] = {4, 5, 6}, Total = 0;
  sumOf(Values, 3, &Total);
  countTwice();
  std::printf("%u %d %d %d\n", Total, option('v'), option('x'), Calls);
  Document Storage;
  Document *Doc = &Storage;
  CHECK(Doc->load(TEXT("<node/>")));
  std::printf("%d %s %d %d\n", sameKind("1", "2") + sameKind("a", "3"), skipTo("key=value", '='),
              Doc->Loaded, voidedWrites(1));
  std::printf("%d\n", quoted(4));
  return 0;
}
