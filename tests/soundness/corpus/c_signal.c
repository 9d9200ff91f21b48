/* A signal handler: the program raises a signal whose handler writes a global. */
#include <signal.h>
#include <stdio.h>

static volatile sig_atomic_t received;
static int handled_value;

static void on_signal(int sig) {
  received = sig;
  handled_value = handled_value * 2 + 1;
}

int main(void) {
  int rounds = 3, i, local_noise = 0;
  handled_value = 5;
  signal(SIGUSR1, on_signal);
  for (i = 0; i < rounds; ++i) {
    local_noise += i;
    raise(SIGUSR1);
  }
  printf("received=%d value=%d\n", (int)received, handled_value);
  return 0;
}
