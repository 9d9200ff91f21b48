/* Flow analyses at -O2 (GCC's -Wmaybe-uninitialized) must find in the instrumented code what
 * they find in the original: nothing. The tests' probes must leave the condition visibly
 * deciding the branch. */
/* check_example flags: -DSLEUTH_FLOW_WARNINGS */
#include <stdio.h>

/* As Lua's tonumberns: a macro that sets its output only when it yields true. */
#define TO_NUMBER(text, out)                                                                       \
  ((text)[0] >= '0' && (text)[0] <= '9' ? ((out) = (text)[0] - '0', 1) : 0)

static int add(const char *a, const char *b) {
  int x;
  int y;
  if (TO_NUMBER(a, x) && TO_NUMBER(b, y))
    return x + y;
  return -1;
}

int main(void) {
  printf("%d %d %d\n", add("3", "4"), add("3", "x"), add("y", "1"));
  return 0;
}
