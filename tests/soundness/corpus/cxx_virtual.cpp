// Virtual calls through base pointers and references.
#include <cstdio>
#include <memory>
#include <vector>

struct Shape {
  virtual ~Shape() = default;
  virtual int area() const = 0;
  virtual void grow(int by) = 0;
};

struct Rect : Shape {
  int w, h;
  Rect(int w, int h) : w(w), h(h) {}
  int area() const override { return w * h; }
  void grow(int by) override { w += by; }
};

struct Square : Shape {
  int side;
  explicit Square(int s) : side(s) {}
  int area() const override { return side * side; }
  void grow(int by) override { side += by; }
};

static int total(const std::vector<std::unique_ptr<Shape>> &shapes) {
  int sum = 0;
  for (const auto &s : shapes)
    sum += s->area();
  return sum;
}

int main() {
  int width = 3, height = 4, side = 5, step = 2;
  std::vector<std::unique_ptr<Shape>> shapes;
  shapes.push_back(std::unique_ptr<Shape>(new Rect(width, height)));
  shapes.push_back(std::unique_ptr<Shape>(new Square(side)));
  Shape &first = *shapes[0];
  first.grow(step);
  int before_unused = side * 100;
  std::printf("total=%d first=%d\n", total(shapes), first.area());
}
