// The control of destructors that C++ runs implicitly: at the end of a scope, on a return, while
// an exception unwinds (see sleuth/runtime/scopes.h). The scopes are tracked here, apart from
// the probes of ordinary calls, which never see them.
#include "state.h"

#include <exception>

using namespace sleuth::rt;

namespace {

// The thread's innermost live scope companion (sleuth::Scope), whose Outer links the others.
__attribute__((tls_model("initial-exec"))) thread_local sleuth::Scope *Innermost = nullptr;

// True if a call record of the current frame (Depth frames deep) is for the callee Key: an
// explicit call of the destructor (`p->~T()`), whose record gives its control as for any call.
bool recordedCall(const ThreadState &T, unsigned Depth, unsigned Key) {
  for (size_t I = T.Calls.size(); I > 0 && T.Calls[I - 1].depth == Depth; --I)
    if (T.Calls[I - 1].key == 0 || Key == 0 || T.Calls[I - 1].key == Key)
      return true;
  return false;
}

// What controls an implicit destructor call made from the thread's current frame (Depth frames
// deep): the throw in flight (0 for the library's, whose handler reads what its call read
// instead); else the library call that frame is making, which destroys the object
// (sleuth_library_call); else the innermost live scope of that frame, whose cleanup the call
// is; else nothing known (a temporary's destructor in a function without scopes).
unsigned implicitControl(ThreadState &T, unsigned Depth) {
  if (std::uncaught_exceptions() > 0)
    return T.Thrown;
  if (!T.Frames.empty() && T.Frames.back().callback_control != 0)
    return T.Frames.back().callback_control;
  const sleuth::Scope *S = Innermost;
  return S && S->Depth == Depth ? S->endControl() : 0;
}

} // namespace

extern "C" {

void sleuth_scope_open(sleuth::Scope *Scope) {
  Scope->Depth = static_cast<unsigned>(threadState().Frames.size());
  Scope->Outer = Innermost;
  Innermost = Scope;
}

void sleuth_scope_close(sleuth::Scope *Scope) {
  // Innermost first; should a scope be closed out of order, it is unlinked all the same.
  sleuth::Scope **Link = &Innermost;
  while (*Link && *Link != Scope)
    Link = &(*Link)->Outer;
  if (*Link)
    *Link = Scope->Outer;
}

unsigned sleuth_enter_destructor(sleuth_tu *Tu, unsigned Func, unsigned Key) {
  ThreadState &T = threadState();
  unsigned Depth = static_cast<unsigned>(T.Frames.size());
  if (recordedCall(T, Depth, Key))
    return sleuth_enter(Tu, Func, Key, nullptr);
  unsigned Control = implicitControl(T, Depth);
  sleuth_enter(Tu, Func, Key, nullptr);
  T.Frames.back().call_control = Control;
  return Control;
}

} // extern "C"
