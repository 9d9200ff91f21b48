// The arguments of a std::thread's function: the constructing thread evaluates them, and the
// new thread enters the function. The record made for the call in the constructing thread
// (marks of each argument's reads) is taken from it when the library copies the callable into
// the new thread's state, after every argument was evaluated (sleuth::ThreadStart's move), and
// given to the new thread as a record of its own just before it calls the function, whose
// entry then gives the parameters their origins as for a call in the same thread.
#include "state.h"

#include <algorithm>

using namespace sleuth::rt;

namespace {

struct ThreadArguments {
  unsigned Node, Key, Ctl;
  std::vector<ArgOrigin> Origins; // by position, in the order they were read
};

} // namespace

extern "C" {

void *sleuth_thread_args_take(sleuth_tu *Tu, unsigned Site) {
  // A unit not registered yet has made no record.
  unsigned Base = __atomic_load_n(&Tu->base, __ATOMIC_ACQUIRE);
  if (Base == 0)
    return nullptr;
  ThreadState &T = threadState();
  unsigned Node = Base - 1 + Site, Depth = static_cast<unsigned>(T.Frames.size());
  size_t I = T.Calls.size();
  while (I > 0 && T.Calls[I - 1].depth == Depth && T.Calls[I - 1].node != Node)
    --I;
  if (I == 0 || T.Calls[I - 1].depth != Depth)
    return nullptr;
  CallRecord C = T.Calls[I - 1];
  // Records above it are of calls in its arguments whose callee never entered: gone with it.
  // Its reads stay pending, for the construction's own node.
  T.Calls.resize(I - 1);
  // Argument i read what was read between its mark and the next (as sleuth_enter: marks sorted
  // by where they begin, clamped to the reads left).
  std::sort(C.marks, C.marks + C.num_marks,
            [](const ArgMark &A, const ArgMark &B) { return A.at < B.at; });
  auto *Args = new ThreadArguments{Node, C.key, C.ctl, {}};
  unsigned End = static_cast<unsigned>(T.Pending.size());
  for (unsigned M = 0; M < C.num_marks; ++M) {
    unsigned From = std::min(C.marks[M].at, End);
    unsigned To = std::min(M + 1 < C.num_marks ? C.marks[M + 1].at : End, End);
    if (C.marks[M].position != 0)
      for (unsigned P = From; P < To; ++P)
        Args->Origins.push_back(ArgOrigin{C.marks[M].position, T.Pending[P]});
  }
  std::stable_sort(Args->Origins.begin(), Args->Origins.end(),
                   [](const ArgOrigin &A, const ArgOrigin &B) { return A.Position < B.Position; });
  return Args;
}

void sleuth_thread_args_give(void *Given) {
  auto *Args = static_cast<ThreadArguments *>(Given);
  ThreadState &T = threadState();
  CallRecord &C = T.Calls.emplace_back();
  C = CallRecord{};
  C.depth = static_cast<unsigned>(T.Frames.size());
  C.node = Args->Node;
  C.key = Args->Key;
  C.reads = static_cast<unsigned>(T.Pending.size());
  C.ctl = Args->Ctl;
  C.num_pairs = NoPairs; // marks, and the entry pops the origins pushed here
  for (size_t I = 0; I < Args->Origins.size(); ++I) {
    unsigned Position = Args->Origins[I].Position;
    if (I == 0 || Args->Origins[I - 1].Position != Position) {
      if (C.num_marks == MaxMarks)
        break; // the parameters beyond take no origin
      C.marks[C.num_marks++] = ArgMark{static_cast<unsigned>(T.Pending.size()), Position};
    }
    T.Pending.push_back(Args->Origins[I].Origin);
  }
  delete Args;
}

void sleuth_thread_args_drop(void *Given) { delete static_cast<ThreadArguments *>(Given); }

} // extern "C"
