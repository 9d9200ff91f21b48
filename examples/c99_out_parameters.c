/* check_example flags: -pthread */
/* Objects a library function stores into through a pointer the program passes, `&end`, `&e`,
 * `&now`: the call writes them, so a slice of what they hold leads to that call and not to
 * their earlier values (`char *end = NULL;`). A `void *` parameter takes any object without
 * writing it: the job a thread gets keeps the origin of its initializer. */
#include <math.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

struct job {
  int n;
};

static void *work(void *p) {
  struct job *j = p;
  j->n *= 2;
  return NULL;
}

int main(int argc, char **argv) {
  (void)argv;
  char text[] = "42rest";
  char *end = NULL;
  long v = strtol(text, &end, 10);
  int e = 0;
  double m = frexp(8.0 * argc, &e);
  time_t now = 0;
  time(&now);
  struct job j = {argc};
  pthread_t t;
  if (pthread_create(&t, NULL, work, &j) != 0 || pthread_join(t, NULL) != 0)
    return 1;
  int rest = end[0];
  printf("%ld %c %d %g %d %d\n", v, rest, e, m, now > 0, j.n);
  return 0;
}
