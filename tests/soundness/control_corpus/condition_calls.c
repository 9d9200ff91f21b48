/* Calls in the rest of a condition (`b` of `a && b`, `a || b`), for the control-dependence
 * oracle (control_oracle.py): they run only if the first part let them, under the condition's
 * test, in a loop and in a while condition. */
#include <stdio.h>

static int seen = 0;

static int check(int k) {
  seen++;
  return k > 1;
}

static int skip(int k) {
  seen += 10;
  return k == 3;
}

int main(int argc, char **argv) {
  int found = 0, round, left = 4;
  (void)argv;
  for (round = 0; round < 3; round++) {
    if (round != 1 && check(round + argc))
      found++;
    if (round == 2 || skip(round))
      found += 100;
  }
  while (left > 0 && check(left))
    left--;
  printf("%d %d %d\n", found, seen, left);
  return 0;
}
