// The program's own variadic functions: what `va_arg` yields is the next of the call's extra
// arguments, whose origins the caller's record gave the callee's entry (positions beyond the
// named parameters, in T.ArgOrigins from the frame's `args` on), though no parameter's node
// takes them. A cursor per va_list says which frame's arguments it walks and the position its
// next `va_arg` reads.
#include "state.h"

#include <algorithm>

using namespace sleuth::rt;

namespace {

struct VaCursor {
  const void *Key;   // the va_list's address (see sleuth_va_start)
  unsigned Depth;    // the variadic function's frame: Frames[Depth - 1]
  unsigned Args;     // that frame's first argument origin, and
  unsigned Func;     // its function, which tell it from a later frame at the same depth
  unsigned Position; // the argument the next va_arg reads (1-based)
};

thread_local std::vector<VaCursor> Cursors;

bool live(const ThreadState &T, const VaCursor &C) {
  return C.Depth >= 2 && C.Depth <= T.Frames.size() && T.Frames[C.Depth - 1].args == C.Args &&
         T.Frames[C.Depth - 1].func == C.Func;
}

VaCursor *find(const void *Key) {
  for (size_t I = Cursors.size(); I-- > 0;)
    if (Cursors[I].Key == Key)
      return &Cursors[I];
  return nullptr;
}

// Cursors of frames that have returned go, and any other for Key: one per va_list in use.
void forget(const ThreadState &T, const void *Key) {
  std::erase_if(Cursors, [&](const VaCursor &C) { return C.Key == Key || !live(T, C); });
}

} // namespace

extern "C" {

void sleuth_va_start(const void *Key, unsigned FirstPosition) {
  ThreadState &T = threadState();
  forget(T, Key);
  if (T.Frames.size() <= 1)
    return;
  const Frame &F = T.Frames.back();
  Cursors.push_back(
      VaCursor{Key, static_cast<unsigned>(T.Frames.size()), F.args, F.func, FirstPosition});
}

void sleuth_va_copy(const void *Destination, const void *Source) {
  ThreadState &T = threadState();
  forget(T, Destination);
  if (VaCursor *From = find(Source); From && live(T, *From)) {
    VaCursor Copy = *From;
    Copy.Key = Destination;
    Cursors.push_back(Copy);
  }
}

void sleuth_va_arg(const void *Key) {
  ThreadState &T = threadState();
  VaCursor *C = find(Key);
  if (C == nullptr || !live(T, *C))
    return;
  // The frame's argument origins end where the next frame's begin (a helper given the va_list,
  // `vsum(n, ap)`, reads it from a deeper frame).
  size_t End = C->Depth < T.Frames.size() ? T.Frames[C->Depth].args : T.ArgOrigins.size();
  End = std::min(End, T.ArgOrigins.size());
  for (size_t I = C->Args; I < End; ++I)
    if (T.ArgOrigins[I].Position == C->Position)
      T.Pending.push_back(T.ArgOrigins[I].Origin);
  ++C->Position;
}

} // extern "C"
