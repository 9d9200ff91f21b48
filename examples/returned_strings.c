/* A string that a call returns, printed without a variable in between: printf's %s reads the
 * characters sprintf wrote (7), not only the returned pointer. */
#include <stdio.h>

static const char *version_of(int major) {
  static char version[16];
  sprintf(version, "%d.%d", major, 7);
  return version;
}

int main(int argc, char **argv) {
  (void)argv;
  printf("version %s\n", version_of(argc + 1));
  return 0;
}
