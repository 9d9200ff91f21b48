// free and realloc of the shared runtime: they keep the shadow memory in step with the heap.
//
// A freed block's memory has no origin any more (ShadowMemory::forget): the allocator hands it
// out again, and a new object read before it is written must not depend on the dead one's
// writes; the shadow of a large block, which malloc unmaps, goes back to the kernel. A block
// realloc moves carries its bytes' origins along, as memcpy does (Lua's tables, tinyxml2's
// buffers grow this way), instead of arriving without any.
//
// Only the shared library defines them (an executable's own free or malloc_usable_size would
// clash with libc.a's in a static link), and only the program's calls and its libraries' come
// here (operator delete calls free); glibc's own frees inside realloc or fclose do not. The
// definitions interpose on glibc's only: when another allocator comes before glibc in the
// lookup order (RTLD_NEXT is not glibc's free), or a sanitizer's comes before this library,
// the calls go straight to it.
#include "shadow_memory.h"
#include "state.h"

#include <atomic>
#include <cstddef>
#include <dlfcn.h>
#include <malloc.h>

extern "C" {
void __libc_free(void *);
void *__libc_realloc(void *, size_t);
}

using namespace sleuth::rt;

namespace {

using FreeFn = void (*)(void *);
using ReallocFn = void *(*)(void *, size_t);

std::atomic<FreeFn> NextFree{nullptr};
std::atomic<ReallocFn> NextRealloc{nullptr};

// Set while this thread runs a hook: a free from inside one (a vector of the hook's growing)
// only frees. The runtime's own frees elsewhere come here as any, which is why the hooks never
// touch the thread's state (its free list may be the vector being grown).
__attribute__((tls_model("initial-exec"))) thread_local bool InHook = false;

template <class Fn> Fn next(std::atomic<Fn> &Slot, const char *Name, Fn Fallback) {
  Fn F = Slot.load(std::memory_order_acquire);
  if (__builtin_expect(F != nullptr, 1))
    return F;
  if (InHook) // dlsym itself freeing
    return Fallback;
  InHook = true;
  F = reinterpret_cast<Fn>(dlsym(RTLD_NEXT, Name));
  InHook = false;
  if (!F)
    F = Fallback;
  Slot.store(F, std::memory_order_release);
  return F;
}

bool glibcAllocates() {
  return next(NextFree, "free", &__libc_free) == &__libc_free &&
         next(NextRealloc, "realloc", &__libc_realloc) == &__libc_realloc;
}

// The records the block's split words release go to the shadow's shared list (giveBack), where
// any thread's next split takes them.
void forgetBlock(void *P, size_t Size) {
  ShadowMemory::LeafCache Cache; // not the thread's: see InHook
  shadow().forget(reinterpret_cast<uintptr_t>(P), Size, Cache);
  shadow().giveBack(Cache);
}

} // namespace

extern "C" {

__attribute__((visibility("default"))) void free(void *P) {
  FreeFn Next = next(NextFree, "free", &__libc_free);
  if (P && !InHook && shadowInUse() && Next == &__libc_free) {
    InHook = true;
    forgetBlock(P, malloc_usable_size(P));
    InHook = false;
  }
  Next(P);
}

__attribute__((visibility("default"))) void *realloc(void *P, size_t Size) {
  ReallocFn Next = next(NextRealloc, "realloc", &__libc_realloc);
  if (!P || InHook || !shadowInUse() || !glibcAllocates())
    return Next(P, Size);
  InHook = true;
  size_t Old = malloc_usable_size(P);
  void *Q = Next(P, Size);
  if (Q != P && (Q || Size == 0)) { // moved, or freed (realloc(P, 0))
    // P's shadow is as it was: the block's memory moved, not the shadow.
    uintptr_t From = reinterpret_cast<uintptr_t>(P), To = reinterpret_cast<uintptr_t>(Q);
    size_t Kept = Size < Old ? Size : Old;
    ShadowMemory::LeafCache Cache;
    if (Q)
      shadow().copy(To, From, Kept, Cache);
    if (!Q || To >= From + Old || From >= To + Kept)
      shadow().forget(From, Old, Cache);
    shadow().giveBack(Cache);
  }
  InHook = false;
  return Q;
}

} // extern "C"
