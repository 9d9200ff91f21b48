#ifndef STATS_H
#define STATS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Parses COUNT decimal integers from TEXTS into VALUES (room for CAPACITY); returns how many
 * were stored, or -1 if one is not a number or they do not fit. */
int stats_parse(char **texts, int count, int *values, int capacity);

int stats_mean(const int *values, int count);
int stats_max(const int *values, int count);

/* Sorts VALUES in place. The median of an even count is the mean of the two middle values. */
int stats_median(int *values, int count);

#ifdef __cplusplus
}
#endif

#endif
