/*
 * The sleuth runtime, coverage mode: what a translation unit rewritten by
 * `sleuth instrument --mode coverage` declares and calls.
 *
 * The rewritten code increments plain counters of its own (`++__sleuth_cov[k]`, no call on the
 * hot path); a constructor registers the unit's table with the runtime, which writes the
 * coverage file (docs/coverage-format.md) at exit and from fatal-signal handlers.
 *
 * Like runtime.h, this header must compile as C89 under -pedantic -Werror and as any C++
 * standard: block comments only, no `long long`, no `inline` in C.
 */
#ifndef SLEUTH_COVERAGE_H
#define SLEUTH_COVERAGE_H

#include "sleuth/abi.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Edge kinds in a unit's edge table. */
#define SLEUTH_COV_EDGE_SEQ 0u
#define SLEUTH_COV_EDGE_TRUE 1u
#define SLEUTH_COV_EDGE_FALSE 2u
#define SLEUTH_COV_EDGE_CASE 3u

/*
 * The static description of one translation unit. All tables are flat arrays of unsigned:
 *   funcs:  4 per function:  begin line, end line, entry block, exit block
 *   blocks: 3 per block:     function, count formula, line list
 *   edges:  4 per edge:      from block, to block, kind, count formula
 *   conds:  7 per condition: block, line, column, end line, end column, true count formula,
 *                            false count formula
 *   lines:  2 per line:      line, block list
 *   values: 5 per value site: line, column, left name, right name, first counter
 * A value site counts how an assigned or returned value compared with 0 or with another scalar
 * in scope (value_names[left] against value_names[right]): its three counters, from the first,
 * count "less", "equal" and "greater" (CBI's value predicates).
 * A "formula" or "list" is an index into `pool`. A list is n followed by n values; a formula is
 * n followed by n terms, each 2 * counter + (1 if the term is subtracted), and evaluates to the
 * sum of its terms (never below 0).
 */
/* A null pointer for the rewritten file's tables (C++ projects build with
 * -Wzero-as-null-pointer-constant). */
#ifdef __cplusplus
#define SLEUTH_COV_NULL __null
#else
#define SLEUTH_COV_NULL ((void *)0)
#endif

struct sleuth_cov_unit {
  const char *path; /* absolute path of the original source file */
  const char *hash; /* its content hash: 16 hex digits, 64-bit FNV-1a of the text instrumented */
  unsigned long *counters;
  unsigned num_counters;
  const char *const *func_names;
  const unsigned *funcs;
  unsigned num_funcs;
  const unsigned *blocks;
  unsigned num_blocks;
  const unsigned *edges;
  unsigned num_edges;
  const unsigned *conds;
  unsigned num_conds;
  const unsigned *lines;
  unsigned num_lines;
  const unsigned *pool;
  const unsigned *values;
  unsigned num_values;
  const char *const *value_names;
  struct sleuth_cov_unit *next; /* the runtime's */
};

/* Called once per unit, from a constructor in the rewritten file. */
void sleuth_cov_register(struct sleuth_cov_unit *unit);

/* Write the coverage file now (also done automatically at exit and on fatal signals). */
void sleuth_cov_flush(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SLEUTH_COVERAGE_H */
