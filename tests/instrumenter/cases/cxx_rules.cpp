// Rewriting rules for C++20 (design brief §5): moves, NRVO, references, overloads, lambdas,
// exceptions, constexpr, library types. The instrumented build must print the same.
#include <cassert>
#include <cstdio>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

struct Counter {
  int Value = 0;
  int bump(int By) {
    Value += By;
    return Value;
  }
  int get() const { return Value; }
  virtual ~Counter() = default;
  virtual int kind() const { return 1; }
};

struct Special : Counter {
  int kind() const override { return Value + 2; }
};

struct Vec2 {
  int X, Y;
  Vec2 operator+(const Vec2 &O) const { return {X + O.X, Y + O.Y}; }
};

// Called with braced lists (an aggregate's, and a constructor's as fmt's string_view has):
// `{...}` is no expression, so no argument probe goes around it.
int dot(const Vec2 &A, const Vec2 &B) { return A.X * B.X + A.Y * B.Y; }
struct Span {
  Span(const int *Data, int Size) : P(Data), N(Size) {}
  const int *P;
  int N;
};
int sumSpan(Span S) { return S.P[0] + S.N; }
// A member initializer reading a parameter declared as an array, in the shadow memory (its
// address is taken): its size is its pointer's (no -Wsizeof-array-argument).
struct Pair {
  Pair(const int Values[2]) : First(Values[0]) {
    const int *const *Where = &Values;
    Second = (*Where)[1];
  }
  int First, Second = 0;
};

struct Bits {
  unsigned Low : 4;
  unsigned High : 4;
};

class MoveOnly {
public:
  explicit MoveOnly(int V) : Ptr(std::make_unique<int>(V)) {}
  int value() const { return *Ptr; }

private:
  std::unique_ptr<int> Ptr;
};

constexpr int square(int V) { return V * V; }
static_assert(square(4) == 16);

std::unique_ptr<int> makeBox(int V) {
  auto Box = std::make_unique<int>(V);
  *Box += 1;
  return Box; // implicit move: wrapping the operand would not compile
}

MoveOnly makeMoveOnly(int V) {
  MoveOnly M(V);
  return M;
}

int &pick(int &A, int &B, bool First) { return First ? A : B; }

decltype(auto) firstOf(std::pair<int, int> &P) { return (P.first); }

int takesPointer(const int *P) { return P ? *P : -1; }

int sumList(std::initializer_list<int> L) {
  int Total = 0;
  for (int V : L)
    Total += V;
  return Total;
}

int withDefault(int A, int B = square(3)) { return A + B; }

int parse(const std::string &Text) {
  if (Text.empty())
    throw std::invalid_argument("empty");
  return static_cast<int>(Text.size());
}

int guarded(const std::string &Text) noexcept {
  try {
    return parse(Text);
  } catch (const std::exception &) {
    return -1;
  }
}

template <typename... Ts> int countAll(Ts... Args) {
  int N = 0;
  ((N += Args), ...);
  return N;
}

int main() {
  int Total = 0;
  Counter C;
  C.bump(3);
  Special S;
  S.bump(4);
  Counter &Ref = S;
  Total += C.get() + Ref.kind();
  const int Two[2] = {5, 6};
  Total += Pair(Two).First + Pair(Two).Second;

  Vec2 A{1, 2}, B{3, 4};
  Vec2 Sum = A + B;
  Total += Sum.X * 10 + Sum.Y;

  volatile int Vol = 3; // sleuth::rd and sleuth::wrote take volatile lvalues too
  Vol = Vol + 1;
  Total += Vol;

  Bits Bf{};
  Bf.Low = 9;
  Bf.High = Bf.Low + 1;
  Total += Bf.High;

  auto Box = makeBox(41);
  Total += *Box;
  MoveOnly M = makeMoveOnly(5);
  Total += M.value();

  int X = 1, Y = 2;
  pick(X, Y, false) = 20;
  (X < Y ? X : Y) += 1;
  std::pair<int, int> P{7, 8};
  firstOf(P) = 70;
  Total += X + Y + P.first;
  Total += dot({X, Y}, Vec2{Y, X}) + sumSpan({&X, Y});

#pragma GCC diagnostic push // the literal 0 as a null pointer is the point here
#pragma GCC diagnostic ignored "-Wzero-as-null-pointer-constant"
  Total += takesPointer(0) + takesPointer(nullptr) + takesPointer(&X);
#pragma GCC diagnostic pop
  Total += sumList({1, 2, 3}) + withDefault(1);
  Total += guarded("four") + guarded("");

  std::vector<int> V;
  for (int I = 0; I < 5; ++I)
    V.push_back(I * I);
  for (auto &E : V)
    E += 1;
  for (int E : V)
    Total += E;
  std::map<std::string, int> Ages;
  Ages["ann"] = 31;
  Ages["bob"] += 2;
  std::string Name = "sl";
  Name += "euth";
  Name = Name + "!";
  Total += Ages["ann"] + Ages["bob"] + static_cast<int>(Name.size());

  auto [First, Second] = P;
  Total += First + Second;

  int Captured = 3;
  auto AddRef = [&Captured](int D) { Captured += D; };
  AddRef(4);
  auto Generic = [](auto L, auto R) { return L * R; };
  Total += Captured + Generic(2, 3);

  if (int Half = Total / 2; Half > 10)
    Total += 1;
  if (std::unique_ptr<int> Owned = std::make_unique<int>(2))
    Total += *Owned;
  if constexpr (sizeof(int) == 4)
    Total += 4;
  constexpr int Nine = square(3);
  int Arr[Nine] = {};
  Arr[2] = Nine;
  Total += Arr[2] + countAll(1, 2, 3);
  int *Heap = new int[3]{1, 2, 3};
  Total += Heap[1];
  delete[] Heap;

  switch (Total % 3) {
  case 0: {
    int Local = 5;
    Total += Local;
    break;
  }
  case 1:
    Total += 1;
    [[fallthrough]];
  default:
    Total += 2;
  }
  assert(Total > 0);
  // A temporary bound to a library member's `const T&` parameter is not read through sleuth::rd.
  Name.append(std::string("!"));
  std::printf("Total=%d Name=%s Captured=%d\n", Total, Name.c_str(), Captured);
  return 0;
}
