// Per-thread tracking state and the program-wide registry of units and threads.
#pragma once

#include "edge_set.h"
#include "shadow_memory.h"
#include "sleuth/runtime.h"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <mutex>
#include <utility>
#include <vector>
#ifdef __SSE2__
#include <emmintrin.h>
#endif

namespace sleuth::rt {

struct Frame {
  unsigned ReadBase = 0;         // pending reads below this belong to callers
  unsigned ArgBase = 0;          // this frame's argument origins start here
  unsigned CallControl = NoNode; // the test that controlled the call of this function
  unsigned Func = 0;
  uint64_t EntrySeq = 0; // tests executed after this belong to this frame
  unsigned UndoBase = 0; // this frame's entries in ThreadState::TestUndo start here
  uintptr_t CAddress = 0;
};

struct ArgMark {
  unsigned Pos;      // index into the pending reads where the argument began
  unsigned Position; // 1-based argument number
};

struct CallRecord {
  static constexpr unsigned MaxMarks = 16;
  // User-provided, not `= default`: emplace_back() would then zero the marks first.
  CallRecord() {}
  unsigned Depth = 0; // number of frames when the call was made
  unsigned Site = 0;
  unsigned Key = 0;
  unsigned ReadBase = 0;
  unsigned Control = NoNode;
  unsigned NumMarks = 0;
  ArgMark Marks[MaxMarks];
};

struct ArgOrigin {
  unsigned Position;
  unsigned Origin;
};

struct PendingWrite {
  sleuth_tu *Tu;
  unsigned Site;
  void *Addr;
  unsigned long Size;
};

/// What a thread knows about one node: how often it ran, and some of the edges into it that
/// are recorded already. Sites run in loops depend on the same few origins again and again;
/// finding them here (a set, not the last few, since a node reading three variables cycles
/// through three origins) spares the edge sets' hashing, in the cache line the hit count needs.
struct alignas(64) NodeState {
  static constexpr unsigned Known = 12;
  uint32_t KnownData[Known] = {NoNode, NoNode, NoNode, NoNode, NoNode, NoNode,
                               NoNode, NoNode, NoNode, NoNode, NoNode, NoNode};
  uint32_t Hits = 0;
  static constexpr unsigned KnownControls = 3;
  uint32_t KnownControl[KnownControls] = {NoNode, NoNode, NoNode};

  /// True if From is among the known data origins: three vector compares where SSE2 is there
  /// (this runs once per read a node consumes, the runtime's most frequent question), in the
  /// one cache line that the node's state fills.
  bool knowsData(uint32_t From) const {
#ifdef __SSE2__
    __m128i Key = _mm_set1_epi32(static_cast<int>(From));
    auto Slots = [&](unsigned I) {
      return _mm_cmpeq_epi32(_mm_load_si128(reinterpret_cast<const __m128i *>(KnownData + I)), Key);
    };
    return _mm_movemask_epi8(_mm_or_si128(_mm_or_si128(Slots(0), Slots(4)), Slots(8))) != 0;
#else
    for (uint32_t Origin : KnownData)
      if (Origin == From)
        return true;
    return false;
#endif
  }
};
static_assert(sizeof(NodeState) == 64);
// The inline writes of runtime.h read a thread's node states as `struct sleuth_node`.
static_assert(sizeof(sleuth_node) == sizeof(NodeState) &&
              offsetof(NodeState, KnownData) == offsetof(sleuth_node, known) &&
              NodeState::Known == sizeof(sleuth_node::known) / sizeof(unsigned) &&
              offsetof(NodeState, Hits) == offsetof(sleuth_node, hits) &&
              offsetof(NodeState, KnownControl) == offsetof(sleuth_node, control) &&
              NodeState::KnownControls == sizeof(sleuth_node::control) / sizeof(unsigned));
static_assert(sizeof(unsigned long) == sizeof(uint64_t) &&
              alignof(sleuth_node) <= alignof(NodeState));

/// Tests to restore when frames are left (see sleuth_undo): a stack whose top and end live in
/// `sleuth_pending_reads`, which the inline tests of runtime.h push onto. Only its own thread
/// touches it.
class TestUndoStack {
public:
  TestUndoStack() = default;
  TestUndoStack(const TestUndoStack &) = delete;
  TestUndoStack &operator=(const TestUndoStack &) = delete;

  size_t size() const { return static_cast<size_t>(sleuth_pending_reads.undo_top - Begin); }
  const sleuth_undo &operator[](size_t I) const { return Begin[I]; }
  void push_back(uint32_t Test, uint64_t Seq) {
    if (sleuth_pending_reads.undo_top == sleuth_pending_reads.undo_end)
      grow();
    sleuth_pending_reads.undo_top->seq = Seq;
    sleuth_pending_reads.undo_top->test = Test;
    ++sleuth_pending_reads.undo_top;
  }
  /// Shrinks to N (callers only drop entries).
  void resize(size_t N) {
    if (N < size())
      sleuth_pending_reads.undo_top = Begin + N;
  }

private:
  void grow() {
    size_t Size = size();
    size_t Capacity = std::max<size_t>(Size * 2, 256);
    auto *Storage = static_cast<sleuth_undo *>(std::realloc(Begin, Capacity * sizeof(sleuth_undo)));
    if (!Storage)
      std::abort();
    Begin = Storage;
    sleuth_pending_reads.undo_top = Begin + Size;
    sleuth_pending_reads.undo_end = Begin + Capacity;
  }
  sleuth_undo *Begin = nullptr;
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
  std::vector<Frame> Frames;
  std::vector<CallRecord> Calls;
  std::vector<ArgOrigin> ArgOrigins;
  std::vector<PendingWrite> PendingWrites;
  std::vector<uint64_t> LastExecution; // by node: sequence number of its latest execution
  // (test, sequence number before this frame first executed it): leaving a frame restores them,
  // so that a test executed by a callee (a recursive instance of the same function) does not
  // count as executed in the caller.
  TestUndoStack TestUndo;
  std::vector<NodeState> Nodes; // by node
  EdgeSet Data, Control;
  ShadowMemory::LeafCache Leaves;
  uint64_t Seq = 0;
  uint32_t Last = NoNode;

  uint64_t lastExecution(uint32_t Node) const {
    return Node < LastExecution.size() ? LastExecution[Node] : 0;
  }
  void setLastExecution(uint32_t Node, uint64_t S) {
    if (Node >= LastExecution.size()) {
      LastExecution.resize(std::max<size_t>(Node + 1, LastExecution.size() * 2), 0);
      sleuth_pending_reads.test_seq = reinterpret_cast<unsigned long *>(LastExecution.data());
      sleuth_pending_reads.num_test_seq = LastExecution.size();
    }
    LastExecution[Node] = S;
  }
  NodeState &node(uint32_t Node) {
    if (__builtin_expect(Node >= Nodes.size(), 0)) {
      Nodes.resize(std::max<size_t>(Node + 1, Nodes.size() * 2));
      sleuth_pending_reads.nodes = reinterpret_cast<sleuth_node *>(Nodes.data());
      sleuth_pending_reads.num_nodes = static_cast<unsigned>(Nodes.size());
    }
    return Nodes[Node];
  }
  /// The current frame, as the inline writes see it (call this whenever the top frame changes).
  void publishFrame() {
    const Frame &F = Frames.back();
    sleuth_pending_reads.call_control = F.CallControl;
    sleuth_pending_reads.entry_seq = F.EntrySeq;
    sleuth_pending_reads.in_call = Frames.size() > 1;
  }
  /// Records the edges Node <- From (data) and Node <- Control (control, unless NoNode).
  void addData(NodeState &State, uint32_t Node, uint32_t From) {
    if (__builtin_expect(State.knowsData(From), 1))
      return;
    unsigned Free = From % NodeState::Known; // the victim when every slot is taken
    for (unsigned I = 0; I < NodeState::Known; ++I)
      if (State.KnownData[I] == NoNode) {
        Free = I;
        break;
      }
    Data.insert(Node, From);
    State.KnownData[Free] = From;
  }
  void addControl(NodeState &State, uint32_t Node, uint32_t Control) {
    if (Control == NoNode)
      return;
    unsigned Free = Control % NodeState::KnownControls; // the victim when every slot is taken
    for (unsigned I = 0; I < NodeState::KnownControls; ++I) {
      if (State.KnownControl[I] == Control)
        return;
      if (State.KnownControl[I] == NoNode) {
        Free = I;
        break;
      }
    }
    this->Control.insert(Node, Control);
    State.KnownControl[Free] = Control;
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
ShadowMemory &shadow();

enum class WriteReason { Exit, Signal, Explicit };
void installExitHandlers();
/// At exit or on a fatal signal (once), or on request: the dependence file if any unit of
/// dependence mode registered, the coverage file if any unit of coverage mode did.
void writeOutputFiles(WriteReason Reason, int Code);
void writeDependenceFile(WriteReason Reason, int Code);
void writeCoverageFile(WriteReason Reason, int Code); // coverage.cpp; nothing without units
bool hasDependenceUnits();
const char *programName(); // argv[0] as read at start-up

} // namespace sleuth::rt
