/* null_deref.c with `return NULL;`: a return whose value is a macro expansion. */
#include <stdio.h>
#include <string.h>

struct entry {
  const char *key;
  int value;
};

static struct entry table[] = {{"one", 1}, {"two", 2}};

static struct entry *lookup(const char *key) {
  int i;
  for (i = 0; i < 2; i++)
    if (strcmp(table[i].key, key) == 0)
      return &table[i];

  return NULL; /* in-slice: the crashing value */
}

int main(int argc, char **argv) {
  struct entry *found;
  struct entry *e;
  found = lookup(argc > 5 ? argv[1] : "three"); /* in-slice */
  e = found;                                    /* in-slice */
  printf("looking up\n");
  return e->value;
}
