/* check_example flags: -D_FILE_OFFSET_BITS=64 */
/* More input without an origin: readv and preadv (pread64 and preadv64 with 64-bit offsets, as
 * autoconf's AC_SYS_LARGEFILE builds ask for) fill several buffers, and scanf's %ls stores a
 * wide string. fill() wrote each buffer first; what the input stored over its bytes no longer
 * depends on fill(), while a byte no input reached (tail) still does. */
#define _DEFAULT_SOURCE /* preadv */
#include <stdio.h>
#include <sys/uio.h>
#include <unistd.h>
#include <wchar.h>

static void fill(char *buffer, int n) {
  for (int i = 0; i < n; i++)
    buffer[i] = 'x';
}

int main(void) {
  char head[4], body[8], again[4];
  wchar_t word[8];
  FILE *file = tmpfile();
  if (!file)
    return 1;
  fill(head, 4);
  fill(body, 8);
  fill(again, 4);
  for (int i = 0; i < 8; i++)
    word[i] = L'x';
  fputs("abcdefgh", file);
  fflush(file);
  struct iovec parts[2] = {{head, sizeof head}, {body, 3}};
  if (lseek(fileno(file), 0, SEEK_SET) != 0 || readv(fileno(file), parts, 2) != 7)
    return 1;
  int first = head[0];
  int inside = body[2];
  int tail = body[5];
  struct iovec later = {again, sizeof again};
  if (preadv(fileno(file), &later, 1, 4) != 4)
    return 1;
  int offset = again[1];
  if (sscanf("wide", "%ls", word) != 1)
    return 1;
  int letter = (int)word[1];
  fclose(file);
  printf("%c %c %c %c %c\n", first, inside, tail, offset, letter);
  return 0;
}
