/*
 * The sleuth runtime: probes of calls, function entry and exit, and sleuth_flush().
 *
 * Part of sleuth/runtime.h, which instrumented code includes: C89 under -pedantic -Werror and
 * any C++ standard, as that header.
 */
#ifndef SLEUTH_RUNTIME_CALLS_H
#define SLEUTH_RUNTIME_CALLS_H

#include "sleuth/runtime/nodes.h"

#ifdef __cplusplus
extern "C" {
#endif

/* --- Calls and frames -----------------------------------------------------------------------
 * Before the call, and before each argument that reads something. `callee_key` identifies the
 * callee (0 when unknown: calls through pointers or virtual calls); `ctl` controls the call,
 * and so the callee's sites that no test inside it controls. */
SLEUTH_PROBE void sleuth_call_slow(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                   unsigned callee_key, unsigned consumer, unsigned *cache);
SLEUTH_PROBE void sleuth_arg_slow(struct sleuth_tu *tu, unsigned site, unsigned position);
/* sleuth_arg for an argument that writes (`f((g &= x), y)`): a write consumes its frame's
 * pending reads, and so those of the arguments evaluated before it (all others under GCC,
 * which evaluates right to left). Until the callee enters, the reads pushed so far stay below
 * the frame's base, so that the parameters take their origins in either order. */
SLEUTH_PROBE void sleuth_arg_fenced(struct sleuth_tu *tu, unsigned site, unsigned position);
/* The end of such an argument of a call whose callee may not enter (through a pointer, or
 * defined elsewhere): the fence comes down here, lest the call's value miss the other
 * arguments' reads. */
SLEUTH_PROBE void sleuth_arg_unfenced(struct sleuth_tu *tu, unsigned site);
SLEUTH_PROBE void sleuth_construct_arg_slow(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                            unsigned key, unsigned position);
/* A std::thread's arguments (sleuth::ThreadStart): the record of call `site` taken from the
 * constructing thread once they are evaluated, the origins of each (null if it has none); given
 * to the new thread as its record for the function it enters next (and freed); or freed. */
SLEUTH_PROBE void *sleuth_thread_args_take(struct sleuth_tu *tu, unsigned site);
SLEUTH_PROBE void sleuth_thread_args_give(void *args);
SLEUTH_PROBE void sleuth_thread_args_drop(void *args);
/* sleuth_call and every sleuth_arg at once, for a call whose arguments have no side effects and
 * read only locals kept in companions: `pairs` pairs (position, origin) follow, the origins read
 * before the call (at most SLEUTH_CALL_PAIRS). The runtime's side of sleuth_call_pairs and
 * sleuth_call_pairs8 below, which call it when the thread's stacks have no room. */
SLEUTH_PROBE void sleuth_call_args(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                   unsigned callee_key, unsigned pairs, ...);
/* The same two for a call whose value the instrumenter knows the consumer of (`x = f(a)`,
 * `if (f(a))`): the callee's return value is checked against node `consumer` with the read
 * cache `cache`, as a read of the caller's, instead of pushed for the caller's next node (which
 * then has nothing to consume and stays on its inline path). */
SLEUTH_PROBE void sleuth_call_argsv(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                    unsigned callee_key, unsigned consumer, unsigned *cache,
                                    unsigned pairs, ...);

/* Function entry and exit. `frame_address` identifies C frames so that frames abandoned by
 * longjmp are popped lazily: those deeper on the stack (lower) than an entering function's.
 * One at the same address is its live caller, into which the compiler inlined it; C++ passes 0 and
 * relies on sleuth::Frame's destructor. Returns the call's control (1 + the node of the test that
 * controlled the call, 0 for none), which controls the function's sites that no test inside it
 * controls. */
SLEUTH_PROBE unsigned sleuth_enter(struct sleuth_tu *tu, unsigned func, unsigned key,
                                   const void *frame_address);
/* The entry of a C++ destructor (sleuth::Frame's DestructorEntry): as sleuth_enter, and one
 * that no call record announced, run implicitly at the end of a scope or by unwinding, takes
 * the control of that scope's end or of the throw (see sleuth/runtime/scopes.h). */
SLEUTH_PROBE unsigned sleuth_enter_destructor(struct sleuth_tu *tu, unsigned func, unsigned key);
SLEUTH_PROBE void sleuth_param(struct sleuth_tu *tu, unsigned site, const volatile void *addr,
                               unsigned long size, unsigned position);
/* A parameter kept in a companion: as sleuth_param, returning the parameter's origin. */
SLEUTH_PROBE unsigned sleuth_param_origin(struct sleuth_tu *tu, unsigned site, unsigned position);
/* The runtime's sleuth_enter_params, sleuth_ret and sleuth_leave (below). */
SLEUTH_PROBE unsigned sleuth_enter_params_slow(struct sleuth_tu *tu, unsigned func, unsigned key,
                                               const void *frame_address, unsigned first_param,
                                               unsigned count);
SLEUTH_PROBE void sleuth_ret_slow(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                  const void *frame_address);
SLEUTH_PROBE void sleuth_leave_slow(const void *frame_address);

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wattributes"
#endif
/* Drops the record of a call at `node` still pending in the current frame, if there is one: that
 * call returned without entering an instrumented function (a library function called through a
 * pointer, a body in a file that is not instrumented: nothing took its record) or was left by a
 * jump. A loop making such calls then keeps one record per call site, not one per call (a
 * program looping forever on one grew by gigabytes). Records made after it stay: a call in an
 * argument of another is made after the other's record, which is live. */
static __inline__ void sleuth_drop_stale_call(struct sleuth_reads *r, unsigned node) {
  unsigned k = r->num_calls, depth = r->num_frames;
  for (; k > 0 && r->calls[k - 1].depth == depth; --k)
    if (r->calls[k - 1].node == node) {
      for (; k < r->num_calls; ++k)
        r->calls[k - 1] = r->calls[k];
      --r->num_calls;
      return;
    }
}
/* The bit of a callee key that says the callee is a constructor (the instrumenter sets it in
 * every constructor's key and in no other). */
#define SLEUTH_CONSTRUCTOR_KEY 0x80000000u
/* A function entered with no record of its own while the current frame's latest record is a
 * constructor call's: the constructor's arguments are evaluated, and what runs now are its
 * member and base initializers (`Box(int a) : x(twice(a))`: twice's frame, and its return
 * value pushed after). What they push belongs to no parameter of the constructor's: a mark at
 * position 0 ends the last argument's reads. So for a forwarded call's record (sleuth_forward,
 * num_pairs ~1u), whose library call enters other functions of the program's before the
 * record's callee (a map's try_emplace compares keys first, with the program's operator<,
 * whose return value it pushes). */
static __inline__ void sleuth_close_construct_args(struct sleuth_reads *r) {
  struct sleuth_call_record *c;
  if (r->num_calls == 0)
    return;
  c = &r->calls[r->num_calls - 1];
  if (c->depth == r->num_frames &&
      (((c->key & SLEUTH_CONSTRUCTOR_KEY) != 0 && c->num_pairs == ~0u) || c->num_pairs == ~1u) &&
      c->num_marks < SLEUTH_CALL_MARKS &&
      (c->num_marks == 0 || c->marks[c->num_marks - 1].position != 0)) {
    c->marks[c->num_marks].at = (unsigned)(r->top - r->reads);
    c->marks[c->num_marks].position = 0;
    ++c->num_marks;
  }
}
/* A constructor's initializer list is about to push a call's record (of a base's or a member's
 * constructor, or a call in a member initializer): what that call pushes belongs to no
 * parameter of the constructor being entered, as when such a call enters without a record; and
 * should its callee not take the record after all (it was not instrumented), its arguments'
 * origins stay out of the constructor's last parameter. */
SLEUTH_INLINE void sleuth_initializer_call(void) {
  sleuth_close_construct_args(&sleuth_pending_reads);
}
#ifdef SLEUTH_INLINE_WRITES
/* Pushes the record of a call (site `site` of unit `tu`, whose base is `base`) onto the thread's
 * stack, which has room; see sleuth_callv. Its arguments are for the caller to fill in. A record
 * of the same call site still pending in the frame goes first (sleuth_drop_stale_call). */
SLEUTH_INLINE struct sleuth_call_record *sleuth_push_call(struct sleuth_tu *tu, unsigned base,
                                                          unsigned site, unsigned ctl, unsigned key,
                                                          unsigned consumer, unsigned *cache) {
  struct sleuth_reads *r = &sleuth_pending_reads;
  struct sleuth_call_record *c;
  sleuth_drop_stale_call(r, base - 1 + site);
  c = &r->calls[r->num_calls++];
  c->depth = r->num_frames;
  c->node = base - 1 + site;
  c->key = key;
  c->reads = (unsigned)(r->top - r->reads);
  c->ctl = ctl;
  c->value_site = consumer;
  c->value_tu = cache ? tu : (struct sleuth_tu *)SLEUTH_NULL;
  c->value_cache = cache;
  return c;
}
#endif
/* A call whose value node `consumer` consumes (a read with the read cache `cache`; cache null:
 * none, the callee's return value is pushed for the caller's next node): the record goes onto
 * the thread's stack inline; its arguments' reads are pushed and marked (sleuth_arg). */
SLEUTH_INLINE void sleuth_callv(struct sleuth_tu *tu, unsigned site, unsigned ctl, unsigned key,
                                unsigned consumer, unsigned *cache) {
#ifdef SLEUTH_INLINE_WRITES
  struct sleuth_reads *r = &sleuth_pending_reads;
  unsigned base = __atomic_load_n(&tu->base, __ATOMIC_ACQUIRE);
  if (base != 0 && r->num_calls < r->max_calls) {
    struct sleuth_call_record *c = sleuth_push_call(tu, base, site, ctl, key, consumer, cache);
    c->num_pairs = ~0u;
    c->num_marks = 0;
    return;
  }
#endif
  sleuth_call_slow(tu, site, ctl, key, consumer, cache);
}
/* A call whose value is pushed (see sleuth_callv). */
SLEUTH_INLINE void sleuth_call(struct sleuth_tu *tu, unsigned site, unsigned ctl, unsigned key) {
  sleuth_callv(tu, site, ctl, key, 0u, (unsigned *)SLEUTH_NULL);
}
/* Argument `position` of the call at `site` reads what is pushed from now on. */
SLEUTH_INLINE void sleuth_arg(struct sleuth_tu *tu, unsigned site, unsigned position) {
#ifdef SLEUTH_INLINE_WRITES
  struct sleuth_reads *r = &sleuth_pending_reads;
  unsigned base = __atomic_load_n(&tu->base, __ATOMIC_ACQUIRE);
  struct sleuth_call_record *c =
      r->num_calls ? &r->calls[r->num_calls - 1] : (struct sleuth_call_record *)SLEUTH_NULL;
  if (base != 0 && c && c->node == base - 1 + site && c->depth == r->num_frames &&
      c->num_marks < SLEUTH_CALL_MARKS) {
    c->marks[c->num_marks].at = (unsigned)(r->top - r->reads);
    c->marks[c->num_marks].position = position;
    ++c->num_marks;
    return;
  }
#endif
  sleuth_arg_slow(tu, site, position);
}

/* Argument `position` of a constructor call (site `site`, under `ctl`, of the constructor whose
 * key is `key`) reads what is pushed from now on. A constructor call has no expression of its
 * own to put a call probe before (`Box box(a, b)`, `Base(a)` in an initializer list), so each
 * argument carries this one, and the argument evaluated first (their order is unspecified)
 * makes the record: the call's record in the current frame if it has no mark at `position` yet,
 * else a fresh one (the one found is left from an earlier construction, which never entered:
 * an argument threw). */
SLEUTH_INLINE void sleuth_construct_arg(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                        unsigned key, unsigned position) {
#ifdef SLEUTH_INLINE_WRITES
  struct sleuth_reads *r = &sleuth_pending_reads;
  unsigned base = __atomic_load_n(&tu->base, __ATOMIC_ACQUIRE), k, m;
  struct sleuth_call_record *c;
  if (base != 0) {
    for (k = r->num_calls; k > 0 && r->calls[k - 1].depth == r->num_frames; --k)
      if (r->calls[k - 1].node == base - 1 + site)
        break;
    if (k > 0 && r->calls[k - 1].depth == r->num_frames &&
        r->calls[k - 1].node == base - 1 + site) {
      c = &r->calls[k - 1];
      for (m = 0; m < c->num_marks && c->marks[m].position != position; ++m)
        ;
      if (m == c->num_marks && c->num_pairs == ~0u) {
        if (c->num_marks < SLEUTH_CALL_MARKS) {
          c->marks[c->num_marks].at = (unsigned)(r->top - r->reads);
          c->marks[c->num_marks].position = position;
          ++c->num_marks;
        }
        return;
      }
    }
    if (r->num_calls < r->max_calls) {
      c = sleuth_push_call(tu, base, site, ctl, key, 0u, (unsigned *)SLEUTH_NULL);
      c->num_pairs = ~0u;
      c->num_marks = 1;
      c->marks[0].at = (unsigned)(r->top - r->reads);
      c->marks[0].position = position;
      return;
    }
  }
#endif
  sleuth_construct_arg_slow(tu, site, ctl, key, position);
}

#ifdef SLEUTH_INLINE_WRITES
/* The record of a call whose arguments' origins are `pairs` (position, origin) pairs, pushed onto
 * the thread's stack with the origins, if there is room; returns 0 if not. */
SLEUTH_INLINE int sleuth_push_call_pairs(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                         unsigned key, unsigned consumer, unsigned *cache,
                                         unsigned pairs, const unsigned *positions,
                                         const unsigned *origins) {
  struct sleuth_reads *r = &sleuth_pending_reads;
  unsigned base = __atomic_load_n(&tu->base, __ATOMIC_ACQUIRE), i;
  struct sleuth_call_record *c;
  if (base == 0 || r->num_calls >= r->max_calls || (unsigned long)(r->end - r->top) < pairs)
    return 0;
  c = sleuth_push_call(tu, base, site, ctl, key, consumer, cache);
  c->num_pairs = pairs;
  c->num_marks = pairs + 1;
  for (i = 0; i < pairs; ++i) {
    c->pairs[2 * i] = positions[i];
    c->pairs[2 * i + 1] = origins[i];
    c->marks[i].at = (unsigned)(r->top - r->reads);
    c->marks[i].position = positions[i];
    if (origins[i] != 0)
      *r->top++ = origins[i] - 1;
  }
  /* The arguments' own reads, pushed after this, belong to no parameter. */
  c->marks[pairs].at = (unsigned)(r->top - r->reads);
  c->marks[pairs].position = 0;
  return 1;
}
#endif
/* sleuth_call_argsv (sleuth_call_args with cache null) for at most four pairs, inline: the
 * record and the origins go onto the thread's stacks without a call. */
SLEUTH_INLINE void sleuth_call_pairs(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                     unsigned key, unsigned consumer, unsigned *cache,
                                     unsigned pairs, unsigned p1, unsigned o1, unsigned p2,
                                     unsigned o2, unsigned p3, unsigned o3, unsigned p4,
                                     unsigned o4) {
#ifdef SLEUTH_INLINE_WRITES
  unsigned positions[4], origins[4];
  positions[0] = p1; positions[1] = p2; positions[2] = p3; positions[3] = p4;
  origins[0] = o1; origins[1] = o2; origins[2] = o3; origins[3] = o4;
  if (sleuth_push_call_pairs(tu, site, ctl, key, consumer, cache, pairs, positions, origins))
    return;
#endif
  sleuth_call_argsv(tu, site, ctl, key, consumer, cache, pairs, p1, o1, p2, o2, p3, o3, p4, o4);
}
/* The same for five to eight pairs (Lua's luaH_finishset(L, h, key, slot, val)). */
SLEUTH_INLINE void sleuth_call_pairs8(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                      unsigned key, unsigned consumer, unsigned *cache,
                                      unsigned pairs, unsigned p1, unsigned o1, unsigned p2,
                                      unsigned o2, unsigned p3, unsigned o3, unsigned p4,
                                      unsigned o4, unsigned p5, unsigned o5, unsigned p6,
                                      unsigned o6, unsigned p7, unsigned o7, unsigned p8,
                                      unsigned o8) {
#ifdef SLEUTH_INLINE_WRITES
  unsigned positions[8], origins[8];
  positions[0] = p1; positions[1] = p2; positions[2] = p3; positions[3] = p4;
  positions[4] = p5; positions[5] = p6; positions[6] = p7; positions[7] = p8;
  origins[0] = o1; origins[1] = o2; origins[2] = o3; origins[3] = o4;
  origins[4] = o5; origins[5] = o6; origins[6] = o7; origins[7] = o8;
  if (sleuth_push_call_pairs(tu, site, ctl, key, consumer, cache, pairs, positions, origins))
    return;
#endif
  sleuth_call_argsv(tu, site, ctl, key, consumer, cache, pairs, p1, o1, p2, o2, p3, o3, p4, o4, p5,
                    o5, p6, o6, p7, o7, p8, o8);
}

#ifdef SLEUTH_INLINE_WRITES
/* True if `origin` is none or one of the origins whose edges into the node of `s` are recorded
 * (all slots: a parameter's origins are its callers' arguments, more than the first few). */
SLEUTH_INLINE int sleuth_known_datum(const struct sleuth_site_state *s, unsigned origin) {
  unsigned i;
  if (origin == 0 || origin == SLEUTH_LOAD(&s->data[0]))
    return 1; /* the common case: a loop's call, or a function called from one place */
  for (i = 1; i < 12; ++i)
    if (origin == SLEUTH_LOAD(&s->data[i]))
      return 1;
  return 0;
}
#endif
/* True if the function whose state is `f` returned normally under call control `cc` before
 * (as far as its bucket tells; see sleuth_func_state). */
SLEUTH_INLINE int sleuth_completed_under(const struct sleuth_func_state *f, unsigned cc) {
  const unsigned *bucket = f->completed + SLEUTH_COMPLETED_SLOT(cc);
  return cc == SLEUTH_LOAD(&bucket[0]) || cc == SLEUTH_LOAD(&bucket[1]);
}
SLEUTH_PROBE unsigned sleuth_quiet_control_slow(struct sleuth_tu *tu, unsigned func, unsigned cc);
/* Right after the entry probe of function `func`, whose call's control it returned (cc): the
 * control that the function's sites controlled by the call pass, its `quiet control`: none (0)
 * if the function returned normally under cc before, so that their nodes' edges from cc are
 * recorded already; cc otherwise. Calls keep passing cc on to their callees. */
SLEUTH_INLINE unsigned sleuth_quiet_control(struct sleuth_tu *tu, unsigned func, unsigned cc) {
  if (cc == 0 || sleuth_completed_under(tu->func_states + func, cc))
    return 0;
  return sleuth_quiet_control_slow(tu, func, cc);
}
SLEUTH_PROBE void sleuth_completed_slow(struct sleuth_func_state *state, unsigned func,
                                        unsigned cc);
/* Frame f returns normally (not unwound by an exception nor abandoned by a longjmp: the runtime
 * checks the former, the latter never gets here): its function completed under its call's
 * control. */
SLEUTH_INLINE void sleuth_complete(const struct sleuth_frame *f) {
  if (f->call_control != 0 && f->func_state &&
      !sleuth_completed_under(f->func_state, f->call_control))
    sleuth_completed_slow(f->func_state, f->func, f->call_control);
}

/* sleuth_enter of a function whose parameters 1..count all keep their origins in companions:
 * their nodes are sites first_param .. first_param + count - 1, made here; parameter i's origin
 * is then tu->base + first_param + i (base is 1 + the id of site 0), without another call.
 * Inline when the call record on top is the caller's for this callee (its arguments' origins
 * given by sleuth_call_pairs, or pushed and marked by sleuth_arg), and entering adds no edge
 * (each parameter's origins and the call's control known to its node's state). */
SLEUTH_LOCAL unsigned sleuth_enter_params_general(struct sleuth_tu *tu, unsigned func, unsigned key,
                                                  const void *frame_address, unsigned first_param,
                                                  unsigned count) {
#ifdef SLEUTH_INLINE_WRITES
  struct sleuth_reads *r = &sleuth_pending_reads;
  unsigned base = __atomic_load_n(&tu->base, __ATOMIC_ACQUIRE);
  unsigned long address = (unsigned long)frame_address;
  if (base != 0 && r->num_frames < r->max_frames &&
      base - 1u + first_param + count <= r->num_hits &&
      (address == 0 || r->num_frames <= 1 || r->frames[r->num_frames - 1].address == 0 ||
       r->frames[r->num_frames - 1].address >= address)) {
    struct sleuth_func_state *state = tu->func_states + func;
    /* The caller's record for this callee: the latest of the current frame's records. With
     * none, the entry is a call its caller did not record (a C++ constructor or conversion, a
     * callback from uninstrumented code), with no arguments' origins, as the runtime would
     * enter it; the records stay for their callees. A match below the top
     * (records above it of calls whose callee never entered) is the runtime's. */
    struct sleuth_call_record *c = (struct sleuth_call_record *)SLEUTH_NULL;
    unsigned i, k, p, ok = 1, top = (unsigned)(r->top - r->reads), at = top, ctl = 0u, quiet;
    for (k = r->num_calls; k > 0 && r->calls[k - 1].depth == r->num_frames; --k)
      if (r->calls[k - 1].key == key || r->calls[k - 1].key == 0 || key == 0) {
        c = &r->calls[k - 1];
        ok = k == r->num_calls && c->reads <= top &&
             (c->num_pairs <= SLEUTH_CALL_PAIRS ||
              (c->num_pairs == ~0u && c->num_marks <= SLEUTH_CALL_MARKS));
        at = c->reads;
        ctl = c->ctl;
        break;
      }
    /* With none, a library call the current frame is making may be calling the program back:
     * the entry is controlled by what controls that call (sleuth_library_call). */
    if (!c && r->num_frames != 0)
      ctl = r->frames[r->num_frames - 1].callback_control;
    /* The parameters are controlled by the call: known already under a quiet control. */
    quiet = ctl == 0 || sleuth_completed_under(state, ctl);
    /* Marks (the general form) delimit each argument's reads on the stack, in the order they
     * were pushed; out of order or past the top (a write inside an argument consumed some),
     * the runtime sorts them out. */
    for (k = 0; ok && c && c->num_pairs == ~0u && k < c->num_marks; ++k) {
      ok = c->marks[k].at >= at && c->marks[k].at <= top;
      at = c->marks[k].at;
    }
    for (i = 0; ok && !quiet && i < count; ++i) {
      const struct sleuth_site_state *s = tu->states + first_param + i;
      ok = ctl == SLEUTH_LOAD(&s->control[0]) || ctl == SLEUTH_LOAD(&s->control[1]) ||
           ctl == SLEUTH_LOAD(&s->control[2]) || ctl == SLEUTH_LOAD(&s->control[3]);
    }
    /* Each argument's origins against its parameter's node (positions beyond the parameters:
     * a variadic function's extra arguments, which no parameter takes). */
    if (c && c->num_pairs != ~0u) {
      for (k = 0; ok && k < c->num_pairs; ++k)
        if (c->pairs[2 * k] - 1u < count)
          ok = sleuth_known_datum(tu->states + first_param + c->pairs[2 * k] - 1,
                                  c->pairs[2 * k + 1]);
    } else if (c) {
      for (k = 0; ok && k < c->num_marks; ++k)
        if (c->marks[k].position - 1u < count)
          for (p = c->marks[k].at; ok && p < (k + 1 < c->num_marks ? c->marks[k + 1].at : top); ++p)
            ok = sleuth_known_datum(tu->states + first_param + c->marks[k].position - 1,
                                    r->reads[p] + 1);
    }
    if (ok) {
      struct sleuth_frame *f;
      if (!c)
        sleuth_close_construct_args(r);
      f = &r->frames[r->num_frames++];
      for (i = 0; i < count; ++i)
        ++r->hits[base - 1 + first_param + i];
      if (count != 0)
        *r->last = base - 2 + first_param + count;
      f->args = r->num_args;
      f->call_control = ctl;
      f->func = tu->func_base + func;
      f->address = address;
      f->func_state = state;
      f->callback_control = 0;
      if (!c) {
        f->reads = top;
        f->value_tu = (struct sleuth_tu *)SLEUTH_NULL;
        f->value_cache = (unsigned *)SLEUTH_NULL;
        f->value_site = 0;
        r->frame = r->top;
        return ctl;
      }
      f->reads = c->reads;
      f->value_tu = c->value_tu;
      f->value_cache = c->value_cache;
      f->value_site = c->value_site;
      --r->num_calls;
      r->top = r->frame = r->reads + c->reads; /* the arguments' reads are the parameters' */
      return ctl;
    }
  }
#endif
  return sleuth_enter_params_slow(tu, func, key, frame_address, first_param, count);
}
/* The common entry first, in few instructions (tinyxml2 enters a small function for every few
 * of its statements): the caller's record for this callee on top, a quiet call control, and each
 * argument's origins known to its parameter's node. Anything else takes the general path. */
SLEUTH_LOCAL unsigned sleuth_enter_params(struct sleuth_tu *tu, unsigned func, unsigned key,
                                          const void *frame_address, unsigned first_param,
                                          unsigned count) {
#ifdef SLEUTH_INLINE_WRITES
  struct sleuth_reads *r = &sleuth_pending_reads;
  unsigned base = __atomic_load_n(&tu->base, __ATOMIC_ACQUIRE);
  unsigned frames = r->num_frames, calls = r->num_calls;
  unsigned long address = (unsigned long)frame_address;
  const struct sleuth_call_record *c = (const struct sleuth_call_record *)SLEUTH_NULL;
  if (base != 0 && calls != 0 && (c = &r->calls[calls - 1u])->depth == frames &&
      frames < r->max_frames && (c->key == key || c->key == 0 || key == 0) &&
      base - 1u + first_param + count <= r->num_hits && c->reads <= (unsigned)(r->top - r->reads) &&
      (address == 0 || frames <= 1 || r->frames[frames - 1].address == 0 ||
       r->frames[frames - 1].address >= address) &&
      (c->ctl == 0 || sleuth_completed_under(tu->func_states + func, c->ctl))) {
    const struct sleuth_site_state *params = tu->states + first_param;
    struct sleuth_frame *f;
    unsigned k, p, n = c->num_pairs, end;
    unsigned long *hits;
    if (n <= SLEUTH_CALL_PAIRS) {
      for (k = 0; k < n; ++k)
        if (c->pairs[2 * k] - 1u < count &&
            !sleuth_known_datum(params + c->pairs[2 * k] - 1, c->pairs[2 * k + 1]))
          return sleuth_enter_params_general(tu, func, key, frame_address, first_param, count);
    } else {
      /* Marks in the order their reads were pushed, each argument's reads known. */
      unsigned at = c->reads, top = (unsigned)(r->top - r->reads);
      if (n != ~0u || c->num_marks > SLEUTH_CALL_MARKS)
        return sleuth_enter_params_general(tu, func, key, frame_address, first_param, count);
      for (k = 0; k < c->num_marks; ++k) {
        if (c->marks[k].at < at || c->marks[k].at > top)
          return sleuth_enter_params_general(tu, func, key, frame_address, first_param, count);
        at = c->marks[k].at;
        end = k + 1 < c->num_marks ? c->marks[k + 1].at : top;
        if (c->marks[k].position - 1u < count)
          for (p = at; p < end; ++p)
            if (!sleuth_known_datum(params + c->marks[k].position - 1, r->reads[p] + 1))
              return sleuth_enter_params_general(tu, func, key, frame_address, first_param, count);
      }
    }
    hits = r->hits + (base - 1 + first_param);
    for (k = 0; k < count; ++k)
      ++hits[k];
    if (count != 0)
      *r->last = base - 2 + first_param + count;
    f = &r->frames[frames];
    r->num_frames = frames + 1;
    f->reads = c->reads;
    f->args = r->num_args;
    f->call_control = c->ctl;
    f->func = tu->func_base + func;
    f->address = address;
    f->value_tu = c->value_tu;
    f->value_cache = c->value_cache;
    f->value_site = c->value_site;
    f->callback_control = 0;
    f->func_state = tu->func_states + func;
    r->num_calls = calls - 1;
    r->top = r->frame = r->reads + c->reads; /* the arguments' reads are the parameters' */
    return f->call_control;
  }
#endif
  return sleuth_enter_params_general(tu, func, key, frame_address, first_param, count);
}

#ifdef SLEUTH_INLINE_WRITES
/* The current frame if it can be left inline: the leaving function's own (a C function passes
 * its frame address: after a longjmp the frames it abandoned are still on top, which the
 * runtime pops first), with no call record or argument origin of its own left (calls into
 * uninstrumented code leave records). */
static __inline__ struct sleuth_frame *sleuth_leaving_frame(const void *frame_address) {
  struct sleuth_reads *r = &sleuth_pending_reads;
  struct sleuth_frame *f;
  if (r->num_frames <= 1)
    return (struct sleuth_frame *)SLEUTH_NULL;
  f = &r->frames[r->num_frames - 1];
  if ((r->num_calls != 0 && r->calls[r->num_calls - 1].depth >= r->num_frames) ||
      r->num_args != f->args || f->address != (unsigned long)frame_address)
    return (struct sleuth_frame *)SLEUTH_NULL;
  return f;
}
/* Leaves frame f (the current one): its pending reads are dropped. */
static __inline__ void sleuth_pop_frame(struct sleuth_frame *f) {
  struct sleuth_reads *r = &sleuth_pending_reads;
  --r->num_frames;
  r->top = r->reads + f->reads;
  r->frame = r->reads + r->frames[r->num_frames - 1].reads;
}
#endif

/* A return: node `site` depends on the pending reads; the frame is left and the caller's
 * expression now reads the return value. `frame_address` as for sleuth_enter. */
SLEUTH_LOCAL void sleuth_ret(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                             const void *frame_address) {
#ifdef SLEUTH_INLINE_WRITES
  struct sleuth_site_state *s = sleuth_quiet(tu, site, ctl, 1);
  struct sleuth_frame *f =
      s ? sleuth_leaving_frame(frame_address) : (struct sleuth_frame *)SLEUTH_NULL;
  if (f) {
    unsigned value = sleuth_hit(tu, site, s, 1);
    struct sleuth_tu *value_tu = f->value_tu;
    unsigned *value_cache = f->value_cache;
    unsigned value_site = f->value_site;
    sleuth_complete(f);
    sleuth_pop_frame(f);
    if (value_tu)
      sleuth_chk(value_tu, value_cache, value_site, value);
    else
      sleuth_use(value);
    return;
  }
#endif
  sleuth_ret_slow(tu, site, ctl, frame_address);
}
/* Leave a frame without a return value (void functions, exceptions). */
SLEUTH_LOCAL void sleuth_leave(const void *frame_address) {
#ifdef SLEUTH_INLINE_WRITES
  struct sleuth_frame *f = sleuth_leaving_frame(frame_address);
  if (f) {
    sleuth_complete(f);
    sleuth_pop_frame(f);
    return;
  }
#endif
  sleuth_leave_slow(frame_address);
}
/* The frame local of a C function with a return spelled inside a macro's body, which the
 * instrumenter cannot put a probe into. `address` is the frame's address, zeroed by each visible
 * return once it left the frame. While a statement that invokes such a macro runs, `site` is 1 +
 * the return node the instrumenter made for it (at the invocation) and `ctl` that node's
 * control; 0 elsewhere. `test` is 1 + the test node of the macro's own `if` (0: none), which the
 * return is controlled by: the probe that runs when the macro does not return cannot run. */
struct sleuth_exit_frame {
  unsigned long address;
  struct sleuth_tu *tu;
  unsigned site, ctl, test;
};
/* Its cleanup: any way out of the body but a visible return leaves the frame here, through the
 * return node of the statement running (whose pending reads, its macro arguments', flow into
 * it, and whose value the caller reads), or without a node. */
SLEUTH_INLINE void sleuth_leave_at_exit(struct sleuth_exit_frame *frame) {
  if (frame->address == 0)
    return;
  if (frame->site != 0 && frame->test != 0) {
    (void)sleuth_test_keep(frame->tu, frame->test - 1, frame->ctl, 1);
    sleuth_ret(frame->tu, frame->site - 1, frame->tu->base + (frame->test - 1),
               (const void *)frame->address);
  } else if (frame->site != 0)
    sleuth_ret(frame->tu, frame->site - 1, frame->ctl, (const void *)frame->address);
  else
    sleuth_leave((const void *)frame->address);
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

/* --- The program's variadic functions --------------------------------------------------------
 * `va_start(ap, last)` in a function with N named parameters is preceded by
 * sleuth_va_start(KEY, N + 1), `va_copy(d, s)` by sleuth_va_copy(KEY(d), KEY(s)) and
 * `va_arg(ap, T)` by sleuth_va_arg(KEY), which pushes the origins of the call's next extra
 * argument for what reads the value. KEY is the va_list's address: `ap` itself where va_list is
 * an array (x86-64: a parameter of type va_list then points to the caller's, so that a helper
 * `vsum(n, ap)` walks the same arguments), else `&ap`. */
SLEUTH_PROBE void sleuth_va_start(const void *key, unsigned first_position);
SLEUTH_PROBE void sleuth_va_copy(const void *destination, const void *source);
SLEUTH_PROBE void sleuth_va_arg(const void *key);

/* A call of the library that calls the program's code with the call's own arguments
 * (`std::make_unique<T>(a, b)`, `v.emplace_back(a)`, `std::invoke(f, a)`): the record of the
 * call the library makes, matched by `callee_key` (0: any), its arguments marked (sleuth_arg) at
 * the callee's positions. The arguments' reads stay pending for the library call's own value
 * and writes. */
SLEUTH_PROBE void sleuth_forward(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                 unsigned callee_key);
/* A constructor entered through such a record has built the `size` bytes at `object`: the
 * origins of what it wrote there are kept for the library call's element that the object
 * becomes (sleuth_shifted_contents), which the library may fill by copying a temporary
 * (libstdc++'s `v.emplace(it, a, b)` in the middle of a vector move-assigns one, unseen). */
SLEUTH_PROBE void sleuth_constructed(const void *object, unsigned long size);
/* After a signal the program sent itself (`raise(sig)`: sleuth_forward with any callee, which
 * the handler's entry takes): the record, if no handler took it (the signal ignored, its
 * handler not instrumented), goes, lest an entry with no record of its own (a callback) take
 * the call's control later. Yields the call's value, `result`. */
SLEUTH_INLINE int sleuth_signalled(struct sleuth_tu *tu, unsigned site, int result) {
  unsigned base = __atomic_load_n(&tu->base, __ATOMIC_ACQUIRE);
  if (base != 0)
    sleuth_drop_stale_call(&sleuth_pending_reads, base - 1 + site);
  return result;
}

/* A call of the library that may call the program back while it runs (`qsort(v, n, s, cmp)`,
 * `std::sort(b, e, less)`, `s.insert(x)` of a std::set with the program's comparator): the
 * functions of the program's that it enters with no call record of their own are controlled by
 * what controls the call, `ctl`, however many times the library enters them
 * (sleuth_frame's callback_control, which those entries read). Yields the control of an
 * enclosing such call of the same frame, which sleuth_library_returned puts back once the call
 * returns. */
SLEUTH_INLINE unsigned sleuth_library_call(unsigned ctl) {
  struct sleuth_reads *r = &sleuth_pending_reads;
  unsigned outer;
  if (r->num_frames == 0)
    return 0u;
  outer = r->frames[r->num_frames - 1].callback_control;
  r->frames[r->num_frames - 1].callback_control = ctl;
  return outer;
}
SLEUTH_INLINE void sleuth_library_returned(unsigned outer) {
  struct sleuth_reads *r = &sleuth_pending_reads;
  if (r->num_frames != 0)
    r->frames[r->num_frames - 1].callback_control = outer;
}

/* --- Exceptions (C++) ------------------------------------------------------------------------
 * `throw e` is `throw (sleuth_throwing(tu, site, ctl), e)` (`throw;` alike): the throw's
 * node, which reads what `e` pushed, is made when the exception leaves it (the runtime stands
 * in front of the C++ library's __cxa_throw) or, failing that, by the handler. An exception the
 * library throws (std::stoi, vector::at) depends on the reads its call left pending.
 * A handler begins with the test node of its `catch`, whose control is
 * sleuth_caught(ctl): 1 + the throw's node when the program threw, else `ctl`; the reads of a
 * library's throw are pushed for the node. */
SLEUTH_PROBE void sleuth_throwing(struct sleuth_tu *tu, unsigned site, unsigned ctl);
SLEUTH_PROBE unsigned sleuth_caught(unsigned ctl);

/* Write the dependence file now (also done automatically at exit and on fatal signals). */
void sleuth_flush(void);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SLEUTH_RUNTIME_CALLS_H */
