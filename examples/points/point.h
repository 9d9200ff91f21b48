#ifndef POINT_H
#define POINT_H

/* One-line member functions, as small structs have them: two functions on one line. */
struct Point { int x, y; int sum() const { return x + y; } void shift(int d) { x += d; y += d; } };

int distance(const Point &a, const Point &b);

#endif
