#include "stats.h"

#include <cstdio>
#include <cstring>

int main(int argc, char **argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: stats mean|max|median NUMBER...\n");
    return 2;
  }
  int values[64];
  int count = stats_parse(argv + 2, argc - 2, values, 64);
  if (count < 0) {
    std::fprintf(stderr, "stats: not a list of at most 64 numbers\n");
    return 2;
  }
  if (std::strcmp(argv[1], "mean") == 0)
    std::printf("mean: %d\n", stats_mean(values, count));
  else if (std::strcmp(argv[1], "max") == 0)
    std::printf("max: %d\n", stats_max(values, count));
  else if (std::strcmp(argv[1], "median") == 0)
    std::printf("median: %d\n", stats_median(values, count));
  else {
    std::fprintf(stderr, "stats: unknown statistic '%s'\n", argv[1]);
    return 2;
  }
  return 0;
}
