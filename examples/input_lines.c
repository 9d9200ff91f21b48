/* check_example flags: -O2 -D_FORTIFY_SOURCE=2 */
/* Lines read with getline and bytes received with recv are input, without an origin. The
 * program ends the first line's key in place (cut() stores a '\0' into getline's buffer);
 * getline then reuses the buffer for the second line, so b, read where that '\0' was, is input
 * and does not depend on cut() any more, while a, read before, does. recv stores two bytes
 * over fill()'s 'x's: c reads one of them (input), d an 'x' it did not reach (fill()'s). */
#define _POSIX_C_SOURCE 200809L /* getline */
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <unistd.h>

static void cut(char *line, size_t at) { line[at] = '\0'; }

static void fill(char *buffer, int n) {
  int i;
  for (i = 0; i < n; i++)
    buffer[i] = 'x';
}

int main(void) {
  char *line = NULL;
  size_t size = 0;
  char packet[8];
  int ends[2], a, b, c, d;
  FILE *file = tmpfile();
  if (!file || socketpair(AF_UNIX, SOCK_STREAM, 0, ends) != 0)
    return 1;
  fputs("key=1\nval=2\n", file);
  rewind(file);
  if (getline(&line, &size, file) < 0)
    return 1;
  cut(line, 3);
  a = line[3];
  if (getline(&line, &size, file) < 0)
    return 1;
  b = line[3];
  fill(packet, 8);
  if (send(ends[0], "hi", 2, 0) != 2 || recv(ends[1], packet, sizeof packet, 0) != 2)
    return 1;
  c = packet[1];
  d = packet[2];
  printf("%d %d %d %d\n", a, b, c, d);
  free(line);
  fclose(file);
  close(ends[0]);
  close(ends[1]);
  return 0;
}
