// Reads and writes inside class templates whose types wait for the instantiation: the pattern is
// rewritten once, and every instantiation below must compile under strict flags and behave as
// before, whatever its element type's operators return.
#include <cstdio>
#include <string>
#include <vector>

struct Odd {
  int V = 0;
  void operator=(int N) { V = N; } // returns void: a wrapper around `=` would not compile
  Odd &operator+=(const Odd &O) {
    V += O.V;
    return *this;
  }
};

// A container whose operator[] returns a proxy by value (as std::vector<bool> does).
struct Bits {
  unsigned Word = 0;
  struct Ref {
    unsigned *W;
    unsigned Bit;
    operator bool() const { return (*W >> Bit) & 1u; }
    Ref &operator=(bool B) {
      *W = B ? *W | (1u << Bit) : *W & ~(1u << Bit);
      return *this;
    }
  };
  Ref operator[](unsigned I) { return Ref{&Word, I}; }
};

template <class T, int N> class Ring {
public:
  void push(const T &Value) {
    Items[Next++ % N] = Value; // a target with side effects
    if (Count < N)
      ++Count;
  }
  void set(int I, int Raw) { Items[I] = Raw; } // operator= of T, repeatable target
  T &at(int I) { return Items[I]; }            // a reference: no read
  T copyAt(int I) const { return Items[I]; }   // a copy: a read
  T sum() const {
    T Total = Items[0];
    for (int I = 1; I < Count; I++)
      Total += Items[I];
    return Total;
  }
  const T *first() const { return Head; }
  void advance() {
    Head = Items;
    ++Head;
    *Cursor = *Head;
    Cursor++;
  }
  int count() const { return Count; }

private:
  T Items[N] = {};
  const T *Head = Items;
  T *Cursor = Items;
  int Next = 0;
  int Count = 0;
};

template <class Container> int countSet(Container &C, unsigned N) {
  int Set = 0;
  for (unsigned I = 0; I < N; I++)
    if (C[I]) // the container's operator[]: a proxy, not a read of C
      Set++;
  C[0] = true;
  return Set;
}

template <class T> struct Node {
  T Value;
  Node *Next;
};

template <class T> T sumList(const Node<T> *Head) {
  T Total = T();
  for (const Node<T> *P = Head; P; P = P->Next)
    Total = Total + P->Value;
  return Total;
}

int main() {
  Ring<int, 4> Ints;
  for (int I = 1; I <= 6; I++)
    Ints.push(I * I);
  Ints.set(1, 7);
  Ints.at(2) = 5;
  Ints.advance();
  std::printf("ints %d %d %d %d\n", Ints.sum(), Ints.copyAt(0), *Ints.first(), Ints.count());

  Ring<Odd, 3> Odds;
  Odds.set(0, 4);
  Odds.set(1, 5);
  Odds.push(Odd{});
  Odds.advance();
  std::printf("odds %d %d\n", Odds.copyAt(1).V, Odds.count());

  Ring<std::string, 2> Strings;
  Strings.push("ab");
  Strings.push("cd");
  std::printf("strings %s\n", Strings.sum().c_str());

  Bits B;
  B[3] = true;
  B[5] = true;
  std::vector<bool> V(8, false);
  V[2] = true;
  int SetBits = countSet(B, 8);
  int SetBools = countSet(V, 8);
  std::printf("bits %d %d %u %d\n", SetBits, SetBools, B.Word, static_cast<int>(V[0]));

  Node<double> C{2.5, nullptr}, A{1.0, &C};
  std::printf("list %.1f\n", sumList(&A));
  return 0;
}
