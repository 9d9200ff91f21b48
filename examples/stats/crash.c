/* A test of the statistics library that dies of SIGFPE: a file to reduce with
 * `sleuth reduce` (README.md). */
#include "stats.h"

#include <stdio.h>
#include <string.h>

static int failures;

static void check(const char *what, int got, int expected) {
  if (got != expected) {
    printf("%s: got %d, expected %d\n", what, got, expected);
    ++failures;
  }
}

static int parse_words(const char *line, int *values, int capacity) {
  char copy[256];
  char *words[64];
  int count = 0;
  strncpy(copy, line, sizeof copy - 1);
  copy[sizeof copy - 1] = '\0';
  for (char *word = strtok(copy, " "); word != NULL && count < 64; word = strtok(NULL, " "))
    words[count++] = word;
  return stats_parse(words, count, values, capacity);
}

int main(void) {
  int values[64];
  int count = parse_words("4 8 15 16 23 42", values, 64);
  check("count", count, 6);
  check("mean", stats_mean(values, count), 18);
  check("max", stats_max(values, count), 42);
  count = parse_words("7", values, 64);
  check("single mean", stats_mean(values, count), 7);
  check("single max", stats_max(values, count), 7);
  count = parse_words("", values, 64);
  check("empty count", count, 0);
  check("empty mean", stats_mean(values, count), 0);
  count = parse_words("1 x 2", values, 64);
  check("not a number", count, -1);
  printf("%d failures\n", failures);
  return failures != 0;
}
