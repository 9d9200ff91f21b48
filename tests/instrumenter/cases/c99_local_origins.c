/* Locals whose origins the instrumented code keeps in companion locals, in the places where a
 * rewrite could change what the program does: jumps past declarations, switch bodies with
 * declarations, longjmp, assignments and increments whose values are used, register variables,
 * comma operands, and locals mixed with ones whose address is taken. */
#include <setjmp.h>
#include <stdio.h>

static jmp_buf Again;

static int next(int *state) { return (*state)++ < 5 ? *state : 0; }

static int jumps(int n) {
  int total = 0;
  if (n > 2)
    goto skip;
  {
    int inner = n * 3;
    total += inner;
  }
skip:
  switch (n) {
    int hidden;
  case 1:
    hidden = 7;
    total += hidden;
    break;
  default:
    total -= 1;
  }
  return total;
}

static int values(int a, int b) {
  register int r = a;
  int x, y, z;
  int c, state = 0, sum = 0;
  x = y = z = b;
  r += (x = a + 1);
  while ((c = next(&state)) != 0)
    sum += c;
  int i = 0, arr[4] = {0, 0, 0, 0};
  arr[i++] = 5;
  arr[++i] = 6;
  int j = i++;
  j += ++i;
  (void)((void)(a = 3), b = a + 1);
  (void)(a = 1), b = 2;
  return r + x + y + z + sum + arr[0] + arr[2] + j + a + b;
}

static int jumped(void) {
  volatile int rounds = 0;
  int local = 10;
  if (setjmp(Again) != 0)
    local = 20;
  if (rounds++ == 0)
    longjmp(Again, 1);
  return local;
}

int main(void) {
  printf("%d %d %d\n", jumps(1), jumps(2), jumps(5));
  printf("%d\n", values(3, 4));
  printf("%d\n", jumped());
  return 0;
}
