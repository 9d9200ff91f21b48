// The sleuth runtime: dynamic data and control dependences of an instrumented program.
//
// Model (design brief §4, after the Debugging Book's DependencyTracker):
// - A node is a static site; every execution of a site merges into one node.
// - Memory remembers, per byte, the node that last wrote it (the shadow map), so writes through
//   pointers, references, arrays and fields are seen by reads under any other name.
// - Reads accumulate as "pending reads" of the current frame; the next node created in the frame
//   (write, test, return, assertion) depends on them and consumes them.
// - Control: the instrumented code passes each node its controlling test (the instrumenter
//   computes the static controlling tests from Clang's CFG and keeps the one executed last in
//   locals of the instrumented function; sites no test inside a function controls are
//   controlled by whatever controlled the call, which sleuth_enter returns).
// - Reads whose consuming node the instrumenter knows are checked where they happen against a
//   cache of the origins that read saw before; only a new origin reaches the runtime.
#include "sleuth/runtime.h"

#include "edge_set.h"
#include "perturb.h"
#include "shadow_memory.h"
#include "state.h"

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <mutex>
#include <unistd.h>

using namespace sleuth::rt;

namespace sleuth::rt {
// A thread's reads before it has any: no stack, no node, no leaf (every key ~0: none).
constexpr sleuth_reads initialReads() {
  sleuth_reads R{};
  for (unsigned long &Key : R.leaf_keys)
    Key = ~0ul;
  return R;
}
} // namespace sleuth::rt

extern "C" {
__thread sleuth_reads sleuth_pending_reads __attribute__((tls_model("initial-exec"))) =
    sleuth::rt::initialReads();
}

namespace sleuth::rt {

std::atomic<unsigned> RegisteredSites{0};

Registry &registry() {
  static Registry *R = new Registry; // never destroyed: used from exit and signal handlers
  return *R;
}

ShadowMemory &shadow() {
  static ShadowMemory *S = new ShadowMemory;
  return *S;
}

namespace {
std::atomic<bool> ShadowInUse{false};
} // namespace

bool shadowInUse() { return ShadowInUse.load(std::memory_order_relaxed); }

namespace {
__attribute__((tls_model("initial-exec"))) thread_local ThreadState *CurrentThread = nullptr;
} // namespace

ThreadState &newThreadState() {
  auto *T = new ThreadState;
  Registry &R = registry();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  T->Number = static_cast<unsigned>(R.Threads.size());
  R.Threads.push_back(T);
  // The bottom frame: code that runs outside any instrumented function (static initializers).
  T->Frames.push_back(Frame{});
  sleuth_pending_reads.last = &T->Last;
  T->Leaves.Published = &sleuth_pending_reads;
#ifdef SLEUTH_INLINE_WRITES
  // Its table of edges (untouched pages cost nothing), and the shadow's split records, which
  // the inline probes read and write.
  void *Edges = mmap(nullptr, sizeof(unsigned long) << SLEUTH_EDGE_BITS, PROT_READ | PROT_WRITE,
                     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (Edges == MAP_FAILED)
    std::abort();
  T->EdgeKeys = static_cast<unsigned long *>(Edges);
  sleuth_pending_reads.edges = T->EdgeKeys;
  sleuth_pending_reads.split_chunks = shadow().recordChunks();
#endif
  CurrentThread = T;
  return *T;
}

inline ThreadState &thread() {
  ThreadState *T = CurrentThread;
  if (__builtin_expect(T == nullptr, 0))
    return newThreadState();
  return *T;
}

ThreadState &threadState() { return thread(); }

namespace {

bool sameText(const char *A, const char *B) { return A == B || (A && B && std::strcmp(A, B) == 0); }

// True if units A and B have the same sites, controlling tests and functions: the same file
// instrumented alike in two translation units (a project header inlined into each).
bool sameSites(const sleuth_tu *A, const sleuth_tu *B) {
  if (!sameText(A->path, B->path) || !sameText(A->hash, B->hash) || A->num_sites != B->num_sites ||
      A->num_funcs != B->num_funcs)
    return false;
  unsigned NumCds = 0;
  for (unsigned I = 0; I < A->num_sites; ++I) {
    const sleuth_site &X = A->sites[I], &Y = B->sites[I];
    if (X.kind != Y.kind || X.flags != Y.flags || X.line != Y.line || X.column != Y.column ||
        X.func != Y.func || X.cd_begin != Y.cd_begin || X.cd_count != Y.cd_count ||
        !sameText(X.name, Y.name))
      return false;
    NumCds = std::max(NumCds, X.cd_begin + X.cd_count);
  }
  for (unsigned I = 0; I < NumCds; ++I)
    if (A->cds[I] != B->cds[I])
      return false;
  for (unsigned I = 0; I < A->num_funcs; ++I) {
    const sleuth_func &X = A->funcs[I], &Y = B->funcs[I];
    if (X.begin_line != Y.begin_line || X.end_line != Y.end_line || !sameText(X.name, Y.name))
      return false;
  }
  return true;
}

} // namespace

void registerUnit(sleuth_tu *Tu) {
  Registry &R = registry();
  std::lock_guard<std::mutex> Lock(R.Mutex);
  if (__atomic_load_n(&Tu->base, __ATOMIC_ACQUIRE) != 0)
    return;
  // A header's functions are compiled into every translation unit that includes it, each copy
  // with its own table; copies instrumented alike share the nodes of the first one registered,
  // so the graph has one node per site of the header, whichever copy ran.
  for (sleuth_tu *Other : R.Units)
    if (sameSites(Other, Tu)) {
      Tu->file_id = Other->file_id;
      Tu->func_base = Other->func_base;
      __atomic_store_n(&Tu->base, Other->base, __ATOMIC_RELEASE);
      return;
    }
  if (Tu->num_sites > ShadowMemory::MaxNodes - R.NumSites) {
    // Node ids are site numbers; the shadow memory keeps 1 + a node in 31 bits.
    std::fprintf(stderr, "sleuth: more than %u instrumented sites\n", ShadowMemory::MaxNodes);
    std::abort();
  }
  Tu->file_id = static_cast<unsigned>(R.Units.size());
  Tu->func_base = R.NumFuncs;
  R.NumFuncs += Tu->num_funcs;
  unsigned Base = R.NumSites;
  R.NumSites += Tu->num_sites;
  R.Units.push_back(Tu);
  for (unsigned I = 0; I < Tu->num_sites; ++I) {
    R.Sites.push_back(SiteRef{Tu, I});
    unsigned Kind = Tu->sites[I].kind;
    bool IsNode =
        Kind <= SLEUTH_SITE_EFFECT && Kind != SLEUTH_SITE_CALL; // as output.cpp's kindName
    R.FileIds.push_back(IsNode ? R.NumGraphNodes++ : NoNode);
  }
  installExitHandlers();
  ShadowInUse.store(true, std::memory_order_relaxed);
  if (perturb::active())
    perturb::unitRegistered(R, Base, Tu->num_sites);
  RegisteredSites.store(R.NumSites, std::memory_order_release);
  __atomic_store_n(&Tu->base, Base + 1, __ATOMIC_RELEASE);
}

bool hasDependenceUnits() { return !registry().Units.empty(); }

inline unsigned nodeOf(sleuth_tu *Tu, unsigned Site) {
  unsigned Base = __atomic_load_n(&Tu->base, __ATOMIC_ACQUIRE);
  if (__builtin_expect(Base == 0, 0)) {
    registerUnit(Tu);
    Base = Tu->base;
  }
  return Base - 1 + Site;
}

} // namespace sleuth::rt

namespace {

// Creates (or revisits) node `Node` for `Site`: depends on the pending reads of the frame (those
// from position From on, if given) and on its controlling test Ctl (1 + a node, or 0); those
// reads are consumed.
void makeNode(ThreadState &T, sleuth_tu *Tu, unsigned Site, unsigned Node, unsigned Ctl,
              size_t From = ~size_t(0)) {
  if (perturb::active())
    perturb::nodeMade(Node);
  Frame &F = T.Frames.back();
  if (From == ~size_t(0))
    From = F.reads;
  sleuth_site_state &State = Tu->states[Site];
  for (size_t I = From, E = T.Pending.size(); I < E; ++I)
    T.addData(State, Node, T.Pending[I]);
  T.Pending.resize(From);
  if (Ctl != 0 && Ctl - 1 < RegisteredSites.load(std::memory_order_acquire))
    T.addControl(State, Node, Ctl);
  T.hit(Node);
  T.Last = Node;
}

// Makes the node of the program's throw that has none yet, if there is one, and returns true.
// In the throw's own frame it reads what the operand pushed; from another (a handler up the
// stack completing a rethrow the runtime did not see leave) it has the throw's control alone.
bool makeThrowNode(ThreadState &T) {
  ThreadState::PendingThrow W = T.Throwing;
  if (!W.Tu)
    return false;
  T.Throwing = {};
  size_t From = T.Pending.size();
  if (W.Depth == T.Frames.size() && W.Height >= T.Frames.back().reads && W.Height <= From)
    From = W.Height;
  unsigned Node = nodeOf(W.Tu, W.Site);
  makeNode(T, W.Tu, W.Site, Node, W.Ctl, From);
  T.Thrown = Node + 1;
  T.ThrownReads.clear();
  return true;
}

// Remembers Origin (1 + a node) in a checked read's cache of two, the older one out.
void remember(unsigned *Cache, unsigned Origin) {
  if (__atomic_load_n(&Cache[0], __ATOMIC_RELAXED) == Origin)
    return;
  __atomic_store_n(&Cache[1], __atomic_load_n(&Cache[0], __ATOMIC_RELAXED), __ATOMIC_RELAXED);
  __atomic_store_n(&Cache[0], Origin, __ATOMIC_RELAXED);
}

// Puts call control Cc in front of its bucket of State (see sleuth_func_state).
void rememberCompletion(sleuth_func_state &State, unsigned Cc) {
  unsigned *Bucket = State.completed + SLEUTH_COMPLETED_SLOT(Cc);
  unsigned First = __atomic_load_n(&Bucket[0], __ATOMIC_RELAXED);
  if (First == Cc)
    return;
  __atomic_store_n(&Bucket[1], First, __ATOMIC_RELAXED);
  __atomic_store_n(&Bucket[0], Cc, __ATOMIC_RELAXED);
}

void pushOrigins(ThreadState &T, const volatile void *Addr, unsigned long Size) {
  shadow().collect(reinterpret_cast<uintptr_t>(Addr), Size, T.Pending, T.Leaves);
}

// A checked read's origins, collected past the pending reads' top from Mark on (where the
// shadow appends): each is recorded as an edge into Site's node and remembered in the read's
// cache, and all are dropped again.
void checkCollected(ThreadState &T, sleuth_tu *Tu, unsigned *Cache, unsigned Site, size_t Mark) {
  unsigned Node = nodeOf(Tu, Site);
  sleuth_site_state &State = Tu->states[Site];
  for (size_t I = Mark, E = T.Pending.size(); I < E; ++I) {
    T.addData(State, Node, T.Pending[I]);
    remember(Cache, T.Pending[I] + 1);
  }
  T.Pending.resize(Mark);
}

void setArgOrigins(ThreadState &T, size_t N) {
  T.ArgOrigins.resize(N);
  sleuth_pending_reads.num_args = static_cast<unsigned>(N);
}

void leaveFrame(ThreadState &T) {
  if (T.Frames.size() <= 1)
    return; // unbalanced leave (e.g. a C frame popped lazily already): ignore
  Frame &F = T.Frames.back();
  // Fences whose call never entered (left by a jump out of its arguments): the frame's own
  // reads start where they did before the first.
  while (!T.Fences.empty() && T.Fences.back().Depth >= T.Frames.size()) {
    F.reads = T.Fences.back().SavedBase;
    T.Fences.pop_back();
  }
  T.Pending.resize(F.reads);
  setArgOrigins(T, F.args);
  // Calls made inside the leaving frame were recorded with depth == Frames.size().
  unsigned Depth = static_cast<unsigned>(T.Frames.size());
  while (!T.Calls.empty() && T.Calls.back().depth >= Depth)
    T.Calls.pop_back();
  T.Frames.pop_back();
  T.Pending.setFrameBase(T.Frames.back().reads);
}

// A C function leaving its frame at Address: C frames deeper on the stack (at lower addresses)
// that are still on top were abandoned by a longjmp out of them, which returned into this
// function: they go first, so that the frame left is this function's own.
void popFramesAbove(ThreadState &T, uintptr_t Address) {
  while (Address != 0 && T.Frames.size() > 1 && T.Frames.back().address != 0 &&
         T.Frames.back().address < Address)
    leaveFrame(T);
}

// The call record of `CallNode` made in the current frame; records of calls made later in this
// frame whose callee never entered (uninstrumented callees) are dropped on the way.
CallRecord *findCall(ThreadState &T, unsigned CallNode) {
  unsigned Depth = static_cast<unsigned>(T.Frames.size());
  for (size_t I = T.Calls.size(); I-- > 0;) {
    CallRecord &C = T.Calls[I];
    if (C.depth != Depth)
      break;
    if (C.node == CallNode) {
      T.Calls.resize(I + 1);
      return &T.Calls.back();
    }
  }
  return nullptr;
}

// C frames abandoned by longjmp: every frame below Address on the stack is dead (a frame at
// Address itself is the caller's when the compiler inlined the entering function into it, as
// GCC does at -O2: the inlined function's __builtin_frame_address is its caller's). The
// function jumped to ran its probes for the call now entering while the dead frames were still on
// top, so that call's record and argument reads sit at the dead top frame's depth: carry them
// over to the live frame, or the callee would lose its arguments and its call's control.
void popAbandonedFrames(ThreadState &T, unsigned Key, uintptr_t Address) {
  unsigned TopDepth = static_cast<unsigned>(T.Frames.size());
  size_t First = T.Calls.size();
  while (First > 0 && T.Calls[First - 1].depth == TopDepth)
    --First;
  std::vector<CallRecord> Carried;
  std::vector<uint32_t> Reads;
  size_t ReadsFrom = T.Pending.size();
  if (First < T.Calls.size()) {
    const CallRecord &Latest = T.Calls.back();
    if (Latest.key == 0 || Key == 0 || Latest.key == Key) {
      Carried.assign(T.Calls.begin() + First, T.Calls.end());
      for (const CallRecord &C : Carried)
        ReadsFrom = std::min<size_t>(ReadsFrom, C.reads);
      Reads.assign(T.Pending.begin() + ReadsFrom, T.Pending.end());
    }
  }
  while (T.Frames.size() > 1 && T.Frames.back().address != 0 && T.Frames.back().address < Address)
    leaveFrame(T);
  if (Carried.empty())
    return;
  size_t NewBase = T.Pending.size();
  T.Pending.append(Reads.data(), Reads.data() + Reads.size());
  auto Move = [&](unsigned Pos) {
    return static_cast<unsigned>(std::max<size_t>(Pos, ReadsFrom) - ReadsFrom + NewBase);
  };
  for (CallRecord C : Carried) {
    C.depth = static_cast<unsigned>(T.Frames.size());
    C.reads = Move(C.reads);
    for (unsigned I = 0; I < C.num_marks; ++I)
      C.marks[I].at = Move(C.marks[I].at);
    T.Calls.push_back(C);
  }
}

} // namespace

namespace {
// sleuth_call_args and sleuth_call_argsv.
void callArgs(sleuth_tu *Tu, unsigned Site, unsigned Ctl, unsigned CalleeKey, unsigned Pairs,
              va_list Args) {
  sleuth_call_slow(Tu, Site, Ctl, CalleeKey, 0, nullptr);
  ThreadState &T = thread();
  CallRecord &C = T.Calls.back();
  C.num_pairs = Pairs <= SLEUTH_CALL_PAIRS ? 0 : NoPairs;
  for (unsigned I = 0; I < Pairs && C.num_marks + 1 < MaxMarks; ++I) {
    unsigned Position = va_arg(Args, unsigned), Origin = va_arg(Args, unsigned);
    C.marks[C.num_marks++] = ArgMark{static_cast<unsigned>(T.Pending.size()), Position};
    if (C.num_pairs != NoPairs) {
      C.pairs[2 * C.num_pairs] = Position;
      C.pairs[2 * C.num_pairs + 1] = Origin;
      ++C.num_pairs;
    }
    if (Origin != 0)
      T.Pending.push_back(Origin - 1);
  }
  // The arguments' own reads, pushed after this, belong to position 0: no parameter's.
  C.marks[C.num_marks++] = ArgMark{static_cast<unsigned>(T.Pending.size()), 0};
}
} // namespace

extern "C" {

void sleuth_get_slow(const volatile void *Addr, unsigned long Size) {
  pushOrigins(thread(), Addr, Size);
}

void *sleuth_getp(const volatile void *Addr, unsigned long Size) {
  pushOrigins(thread(), Addr, Size);
  return const_cast<void *>(Addr);
}

void sleuth_chk_slow(sleuth_tu *Tu, unsigned *Cache, unsigned Site, unsigned Origin) {
  if (Origin == 0 || Origin - 1 >= RegisteredSites.load(std::memory_order_acquire))
    return; // no origin, or none of this program (a companion clobbered by longjmp)
  ThreadState &T = thread();
  unsigned Node = nodeOf(Tu, Site);
  T.addData(Tu->states[Site], Node, Origin - 1);
  remember(Cache, Origin);
}

void sleuth_getc_slow(sleuth_tu *Tu, unsigned *Cache, unsigned Site, const volatile void *Addr,
                      unsigned long Size) {
  ThreadState &T = thread();
  size_t Mark = T.Pending.size();
  T.InProgress = nodeOf(Tu, Site);
  pushOrigins(T, Addr, Size);
  checkCollected(T, Tu, Cache, Site, Mark);
}

void sleuth_set_slow(sleuth_tu *Tu, unsigned Site, unsigned Ctl, const volatile void *Addr,
                     unsigned long Size) {
  ThreadState &T = thread();
  unsigned Node = nodeOf(Tu, Site);
  if (Tu->sites[Site].flags & SLEUTH_FLAG_COMPOUND)
    pushOrigins(T, Addr, Size); // the shadow still holds the old value's origins
  makeNode(T, Tu, Site, Node, Ctl);
  shadow().assign(reinterpret_cast<uintptr_t>(Addr), Size, Node, T.Leaves);
  if (perturb::active())
    perturb::wrote(Node, Addr, Size, !(Tu->sites[Site].flags & SLEUTH_FLAG_BEFORE_STORE));
}

// The `_nopending` twins' slow paths drop what the frame has pending, as their inline paths
// do, and are then their plain twins' (a compound write still reads its old value).
static void dropPending(ThreadState &T) { T.Pending.resize(T.Frames.back().reads); }

void sleuth_set_nopending_slow(sleuth_tu *Tu, unsigned Site, unsigned Ctl,
                               const volatile void *Addr, unsigned long Size) {
  dropPending(thread());
  sleuth_set_slow(Tu, Site, Ctl, Addr, Size);
}

void *sleuth_created(sleuth_tu *Tu, unsigned Site, unsigned Ctl, const volatile void *Addr,
                     unsigned long Size) {
  ThreadState &T = thread();
  unsigned Node = nodeOf(Tu, Site);
  makeNode(T, Tu, Site, Node, Ctl, T.Pending.size()); // consumes no pending read
  shadow().assign(reinterpret_cast<uintptr_t>(Addr), Size, Node, T.Leaves);
  if (perturb::active())
    perturb::wrote(Node, Addr, Size, true);
  return const_cast<void *>(Addr);
}

void sleuth_swapped(sleuth_tu *Tu, unsigned SiteA, unsigned SiteB, unsigned Ctl,
                    const volatile void *A, const volatile void *B, unsigned long Size) {
  ThreadState &T = thread();
  unsigned NodeA = nodeOf(Tu, SiteA), NodeB = nodeOf(Tu, SiteB);
  // Each node reads the other object's old origins (still in the shadow), pushed above the
  // frame's pending reads, which stay for the call's consumer.
  size_t From = T.Pending.size();
  pushOrigins(T, B, Size);
  makeNode(T, Tu, SiteA, NodeA, Ctl, From);
  pushOrigins(T, A, Size);
  makeNode(T, Tu, SiteB, NodeB, Ctl, From);
  shadow().assign(reinterpret_cast<uintptr_t>(A), Size, NodeA, T.Leaves);
  shadow().assign(reinterpret_cast<uintptr_t>(B), Size, NodeB, T.Leaves);
  if (perturb::active()) {
    perturb::wrote(NodeA, A, Size, true);
    perturb::wrote(NodeB, B, Size, true);
  }
}

void sleuth_formatted(sleuth_tu *Tu, unsigned Site, unsigned Ctl, void *Addr, unsigned long Size) {
  ThreadState &T = thread();
  unsigned Node = nodeOf(Tu, Site);
  makeNode(T, Tu, Site, Node, Ctl); // consumes the arguments' reads
  if (Size != 0)
    shadow().assign(reinterpret_cast<uintptr_t>(Addr), Size, Node, T.Leaves);
  if (perturb::active())
    perturb::wrote(Node, Addr, Size, true);
  T.Pending.push_back(Node); // the call's value
}

void sleuth_get_string(const volatile void *S) {
  if (S)
    sleuth_get_slow(S, std::strlen(static_cast<const char *>(const_cast<const void *>(S))) + 1);
}

const char *sleuth_got_string(const volatile void *S) {
  sleuth_get_string(S);
  return static_cast<const char *>(const_cast<const void *>(S));
}

// Pushes the distinct origins of a container's elements, each once: the elements of a long
// vector alternate between a few writes, which the shadow's run-length collection would push
// once per element.
static void pushDistinctOrigins(ThreadState &T, const volatile void *Addr, unsigned long Size) {
  size_t Mark = T.Pending.size();
  pushOrigins(T, Addr, Size);
  if (T.Pending.size() - Mark > 1) {
    std::sort(T.Pending.begin() + Mark, T.Pending.end());
    T.Pending.resize(
        size_t(std::unique(T.Pending.begin() + Mark, T.Pending.end()) - T.Pending.begin()));
  }
}

void sleuth_get_all(const volatile void *Data, unsigned long Size) {
  if (Size != 0)
    pushDistinctOrigins(thread(), Data, Size);
}

void sleuth_getc_all(sleuth_tu *Tu, unsigned *Cache, unsigned Site, const volatile void *Data,
                     unsigned long Size) {
  if (Size == 0)
    return;
  ThreadState &T = thread();
  size_t Mark = T.Pending.size();
  pushDistinctOrigins(T, Data, Size);
  checkCollected(T, Tu, Cache, Site, Mark);
}

void sleuth_set_all(sleuth_tu *Tu, unsigned Site, unsigned Ctl, const volatile void *Addr,
                    unsigned long Size, const volatile void *Data, unsigned long DataSize) {
  ThreadState &T = thread();
  unsigned Node = nodeOf(Tu, Site);
  // The library moved the elements unseen (a sort): each index kept the origin of whatever was
  // there, so the node reads them all, and the object's old origin if the site is compound.
  if (DataSize != 0)
    pushDistinctOrigins(T, Data, DataSize);
  if (Tu->sites[Site].flags & SLEUTH_FLAG_COMPOUND)
    pushOrigins(T, Addr, Size);
  makeNode(T, Tu, Site, Node, Ctl);
  shadow().assign(reinterpret_cast<uintptr_t>(Addr), Size, Node, T.Leaves);
  if (DataSize != 0)
    shadow().assign(reinterpret_cast<uintptr_t>(Data), DataSize, Node, T.Leaves);
  if (perturb::active()) // the elements, which the library call stored into
    perturb::wrote(Node, DataSize != 0 ? Data : Addr, DataSize != 0 ? DataSize : Size, true);
}

} // extern "C"

extern "C" void *__libc_malloc(size_t);
extern "C" void __libc_free(void *);

// The containers' elements watched by the thread around library members that may move them
// (innermost last): where they were, and, if the free hook saw that block go, a copy of their
// origins. A member that throws leaves its entry behind; the oldest goes when the list is full.
namespace {
// A copy of the origins of the Size bytes at From in a block of the runtime's own malloc (not
// the program's: no hook on it, and a free hook may be running), whose shadow holds them; null
// if there is no memory for it.
void *keepOrigins(ShadowMemory &Shadow, ShadowMemory::LeafCache &Cache, uintptr_t From,
                  unsigned long Size) {
  void *Kept = __libc_malloc(Size);
  if (Kept)
    Shadow.copy(reinterpret_cast<uintptr_t>(Kept), From, Size, Cache);
  return Kept;
}

// Frees such a copy with its origins.
void dropOrigins(ShadowMemory &Shadow, ShadowMemory::LeafCache &Cache, void *Kept,
                 unsigned long Size) {
  Shadow.forget(reinterpret_cast<uintptr_t>(Kept), Size, Cache);
  __libc_free(Kept);
}

struct WatchedContents {
  uintptr_t Data;
  unsigned long Size;
  unsigned long At; // an insert's or erase's position, in bytes (sleuth_watch_contents_at)
  void *Kept;       // malloc'd: its shadow holds the elements' origins
};
constexpr unsigned MaxWatched = 4;
__attribute__((tls_model("initial-exec"))) thread_local WatchedContents Watched[MaxWatched];
__attribute__((tls_model("initial-exec"))) thread_local unsigned NumWatched = 0;

// The origins of the object that a constructor entered through a forwarded call's record built
// last (sleuth_constructed), since the innermost watch began: malloc'd, its shadow holds them.
struct ConstructedObject {
  void *Kept = nullptr;
  unsigned long Size = 0;
};
__attribute__((tls_model("initial-exec"))) thread_local ConstructedObject Constructed;

void forgetConstructed() {
  if (!Constructed.Kept)
    return;
  dropOrigins(shadow(), thread().Leaves, Constructed.Kept, Constructed.Size);
  Constructed = ConstructedObject{};
}
} // namespace

void sleuth::rt::keepWatchedContents(ShadowMemory &Shadow, ShadowMemory::LeafCache &Cache,
                                     uintptr_t Block) {
  for (unsigned I = NumWatched; I-- > 0;) {
    WatchedContents &W = Watched[I];
    if (W.Data != Block || W.Kept)
      continue;
    W.Kept = keepOrigins(Shadow, Cache, Block, W.Size);
    return;
  }
}

extern "C" {
void sleuth_watch_contents_at(const volatile void *Data, unsigned long Size, unsigned long At) {
  if (NumWatched == MaxWatched) {
    if (Watched[0].Kept)
      __libc_free(Watched[0].Kept);
    std::copy(Watched + 1, Watched + MaxWatched, Watched);
    --NumWatched;
  }
  Watched[NumWatched++] = {reinterpret_cast<uintptr_t>(Data), Size, At < Size ? At : Size, nullptr};
  forgetConstructed(); // one of an earlier call's is none of this one's elements
}

void sleuth_constructed(const void *Object, unsigned long Size) {
  forgetConstructed();
  if (Size == 0 || NumWatched == 0)
    return;
  Constructed.Kept =
      keepOrigins(shadow(), thread().Leaves, reinterpret_cast<uintptr_t>(Object), Size);
  if (Constructed.Kept)
    Constructed.Size = Size;
}

void sleuth_watch_contents(const volatile void *Data, unsigned long Size) {
  sleuth_watch_contents_at(Data, Size, Size);
}

void sleuth_moved_contents(const volatile void *Data, unsigned long Size) {
  if (NumWatched == 0)
    return;
  WatchedContents W = Watched[--NumWatched];
  uintptr_t To = reinterpret_cast<uintptr_t>(Data);
  ThreadState &T = thread();
  // Moved: the elements kept their places in the new storage (grown at the end). From the copy
  // the free hook made, or, if their old storage was not freed (a string's buffer inside the
  // object) or no hook ran, from that storage itself.
  if (To != W.Data && Size != 0 && W.Size != 0) {
    uintptr_t From = W.Kept ? reinterpret_cast<uintptr_t>(W.Kept) : W.Data;
    shadow().copy(To, From, std::min(Size, W.Size), T.Leaves);
  }
  if (W.Kept)
    dropOrigins(shadow(), T.Leaves, W.Kept, W.Size);
  forgetConstructed();
}

void sleuth_shifted_contents(sleuth_tu *Tu, unsigned Site, const volatile void *Data,
                             unsigned long Size) {
  if (NumWatched == 0)
    return;
  WatchedContents W = Watched[--NumWatched];
  ThreadState &T = thread();
  ShadowMemory &Shadow = shadow();
  uintptr_t To = reinterpret_cast<uintptr_t>(Data);
  uintptr_t From = W.Kept ? reinterpret_cast<uintptr_t>(W.Kept) : W.Data;
  unsigned long Old = W.Size, At = W.At;
  // The elements before the position kept their places (in new storage if they moved), those
  // after it moved by what was erased or inserted; inserted ones are the call's.
  if (To != W.Data && At != 0)
    Shadow.copy(To, From, std::min(At, Size), T.Leaves);
  if (Size < Old) {
    unsigned long Erased = Old - Size;
    if (At + Erased <= Old && Old - At - Erased != 0)
      Shadow.copy(To + At, From + At + Erased, Old - At - Erased, T.Leaves);
  } else {
    unsigned long Inserted = Size - Old;
    if (Old != At)
      Shadow.copy(To + At + Inserted, From + At, Old - At, T.Leaves);
    // One element constructed by the program's code the call forwarded to: its origins, also
    // if the library built it elsewhere and moved it into place.
    if (Inserted != 0 && Constructed.Kept && Constructed.Size == Inserted)
      Shadow.copy(To + At, reinterpret_cast<uintptr_t>(Constructed.Kept), Inserted, T.Leaves);
    else if (Inserted != 0)
      Shadow.assign(To + At, Inserted, nodeOf(Tu, Site), T.Leaves);
  }
  forgetConstructed();
  if (W.Kept)
    dropOrigins(Shadow, T.Leaves, W.Kept, W.Size);
}

void sleuth_copy_origins(void *Dst, const void *Src, unsigned long Size) {
  if (Size != 0 && Dst != Src)
    shadow().copy(reinterpret_cast<uintptr_t>(Dst), reinterpret_cast<uintptr_t>(Src), Size,
                  thread().Leaves);
}

void sleuth_clear_origins(void *Dst, unsigned long Size) {
  shadow().clear(reinterpret_cast<uintptr_t>(Dst), Size, thread().Leaves);
}

void sleuth_use_slow(unsigned Origin) {
  if (Origin != 0)
    thread().Pending.push_back(Origin - 1);
}

unsigned sleuth_def_nopending_slow(sleuth_tu *Tu, unsigned Site, unsigned Ctl) {
  dropPending(thread());
  return sleuth_def_slow(Tu, Site, Ctl, 1);
}

unsigned sleuth_def_slow(sleuth_tu *Tu, unsigned Site, unsigned Ctl, int Consume) {
  // A ++/-- whose value is used (Consume == 0) sits inside a larger expression: the reads
  // pending so far belong to that expression, not to this write.
  ThreadState &T = thread();
  unsigned Node = nodeOf(Tu, Site);
  makeNode(T, Tu, Site, Node, Ctl, Consume ? ~size_t(0) : T.Pending.size());
  return Node + 1;
}

void *sleuth_setp(sleuth_tu *Tu, unsigned Site, unsigned Ctl, void *Addr, unsigned long Size) {
  ThreadState &T = thread();
  T.PendingWrites.push_back(PendingWrite{Tu, Site, Ctl, Addr, Size});
  return Addr;
}

void *sleuth_commit(void) {
  ThreadState &T = thread();
  if (T.PendingWrites.empty())
    return nullptr;
  PendingWrite W = T.PendingWrites.back();
  T.PendingWrites.pop_back();
  sleuth_set_slow(W.Tu, W.Site, W.Control, W.Addr, W.Size);
  return W.Addr;
}

void *sleuth_setnow(sleuth_tu *Tu, unsigned Site, unsigned Ctl, void *Addr, unsigned long Size) {
  // ++/-- whose value is used sits inside a larger expression (`y = a + i++`, `f(a, i++)`): the
  // reads pending so far belong to that expression (or to an earlier argument), not to this
  // write, which reads only the old value. The expression then reads the value of `i++`.
  ThreadState &T = thread();
  unsigned Node = nodeOf(Tu, Site);
  size_t Mark = T.Pending.size();
  if (Tu->sites[Site].flags & SLEUTH_FLAG_COMPOUND)
    pushOrigins(T, Addr, Size);
  makeNode(T, Tu, Site, Node, Ctl, Mark);
  shadow().assign(reinterpret_cast<uintptr_t>(Addr), Size, Node, T.Leaves);
  if (perturb::active())
    perturb::wrote(Node, Addr, Size, false); // the store comes after this
  T.Pending.push_back(Node);
  return Addr;
}

int sleuth_test_slow(sleuth_tu *Tu, unsigned Site, unsigned Ctl, int Outcome) {
  ThreadState &T = thread();
  makeNode(T, Tu, Site, nodeOf(Tu, Site), Ctl);
  if (perturb::active())
    perturb::testOutcome(Outcome);
  return Outcome;
}

int sleuth_test_nopending_slow(sleuth_tu *Tu, unsigned Site, unsigned Ctl, int Outcome) {
  dropPending(thread());
  return sleuth_test_slow(Tu, Site, Ctl, Outcome);
}

int sleuth_test_keep(sleuth_tu *Tu, unsigned Site, unsigned Ctl, int Outcome) {
  ThreadState &T = thread();
  size_t Base = T.Frames.back().reads, End = T.Pending.size();
  std::vector<uint32_t> Kept(T.Pending.begin() + std::min(Base, End), T.Pending.end());
  sleuth_test_slow(Tu, Site, Ctl, Outcome);
  T.Pending.append(Kept.data(), Kept.data() + Kept.size());
  return Outcome;
}

int sleuth_assert(sleuth_tu *Tu, unsigned Site, unsigned Ctl, int Outcome) {
  ThreadState &T = thread();
  makeNode(T, Tu, Site, nodeOf(Tu, Site), Ctl);
  return Outcome;
}

void sleuth_assert_fail(const char *Expr, const char *File, unsigned Line, const char *Function) {
  // The same words as glibc's __assert_fail, so that instrumented programs fail alike.
  extern char *program_invocation_short_name;
  std::fprintf(stderr, "%s: %s:%u: %s: Assertion `%s' failed.\n", program_invocation_short_name,
               File, Line, Function, Expr);
  std::fflush(stderr);
  std::abort();
}

void sleuth_call_slow(sleuth_tu *Tu, unsigned Site, unsigned Ctl, unsigned CalleeKey,
                      unsigned Consumer, unsigned *Cache) {
  ThreadState &T = thread();
  unsigned Node = nodeOf(Tu, Site);
  unsigned Control =
      Ctl != 0 && Ctl - 1 < RegisteredSites.load(std::memory_order_acquire) ? Ctl : 0;
  sleuth_drop_stale_call(&sleuth_pending_reads, Node);
  CallRecord &C = T.Calls.emplace_back();
  C.depth = static_cast<unsigned>(T.Frames.size());
  C.node = Node;
  C.key = CalleeKey;
  C.reads = static_cast<unsigned>(T.Pending.size());
  C.ctl = Control;
  C.num_pairs = NoPairs;             // the arguments' reads come with marks (sleuth_arg)
  C.value_tu = Cache ? Tu : nullptr; // no cache: no consumer, the value is pushed
  C.value_site = Consumer;
  C.value_cache = Cache;
}

namespace {
void setValueConsumer(CallRecord &C, sleuth_tu *Tu, unsigned Site, unsigned *Cache) {
  C.value_tu = Cache ? Tu : nullptr; // no cache: no consumer, the value is pushed
  C.value_site = Site;
  C.value_cache = Cache;
}
} // namespace

void sleuth_forward(sleuth_tu *Tu, unsigned Site, unsigned Ctl, unsigned CalleeKey) {
  sleuth_call_slow(Tu, Site, Ctl, CalleeKey, 0, nullptr);
  thread().Calls.back().num_pairs = ForwardedPairs;
}

// Marks where argument Position's reads begin in the record of call Site; the record, or null
// if the call has none.
static CallRecord *markArgument(ThreadState &T, sleuth_tu *Tu, unsigned Site, unsigned Position) {
  CallRecord *C = findCall(T, nodeOf(Tu, Site));
  if (C != nullptr && C->num_marks < MaxMarks)
    C->marks[C->num_marks++] = ArgMark{static_cast<unsigned>(T.Pending.size()), Position};
  return C;
}

void sleuth_arg_slow(sleuth_tu *Tu, unsigned Site, unsigned Position) {
  markArgument(thread(), Tu, Site, Position);
}

void sleuth_arg_fenced(sleuth_tu *Tu, unsigned Site, unsigned Position) {
  ThreadState &T = thread();
  CallRecord *C = markArgument(T, Tu, Site, Position);
  if (C == nullptr)
    return;
  if (T.Frames.size() <= 1 || (C->num_pairs != NoPairs && C->num_pairs != FencedPairs))
    return;
  // What the frame pushed so far (the other arguments' reads, whichever order the compiler
  // evaluates them in, and those of the calls around this one) goes below its base while this
  // argument runs: a write inside it consumes its own reads only. The callee's entry lowers
  // the base again (the record's FencedPairs sends it to the runtime).
  Frame &F = T.Frames.back();
  unsigned Depth = static_cast<unsigned>(T.Frames.size());
  if (C->num_pairs == NoPairs) {
    // A fence of an earlier record of this call, whose callee never entered (a body that is
    // not instrumented after all): its record is gone, and so goes the fence, lest a loop of
    // such calls pile them up.
    for (size_t I = T.Fences.size(); I-- > 0 && T.Fences[I].Depth == Depth;)
      if (T.Fences[I].Node == C->node) {
        if (I + 1 == T.Fences.size())
          F.reads = T.Fences[I].SavedBase;
        T.Fences.erase(T.Fences.begin() + static_cast<std::ptrdiff_t>(I));
        break;
      }
    T.Fences.push_back(ArgFence{Depth, C->node, F.reads});
    C->num_pairs = FencedPairs;
  }
  F.reads = static_cast<unsigned>(T.Pending.size());
  T.Pending.setFrameBase(F.reads);
}

void sleuth_arg_unfenced(sleuth_tu *Tu, unsigned Site) {
  ThreadState &T = thread();
  CallRecord *C = findCall(T, nodeOf(Tu, Site));
  if (C == nullptr || C->num_pairs != FencedPairs || T.Frames.size() <= 1)
    return;
  // The base comes down where it was before the fence (and fences raised since, by calls in
  // this argument that never entered, go); the record takes a new fence for a later argument.
  unsigned Depth = static_cast<unsigned>(T.Frames.size());
  for (size_t I = T.Fences.size(); I-- > 0 && T.Fences[I].Depth == Depth;)
    if (T.Fences[I].Node == C->node) {
      T.Frames.back().reads = T.Fences[I].SavedBase;
      T.Pending.setFrameBase(T.Frames.back().reads);
      T.Fences.resize(I);
      break;
    }
  C->num_pairs = NoPairs;
}

void sleuth_construct_arg_slow(sleuth_tu *Tu, unsigned Site, unsigned Ctl, unsigned CalleeKey,
                               unsigned Position) {
  // The record made by the constructor call's argument evaluated first, if it has no mark at
  // Position yet; else (none, or one left by a construction that never entered) a fresh one.
  ThreadState &T = thread();
  unsigned Node = nodeOf(Tu, Site), Depth = static_cast<unsigned>(T.Frames.size());
  for (size_t I = T.Calls.size(); I-- > 0 && T.Calls[I].depth == Depth;) {
    CallRecord &C = T.Calls[I];
    if (C.node != Node)
      continue;
    bool Marked = false;
    for (unsigned M = 0; M < C.num_marks; ++M)
      Marked = Marked || C.marks[M].position == Position;
    if (Marked || C.num_pairs != NoPairs)
      break;
    if (C.num_marks < MaxMarks)
      C.marks[C.num_marks++] = ArgMark{static_cast<unsigned>(T.Pending.size()), Position};
    return;
  }
  sleuth_call_slow(Tu, Site, Ctl, CalleeKey, 0, nullptr);
  sleuth_arg_slow(Tu, Site, Position);
}

void sleuth_call_args(sleuth_tu *Tu, unsigned Site, unsigned Ctl, unsigned CalleeKey,
                      unsigned Pairs, ...) {
  va_list Args;
  va_start(Args, Pairs);
  callArgs(Tu, Site, Ctl, CalleeKey, Pairs, Args);
  va_end(Args);
}

void sleuth_call_argsv(sleuth_tu *Tu, unsigned Site, unsigned Ctl, unsigned CalleeKey,
                       unsigned Consumer, unsigned *Cache, unsigned Pairs, ...) {
  va_list Args;
  va_start(Args, Pairs);
  callArgs(Tu, Site, Ctl, CalleeKey, Pairs, Args);
  va_end(Args);
  setValueConsumer(thread().Calls.back(), Tu, Consumer, Cache);
}

unsigned sleuth_enter(sleuth_tu *Tu, unsigned Func, unsigned Key, const void *FrameAddress) {
  ThreadState &T = thread();
  nodeOf(Tu, 0); // registers the unit
  uintptr_t Address = reinterpret_cast<uintptr_t>(FrameAddress);
  if (Address != 0 && T.Frames.size() > 1 && T.Frames.back().address != 0 &&
      T.Frames.back().address < Address)
    popAbandonedFrames(T, Key, Address);
  unsigned Depth = static_cast<unsigned>(T.Frames.size());
  Frame F{};
  F.address = Address;
  F.args = static_cast<unsigned>(T.ArgOrigins.size());
  // Match the caller's call record: the latest of the current frame's for this callee. Records
  // above it are of calls made since (in its arguments) whose callee never entered: dropped.
  // With none, the entry is a call the caller did not record (a C++ constructor or conversion
  // inside another call's arguments, a callback from uninstrumented code), and the records
  // stay for the callees they are waiting for.
  size_t Match = T.Calls.size();
  while (Match > 0 && T.Calls[Match - 1].depth == Depth) {
    const CallRecord &C = T.Calls[Match - 1];
    if (C.key == 0 || Key == 0 || C.key == Key)
      break;
    --Match;
  }
  bool Matched = Match > 0 && T.Calls[Match - 1].depth == Depth;
  if (Matched)
    T.Calls.resize(Match);
  else
    sleuth_close_construct_args(&sleuth_pending_reads);
  if (Matched) {
    CallRecord &C = T.Calls.back(); // popped below, once its marks are read
    // Argument i read what was read between its mark and the next mark (evaluation order of
    // arguments is unspecified, so sort marks by position). Stable, for the marks at one
    // position that sleuth_call_args sets for arguments that read nothing; and the marks are few.
    for (unsigned I = 1; I < C.num_marks; ++I)
      for (unsigned J = I; J > 0 && C.marks[J - 1].at > C.marks[J].at; --J)
        std::swap(C.marks[J - 1], C.marks[J]);
    // A write inside an argument (`f(a, x = 3)`) consumes pending reads, so marks and the
    // record's base may lie beyond the reads left: clamp, never read or grow past them.
    unsigned End = static_cast<unsigned>(T.Pending.size());
    for (unsigned I = 0; I < C.num_marks; ++I) {
      unsigned From = std::min(C.marks[I].at, End);
      unsigned To = std::min(I + 1 < C.num_marks ? C.marks[I + 1].at : End, End);
      for (unsigned P = From; P < To; ++P)
        T.ArgOrigins.push_back(ArgOrigin{C.marks[I].position, T.Pending[P]});
    }
    sleuth_pending_reads.num_args = static_cast<unsigned>(T.ArgOrigins.size());
    // An argument's fence (sleuth_arg_fenced) is down: the caller's reads start where they
    // did before it, and fences raised since (calls in its arguments that never entered) go.
    if (C.num_pairs == FencedPairs)
      for (size_t I = T.Fences.size(); I-- > 0 && T.Fences[I].Depth == Depth;)
        if (T.Fences[I].Node == C.node) {
          T.Frames.back().reads = T.Fences[I].SavedBase;
          T.Fences.resize(I);
          break;
        }
    // The library's call forwarding them still reads them (sleuth_forward).
    if (C.num_pairs != ForwardedPairs)
      T.Pending.resize(std::min(C.reads, End));
    else if ((C.key & SLEUTH_CONSTRUCTOR_KEY) != 0)
      sleuth_pending_reads.forwarded_construction = Depth + 1;
    F.call_control = C.ctl;
    F.value_tu = C.value_tu;
    F.value_cache = C.value_cache;
    F.value_site = C.value_site;
    T.Calls.pop_back();
  } else if (!T.Frames.empty()) {
    // A callback of a library call the current frame is making (sleuth_library_call).
    F.call_control = T.Frames.back().callback_control;
  }
  F.reads = static_cast<unsigned>(T.Pending.size());
  F.func = Tu->func_base + Func;
  F.func_state = Tu->func_states ? Tu->func_states + Func : nullptr;
  // A control the function completed under that its bucket no longer holds: back in front,
  // for the parameters' nodes made next and the quiet control.
  if (F.call_control != 0 && F.func_state &&
      !sleuth_completed_under(F.func_state, F.call_control) &&
      T.Completed.contains(uint64_t(F.func) << 32 | F.call_control))
    rememberCompletion(*F.func_state, F.call_control);
  T.Frames.push_back(F);
  T.Pending.setFrameBase(F.reads);
  return F.call_control;
}

void sleuth_param(sleuth_tu *Tu, unsigned Site, const volatile void *Addr, unsigned long Size,
                  unsigned Position) {
  unsigned Origin = sleuth_param_origin(Tu, Site, Position);
  shadow().assign(reinterpret_cast<uintptr_t>(Addr), Size, Origin - 1, thread().Leaves);
}

unsigned sleuth_enter_params_slow(sleuth_tu *Tu, unsigned Func, unsigned Key,
                                  const void *FrameAddress, unsigned FirstParam, unsigned Count) {
  unsigned Control = sleuth_enter(Tu, Func, Key, FrameAddress);
  for (unsigned I = 0; I < Count; ++I)
    sleuth_param_origin(Tu, FirstParam + I, I + 1);
  return Control;
}

unsigned sleuth_param_origin(sleuth_tu *Tu, unsigned Site, unsigned Position) {
  // The parameter's node depends on what its argument read in the caller.
  ThreadState &T = thread();
  unsigned Node = nodeOf(Tu, Site);
  Frame &F = T.Frames.back();
  for (size_t I = F.args, E = T.ArgOrigins.size(); I < E; ++I)
    if (T.ArgOrigins[I].Position == Position)
      T.Pending.push_back(T.ArgOrigins[I].Origin);
  // A parameter is controlled by the call (known already if the call's control is quiet).
  unsigned Control = F.call_control;
  if (Control != 0 && F.func_state && sleuth_completed_under(F.func_state, Control))
    Control = 0;
  makeNode(T, Tu, Site, Node, Control);
  return Node + 1;
}

void sleuth_ret_slow(sleuth_tu *Tu, unsigned Site, unsigned Ctl, const void *FrameAddress) {
  ThreadState &T = thread();
  unsigned Node = nodeOf(Tu, Site);
  popFramesAbove(T, reinterpret_cast<uintptr_t>(FrameAddress));
  makeNode(T, Tu, Site, Node, Ctl);
  // The bottom frame's value (a return outside any function's frame) goes nowhere.
  Frame F = T.Frames.size() > 1 ? T.Frames.back() : Frame{};
  sleuth_complete(&F);
  leaveFrame(T);
  // The caller's expression reads the return value: checked against its consumer, when the
  // caller named one, else pushed for the caller's next node.
  if (F.value_tu)
    sleuth_chk(F.value_tu, F.value_cache, F.value_site, Node + 1);
  else
    T.Pending.push_back(Node);
}

void sleuth_leave_slow(const void *FrameAddress) {
  ThreadState &T = thread();
  popFramesAbove(T, reinterpret_cast<uintptr_t>(FrameAddress));
  if (T.Frames.size() > 1)
    sleuth_complete(&T.Frames.back());
  leaveFrame(T);
}

unsigned sleuth_quiet_control_slow(sleuth_tu *Tu, unsigned Func, unsigned Cc) {
  // Beyond the function's first slots, the thread remembers every control it saw the function
  // complete under (edges it recorded itself).
  ThreadState &T = thread();
  unsigned Id = Tu->func_base + Func;
  if (!T.Completed.contains(uint64_t(Id) << 32 | Cc))
    return Cc;
  rememberCompletion(Tu->func_states[Func], Cc);
  return 0;
}

void sleuth_completed_slow(sleuth_func_state *State, unsigned Func, unsigned Cc) {
  // A C++ frame's destructor leaves it also while an exception unwinds it, which is no normal
  // return: sites after the throw did not run. (A normal return inside a destructor run by the
  // unwinding is not remembered either, which only costs speed.)
  if (std::uncaught_exceptions() != 0)
    return;
  thread().Completed.insert(uint64_t(Func) << 32 | Cc);
  rememberCompletion(*State, Cc);
}

void sleuth_throwing(sleuth_tu *Tu, unsigned Site, unsigned Ctl) {
  ThreadState &T = thread();
  T.Throwing = {Tu, Site, Ctl, static_cast<unsigned>(T.Frames.size()), T.Pending.size()};
}

unsigned sleuth_caught(unsigned Ctl) {
  ThreadState &T = thread();
  makeThrowNode(T);
  for (uint32_t Read : T.ThrownReads)
    T.Pending.push_back(Read);
  T.ThrownReads.clear();
  unsigned Thrown = T.Thrown;
  T.Thrown = 0;
  return Thrown != 0 ? Thrown : Ctl;
}

void sleuth_exception_thrown(void) {
  // Any thread's exception comes here, also one of code that never ran a probe.
  ThreadState *T = CurrentThread;
  if (!T || makeThrowNode(*T))
    return;
  // The library threw: the exception depends on what its call read, the reads pending in the
  // innermost instrumented frame (its arguments'), which unwinding that frame drops.
  const Frame &F = T->Frames.back();
  T->Thrown = 0;
  T->ThrownReads.assign(T->Pending.begin() + F.reads, T->Pending.end());
}

void sleuth_flush(void) { writeDependenceFile(WriteReason::Explicit, 0); }

} // extern "C"
