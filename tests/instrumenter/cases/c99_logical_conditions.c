/* C99: && and || in every kind of condition (do-while, ?:, for, while, if, a value), where
 * Clang's CFG branches on each operand or, in a do-while's or a ?:'s condition, joins them
 * into a value first and branches on that: coverage counts must add up either way. */
#include <stdio.h>
static int f(int a, int b, int c) {
  int n = 0, x;
  do {
    n++;
    a--;
  } while (a > 0 && (b > 0 || c > 0));
  x = (a > -1 && b) ? 1 : 2;
  n += x;
  for (int i = 0; i < 3 && (b || i < 2); i++)
    n++;
  while (!(a > 5 || b < 0) && n < 20)
    n += 3;
  if ((a && b) || (c && !b))
    n++;
  n += (a || b) && c;
  return n;
}
/* A loop that is a case's only statement in a switch without braces: a counter of the loop's
 * entry (coverage mode) must not go before it, where it would leave the switch. */
static int g(int x) {
  static const int kinds[2] = {0, 1}, table[4] = {1, 2, 3, 4};
  int t = 0, i;
  switch (kinds[x]) /* may crash, as the loop's body: its entry cannot be derived */
  case 1:
    for (i = 0; i < 4; i++)
      t += table[i];
  return t;
}
int main(void) {
  int s = g(0) + g(1);
  for (int a = -1; a < 3; a++)
    for (int b = 0; b < 2; b++)
      for (int c = 0; c < 2; c++)
        s += f(a, b, c);
  printf("%d\n", s);
  return 0;
}
