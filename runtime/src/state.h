// Per-thread tracking state and the program-wide registry of units and threads.
#pragma once

#include "edge_set.h"
#include "perturb.h"
#include "shadow_memory.h"
#include "sleuth/runtime.h"

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <unordered_set>
#include <utility>
#include <vector>

namespace sleuth::rt {

// Frames and call records are the C structs of runtime.h, whose stacks the inline probes use
// too (TlsStack below).
using Frame = sleuth_frame;
using CallRecord = sleuth_call_record;
using ArgMark = sleuth_call_mark;
inline constexpr unsigned MaxMarks = SLEUTH_CALL_MARKS;
/// num_pairs of a call record whose arguments' origins the caller did not give.
inline constexpr unsigned NoPairs = ~0u;
/// num_pairs of a record of sleuth_forward: marks as NoPairs, and the callee's entry leaves the
/// arguments' reads pending for the caller. The inline entries take neither NoPairs nor pairs
/// up to SLEUTH_CALL_PAIRS for it: such a record always comes to the runtime.
inline constexpr unsigned ForwardedPairs = ~1u;
/// num_pairs of a record one of whose arguments writes (sleuth_arg_fenced): marks as NoPairs,
/// and the callee's entry, which the inline entries leave to the runtime, lowers the caller's
/// frame base that the fence raised.
inline constexpr unsigned FencedPairs = ~2u;

/// A caller's frame base raised by sleuth_arg_fenced for the call at Node made at frame Depth:
/// SavedBase is where it was.
struct ArgFence {
  unsigned Depth;
  unsigned Node;
  unsigned SavedBase;
};

struct ArgOrigin {
  unsigned Position;
  unsigned Origin;
};

struct PendingWrite {
  sleuth_tu *Tu;
  unsigned Site;
  unsigned Control;
  void *Addr;
  unsigned long Size;
};

/// An edge's origin (1 + a node) among a node's recorded ones (Slots, the latest first: a site
/// state's `control` or `data`), moved to the front if there; otherwise put in front, the
/// oldest out, and false returned. Sites run in loops depend on the same few origins again and
/// again; finding them here, in the node's one line of state, spares the edge sets' hashing.
static_assert(sizeof(sleuth_site_state) == 64, "a site's state is one cache line");

template <unsigned N> bool knownOrRemembered(unsigned (&Slots)[N], unsigned Origin) {
  unsigned I = 0;
  while (I < N && __atomic_load_n(&Slots[I], __ATOMIC_RELAXED) != Origin)
    ++I;
  if (I == 0)
    return true; // in front already: no store (the line is shared by the threads)
  bool Known = I < N;
  if (I == N)
    I = N - 1;
  for (; I > 0; --I)
    __atomic_store_n(&Slots[I], __atomic_load_n(&Slots[I - 1], __ATOMIC_RELAXED), __ATOMIC_RELAXED);
  __atomic_store_n(&Slots[0], Origin, __ATOMIC_RELAXED);
  return Known;
}

/// A stack of one thread's whose storage, size and capacity live in the thread-local
/// `sleuth_pending_reads` (fields Data, Size, Capacity), where the inline probes of runtime.h
/// push and pop too. Only its own thread touches it. T is a C struct (trivially copyable).
template <class T, T *sleuth_reads::*Data, unsigned sleuth_reads::*Size,
          unsigned sleuth_reads::*Capacity>
class TlsStack {
public:
  TlsStack() = default;
  TlsStack(const TlsStack &) = delete;
  TlsStack &operator=(const TlsStack &) = delete;

  size_t size() const { return sleuth_pending_reads.*Size; }
  bool empty() const { return size() == 0; }
  T *begin() const { return sleuth_pending_reads.*Data; }
  T *end() const { return begin() + size(); }
  T &operator[](size_t I) const { return begin()[I]; }
  T &back() const { return begin()[size() - 1]; }
  T &emplace_back() {
    if (size() == sleuth_pending_reads.*Capacity)
      grow();
    T &New = begin()[sleuth_pending_reads.*Size];
    New = T{};
    ++(sleuth_pending_reads.*Size);
    return New;
  }
  void push_back(const T &V) { emplace_back() = V; }
  void pop_back() { --(sleuth_pending_reads.*Size); }
  /// Shrinks to N (callers only drop entries).
  void resize(size_t N) {
    if (N < size())
      sleuth_pending_reads.*Size = static_cast<unsigned>(N);
  }

private:
  void grow() {
    size_t Grown = std::max<size_t>(size_t(sleuth_pending_reads.*Capacity) * 2, 64);
    auto *Storage = static_cast<T *>(std::realloc(begin(), Grown * sizeof(T)));
    if (!Storage)
      std::abort();
    sleuth_pending_reads.*Data = Storage;
    sleuth_pending_reads.*Capacity = static_cast<unsigned>(Grown);
  }
};

/// The pending reads of a thread: a stack whose top and end live in the thread-local
/// `sleuth_pending_reads`, which the instrumented code's inline sleuth_use pushes onto without a
/// call. Only its own thread touches it.
class PendingReads {
public:
  PendingReads() = default;
  PendingReads(const PendingReads &) = delete;
  PendingReads &operator=(const PendingReads &) = delete;

  size_t size() const { return static_cast<size_t>(sleuth_pending_reads.top - Begin); }
  bool empty() const { return sleuth_pending_reads.top == Begin; }
  uint32_t *begin() const { return Begin; }
  uint32_t *end() const { return sleuth_pending_reads.top; }
  uint32_t &operator[](size_t I) const { return Begin[I]; }
  void push_back(uint32_t V) {
    if (__builtin_expect(sleuth_pending_reads.top == sleuth_pending_reads.end, 0))
      grow(size() + 1);
    *sleuth_pending_reads.top++ = V;
  }
  /// Shrinks to N (never grows: callers only drop reads).
  void resize(size_t N) {
    if (N < size())
      sleuth_pending_reads.top = Begin + N;
  }
  /// The current frame's reads start at Index (the inline sleuth_discard drops to there).
  void setFrameBase(size_t Index) {
    FrameBase = Index;
    sleuth_pending_reads.frame = Begin + Index;
  }
  void append(const uint32_t *First, const uint32_t *Last) {
    size_t N = static_cast<size_t>(Last - First);
    if (size() + N > capacity())
      grow(size() + N);
    std::copy(First, Last, sleuth_pending_reads.top);
    sleuth_pending_reads.top += N;
  }

private:
  size_t capacity() const { return static_cast<size_t>(sleuth_pending_reads.end - Begin); }
  void grow(size_t AtLeast) {
    size_t Size = size();
    size_t Capacity = std::max<size_t>({AtLeast, capacity() * 2, 256});
    auto *Storage = static_cast<uint32_t *>(std::realloc(Begin, Capacity * sizeof(uint32_t)));
    if (!Storage)
      std::abort();
    Begin = Storage;
    sleuth_pending_reads.reads = Begin;
    sleuth_pending_reads.top = Begin + Size;
    sleuth_pending_reads.end = Begin + Capacity;
    sleuth_pending_reads.frame = Begin + FrameBase;
  }
  uint32_t *Begin = nullptr;
  size_t FrameBase = 0;
};

struct ThreadState {
  unsigned Number = 0;
  PendingReads Pending;
  TlsStack<sleuth_frame, &sleuth_reads::frames, &sleuth_reads::num_frames,
           &sleuth_reads::max_frames>
      Frames;
  TlsStack<sleuth_call_record, &sleuth_reads::calls, &sleuth_reads::num_calls,
           &sleuth_reads::max_calls>
      Calls;
  std::vector<ArgOrigin> ArgOrigins; // its size published as sleuth_pending_reads.num_args
  std::vector<ArgFence> Fences;      // in the order they were raised
  std::vector<PendingWrite> PendingWrites;
  /// By node: how often this thread ran it; published (data and size) for the inline probes.
  std::vector<unsigned long> Hits;
  EdgeSet Data, Control;
  /// (function id << 32 | call control) pairs under which a function of this thread returned
  /// normally (see sleuth_func_state).
  std::unordered_set<uint64_t> Completed;
  ShadowMemory::LeafCache Leaves;
  uint32_t Last = NoNode;
  /// The node whose read last went to the runtime (sleuth_getc_slow): after a fatal signal, the
  /// node the signal may have cut short, whose static data edges are written out although it
  /// never completed (a read through a null pointer goes to the runtime before it faults).
  uint32_t InProgress = NoNode;
  /// A program's `throw` whose node is not made yet (sleuth_throwing): the reads its operand
  /// pushes come after Height, in frame Depth.
  struct PendingThrow {
    sleuth_tu *Tu = nullptr;
    unsigned Site = 0, Ctl = 0, Depth = 0;
    size_t Height = 0;
  } Throwing;
  /// What the exception in flight came from: the program's throw node (Thrown, 1 + the node;
  /// 0: none), or, for one the library threw, the reads pending where it did (ThrownReads).
  uint32_t Thrown = 0;
  std::vector<uint32_t> ThrownReads;
  /// The data edges it recorded or found recorded, for the inline reads (sleuth_edge_known):
  /// published as sleuth_pending_reads.edges.
  unsigned long *EdgeKeys = nullptr;

  void hit(uint32_t Node) {
    if (__builtin_expect(Node >= Hits.size(), 0)) {
      Hits.resize(std::max<size_t>(Node + 1, Hits.size() * 2), 0);
      sleuth_pending_reads.hits = Hits.data();
      // A perturbed run's inline probes see no count: every node takes the slow path.
      sleuth_pending_reads.num_hits = perturb::active() ? 0 : Hits.size();
    }
    ++Hits[Node];
  }
  /// Records the edge Node <- From (data; From a node) unless State knows it.
  void addData(sleuth_site_state &State, uint32_t Node, uint32_t From) {
    if (!knownOrRemembered(State.data, From + 1))
      Data.insert(Node, From);
#ifdef SLEUTH_INLINE_WRITES
    uint64_t Key = uint64_t(Node) << 32 | (From + 1);
    EdgeKeys[sleuth_edge_slot(Key)] = Key;
#endif
  }
  /// Records the edge Node <- Ctl - 1 (control; Ctl is 1 + a test's node) unless State knows it.
  void addControl(sleuth_site_state &State, uint32_t Node, uint32_t Ctl) {
    if (!knownOrRemembered(State.control, Ctl))
      Control.insert(Node, Ctl - 1);
  }
};

struct SiteRef {
  sleuth_tu *Tu;
  unsigned Index;
};

struct Registry {
  std::mutex Mutex;
  std::vector<sleuth_tu *> Units;
  std::vector<SiteRef> Sites;    // by node id
  std::vector<uint32_t> FileIds; // by node id: dense id in the dependence file (graph nodes only)
  unsigned NumGraphNodes = 0;
  std::vector<ThreadState *> Threads;
  unsigned NumSites = 0;
  unsigned NumFuncs = 0;
};

Registry &registry();
/// Registry::NumSites, for the probes that check a node id without the lock.
extern std::atomic<unsigned> RegisteredSites;
ShadowMemory &shadow();
/// True once a unit of dependence mode registered: from then on the heap hooks keep the shadow
/// in step with the heap (heap_hooks.cpp).
bool shadowInUse();
/// The calling thread's state, made on its first use.
ThreadState &threadState();

/// Called by the free hook, on its own leaf cache, just before it forgets the origins of the
/// block at Block: if a container's elements being watched (sleuth_watch_contents) lie there,
/// their origins are kept aside for sleuth_moved_contents.
void keepWatchedContents(ShadowMemory &Shadow, ShadowMemory::LeafCache &Cache, uintptr_t Block);

enum class WriteReason { Exit, Signal, Explicit };
void installExitHandlers();
/// At exit or on a fatal signal (once), or on request: the dependence file if any unit of
/// dependence mode registered, the coverage file if any unit of coverage mode did.
void writeOutputFiles(WriteReason Reason, int Code);
void writeDependenceFile(WriteReason Reason, int Code);
void writeCoverageFile(WriteReason Reason, int Code); // coverage.cpp; nothing without units
/// How a run ended, for the writers of the coverage and path files.
struct RunEnd {
  WriteReason Reason;
  int Code;
};
class FdWriter;
/// `status exit N`, `status signal N` or `status running`: the line the dependence, coverage
/// and path files share (coverage.cpp).
void writeRunStatus(FdWriter &W, WriteReason Reason, int Code);
/// The `.path` file beside the coverage file at CoveragePath (path.cpp; nothing without units).
void writePathFile(const char *CoveragePath, WriteReason Reason, int Code);
bool hasDependenceUnits();
const char *programName(); // argv[0] as read at start-up

} // namespace sleuth::rt

/// Called by the runtime's __cxa_throw (exception_hooks.cpp) as any exception leaves its throw:
/// the exception's origin while the thrower's frame is still there (see sleuth_throwing).
extern "C" void sleuth_exception_thrown(void);
