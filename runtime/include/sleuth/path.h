/*
 * The sleuth runtime, path recording: what a translation unit rewritten in coverage mode with
 * `SLEUTH_PATH=1` declares and calls, so that a failing run's executed statements and the values
 * they produced can become a trace formula (docs/path-format.md).
 *
 * The unit describes its statements ("sites") in a text table; a probe records (site, value)
 * each time a site runs. The runtime writes the tables and the recorded steps to a `.path` file
 * beside the process's coverage file, at exit and from fatal-signal handlers.
 *
 * Like coverage.h, this header must compile as C89 under -pedantic -Werror and as any C++
 * standard.
 */
#ifndef SLEUTH_PATH_H
#define SLEUTH_PATH_H

#ifdef __cplusplus
extern "C" {
#endif

struct sleuth_path_unit {
  const char *path;         /* absolute path of the original source file */
  const char *hash;         /* its content hash, as in the coverage tables */
  const char *const *table; /* the site table's text, in pieces (C89 limits a literal's size) */
  unsigned num_table;
  unsigned num_sites;
  unsigned base; /* the runtime's: the program-wide id of site 0 */
  struct sleuth_path_unit *next; /* the runtime's */
};

/* Called once per unit, from a constructor in the rewritten file. */
void sleuth_path_register(struct sleuth_path_unit *unit);

/* Records that `site` of `unit` ran and produced `value` (an integer, a truth value or 0). */
void sleuth_path_step(const struct sleuth_path_unit *unit, unsigned site, long long value);

/* Records the entry of the function whose entry site is `site`; returns the value the rewritten
 * function keeps in its frame variable, which sleuth_path_leave (its cleanup) reads. */
unsigned sleuth_path_enter(const struct sleuth_path_unit *unit, unsigned site);
void sleuth_path_leave(unsigned *frame);

/* Records the outcome (0 or 1) of the branch condition `site`; returns it. */
int sleuth_path_test(const struct sleuth_path_unit *unit, unsigned site, int outcome);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SLEUTH_PATH_H */
