// free and realloc of the runtime: they keep the shadow memory in step with the heap.
//
// A freed block's memory has no origin any more (ShadowMemory::forget): the allocator hands it
// out again, and a new object read before it is written must not depend on the dead one's
// writes; the shadow of a large block, which malloc unmaps, goes back to the kernel. A block
// realloc moves carries its bytes' origins along, as memcpy does (Lua's tables, tinyxml2's
// buffers grow this way), instead of arriving without any. A container's elements that the
// instrumented code watches while a library member may move them (`v.push_back(x)`) are kept
// aside first (keepWatchedContents).
//
// The program's calls and its libraries' come here (operator delete calls free); glibc's own
// frees inside realloc or fclose do not. They touch the shadow only when glibc's are the next
// definitions: when another allocator comes first in the lookup order (jemalloc), the block
// sizes of malloc_usable_size would be wrong; a sanitizer's, defined in the executable, comes
// before this library's anyway. See hooks.h.
#include "hooks.h"
#include "state.h"

#include <cstddef>
#include <malloc.h>

extern "C" {
void __libc_free(void *);
void *__libc_realloc(void *, size_t);
}

using namespace sleuth::rt;
using namespace sleuth::rt::hooks;

namespace {

using FreeFn = void (*)(void *);
using ReallocFn = void *(*)(void *, size_t);
std::atomic<FreeFn> NextFree{nullptr};
std::atomic<ReallocFn> NextRealloc{nullptr};

#ifdef SLEUTH_STATIC_HOOKS
extern "C" void sleuth_real_free(void *) __asm__("__real_free");
extern "C" void *sleuth_real_realloc(void *, size_t) __asm__("__real_realloc");
FreeFn nextFree() { return &sleuth_real_free; }
ReallocFn nextRealloc() { return &sleuth_real_realloc; }
#else
FreeFn nextFree() { return next(NextFree, "free", &__libc_free); }
ReallocFn nextRealloc() { return next(NextRealloc, "realloc", &__libc_realloc); }
#endif
bool glibcAllocates() { return nextFree() == &__libc_free && nextRealloc() == &__libc_realloc; }

} // namespace

SLEUTH_HOOK(void, free, void *P) {
  if (P && shadowInUse() && glibcAllocates())
    withShadow([&](ShadowMemory &Shadow, ShadowMemory::LeafCache &Cache) {
      keepWatchedContents(Shadow, Cache, reinterpret_cast<uintptr_t>(P));
      Shadow.forget(reinterpret_cast<uintptr_t>(P), malloc_usable_size(P), Cache);
    });
  nextFree()(P);
}

SLEUTH_HOOK(void *, realloc, void *P, size_t Size) {
  if (!P || InHook || !shadowInUse() || !glibcAllocates())
    return nextRealloc()(P, Size);
  size_t Old = malloc_usable_size(P);
  InHook = true; // realloc's own frees and mallocs only forward
  void *Q = nextRealloc()(P, Size);
  InHook = false;
  if (Q != P && (Q || Size == 0)) // moved, or freed (realloc(P, 0))
    withShadow([&](ShadowMemory &Shadow, ShadowMemory::LeafCache &Cache) {
      // P's shadow is as it was: the block's memory moved, not the shadow.
      uintptr_t From = reinterpret_cast<uintptr_t>(P), To = reinterpret_cast<uintptr_t>(Q);
      size_t Kept = Size < Old ? Size : Old;
      if (Q)
        Shadow.copy(To, From, Kept, Cache);
      if (!Q || To >= From + Old || From >= To + Kept)
        Shadow.forget(From, Old, Cache);
    });
  return Q;
}
