#ifndef STATS_H
#define STATS_H
int mean(const int *values, int n);
#endif
