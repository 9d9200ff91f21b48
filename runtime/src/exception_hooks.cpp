// The runtime's __cxa_throw: every C++ exception, the program's and the library's, leaves its
// throw through it, while the thrower's frame and pending reads are still there. What the
// exception came from is recorded (sleuth_exception_thrown) before the C++ library throws it.
//
// Its own file, compiled with unwind tables: the exception unwinds through this frame. In the
// archive it is __wrap___cxa_throw (see hooks.h), an object of its own that only a program that
// throws pulls in, so a C program's static link never needs libstdc++'s __real___cxa_throw.
#include "hooks.h"
#include "state.h"

using namespace sleuth::rt::hooks;

namespace {
using ThrowFn = void (*)(void *, void *, void (*)(void *));
#ifndef SLEUTH_STATIC_HOOKS
std::atomic<ThrowFn> NextThrow{nullptr};
#endif
} // namespace

SLEUTH_HOOK(void, __cxa_throw, void *Object, void *Type, void (*Destroy)(void *)) {
  if (!InHook)
    sleuth_exception_thrown();
  SLEUTH_NEXT(NextThrow, __cxa_throw, "__cxa_throw")(Object, Type, Destroy);
  __builtin_unreachable();
}
