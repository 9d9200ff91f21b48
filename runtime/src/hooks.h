// What the runtime's definitions of C library functions share (heap_hooks.cpp,
// input_hooks.cpp): how they are named, finding the definition they stand in front of, and a
// per-thread guard.
//
// The shared runtime's are the library's names (free, read), in front of the C library's
// definitions in the lookup order: they forward to the next one (RTLD_NEXT). In a static link
// a second definition of read would clash with libc.a's, so the archive's are compiled with
// SLEUTH_STATIC_HOOKS as __wrap_read, which the linker's --wrap=read makes every call of read
// from the program's objects call, and forward to __real_read, libc.a's (the compiler wrapper
// passes one --wrap per hook: sleuth::wrapper::staticHookSymbols). Either way they touch the
// shadow memory only through a LeafCache of their own, never the thread's state: the
// runtime's own calls of these functions come through them too, possibly in the middle of
// changing that state (a vector of the thread's being grown frees its old storage).
#pragma once

#include "shadow_memory.h"
#include "state.h"

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <dlfcn.h>

// SLEUTH_HOOK(RET, NAME, PARAMS...) opens the definition of hook NAME; SLEUTH_HOOK_AS names
// its symbol apart (an asm label, as glibc's __isoc99_scanf) and its identifier ID.
// SLEUTH_NEXT(SLOT, ID, SYMBOL) is the definition that hook ID forwards to, SLOT the atomic
// that caches it where it is looked up.
#ifdef SLEUTH_STATIC_HOOKS
#define SLEUTH_HOOK_AS(RET, ID, SYMBOL, ...)                                                       \
  extern "C" RET sleuth_real_##ID(__VA_ARGS__) __asm__("__real_" SYMBOL);                          \
  extern "C" RET sleuth_hook_##ID(__VA_ARGS__) __asm__("__wrap_" SYMBOL);                          \
  extern "C" RET sleuth_hook_##ID(__VA_ARGS__)
#define SLEUTH_NEXT(SLOT, ID, SYMBOL) (&sleuth_real_##ID)
#else
#define SLEUTH_HOOK_AS(RET, ID, SYMBOL, ...)                                                       \
  extern "C" __attribute__((visibility("default")))                                                \
  RET sleuth_hook_##ID(__VA_ARGS__) __asm__(SYMBOL);                                               \
  extern "C" RET sleuth_hook_##ID(__VA_ARGS__)
#define SLEUTH_NEXT(SLOT, ID, SYMBOL) sleuth::rt::hooks::next(SLOT, SYMBOL)
#endif
#define SLEUTH_HOOK(RET, NAME, ...) SLEUTH_HOOK_AS(RET, NAME, #NAME, __VA_ARGS__)

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
