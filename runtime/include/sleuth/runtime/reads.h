/*
 * The sleuth runtime: probes of reads, pushed (consumer known at run time) or checked where
 * they happen (consumer known to the instrumenter), over the shadow memory.
 *
 * Part of sleuth/runtime.h, which instrumented code includes: C89 under -pedantic -Werror and
 * any C++ standard, as that header.
 */
#ifndef SLEUTH_RUNTIME_READS_H
#define SLEUTH_RUNTIME_READS_H

#include "sleuth/runtime/thread.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- Reads whose consumer is known only at run time: pushed ---------------------------------
 * Locals whose address is never taken keep their origin (1 + the node that last wrote them, 0
 * for none) in a companion local of the instrumented function instead of the shadow memory. */
SLEUTH_PROBE void sleuth_use_slow(unsigned origin); /* the stack is full, or there is none yet */
SLEUTH_INLINE void sleuth_use(unsigned origin) {
  if (origin != 0) {
    struct sleuth_reads *r = &sleuth_pending_reads;
    if (r->top != r->end)
      *r->top++ = origin - 1;
    else
      sleuth_use_slow(origin);
  }
}

#ifdef SLEUTH_INLINE_WRITES
/* The entries of [addr, addr + size) if that is one word or an aligned pair of words in a leaf
 * the thread looked up last: the first (and second) word's entry; null otherwise. */
static __inline__ unsigned *sleuth_shadow_words(unsigned long a, unsigned long size) {
  struct sleuth_reads *r = &sleuth_pending_reads;
  unsigned long key = a >> 16;
  unsigned way = (unsigned)key & (SLEUTH_LEAF_WAYS - 1u);
  if (r->leaf_keys[way] == key && ((a & 3u) + size <= 4u || (size == 8 && (a & 7u) == 0)))
    return r->leaves[way] + ((a & 0xffffu) >> 2);
  return SLEUTH_NULL;
}
/* The bytes (a mask of a word's four) that [addr, addr + size) covers, size below 4. */
static __inline__ unsigned sleuth_word_bytes(unsigned long a, unsigned long size) {
  return ((1u << size) - 1u) << (a & 3u);
}
/* The origin of `bytes` of a word whose shadow entry `entry` is a part. */
static __inline__ unsigned sleuth_part_origin(unsigned entry, unsigned bytes) {
  return (entry >> SLEUTH_PART_SHIFT) & bytes ? entry & (SLEUTH_PART_LIMIT - 1u) : 0u;
}
/* Makes `value` the origin of `bytes` of the word whose entry `entry` is none (0) or a part,
 * the other bytes keeping theirs, if the entry can still hold them; returns 0 if not (the
 * word takes a split record, the runtime's). */
static __inline__ int sleuth_store_part(unsigned *word, unsigned entry, unsigned bytes,
                                        unsigned value) {
  unsigned had = entry == 0u ? 0u : (entry >> SLEUTH_PART_SHIFT) & 15u, mask;
  if (value >= SLEUTH_PART_LIMIT)
    return 0;
  if (entry == 0u || (entry & (SLEUTH_PART_LIMIT - 1u)) == value)
    mask = had | bytes; /* more bytes of the same write */
  else if ((had & ~bytes) == 0u)
    mask = bytes; /* every byte of the other write's overwritten */
  else
    return 0;
  __atomic_store_n(word, mask == 15u ? value : SLEUTH_PART | mask << SLEUTH_PART_SHIFT | value,
                   __ATOMIC_RELEASE);
  return 1;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes"
#endif
/* The origin of [addr, addr + size) (size below 4) in a word whose entry is a part. */
SLEUTH_COLD unsigned sleuth_part_read(unsigned entry, unsigned long a, unsigned long size) {
  return sleuth_part_origin(entry, sleuth_word_bytes(a, size));
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
/* The data edges a thread recorded or found recorded, as keys (node << 32 | origin, the origin
 * 1 + a node) in a direct-mapped table of its own that the runtime fills as it goes. A checked read
 * whose origin is in neither slot of its cache finds its edge here instead of calling the
 * runtime: a loop that reads bytes a dozen writes made (zlib's inflate copying from its
 * window, crc32 over what it wrote) had its two slots miss on almost every read. An entry is
 * only ever the key of an edge the thread recorded; another key taking its slot only sends a
 * later read to the runtime again. */
#define SLEUTH_EDGE_BITS 16
SLEUTH_INLINE unsigned long sleuth_edge_slot(unsigned long key) {
  return (key * 0x9e3779b97f4a7c15ul) >> (64 - SLEUTH_EDGE_BITS);
}
SLEUTH_INLINE int sleuth_edge_known(const struct sleuth_reads *r, unsigned node, unsigned origin) {
  unsigned long key = (unsigned long)node << 32 | origin;
  return r->edges != SLEUTH_NULL && r->edges[sleuth_edge_slot(key)] == key;
}
/* True if the edge from `origin` (1 + a node, 0 none) into `node` is recorded as far as the
 * read's `cache` or the thread's table of edges tells. */
SLEUTH_INLINE int sleuth_origin_known(const struct sleuth_reads *r, const unsigned *cache,
                                      unsigned node, unsigned origin) {
  return origin == 0 || origin == SLEUTH_LOAD(&cache[0]) || origin == SLEUTH_LOAD(&cache[1]) ||
         sleuth_edge_known(r, node, origin);
}
/* A split word's entry (SLEUTH_SPLIT without the part bit) refers to a split record, the
 * origins of its four bytes, in chunks of 65,536 records that the runtime publishes before any
 * entry refers to one of them. */
#define SLEUTH_RECORD_BITS 30
#define SLEUTH_IS_RECORD(entry) (((entry)&SLEUTH_PART) == SLEUTH_SPLIT)
/* Byte `byte` of the split record that `entry` refers to. */
SLEUTH_INLINE unsigned *sleuth_record_byte(const struct sleuth_reads *r, unsigned entry,
                                           unsigned long byte) {
  unsigned index = entry & ((1u << SLEUTH_RECORD_BITS) - 1u);
  unsigned *chunk = __atomic_load_n(&r->split_chunks[index >> 16], __ATOMIC_ACQUIRE);
  return chunk + (index & 0xffffu) * 4u + byte;
}
/* True if the origins of bytes [byte, end) of the word whose shadow entry is `entry` (whole, a
 * part or a split record) are known to be recorded into `node` (see sleuth_origin_known). */
SLEUTH_INLINE int sleuth_word_known(const struct sleuth_reads *r, const unsigned *cache,
                                    unsigned node, unsigned entry, unsigned long byte,
                                    unsigned long end) {
  if ((entry & SLEUTH_SPLIT) == 0)
    return sleuth_origin_known(r, cache, node, entry);
  if ((entry & SLEUTH_PART) == SLEUTH_PART)
    return sleuth_origin_known(
        r, cache, node, sleuth_part_origin(entry, ((1u << end) - 1u) & ~((1u << byte) - 1u)));
  for (; byte < end; ++byte)
    if (!sleuth_origin_known(r, cache, node,
                             __atomic_load_n(sleuth_record_byte(r, entry, byte), __ATOMIC_RELAXED)))
      return 0;
  return 1;
}
#endif

/* Reads: the origins of [addr, addr+size) become pending reads of the current frame. */
SLEUTH_PROBE void sleuth_get_slow(const volatile void *addr, unsigned long size);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes"
#endif
/* sleuth_get where the inline path did not find the origins: those of the bytes of a split word
 * are pushed from its record, each once; anything else, the runtime. */
SLEUTH_COLD void sleuth_get_miss(const volatile void *addr, unsigned long size) {
#ifdef SLEUTH_INLINE_WRITES
  struct sleuth_reads *r = &sleuth_pending_reads;
  unsigned long a = (unsigned long)addr, byte, end, words = size == 8 ? 2u : 1u, k;
  unsigned *word = sleuth_shadow_words(a, size), *from = r->top;
  if (word && r->split_chunks != SLEUTH_NULL && r->end - r->top >= 8) {
    for (k = 0; k < words; ++k) {
      unsigned entry = __atomic_load_n(word + k, __ATOMIC_ACQUIRE);
      byte = size == 8 ? 0u : a & 3u;
      end = size == 8 ? 4u : byte + size;
      if ((entry & SLEUTH_PART) == SLEUTH_PART) {
        entry = sleuth_part_origin(entry, ((1u << end) - 1u) & ~((1u << byte) - 1u));
        byte = end - 1u; /* one origin */
      }
      for (; byte < end; ++byte) {
        unsigned origin = entry, *p;
        if (SLEUTH_IS_RECORD(entry))
          origin = __atomic_load_n(sleuth_record_byte(r, entry, byte), __ATOMIC_RELAXED);
        for (p = from; p != r->top && *p != origin - 1u; ++p)
          ;
        if (origin != 0 && p == r->top)
          *r->top++ = origin - 1u;
      }
    }
    return;
  }
#endif
  sleuth_get_slow(addr, size);
}
SLEUTH_INLINE void sleuth_get_hot(const volatile void *addr, unsigned long size) {
#ifdef SLEUTH_INLINE_WRITES
  struct sleuth_reads *r = &sleuth_pending_reads;
  unsigned *word = sleuth_shadow_words((unsigned long)addr, size);
  if (word && r->end - r->top >= 2) {
    unsigned first = __atomic_load_n(word, __ATOMIC_ACQUIRE), second = first;
    if (size == 8)
      second = __atomic_load_n(word + 1, __ATOMIC_ACQUIRE);
    if (((first | second) & SLEUTH_SPLIT) != 0 && size < 4 && (first & SLEUTH_PART) == SLEUTH_PART)
      first = second = sleuth_part_read(first, (unsigned long)addr, size); /* a char of a part */
    if (((first | second) & SLEUTH_SPLIT) == 0) {
      if (first != 0)
        *r->top++ = first - 1;
      if (second != first && second != 0)
        *r->top++ = second - 1;
      return;
    }
  }
#endif
  sleuth_get_miss(addr, size);
}
SLEUTH_LOCAL void sleuth_get(const volatile void *addr, unsigned long size) {
  sleuth_get_hot(addr, size);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
/* The same, returning addr: for lvalues whose evaluation has side effects (a[i++]). */
SLEUTH_PROBE void *sleuth_getp(const volatile void *addr, unsigned long size);
/* A string a library call reads (printf's `%s`, puts, strlen, strcmp...): the origins of its
 * bytes, the terminator included, become pending reads (none for a null pointer, which
 * printf prints as "(null)"). Out of line: GCC would take an inline test of the pointer for a
 * sign that it may be null where the call uses it (-Wformat-overflow, -Wnonnull). */
SLEUTH_PROBE void sleuth_get_string(const volatile void *s);
/* The same for an argument that cannot be evaluated twice (`printf("%s", version())`): it wraps
 * the argument, and yields the string it was given. */
SLEUTH_PROBE const char *sleuth_got_string(const volatile void *s);
/* Forget pending reads of a full expression whose value was discarded (inline: the frame's
 * reads start at sleuth_pending_reads.frame). */
SLEUTH_INLINE void sleuth_discard(void) {
  struct sleuth_reads *r = &sleuth_pending_reads;
  if (r->top > r->frame)
    r->top = r->frame;
}

/* --- Reads whose consumer the instrumenter knows: checked where they happen -----------------
 * `cache` is the read's own pair of slots in the unit's read cache: the origins it saw last.
 * An origin found there was recorded as an edge into `site`'s node already; another calls the
 * runtime, which records it and remembers it there. */
SLEUTH_PROBE void sleuth_chk_slow(struct sleuth_tu *tu, unsigned *cache, unsigned site,
                                  unsigned origin);
/* True if `origin` is none, or in the first two of `slots` (a read's cache, a site's data). */
SLEUTH_INLINE int sleuth_cached(unsigned origin, const unsigned *slots) {
  return origin == 0 || origin == SLEUTH_LOAD(&slots[0]) || origin == SLEUTH_LOAD(&slots[1]);
}
/* A read of [addr, addr+size) through the shadow memory. */
SLEUTH_PROBE void sleuth_getc_slow(struct sleuth_tu *tu, unsigned *cache, unsigned site,
                                   const volatile void *addr, unsigned long size);
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes"
#endif
/* A checked read of a kept local whose origin its cache does not hold: the runtime, unless the
 * thread recorded the edge already (see sleuth_edge_known); then the cache remembers it, as
 * the runtime would (a run of reads from one origin, then from another, stays inline). */
SLEUTH_COLD void sleuth_chk_miss(struct sleuth_tu *tu, unsigned *cache, unsigned site,
                                 unsigned origin) {
#ifdef SLEUTH_INLINE_WRITES
  unsigned base = __atomic_load_n(&tu->base, __ATOMIC_ACQUIRE);
  if (base != 0 && sleuth_edge_known(&sleuth_pending_reads, base - 1u + site, origin)) {
    SLEUTH_STORE(&cache[1], SLEUTH_LOAD(&cache[0]));
    SLEUTH_STORE(&cache[0], origin);
    return;
  }
#endif
  sleuth_chk_slow(tu, cache, site, origin);
}
/* A checked read through the shadow memory that the inline path did not settle: the origins of
 * a word (or a pair), a part's chars or a split word's bytes, each known if in the read's cache
 * or among the edges the thread recorded (a word's one origin is then remembered in the
 * cache); anything else, the runtime. */
SLEUTH_COLD void sleuth_getc_miss(struct sleuth_tu *tu, unsigned *cache, unsigned site,
                                  const volatile void *addr, unsigned long size) {
#ifdef SLEUTH_INLINE_WRITES
  const struct sleuth_reads *r = &sleuth_pending_reads;
  unsigned long a = (unsigned long)addr;
  unsigned base = __atomic_load_n(&tu->base, __ATOMIC_ACQUIRE), node = base - 1u + site;
  unsigned *word = sleuth_shadow_words(a, size);
  if (base != 0 && word && r->edges != SLEUTH_NULL) {
    unsigned first = __atomic_load_n(word, __ATOMIC_ACQUIRE);
    if (size == 8 ? sleuth_word_known(r, cache, node, first, 0, 4) &&
                        sleuth_word_known(r, cache, node,
                                          __atomic_load_n(word + 1, __ATOMIC_ACQUIRE), 0, 4)
                  : sleuth_word_known(r, cache, node, first, a & 3u, (a & 3u) + size)) {
      if (size <= 4 && (first & SLEUTH_SPLIT) == 0 && first != SLEUTH_LOAD(&cache[0])) {
        SLEUTH_STORE(&cache[1], SLEUTH_LOAD(&cache[0])); /* remembered, as the runtime would */
        SLEUTH_STORE(&cache[0], first);
      }
      return;
    }
  }
#endif
  sleuth_getc_slow(tu, cache, site, addr, size);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
/* A read of a kept local whose origin (1 + a node, 0 none) is `origin`. */
SLEUTH_INLINE void sleuth_chk(struct sleuth_tu *tu, unsigned *cache, unsigned site,
                              unsigned origin) {
  if (!sleuth_cached(origin, cache))
    sleuth_chk_miss(tu, cache, site, origin);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes"
#endif
SLEUTH_INLINE void sleuth_getc_hot(struct sleuth_tu *tu, unsigned *cache, unsigned site,
                                   const volatile void *addr, unsigned long size) {
#ifdef SLEUTH_INLINE_WRITES
  unsigned *word = sleuth_shadow_words((unsigned long)addr, size);
  if (word) {
    unsigned first = __atomic_load_n(word, __ATOMIC_ACQUIRE), second = first;
    if (size == 8)
      second = __atomic_load_n(word + 1, __ATOMIC_ACQUIRE);
    if (((first | second) & SLEUTH_SPLIT) == 0) {
      if (sleuth_cached(first, cache) && (second == first || sleuth_cached(second, cache)))
        return;
    } else if (size < 4 && (first & SLEUTH_PART) == SLEUTH_PART &&
               sleuth_cached(sleuth_part_read(first, (unsigned long)addr, size), cache)) {
      return; /* a char of a part */
    }
  }
#endif
  sleuth_getc_miss(tu, cache, site, addr, size);
}
SLEUTH_LOCAL void sleuth_getc(struct sleuth_tu *tu, unsigned *cache, unsigned site,
                              const volatile void *addr, unsigned long size) {
  sleuth_getc_hot(tu, cache, site, addr, size);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
/* The same, returning addr: for lvalues whose evaluation has side effects (a[i++]). */
SLEUTH_INLINE void *sleuth_getcp(struct sleuth_tu *tu, unsigned *cache, unsigned site,
                                 const volatile void *addr, unsigned long size) {
  sleuth_getc(tu, cache, site, addr, size);
  return (void *)(unsigned long)addr; /* through an integer: no -Wcast-qual */
}
SLEUTH_INLINE void *sleuth_getcp_hot(struct sleuth_tu *tu, unsigned *cache, unsigned site,
                                     const volatile void *addr, unsigned long size) {
  sleuth_getc_hot(tu, cache, site, addr, size);
  return (void *)(unsigned long)addr;
}

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SLEUTH_RUNTIME_READS_H */
