/* check_example flags: -O2 -D_FORTIFY_SOURCE=2 */
/* Bytes a program reads in (read, fread, fgets) are input: they have no origin, as a constant.
 * The buffer held fill()'s 'x's before; c, e and f read bytes that fread, fgets and read stored
 * over them, so none depends on fill(), while d reads an 'x' that no input reached. Built with
 * _FORTIFY_SOURCE, a call whose size is known only at run time goes to the C library's checking
 * variant (__fread_chk, __fgets_chk, __read_chk), a call with constant sizes to fread itself. */
#define _POSIX_C_SOURCE 200809L /* fileno */
#include <stdio.h>
#include <unistd.h>

static void fill(char *buffer, int n) {
  int i;
  for (i = 0; i < n; i++)
    buffer[i] = 'x';
}

int main(int argc, char **argv) {
  char buffer[16];
  FILE *file = tmpfile();
  size_t got, more = (size_t)argc; /* 1 */
  int c, d, e, f;
  (void)argv;
  if (!file)
    return 1;
  fill(buffer, 16);
  fputs("hello\nworld\n", file);
  rewind(file);
  got = fread(buffer, 1, 2, file);
  got += fread(buffer + 2, 1, more, file);
  c = buffer[1] + buffer[2];
  d = buffer[5];
  if (!fgets(buffer + 8, (int)more + 5, file))
    return 1;
  e = buffer[9];
  if (lseek(fileno(file), 0, SEEK_SET) != 0 || read(fileno(file), buffer + 12, more + 1) != 2)
    return 1;
  f = buffer[13];
  fclose(file);
  printf("%d %d %d %d %d\n", (int)got, c, d, e, f);
  return 0;
}
