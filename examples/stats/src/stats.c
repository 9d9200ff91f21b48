#include "stats.h"

#include <stdlib.h>

int stats_parse(char **texts, int count, int *values, int capacity) {
  if (count > capacity)
    return -1;
  for (int i = 0; i < count; ++i) {
    char *end;
    long value = strtol(texts[i], &end, 10);
    if (*texts[i] == '\0' || *end != '\0')
      return -1;
    values[i] = (int)value;
  }
  return count;
}

int stats_mean(const int *values, int count) {
  long sum = 0;
  for (int i = 0; i < count; ++i)
    sum += values[i];
  return (int)(sum / count);
}

int stats_max(const int *values, int count) {
  int best = values[0];
  for (int i = 1; i < count; ++i)
    if (values[i] > best)
      best = values[i];
  return best;
}

static void sort(int *values, int count) {
  for (int i = 1; i < count; ++i) {
    int value = values[i];
    int j = i;
    while (j > 0 && values[j - 1] > value) {
      values[j] = values[j - 1];
      --j;
    }
    values[j] = value;
  }
}

int stats_median(int *values, int count) {
  sort(values, count);
  int middle = count / 2;
  if (count % 2 == 1)
    return values[middle];
  return (values[middle] + values[middle + 1]) / 2;
}
