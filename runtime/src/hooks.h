// What the shared runtime's definitions of C library functions share (heap_hooks.cpp,
// input_hooks.cpp): finding the definition they stand in front of, and a per-thread guard.
//
// Only the shared library has them: an executable's own free or read would clash with libc.a's
// in a static link. They forward to the next definition in the lookup order (RTLD_NEXT), and
// touch the shadow memory only through a LeafCache of their own, never the thread's state:
// the runtime's own calls of these functions come through them too, possibly in the middle of
// changing that state (a vector of the thread's being grown frees its old storage).
#pragma once

#include "shadow_memory.h"
#include "state.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>

namespace sleuth::rt::hooks {

/// Set while this thread runs a hook: a call from inside one (a vector of the hook's growing,
/// dlsym) only forwards.
inline __attribute__((tls_model("initial-exec"))) thread_local bool InHook = false;

/// The definition of Name that this library's stands in front of (Slot caches it); Fallback
/// while it is being looked up or if there is none; with no fallback either, a one-line error.
template <class Fn> Fn next(std::atomic<Fn> &Slot, const char *Name, Fn Fallback = nullptr) {
  Fn F = Slot.load(std::memory_order_acquire);
  if (__builtin_expect(F != nullptr, 1))
    return F;
  if (!InHook) {
    InHook = true;
    F = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, Name));
    InHook = false;
  }
  if (!F && !Fallback) {
    std::fprintf(stderr, "sleuth: no definition of %s after the runtime's\n", Name);
    std::abort();
  }
  if (!F)
    return Fallback;
  Slot.store(F, std::memory_order_release);
  return F;
}

/// Runs Body(Shadow, Cache) on a cache of the hook's own, unless this thread is in a hook
/// already; split records it releases go to the shadow's list (ShadowMemory::giveBack).
template <class BodyFn> void withShadow(BodyFn Body) {
  if (InHook)
    return;
  InHook = true;
  ShadowMemory::LeafCache Cache;
  Body(shadow(), Cache);
  shadow().giveBack(Cache);
  InHook = false;
}

} // namespace sleuth::rt::hooks
