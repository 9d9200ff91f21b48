/* C as older programs and benchmark suites write it, which GCC compiles with warnings:
   implicit int, K&R definitions, implicit declarations, `return;` in a function of implicit
   int and `return x;` in a void one, a pointer of another type. */
#include <stdio.h>

int count;

report(n)
{
  if (n < 0)
    return;
  printf("count %d\n", n);
  return n;
}

scale(x, k)
  int x;
{
  return x * k;
}

void bump(d) int d;
{
  count = count + d;
  return count;
}

main()
{
  int a = 3, b;
  char *bytes = &count;
  b = scale(a, 2);
  bump(b);
  bump(bytes != 0);
  report(-1);
  total(count);
  return report(count) != 7;
}

total(n) { printf("total %d\n", n); }
