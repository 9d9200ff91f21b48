/* The block trace of the control-dependence reference (tests/soundness/control_oracle.py).
 *
 * The program is compiled by Clang with SanitizerCoverage on every basic block
 * (-fsanitize-coverage=trace-pc-guard, no pruning); before the IR is compiled, the oracle gives
 * each block's guard a unique number and adds a call to __control_trace_return before every
 * return. This file receives those calls and appends to the file named by $CONTROL_TRACE one
 * 16-byte record per event: for a block entered, the block's number (> 0), for a return, 0;
 * then the number of the thread and the frame address of the function. The frame address tells
 * activations apart (recursion, returns, throws, longjmp); returns are recorded because a call
 * does not end a basic block, so a return is otherwise invisible.
 *
 * Records are buffered per thread and appended with write(2) (async-signal-safe: a signal
 * handler's blocks are traced too; O_APPEND keeps each buffer whole) when the buffer fills, when
 * the thread ends and at exit. Nothing of sleuth is used: the reference must not share the
 * tracker's machinery. */
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>
#include <unistd.h>

struct record {
  uint32_t block;
  uint32_t thread;
  uint64_t frame;
};

enum { Capacity = 1 << 12 };
struct thread_buffer {
  struct record records[Capacity];
  volatile unsigned used;
  uint32_t thread; /* 0 until the thread's first record */
};
static __thread struct thread_buffer buffer;
static int out = -1;
static int failed;
static uint32_t threads;
static pthread_once_t once = PTHREAD_ONCE_INIT;
static pthread_key_t thread_end;

static void flush(void) {
  if (out < 0 || failed)
    return;
  const char *p = (const char *)buffer.records;
  size_t left = buffer.used * sizeof(struct record);
  while (left > 0) {
    ssize_t n = write(out, p, left);
    if (n <= 0) {
      failed = 1;
      break;
    }
    p += n;
    left -= (size_t)n;
  }
  buffer.used = 0;
}

static void finish(void) { flush(); }

/* A thread that ends writes what it recorded. */
static void end_thread(void *unused) {
  (void)unused;
  flush();
}

static void open_trace(void) {
  const char *path = getenv("CONTROL_TRACE");
  out = path ? open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644) : -1;
  if (out < 0)
    failed = 1;
  pthread_key_create(&thread_end, end_thread);
  atexit(finish);
}

static void append(uint32_t block, void *frame) {
  if (!buffer.thread) {
    pthread_once(&once, open_trace);
    buffer.thread = __atomic_add_fetch(&threads, 1, __ATOMIC_RELAXED);
    pthread_setspecific(thread_end, &buffer);
  }
  if (buffer.used == Capacity)
    flush();
  struct record *r = &buffer.records[buffer.used];
  r->block = block;
  r->thread = buffer.thread;
  r->frame = (uint64_t)(uintptr_t)frame;
  buffer.used = buffer.used + 1;
}

/* The guards were numbered in the IR: nothing to initialize. */
void __sanitizer_cov_trace_pc_guard_init(uint32_t *start, uint32_t *stop) {
  (void)start;
  (void)stop;
}

__attribute__((noinline)) void __sanitizer_cov_trace_pc_guard(uint32_t *guard) {
  append(*guard, __builtin_frame_address(1));
}

/* Called before every `ret` of the IR: the function returning is the caller. */
__attribute__((noinline)) void __control_trace_return(void) {
  append(0, __builtin_frame_address(1));
}
