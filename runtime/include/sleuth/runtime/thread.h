/*
 * The sleuth runtime: frames, calls and the state of a thread that the inline probes share
 * with the runtime.
 *
 * Part of sleuth/runtime.h, which instrumented code includes: C89 under -pedantic -Werror and
 * any C++ standard, as that header.
 */
#ifndef SLEUTH_RUNTIME_THREAD_H
#define SLEUTH_RUNTIME_THREAD_H

#include "sleuth/runtime/tables.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- Frames and calls, shared by the inline probes and the runtime --------------------------
 * One frame per instrumented function the thread is running (the first is the bottom frame, of
 * code outside any): */
struct sleuth_frame {
  unsigned reads;             /* index of its first pending read: those below are its callers' */
  unsigned args;              /* its first argument origin in the runtime's list */
  unsigned call_control;      /* 1 + the test that controlled its call, or 0 */
  unsigned func;              /* the function's program-wide id */
  unsigned long address;      /* C: __builtin_frame_address(0), to pop frames longjmp abandoned */
  struct sleuth_tu *value_tu; /* where its return value goes: a node of the caller's (read  */
  unsigned *value_cache;      /* with this cache), or none (value_tu null): pushed */
  unsigned value_site;
  /* 1 + the test that controlled the library call the function is making that may call the
   * program back (sleuth_library_call), or 0: the control of a function of the program's that
   * the library enters meanwhile with no call record of its own (a comparator, a lambda). */
  unsigned callback_control;
  struct sleuth_func_state *func_state; /* the function's (null: the bottom frame) */
};
/* Argument `position` (1-based; 0 none) read the pending reads from index `at` on. */
struct sleuth_call_mark {
  unsigned at;
  unsigned position;
};
#define SLEUTH_CALL_MARKS 16u
#define SLEUTH_CALL_PAIRS 8u
/* A call made and not yet entered, matched by the callee's entry through `key` (0: any). */
struct sleuth_call_record {
  unsigned depth; /* the caller's frames when it was made */
  unsigned node;  /* the call site's node */
  unsigned key;
  unsigned reads; /* pending reads from this index on were made for the call */
  unsigned ctl;   /* 1 + the test that controlled the call, or 0 */
  unsigned value_site;
  struct sleuth_tu *value_tu; /* where the callee's return value goes (see sleuth_frame) */
  unsigned *value_cache;
  /* Given by the caller for every argument (sleuth_call_args): (position, origin) pairs, the
   * origins pushed in order after `reads`; otherwise num_pairs is ~0u. */
  unsigned num_pairs;
  unsigned pairs[2 * SLEUTH_CALL_PAIRS];
  unsigned num_marks;
  struct sleuth_call_mark marks[SLEUTH_CALL_MARKS];
};

/* Leaves of the shadow memory a thread remembers (a power of two): heap objects, the stack and
 * a program's arrays take several, which fewer ways kept evicting one another (zlib's
 * longest_match made a slow read of almost every read with four). */
#define SLEUTH_LEAF_WAYS 16u

/* The thread's state that the inline probes below use, kept current by the runtime:
 * - the stack of pending reads, which reads whose consumer is known only at run time (call
 *   arguments) are pushed onto; a node consumes the reads of its frame;
 * - where the thread's latest node goes (the crash criterion);
 * - the thread's last leaves of the shadow memory looked up, one per way (see shadow_memory.h):
 *   the address bits above a leaf (~0ul: none) and the leaf's entries, one per aligned 4-byte
 *   word. */
struct sleuth_reads {
  unsigned *top;          /* the next free slot */
  unsigned *end;          /* the end of the storage; top == end: full, or no storage yet */
  unsigned *frame;        /* the current frame's first read: those below belong to its callers */
  unsigned *last;         /* the thread's latest node (null until the thread has state) */
  unsigned long *hits;    /* by node: how often the thread ran it */
  unsigned long num_hits; /* nodes the thread has a count for (0 until it has state) */
  unsigned *reads;        /* the pending reads' storage: top - reads is their number */
  struct sleuth_frame *frames; /* the thread's frames (none until it has state) */
  unsigned num_frames, max_frames;
  struct sleuth_call_record *calls; /* calls made and not entered yet */
  unsigned num_calls, max_calls;
  unsigned num_args; /* the runtime's argument origins */
  unsigned long leaf_keys[SLEUTH_LEAF_WAYS];
  unsigned *leaves[SLEUTH_LEAF_WAYS];
  /* The data edges the thread recorded (see sleuth_edge_known; null until it has state), and the
   * shadow memory's chunks of split records (see sleuth_record_byte). */
  unsigned long *edges;
  unsigned **split_chunks;
  /* num_frames once a constructor of the program's was entered through a forwarded call's
   * record (sleuth_forward: `v.emplace(it, a, b)`), until its frame says what it constructs
   * (sleuth::Frame::constructs); 0: none. */
  unsigned forwarded_construction;
};
extern __thread struct sleuth_reads sleuth_pending_reads __attribute__((tls_model("initial-exec")));

#define SLEUTH_LOAD(p) __atomic_load_n((p), __ATOMIC_RELAXED)
#define SLEUTH_STORE(p, v) __atomic_store_n((p), (v), __ATOMIC_RELAXED)
/* A word's shadow entry with this bit is split: its bytes have origins of their own. With the
 * next bit too it is a part: the bytes in its mask (bits 26..29, byte i at bit 26 + i) came
 * from its origin (the bits below 26), the others from nothing (chars stored one by one into
 * memory no instrumented code wrote, a buffer read() filled); without, a split record of the
 * runtime's holds the bytes' origins. */
#define SLEUTH_SPLIT 0x80000000u
#define SLEUTH_PART 0xc0000000u
#define SLEUTH_PART_SHIFT 26
#define SLEUTH_PART_LIMIT (1u << SLEUTH_PART_SHIFT)

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SLEUTH_RUNTIME_THREAD_H */
