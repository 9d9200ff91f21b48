// An integer division by zero: SIGFPE. Without arguments Count is 0.
#include <cstdio>

static int average(const int *Values, int Count) {
  int Sum = 0;
  for (int I = 0; I < Count; ++I) // in-slice: the last node
    Sum += Values[I];
  return Sum / Count;
}

int main(int Argc, char **) {
  int Values[] = {4, 8, 15};
  int Count = Argc - 1; // in-slice: the zero divisor
  std::printf("%d\n", average(Values, Count));
  return 0;
}
