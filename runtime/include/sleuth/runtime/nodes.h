/*
 * The sleuth runtime: probes of nodes (writes, tests, assertions, library effects) and of
 * memory the library writes.
 *
 * Part of sleuth/runtime.h, which instrumented code includes: C89 under -pedantic -Werror and
 * any C++ standard, as that header.
 */
#ifndef SLEUTH_RUNTIME_NODES_H
#define SLEUTH_RUNTIME_NODES_H

#include "sleuth/runtime/reads.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- Nodes ----------------------------------------------------------------------------------
 * Each node probe takes `ctl`: 1 + the node of the test that controls this execution, or 0. A
 * node consumes the pending reads of its frame (but the ++/-- whose value is used, which sits
 * inside a larger expression whose reads are not its own: `sleuth_defnow`, `sleuth_setnow`). An
 * execution that adds no edge (the few reads it consumes and its control edge known to its
 * state) only counts a hit, inline; the others call the runtime (`*_slow`). */
SLEUTH_PROBE unsigned sleuth_def_slow(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                      int consume);
SLEUTH_PROBE int sleuth_test_slow(struct sleuth_tu *tu, unsigned site, unsigned ctl, int outcome);
SLEUTH_PROBE void sleuth_set_slow(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                  const volatile void *addr, unsigned long size);
/* The slow paths of the `_nopending` twins: like their fast paths, they drop the frame's
 * pending reads without depending on them (reads that no node of this full expression pushed:
 * those of a write inside a macro's body, which is not seen), so that the graph is the same
 * whichever path an execution takes. */
SLEUTH_PROBE unsigned sleuth_def_nopending_slow(struct sleuth_tu *tu, unsigned site, unsigned ctl);
SLEUTH_PROBE int sleuth_test_nopending_slow(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                            int outcome);
SLEUTH_PROBE void sleuth_set_nopending_slow(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                            const volatile void *addr, unsigned long size);
/* The test node of a macro's own `if` whose probe runs once the macro's value is known
 * (`sum = TRY(f(x));`): it depends on the pending reads, those of the value it tested, and
 * leaves them pending for the node that consumes the value after it (the write of `sum`, or the
 * return the macro made). Always out of line: it runs once per invocation of such a macro. */
SLEUTH_PROBE int sleuth_test_keep(struct sleuth_tu *tu, unsigned site, unsigned ctl, int outcome);

#ifdef SLEUTH_INLINE_WRITES
/* How many pending reads a node may consume inline: each must be one of the first four origins
 * its state knows (the runtime keeps the latest in front). Reads are pushed where the
 * instrumenter cannot name their consumer: inside macro arguments, by calls' return values. */
#define SLEUTH_QUIET_READS 4
/* True if `origin` (1 + a node) is among the first four origins that `s` knows. */
static __inline__ int sleuth_known_origin(const struct sleuth_site_state *s, unsigned origin) {
  return origin == SLEUTH_LOAD(&s->data[0]) || origin == SLEUTH_LOAD(&s->data[1]) ||
         origin == SLEUTH_LOAD(&s->data[2]) || origin == SLEUTH_LOAD(&s->data[3]);
}
/* True if `s` knows the origins of all the frame's pending reads, which are a few. Apart from
 * sleuth_quiet: most nodes have nothing pending, and their inline path stays short. */
static __inline__ int sleuth_known_reads(const struct sleuth_site_state *s) {
  const struct sleuth_reads *r = &sleuth_pending_reads;
  const unsigned *p;
  if (r->top - r->frame > SLEUTH_QUIET_READS)
    return 0;
  for (p = r->frame; p != r->top; ++p)
    if (!sleuth_known_origin(s, *p + 1u))
      return 0;
  return 1;
}
/* The state of `site` if its execution now adds no edge (see above), else null. */
SLEUTH_INLINE struct sleuth_site_state *sleuth_quiet(const struct sleuth_tu *tu, unsigned site,
                                                     unsigned ctl, int consume) {
  const struct sleuth_reads *r = &sleuth_pending_reads;
  struct sleuth_site_state *s = tu->states + site;
  unsigned base = __atomic_load_n(&tu->base, __ATOMIC_ACQUIRE);
  /* Unregistered units, and nodes the thread has no count for yet, go to the runtime. */
  if (base == 0 || base - 1u + site >= r->num_hits ||
      (consume && r->top != r->frame && !sleuth_known_reads(s)))
    return SLEUTH_NULL;
  if (ctl != 0 && ctl != SLEUTH_LOAD(&s->control[0]) && ctl != SLEUTH_LOAD(&s->control[1]) &&
      ctl != SLEUTH_LOAD(&s->control[2]) && ctl != SLEUTH_LOAD(&s->control[3]))
    return SLEUTH_NULL;
  return s;
}
/* Counts an execution of `site` (whose state sleuth_quiet gave), consuming the frame's pending
 * reads if asked; returns 1 + its node. */
SLEUTH_INLINE unsigned sleuth_hit(const struct sleuth_tu *tu, unsigned site,
                                  struct sleuth_site_state *s, int consume) {
  struct sleuth_reads *r = &sleuth_pending_reads;
  unsigned node = tu->base - 1 + site;
  (void)s;
  ++r->hits[node];
  *r->last = node;
  if (consume)
    r->top = r->frame;
  return node + 1;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes"
#endif
/* sleuth_set of [a, a + size) (size below 4) in a word whose entry `entry` is none, a part or
 * a split record, its other bytes keeping their origins: true if done, which needs the entry
 * (or its record) to hold them and a compound site to know the bytes' old origins. */
SLEUTH_COLD int sleuth_set_part(const struct sleuth_tu *tu, unsigned site,
                                struct sleuth_site_state *s, unsigned *word, unsigned entry,
                                unsigned long a, unsigned long size) {
  unsigned bytes = sleuth_word_bytes(a, size);
  if (SLEUTH_IS_RECORD(entry)) {
    /* A split word: the bytes take the node in its record (which stays the word's until the
     * word is written whole), their old origins known to a compound site. */
    const struct sleuth_reads *r = &sleuth_pending_reads;
    unsigned long byte, end = (a & 3u) + size;
    if (r->split_chunks == SLEUTH_NULL)
      return 0;
    if (tu->sites[site].flags & SLEUTH_FLAG_COMPOUND)
      for (byte = a & 3u; byte < end; ++byte) {
        unsigned old = __atomic_load_n(sleuth_record_byte(r, entry, byte), __ATOMIC_RELAXED);
        if (!sleuth_cached(old, s->data) && !sleuth_edge_known(r, tu->base - 1u + site, old))
          return 0;
      }
    for (byte = a & 3u; byte < end; ++byte)
      __atomic_store_n(sleuth_record_byte(r, entry, byte), tu->base + site, __ATOMIC_RELAXED);
    sleuth_hit(tu, site, s, 1);
    return 1;
  }
  if ((tu->sites[site].flags & SLEUTH_FLAG_COMPOUND) &&
      !sleuth_cached(entry == 0u ? 0u : sleuth_part_origin(entry, bytes), s->data))
    return 0;
  if (!sleuth_store_part(word, entry, bytes, tu->base + site))
    return 0;
  sleuth_hit(tu, site, s, 1);
  return 1;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes"
#endif
/* The `_nopending` twins of sleuth_def, sleuth_test and sleuth_set are for a node whose full
 * expression pushes no read (it calls nothing and every read in it is checked; the
 * instrumenter knows): the frame has no pending read for it to consume, so its fast path does
 * not look (two loads of the thread's state and a branch per node: zlib's longest_match ran
 * 14 % faster without them). `pending` below: 1 to look, 0 for a twin. */

/* A write of a kept local: returns its new origin (1 + the node). */
SLEUTH_INLINE unsigned sleuth_def_node(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                       int pending) {
#ifdef SLEUTH_INLINE_WRITES
  struct sleuth_site_state *s = sleuth_quiet(tu, site, ctl, pending);
  if (s)
    return sleuth_hit(tu, site, s, 1);
#else
  (void)pending;
#endif
  return pending ? sleuth_def_slow(tu, site, ctl, 1) : sleuth_def_nopending_slow(tu, site, ctl);
}
SLEUTH_INLINE unsigned sleuth_def_hot(struct sleuth_tu *tu, unsigned site, unsigned ctl) {
  return sleuth_def_node(tu, site, ctl, 1);
}
SLEUTH_LOCAL unsigned sleuth_def(struct sleuth_tu *tu, unsigned site, unsigned ctl) {
  return sleuth_def_node(tu, site, ctl, 1);
}
SLEUTH_INLINE unsigned sleuth_def_nopending_hot(struct sleuth_tu *tu, unsigned site, unsigned ctl) {
  return sleuth_def_node(tu, site, ctl, 0);
}
SLEUTH_LOCAL unsigned sleuth_def_nopending(struct sleuth_tu *tu, unsigned site, unsigned ctl) {
  return sleuth_def_node(tu, site, ctl, 0);
}
/* ++/-- of a kept local whose value is used: its node reads the old value only (checked before
 * this), not the reads of the expression around it. */
SLEUTH_INLINE unsigned sleuth_defnow_hot(struct sleuth_tu *tu, unsigned site, unsigned ctl) {
#ifdef SLEUTH_INLINE_WRITES
  struct sleuth_site_state *s = sleuth_quiet(tu, site, ctl, 0);
  if (s)
    return sleuth_hit(tu, site, s, 0);
#endif
  return sleuth_def_slow(tu, site, ctl, 0);
}
SLEUTH_LOCAL unsigned sleuth_defnow(struct sleuth_tu *tu, unsigned site, unsigned ctl) {
  return sleuth_defnow_hot(tu, site, ctl);
}
/* Conditions: records the test and returns `outcome` unchanged. The value the branch takes is
 * `outcome` itself, never a call's result, on every path: the compiler keeps seeing which
 * condition decides the branch, as in the original, so that its flow analyses do not warn
 * where the original gave no warning (GCC's -Wmaybe-uninitialized about a variable that only
 * the true branch of `if (get(&n) && n > 0)` reads; -Wuse-after-free). */
SLEUTH_INLINE int sleuth_test_node(struct sleuth_tu *tu, unsigned site, unsigned ctl, int outcome,
                                   int pending) {
#ifdef SLEUTH_INLINE_WRITES
  struct sleuth_site_state *s = sleuth_quiet(tu, site, ctl, pending);
  if (s) {
    sleuth_hit(tu, site, s, 1);
    return outcome;
  }
#else
  (void)pending;
#endif
  if (pending)
    (void)sleuth_test_slow(tu, site, ctl, outcome);
  else
    (void)sleuth_test_nopending_slow(tu, site, ctl, outcome);
  return outcome;
}
SLEUTH_INLINE int sleuth_test_hot(struct sleuth_tu *tu, unsigned site, unsigned ctl, int outcome) {
  return sleuth_test_node(tu, site, ctl, outcome, 1);
}
SLEUTH_LOCAL void sleuth_test_record(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                     int outcome) {
  (void)sleuth_test_node(tu, site, ctl, outcome, 1);
}
SLEUTH_INLINE int sleuth_test(struct sleuth_tu *tu, unsigned site, unsigned ctl, int outcome) {
  sleuth_test_record(tu, site, ctl, outcome);
  return outcome;
}
SLEUTH_INLINE int sleuth_test_nopending_hot(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                            int outcome) {
  return sleuth_test_node(tu, site, ctl, outcome, 0);
}
SLEUTH_LOCAL void sleuth_test_nopending_record(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                               int outcome) {
  (void)sleuth_test_node(tu, site, ctl, outcome, 0);
}
SLEUTH_INLINE int sleuth_test_nopending(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                        int outcome) {
  sleuth_test_nopending_record(tu, site, ctl, outcome);
  return outcome;
}
/* A call into the uninstrumented library whose value is discarded, `printf("%d", n);`: node
 * `site` depends on the reads its arguments left, and so shows where what the program printed,
 * wrote or freed came from. Recorded as a test is, without an outcome. */
SLEUTH_INLINE void sleuth_effect(struct sleuth_tu *tu, unsigned site, unsigned ctl) {
  sleuth_test_record(tu, site, ctl, 0);
}
/* switch (value): records the test like sleuth_test and returns `value` unchanged (inline
 * too: Lua's interpreter dispatches every instruction through one). */
SLEUTH_INLINE unsigned long sleuth_switch(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                          unsigned long value) {
  (void)sleuth_test(tu, site, ctl, 1);
  return value;
}
SLEUTH_INLINE unsigned long sleuth_switch_hot(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                              unsigned long value) {
  (void)sleuth_test_hot(tu, site, ctl, 1);
  return value;
}
/* Writes to memory, called after the store: node `site` depends on the pending reads (and on
 * the old value for compound sites); [addr, addr+size) now originates at `site`. Inline when
 * that is one word or an aligned pair that no split record describes, and for part of a word
 * whose other bytes came from this site or from nothing (a part, see SLEUTH_SPLIT). */
SLEUTH_INLINE void sleuth_set_node(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                   const volatile void *addr, unsigned long size, int pending) {
#ifdef SLEUTH_INLINE_WRITES
  struct sleuth_site_state *s = sleuth_quiet(tu, site, ctl, pending);
  unsigned *word = s ? sleuth_shadow_words((unsigned long)addr, size) : (unsigned *)SLEUTH_NULL;
  if (word) {
    unsigned value = tu->base + site; /* 1 + the node */
    unsigned first = __atomic_load_n(word, __ATOMIC_ACQUIRE), second = first;
    unsigned long a = (unsigned long)addr;
    if (size == 8)
      second = __atomic_load_n(word + 1, __ATOMIC_ACQUIRE);
    if (((first | second) & SLEUTH_SPLIT) == 0 &&
        (!(tu->sites[site].flags & SLEUTH_FLAG_COMPOUND) ||
         (sleuth_cached(first, s->data) && (second == first || sleuth_cached(second, s->data))))) {
      if (size == 8) {
        __atomic_store_n(word, value, __ATOMIC_RELEASE);
        __atomic_store_n(word + 1, value, __ATOMIC_RELEASE);
        sleuth_hit(tu, site, s, 1);
        return;
      }
      if (size == 4 && (a & 3u) == 0) {
        __atomic_store_n(word, value, __ATOMIC_RELEASE);
        sleuth_hit(tu, site, s, 1);
        return;
      }
      if (first == value) { /* part of a word that came whole from this site */
        sleuth_hit(tu, site, s, 1);
        return;
      }
    }
    if (size < 4 && (first == 0u || (first & SLEUTH_SPLIT) != 0) &&
        sleuth_set_part(tu, site, s, word, first, a, size))
      return;
  }
#endif
  if (pending)
    sleuth_set_slow(tu, site, ctl, addr, size);
  else
    sleuth_set_nopending_slow(tu, site, ctl, addr, size);
}
SLEUTH_INLINE void sleuth_set_hot(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                  const volatile void *addr, unsigned long size) {
  sleuth_set_node(tu, site, ctl, addr, size, 1);
}
SLEUTH_LOCAL void sleuth_set(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                             const volatile void *addr, unsigned long size) {
  sleuth_set_node(tu, site, ctl, addr, size, 1);
}
SLEUTH_INLINE void sleuth_set_nopending_hot(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                            const volatile void *addr, unsigned long size) {
  sleuth_set_node(tu, site, ctl, addr, size, 0);
}
SLEUTH_LOCAL void sleuth_set_nopending(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                       const volatile void *addr, unsigned long size) {
  sleuth_set_node(tu, site, ctl, addr, size, 0);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

/* sleuth_set for declarations: usable as the initializer of a dummy declaration, which C89
 * allows where statements are not yet allowed. Returns 0. Inline as sleuth_set is: the locals
 * that keep their origins in the shadow memory (their address taken, or of a type a template
 * parameter decides) are declared in hot code too, tinyxml2's DynArray<T>::PushArr. */
SLEUTH_INLINE int sleuth_decl(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                              const volatile void *addr, unsigned long size) {
  sleuth_set(tu, site, ctl, addr, size);
  return 0;
}
SLEUTH_INLINE int sleuth_decl_hot(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                  const volatile void *addr, unsigned long size) {
  sleuth_set_hot(tu, site, ctl, addr, size);
  return 0;
}

/* memcpy, memmove and memset (and the string copies below), which the instrumenter renames at
 * their calls: a copy gives the destination's bytes the origins of the source's, byte for byte
 * (a struct copied with memcpy leads back to the writes of its fields), memset leaves its bytes
 * without an origin, as a constant's. Done by the library unseen, the bytes kept whatever origins
 * had been there (a dead frame's locals, a freed block's) and a copy lost its source's. The
 * arguments' reads stay pending, for the consumer of the call's value, as with any library call. */
SLEUTH_PROBE void sleuth_copy_origins(void *d, const void *s, unsigned long n);
SLEUTH_PROBE void sleuth_clear_origins(void *d, unsigned long n);
SLEUTH_INLINE void *sleuth_memcpy(void *d, const void *s, unsigned long n) {
  __builtin_memcpy(d, s, n);
  sleuth_copy_origins(d, s, n);
  return d;
}
SLEUTH_INLINE void *sleuth_memmove(void *d, const void *s, unsigned long n) {
  __builtin_memmove(d, s, n);
  sleuth_copy_origins(d, s, n);
  return d;
}
SLEUTH_INLINE void *sleuth_memset(void *d, int c, unsigned long n) {
  __builtin_memset(d, c, n);
  sleuth_clear_origins(d, n);
  return d;
}
SLEUTH_INLINE void *sleuth_mempcpy(void *d, const void *s, unsigned long n) {
  __builtin_memcpy(d, s, n);
  sleuth_copy_origins(d, s, n);
  return (char *)d + n;
}
/* The string copies the same way: what each copies is its source's bytes up to the '\0' (the
 * terminator included; at most n of them for the n-variants, strncpy padding the rest with
 * '\0's, strncat adding one), measured before the call: the ranges may not overlap. */
SLEUTH_INLINE unsigned long sleuth_strnlen(const char *s, unsigned long n) {
  unsigned long k = 0;
  while (k < n && s[k] != '\0')
    ++k;
  return k;
}
SLEUTH_INLINE char *sleuth_strcpy(char *d, const char *s) {
  unsigned long n = __builtin_strlen(s) + 1;
  __builtin_strcpy(d, s);
  sleuth_copy_origins(d, s, n);
  return d;
}
SLEUTH_INLINE char *sleuth_stpcpy(char *d, const char *s) {
  unsigned long n = __builtin_strlen(s) + 1;
  __builtin_memcpy(d, s, n);
  sleuth_copy_origins(d, s, n);
  return d + n - 1;
}
SLEUTH_INLINE char *sleuth_strncpy(char *d, const char *s, unsigned long n) {
  unsigned long k = sleuth_strnlen(s, n);
  __builtin_strncpy(d, s, n);
  sleuth_copy_origins(d, s, k);
  sleuth_clear_origins(d + k, n - k);
  return d;
}
SLEUTH_INLINE char *sleuth_strcat(char *d, const char *s) {
  unsigned long at = __builtin_strlen(d), n = __builtin_strlen(s) + 1;
  __builtin_strcat(d, s);
  sleuth_copy_origins(d + at, s, n);
  return d;
}
SLEUTH_INLINE char *sleuth_strncat(char *d, const char *s, unsigned long n) {
  unsigned long at = __builtin_strlen(d), k = sleuth_strnlen(s, n);
  __builtin_strncat(d, s, n);
  sleuth_copy_origins(d + at, s, k);
  sleuth_clear_origins(d + at + k, 1);
  return d;
}

/* sprintf, snprintf, vsprintf and vsnprintf, which the instrumenter renames at their calls,
 * passing the call's site (a write, named after the destination): the bytes the call formatted
 * into the destination, its terminator included, originate at that node, which depends on the
 * arguments' reads (pending: a node consumes its frame's); the call's value then reads the
 * node. Done by the library unseen, those bytes kept whatever origins had been there, and a
 * number printed into a buffer and copied out of it (cJSON's print_number) led nowhere near
 * the number. The checks of the format (-Wformat) stay those of the original call. */
SLEUTH_PROBE void sleuth_formatted(struct sleuth_tu *tu, unsigned site, unsigned ctl, void *d,
                                   unsigned long n);
/* The bytes of a formatting call that returned `count` into a destination of `size` bytes
 * (~0ul: unbounded). */
SLEUTH_INLINE unsigned long sleuth_formatted_size(int count, unsigned long size) {
  if (count < 0 || size == 0)
    return 0;
  return (unsigned long)count < size ? (unsigned long)count + 1 : size;
}
__attribute__((format(printf, 5, 0))) SLEUTH_INLINE int
sleuth_vsprintf(struct sleuth_tu *tu, unsigned site, unsigned ctl, char *d, const char *format,
                __builtin_va_list args) {
  int count = __builtin_vsprintf(d, format, args);
  sleuth_formatted(tu, site, ctl, d, sleuth_formatted_size(count, ~0ul));
  return count;
}
__attribute__((format(printf, 6, 0))) SLEUTH_INLINE int
sleuth_vsnprintf(struct sleuth_tu *tu, unsigned site, unsigned ctl, char *d, unsigned long size,
                 const char *format, __builtin_va_list args) {
  int count = __builtin_vsnprintf(d, size, format, args);
  sleuth_formatted(tu, site, ctl, d, sleuth_formatted_size(count, size));
  return count;
}
/* (Variadic: GCC inlines none, always_inline or not.) */
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes"
#endif
__attribute__((format(printf, 5, 6))) SLEUTH_LOCAL int
sleuth_sprintf(struct sleuth_tu *tu, unsigned site, unsigned ctl, char *d, const char *format,
               ...) {
  __builtin_va_list args;
  int count;
  __builtin_va_start(args, format);
  count = __builtin_vsprintf(d, format, args);
  __builtin_va_end(args);
  sleuth_formatted(tu, site, ctl, d, sleuth_formatted_size(count, ~0ul));
  return count;
}
__attribute__((format(printf, 6, 7))) SLEUTH_LOCAL int
sleuth_snprintf(struct sleuth_tu *tu, unsigned site, unsigned ctl, char *d, unsigned long size,
                const char *format, ...) {
  __builtin_va_list args;
  int count;
  __builtin_va_start(args, format);
  count = __builtin_vsnprintf(d, size, format, args);
  __builtin_va_end(args);
  sleuth_formatted(tu, site, ctl, d, sleuth_formatted_size(count, size));
  return count;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

/* strftime(d, ...), just returned `count`: its node depends on the arguments' reads, the count
 * bytes and the terminator it formatted into d originate there (none if it returned 0), and
 * the value reads it. Returns count. */
SLEUTH_INLINE unsigned long sleuth_time_formatted(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                                  void *d, unsigned long count) {
  sleuth_formatted(tu, site, ctl, d, count == 0 ? 0 : count + 1);
  return count;
}

/* A compound literal whose address the program takes, `f(&(struct s){a, b})`, was just created
 * at addr: a write of its size bytes (node `site`). Its initializer's reads are checked against
 * that node; the reads pending (an earlier argument's) are left for their consumer. Returns addr
 * (the literal may be const). */
SLEUTH_PROBE void *sleuth_created(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                  const volatile void *addr, unsigned long size);

/* std::swap(a, b) of `size` bytes each, just done: a is now a write (node `site_a`) of b's old
 * value, b one (node `site_b`) of a's, each depending on the other's old origins. */
SLEUTH_PROBE void sleuth_swapped(struct sleuth_tu *tu, unsigned site_a, unsigned site_b,
                                 unsigned ctl, const volatile void *a, const volatile void *b,
                                 unsigned long size);

/* The elements of a standard contiguous container (std::vector, std::string, std::array...),
 * `size` bytes at `data`, which a library call reads whole (`std::accumulate(v.begin(), v.end(),
 * 0)`, `std::cout << s`, a copy): the program writes them one by one (`v[i] = x`), apart from
 * the container object. Their distinct origins become pending reads... */
SLEUTH_PROBE void sleuth_get_all(const volatile void *data, unsigned long size);
/* ... or are checked against node `site` (see sleuth_getc). */
SLEUTH_PROBE void sleuth_getc_all(struct sleuth_tu *tu, unsigned *cache, unsigned site,
                                  const volatile void *data, unsigned long size);
/* A library call just stored into a container's elements unseen (`std::sort(v.begin(),
 * v.end())`): the object at addr and its `data_size` bytes of elements at `data` become writes
 * of node `site`, which reads what the elements had (and, compound, the object's old origin). */
SLEUTH_PROBE void sleuth_set_all(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                 const volatile void *addr, unsigned long size,
                                 const volatile void *data, unsigned long data_size);

/* Around a library member that may move a container's elements to new storage as it grows
 * (`v.push_back(x)`, `s += t`): the elements (`size` bytes at `data`) before the call... */
SLEUTH_PROBE void sleuth_watch_contents(const volatile void *data, unsigned long size);
/* ... and after it: if they moved, the elements that were there keep their origins in the new
 * storage (which the library filled unseen). */
SLEUTH_PROBE void sleuth_moved_contents(const volatile void *data, unsigned long size);
/* The same around an insert or erase at byte `at` of the elements (`v.erase(v.begin() + i)`,
 * `s.insert(0, t)`), which shifts the elements after it... */
SLEUTH_PROBE void sleuth_watch_contents_at(const volatile void *data, unsigned long size,
                                           unsigned long at);
/* ... after it, once node `site` wrote the container: those before the position keep their
 * origins (in the new storage if they moved), those after it move with their elements, and the
 * inserted ones are the node's. */
SLEUTH_PROBE void sleuth_shifted_contents(struct sleuth_tu *tu, unsigned site,
                                          const volatile void *data, unsigned long size);

/* For lvalues with side effects: remember the target before the store, returns addr... */
SLEUTH_PROBE void *sleuth_setp(struct sleuth_tu *tu, unsigned site, unsigned ctl, void *addr,
                               unsigned long size);
/* ... and complete the innermost remembered write after the store; returns its address. */
SLEUTH_PROBE void *sleuth_commit(void);
/* Record the write first, then return addr for the store: for ++/-- whose value is used (the
 * shadow then still holds the old value's origin, which compound sites read). The reads
 * pending so far belong to the enclosing expression, which then reads this node. */
SLEUTH_PROBE void *sleuth_setnow(struct sleuth_tu *tu, unsigned site, unsigned ctl, void *addr,
                                 unsigned long size);

/* assert(): records an <assertion> node; returns `outcome`. */
SLEUTH_PROBE int sleuth_assert(struct sleuth_tu *tu, unsigned site, unsigned ctl, int outcome);
/* Prints the C library's assertion message and aborts (the instrumenter replaces assert()'s
 * expansion so that the message keeps the original expression text). */
void sleuth_assert_fail(const char *expr, const char *file, unsigned line, const char *function);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SLEUTH_RUNTIME_NODES_H */
