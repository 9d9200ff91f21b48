// Schemata end-to-end subject (C++): templates, const integers, lambdas,
// conditions of class type.
#include <cstdio>

template <typename T> T largest(const T *Items, int Count) {
  T Best = Items[0];
  for (int I = 1; I < Count; ++I)
    if (Items[I] > Best)
      Best = Items[I];
  return Best;
}

// A condition of class type: `!!(Owned)` converts it as `if (Owned)` does.
struct Handle {
  int *Pointer;
  explicit operator bool() const { return Pointer != nullptr; }
};

struct Stack {
  int Items[8] = {};
  int Size = 0;
  bool push(int V) {
    if (Size >= 8)
      return false;
    Items[Size++] = V;
    return true;
  }
};

int main() {
  const int Capacity = 3; // usable as an array bound: stays a constant
  int Buffer[Capacity] = {4, 9, 2};
  Stack S;
  for (int I = 0; I < Capacity; ++I)
    S.push(Buffer[I] * 2 - 1);
  auto Twice = [](int V) { return V + V; };
  int Five = 5;
  Handle Owned{&Five};
  int Extra = Owned ? *Owned.Pointer : 0;
  if (S.Size == 3 || Extra > 10)
    Extra = Twice(Extra);
  std::printf("%d %d %d\n", largest(S.Items, S.Size), Extra, S.Size);
  return S.Size != 3;
}
