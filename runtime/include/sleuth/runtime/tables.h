/*
 * The sleuth runtime: the static tables of an instrumented unit (sites, functions, the unit
 * itself) and what the program records per site and function.
 *
 * Part of sleuth/runtime.h, which instrumented code includes: C89 under -pedantic -Werror and
 * any C++ standard, as that header.
 */
#ifndef SLEUTH_RUNTIME_TABLES_H
#define SLEUTH_RUNTIME_TABLES_H

#include "sleuth/runtime/attributes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Kinds of sites. All but SLEUTH_SITE_CALL become nodes of the dependence graph. */
enum sleuth_site_kind {
  SLEUTH_SITE_VAR = 0,    /* a write: assignment, declaration, ++/-- */
  SLEUTH_SITE_PARAM = 1,  /* a parameter receiving its argument */
  SLEUTH_SITE_TEST = 2,   /* a condition deciding control flow */
  SLEUTH_SITE_RET = 3,    /* a function's return value */
  SLEUTH_SITE_ASSERT = 4, /* an evaluated assert() */
  SLEUTH_SITE_CALL = 5,   /* a call site (internal: carries the call's control context) */
  SLEUTH_SITE_EFFECT = 6  /* a call into the uninstrumented library whose value is discarded
                           * (printf(...);, free(p);): what the program hands out */
};

/* Site flags. */
#define SLEUTH_FLAG_COMPOUND 1u /* the write also reads the old value (x += y, x++) */
#define SLEUTH_FLAG_VALUE                                                                          \
  2u /* a test inside an expression (a && f(), c ? g() : 0): the expression's value reads the      \
      * test (the instrumented code passes that read on as any other) */
#define SLEUTH_FLAG_STATIC_CONTROL                                                                 \
  4u /* the site's one controlling test (cds[cd_begin]) ran before it in its frame on every path:  \
      * the edge from it holds for every execution, so its probes pass no control and the edge     \
      * is written out for the node if it ran */
#define SLEUTH_FLAG_BEFORE_STORE                                                                   \
  8u /* a write whose probe runs before the store it records (++/-- whose old value is used) */

struct sleuth_site {
  unsigned kind;
  unsigned flags;
  unsigned line;
  unsigned column;
  unsigned func;     /* index into the unit's function table */
  unsigned cd_begin; /* controlling tests: cds[cd_begin .. cd_begin + cd_count) */
  unsigned cd_count;
  const char *name;
};

struct sleuth_func {
  unsigned begin_line;
  unsigned end_line;
  const char *name;
};

/* What the program has recorded of one site's node, one cache line shared by its threads
 * (relaxed atomics: a thread that misses another's update only records an edge once more): some
 * of the controllers and data origins whose edges into it are recorded already (1 + a node; 0
 * is a free slot), the latest first. The inline probes look at the first slots, the runtime at
 * all. (How often it ran each thread counts for itself: see sleuth_reads.) */
struct sleuth_site_state {
  unsigned control[4];
  unsigned data[12];
} __attribute__((aligned(64)));

/* What the program has recorded of one function, shared by its threads alike: some of the call
 * controls (1 + a test's node) under which the function returned normally, in eight buckets of
 * two (a control's bucket by a hash, the latest first: a function called in turn under more
 * controls than a list of slots holds, as tinyxml2's are, would miss every time).
 * Its sites that no test of its own controls (the call controls them) ran on every such return
 * (they post-dominate its entry) and had their edge from that control recorded; so a call under
 * one of these controls need not record them again: their probes pass no control (the
 * instrumented function's `quiet control`, see sleuth_quiet_control). */
struct sleuth_func_state {
  unsigned completed[16];
};
/* In the origin of a static data edge (sleuth_tu::static_data): the edge holds whenever the
 * origin's node ran, not the reading node (the read follows the write directly, inside an
 * expression that completes into the reading node: the value of `x = e`, `*++p`). */
#define SLEUTH_STATIC_WITNESS_ORIGIN 0x80000000u
/* The first of the two slots of call control `cc`'s bucket. */
#define SLEUTH_COMPLETED_SLOT(cc) ((((cc)*0x9e3779b1u) >> 29) * 2u)

struct sleuth_tu {
  const char *path; /* absolute path of the original source file */
  const char *hash; /* its content hash: 16 hex digits, 64-bit FNV-1a of the text instrumented */
  const struct sleuth_site *sites;
  unsigned num_sites;
  const unsigned *cds; /* local indices of test sites */
  const struct sleuth_func *funcs;
  unsigned num_funcs;
  struct sleuth_site_state *states;      /* one per site, zero-initialized */
  struct sleuth_func_state *func_states; /* one per function, zero-initialized */
  /* Static data edges: pairs (site, origin site) of reads that the instrumenter removed because
   * their origin is known at instrumentation time (a kept local's one definition that reaches
   * them on every path) and they run on every execution of the site that consumes them. The
   * edge holds whenever that site ran, and the runtime writes it out for every such site that
   * did (or that a fatal signal cut short), as SLEUTH_FLAG_STATIC_CONTROL's edges. */
  const unsigned *static_data;
  unsigned num_static_data; /* pairs */
  /* Filled in by the runtime at registration; zero until then. */
  unsigned base; /* 1 + program-wide id of site 0 */
  unsigned func_base;
  unsigned file_id;
};

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SLEUTH_RUNTIME_TABLES_H */
