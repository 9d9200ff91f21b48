// Overloaded operators that the program wrote are calls like any other: their operands flow
// into the operator's parameters and its return value back into the expression (a subscript
// of a container class, arithmetic on a value type, a comparison, a compound assignment, and
// an iterator's `++`).
#include <cstdio>

class Samples {
public:
  int &operator[](int index) { return values_[index]; }
  Samples &operator+=(int offset) {
    for (int &value : values_)
      value += offset;
    return *this;
  }

private:
  int values_[4] = {10, 20, 30, 40};
};

struct Money {
  int cents;
};
static Money operator*(Money price, int count) { return Money{price.cents * count}; }
static bool operator<(Money a, Money b) { return a.cents < b.cents; }

struct Cursor {
  int position;
  Cursor &operator++() {
    ++position;
    return *this;
  }
};

int main(int argc, char **) {
  Samples samples;
  int index = argc + 1;
  int offset = argc * 3;
  samples += offset;
  int picked = samples[index];
  Money unit{250};
  Money total = unit * picked;
  Money budget{9000};
  Cursor cursor{0};
  if (total < budget)
    ++cursor;
  std::printf("%d %d %d\n", picked, total.cents, cursor.position);
  return 0;
}
