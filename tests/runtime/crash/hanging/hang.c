/* A program that hangs after printing, as a program waiting for input or stuck in a loop does,
 * until Ctrl-C (check_interrupt.sh). */
#include <stdio.h>
#include <unistd.h>

static int scale(int x) { return 3 * x + 1; }

int main(void) {
  int total = 0;
  int i;
  for (i = 0; i < 4; ++i)
    total += scale(i); /* in-slice */
  printf("ready %d\n", total);
  fflush(stdout);
  for (;;)
    sleep(1);
}
