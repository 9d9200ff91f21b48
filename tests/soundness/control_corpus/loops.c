/* Loops and branches of every kind, for the control-dependence oracle (control_oracle.py). */
#include <stdio.h>

static int step(int v) { return v + 1; }

int main(void) {
  int k = 0, s = 0, d = 0, n = 0, t = 0;
  while (k < 3)
    k++;
  do {
    d += 2;
  } while (d < 6);
  for (int i = 0; i < 4; i++) {
    if (i == 1)
      continue;
    if (i == 3)
      break;
    s += i;
  }
  switch (k) {
  case 3:
    n = step(n);
    /* fall through */
  case 4:
    n += 10;
    break;
  default:
    n = -1;
  }
  for (int j = 0; j < 2; j++)
    for (int m = 0; m < 2; m++)
      t += j * m;
  int x = k > 2 ? step(k) : 0;
  printf("%d %d %d %d %d %d\n", k, s, d, n, t, x);
  return 0;
}
