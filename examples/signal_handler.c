/* A signal handler that raise() runs. The handler runs inside the call, as a callee of it: its
 * statements are controlled by the test under which raise() was called (here the reading above
 * the limit), and its parameter reads the signal number the call passed. A signal arriving
 * asynchronously has no call that made it: its handler would be controlled by nothing.
 *   sleuth slice prog.*.deps signal_handler.c:26 */
#include <signal.h>
#include <stdio.h>

static volatile sig_atomic_t last_signal;
static int alarms;

static void on_alarm(int sig) {
  signal(sig, on_alarm); /* C89's signal() may reset the handler to the default on delivery */
  last_signal = sig;
  alarms = alarms + 1;
}

int main(void) {
  int readings[5] = {12, 48, 7, 95, 30};
  int limit = 40, which = SIGUSR1, i;
  signal(SIGUSR1, on_alarm);
  for (i = 0; i < 5; ++i) {
    if (readings[i] > limit)
      raise(which);
  }
  printf("alarms=%d last=%d\n", alarms, (int)last_signal);
  return 0;
}
