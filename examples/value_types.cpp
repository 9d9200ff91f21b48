// Values of class type move as whole objects: copied by constructors and assignments that the
// compiler writes, passed by value, stored by a constructor's member initializers, and
// captured by a lambda.
#include <cstdio>
#include <vector>

struct Reading {
  int sensor;
  int value;
};

class Calibrated {
public:
  Calibrated(const Reading &raw, int offset) : reading_(raw), corrected_(raw.value - offset) {}
  int corrected() const { return corrected_; }
  int samples() const { return samples_; }
  int sensor() const { return reading_.sensor; }

private:
  Reading reading_;
  int corrected_;
  int samples_ = 1;
};

static int scaled(Reading r) { return r.value * 10; }

int main(int argc, char **) {
  Reading first{1, 40 + argc};
  Reading second{2, 7};
  Reading copy = first;
  Reading latest{0, 0};
  latest = second;
  Calibrated calibrated(copy, 3);
  int total = 0;
  std::vector<Reading> log{first, second};
  for (auto [sensor, value] : log)
    total += sensor * value;
  int offset = argc + 1;
  auto shift = [offset](int v) { return v + offset; };
  std::printf("%d %d %d %d %d\n", calibrated.corrected(), scaled(latest), shift(total),
              calibrated.samples(), calibrated.sensor());
  return 0;
}
