/* A runtime whose probes do nothing but what the instrumented code needs of them (addresses and
 * outcomes handed back, a pending-read stack to push on): preloaded into a dependency-mode
 * build by bench/runtime's `deps-noop` variant. It registers no unit, so the inline paths of
 * runtime.h always fall through to its (empty) slow paths: it measures the instrumentation
 * with every probe a call into an empty function, not what the inline paths cost with the real
 * runtime: it is no floor under dependency mode, only what the probes cost as calls.
 *
 * Compiled against the real header, so that a probe whose signature changes fails to build
 * here rather than measure something else. */
#include "sleuth/runtime.h"

#include <stdlib.h>

#define NOOP_TLS __thread __attribute__((tls_model("initial-exec")))

/* No leaf is ever published, no unit registered (base stays 0): the inline reads and nodes
 * always call their slow paths here, which do nothing. */
__thread struct sleuth_reads sleuth_pending_reads __attribute__((tls_model("initial-exec")));

/* Every key ~0: no leaf. (Zero-initialized otherwise: no frames, no calls, no counts.) */
__attribute__((constructor)) static void noLeaves(void) {
  unsigned i;
  for (i = 0; i < SLEUTH_LEAF_WAYS; ++i)
    sleuth_pending_reads.leaf_keys[i] = ~0ul;
}

enum { ReadSlots = 1 << 16, PendingSetps = 256 };
static NOOP_TLS unsigned *Reads;
static NOOP_TLS void *Setps[PendingSetps];
static NOOP_TLS unsigned NumSetps;

/* Empties the pending-read stack (allocating it on first use): the reads are never consumed. */
static void forgetReads(void) {
  if (!Reads) {
    Reads = malloc(ReadSlots * sizeof *Reads);
    if (!Reads)
      abort();
    sleuth_pending_reads.end = Reads + ReadSlots;
  }
  sleuth_pending_reads.top = sleuth_pending_reads.frame = Reads;
}

void sleuth_use_slow(unsigned origin) {
  (void)origin;
  forgetReads();
}
void sleuth_chk_slow(struct sleuth_tu *tu, unsigned *cache, unsigned site, unsigned origin) {
  (void)tu, (void)cache, (void)site, (void)origin;
}
void sleuth_getc_slow(struct sleuth_tu *tu, unsigned *cache, unsigned site,
                      const volatile void *addr, unsigned long size) {
  (void)tu, (void)cache, (void)site, (void)addr, (void)size;
}
unsigned sleuth_def_slow(struct sleuth_tu *tu, unsigned site, unsigned ctl, int consume) {
  (void)tu, (void)ctl;
  if (consume)
    forgetReads();
  return site + 1;
}
unsigned sleuth_param_origin(struct sleuth_tu *tu, unsigned site, unsigned position) {
  (void)tu, (void)position;
  return site + 1;
}
void sleuth_get_slow(const volatile void *addr, unsigned long size) { (void)addr, (void)size; }
void sleuth_copy_origins(void *d, const void *s, unsigned long n) { (void)d, (void)s, (void)n; }
void sleuth_clear_origins(void *d, unsigned long n) { (void)d, (void)n; }
void *sleuth_created(struct sleuth_tu *tu, unsigned site, unsigned ctl, const volatile void *addr,
                     unsigned long size) {
  (void)tu, (void)site, (void)ctl, (void)size;
  return (void *)(__UINTPTR_TYPE__)addr;
}
void sleuth_get_string(const volatile void *s) { (void)s; }
const char *sleuth_got_string(const volatile void *s) { return (const char *)s; }
void sleuth_swapped(struct sleuth_tu *tu, unsigned site_a, unsigned site_b, unsigned ctl,
                    const volatile void *a, const volatile void *b, unsigned long size) {
  (void)tu, (void)site_a, (void)site_b, (void)ctl, (void)a, (void)b, (void)size;
}
void sleuth_get_all(const volatile void *d, unsigned long n) { (void)d, (void)n; }
void sleuth_watch_contents(const volatile void *d, unsigned long n) { (void)d, (void)n; }
void sleuth_moved_contents(const volatile void *d, unsigned long n) { (void)d, (void)n; }
void sleuth_watch_contents_at(const volatile void *d, unsigned long n, unsigned long at) {
  (void)d, (void)n, (void)at;
}
void sleuth_shifted_contents(struct sleuth_tu *tu, unsigned site, const volatile void *d,
                             unsigned long n) {
  (void)tu, (void)site, (void)d, (void)n;
}
void sleuth_getc_all(struct sleuth_tu *tu, unsigned *cache, unsigned site, const volatile void *d,
                     unsigned long n) {
  (void)tu, (void)cache, (void)site, (void)d, (void)n;
}
void sleuth_set_all(struct sleuth_tu *tu, unsigned site, unsigned ctl, const volatile void *a,
                    unsigned long size, const volatile void *d, unsigned long n) {
  (void)tu, (void)site, (void)ctl, (void)a, (void)size, (void)d, (void)n;
}
void sleuth_formatted(struct sleuth_tu *tu, unsigned site, unsigned ctl, void *d,
                      unsigned long n) {
  (void)tu, (void)site, (void)ctl, (void)d, (void)n;
}
void *sleuth_getp(const volatile void *addr, unsigned long size) {
  (void)size;
  return (void *)addr;
}
void sleuth_set_slow(struct sleuth_tu *tu, unsigned site, unsigned ctl, const volatile void *addr,
                     unsigned long size) {
  (void)tu, (void)site, (void)ctl, (void)addr, (void)size;
  forgetReads();
}
void sleuth_set_nopending_slow(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                               const volatile void *addr, unsigned long size) {
  (void)tu, (void)site, (void)ctl, (void)addr, (void)size;
  forgetReads();
}
void *sleuth_setp(struct sleuth_tu *tu, unsigned site, unsigned ctl, void *addr,
                  unsigned long size) {
  (void)tu, (void)site, (void)ctl, (void)size;
  Setps[NumSetps++ % PendingSetps] = addr;
  return addr;
}
void *sleuth_commit(void) { return NumSetps ? Setps[--NumSetps % PendingSetps] : NULL; }
void *sleuth_setnow(struct sleuth_tu *tu, unsigned site, unsigned ctl, void *addr,
                    unsigned long size) {
  (void)tu, (void)site, (void)ctl, (void)size;
  return addr;
}
int sleuth_test_slow(struct sleuth_tu *tu, unsigned site, unsigned ctl, int outcome) {
  (void)tu, (void)site, (void)ctl;
  forgetReads();
  return outcome;
}
unsigned sleuth_def_nopending_slow(struct sleuth_tu *tu, unsigned site, unsigned ctl) {
  (void)tu, (void)ctl;
  forgetReads();
  return site + 1;
}
int sleuth_test_keep(struct sleuth_tu *tu, unsigned site, unsigned ctl, int outcome) {
  (void)tu, (void)site, (void)ctl;
  return outcome;
}
int sleuth_test_nopending_slow(struct sleuth_tu *tu, unsigned site, unsigned ctl, int outcome) {
  (void)tu, (void)site, (void)ctl;
  forgetReads();
  return outcome;
}
int sleuth_assert(struct sleuth_tu *tu, unsigned site, unsigned ctl, int outcome) {
  (void)tu, (void)site, (void)ctl;
  return outcome;
}
void sleuth_assert_fail(const char *expr, const char *file, unsigned line, const char *function) {
  (void)expr, (void)file, (void)line, (void)function;
  abort();
}
void sleuth_call_slow(struct sleuth_tu *tu, unsigned site, unsigned ctl, unsigned callee_key,
                      unsigned consumer, unsigned *cache) {
  (void)tu, (void)site, (void)ctl, (void)callee_key, (void)consumer, (void)cache;
}
void sleuth_arg_slow(struct sleuth_tu *tu, unsigned site, unsigned position) {
  (void)tu, (void)site, (void)position;
}
void sleuth_arg_fenced(struct sleuth_tu *tu, unsigned site, unsigned position) {
  (void)tu, (void)site, (void)position;
}
void sleuth_arg_unfenced(struct sleuth_tu *tu, unsigned site) { (void)tu, (void)site; }
void sleuth_va_start(const void *key, unsigned first_position) { (void)key, (void)first_position; }
void sleuth_va_copy(const void *destination, const void *source) {
  (void)destination, (void)source;
}
void sleuth_va_arg(const void *key) { (void)key; }
void sleuth_construct_arg_slow(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                               unsigned callee_key, unsigned position) {
  (void)tu, (void)site, (void)ctl, (void)callee_key, (void)position;
}
void *sleuth_thread_args_take(struct sleuth_tu *tu, unsigned site) {
  (void)tu, (void)site;
  return NULL;
}
void sleuth_thread_args_give(void *args) { (void)args; }
void sleuth_thread_args_drop(void *args) { (void)args; }
void sleuth_call_args(struct sleuth_tu *tu, unsigned site, unsigned ctl, unsigned callee_key,
                      unsigned pairs, ...) {
  (void)tu, (void)site, (void)ctl, (void)callee_key, (void)pairs;
}
void sleuth_call_argsv(struct sleuth_tu *tu, unsigned site, unsigned ctl, unsigned callee_key,
                       unsigned consumer, unsigned *cache, unsigned pairs, ...) {
  (void)tu, (void)site, (void)ctl, (void)callee_key, (void)consumer, (void)cache, (void)pairs;
}
unsigned sleuth_enter(struct sleuth_tu *tu, unsigned func, unsigned key,
                      const void *frame_address) {
  (void)tu, (void)func, (void)key, (void)frame_address;
  forgetReads();
  return 0;
}
unsigned sleuth_enter_params_slow(struct sleuth_tu *tu, unsigned func, unsigned key,
                                  const void *frame_address, unsigned first_param, unsigned count) {
  (void)first_param, (void)count;
  return sleuth_enter(tu, func, key, frame_address);
}
void sleuth_param(struct sleuth_tu *tu, unsigned site, const volatile void *addr,
                  unsigned long size, unsigned position) {
  (void)tu, (void)site, (void)addr, (void)size, (void)position;
}
void sleuth_ret_slow(struct sleuth_tu *tu, unsigned site, unsigned ctl, const void *frame_address) {
  (void)tu, (void)site, (void)ctl, (void)frame_address;
  forgetReads();
}
void sleuth_leave_slow(const void *frame_address) {
  (void)frame_address;
  forgetReads();
}
unsigned sleuth_quiet_control_slow(struct sleuth_tu *tu, unsigned func, unsigned cc) {
  (void)tu, (void)func;
  return cc;
}
void sleuth_completed_slow(struct sleuth_func_state *state, unsigned func, unsigned cc) {
  (void)state, (void)func, (void)cc;
}
void sleuth_flush(void) {}
