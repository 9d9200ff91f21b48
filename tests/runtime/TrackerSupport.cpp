// The probes' slow paths as the tracker tests call them: counted, then the runtime's.
#include "TrackerSupport.h"

// The memory probes' slow paths as the tests' inline probes call them (the link wraps them,
// tests/runtime/CMakeLists.txt): counted, then the runtime's.
extern "C" {
void __real_sleuth_get_slow(const volatile void *Addr, unsigned long Size);
void __real_sleuth_getc_slow(sleuth_tu *Tu, unsigned *Cache, unsigned Site,
                             const volatile void *Addr, unsigned long Size);
void __real_sleuth_set_slow(sleuth_tu *Tu, unsigned Site, unsigned Ctl, const volatile void *Addr,
                            unsigned long Size);
void __real_sleuth_chk_slow(sleuth_tu *Tu, unsigned *Cache, unsigned Site, unsigned Origin);
int __real_sleuth_test_slow(sleuth_tu *Tu, unsigned Site, unsigned Ctl, int Outcome);
void __real_sleuth_call_argsv(sleuth_tu *Tu, unsigned Site, unsigned Ctl, unsigned Key,
                              unsigned Consumer, unsigned *Cache, unsigned Pairs, ...);
unsigned __real_sleuth_enter_params_slow(sleuth_tu *Tu, unsigned Func, unsigned Key,
                                         const void *FrameAddress, unsigned FirstParam,
                                         unsigned Count);
}
unsigned long SlowMemoryProbes = 0, SlowTests = 0, SlowCalls = 0, SlowEntries = 0;
extern "C" {
void __wrap_sleuth_get_slow(const volatile void *Addr, unsigned long Size) {
  ++SlowMemoryProbes;
  __real_sleuth_get_slow(Addr, Size);
}
void __wrap_sleuth_getc_slow(sleuth_tu *Tu, unsigned *Cache, unsigned Site,
                             const volatile void *Addr, unsigned long Size) {
  ++SlowMemoryProbes;
  __real_sleuth_getc_slow(Tu, Cache, Site, Addr, Size);
}
void __wrap_sleuth_set_slow(sleuth_tu *Tu, unsigned Site, unsigned Ctl, const volatile void *Addr,
                            unsigned long Size) {
  ++SlowMemoryProbes;
  __real_sleuth_set_slow(Tu, Site, Ctl, Addr, Size);
}
void __wrap_sleuth_chk_slow(sleuth_tu *Tu, unsigned *Cache, unsigned Site, unsigned Origin) {
  ++SlowMemoryProbes;
  __real_sleuth_chk_slow(Tu, Cache, Site, Origin);
}
int __wrap_sleuth_test_slow(sleuth_tu *Tu, unsigned Site, unsigned Ctl, int Outcome) {
  ++SlowTests;
  return __real_sleuth_test_slow(Tu, Site, Ctl, Outcome);
}
// The inline call probes' way to the runtime: up to eight pairs passed on.
void __wrap_sleuth_call_argsv(sleuth_tu *Tu, unsigned Site, unsigned Ctl, unsigned Key,
                              unsigned Consumer, unsigned *Cache, unsigned Pairs, ...) {
  ++SlowCalls;
  unsigned V[2 * SLEUTH_CALL_PAIRS] = {};
  va_list Args;
  va_start(Args, Pairs);
  for (unsigned I = 0; I < 2 * Pairs && I < 2 * SLEUTH_CALL_PAIRS; ++I)
    V[I] = va_arg(Args, unsigned);
  va_end(Args);
  __real_sleuth_call_argsv(Tu, Site, Ctl, Key, Consumer, Cache, Pairs, V[0], V[1], V[2], V[3], V[4],
                           V[5], V[6], V[7], V[8], V[9], V[10], V[11], V[12], V[13], V[14], V[15]);
}
unsigned __wrap_sleuth_enter_params_slow(sleuth_tu *Tu, unsigned Func, unsigned Key,
                                         const void *FrameAddress, unsigned FirstParam,
                                         unsigned Count) {
  ++SlowEntries;
  return __real_sleuth_enter_params_slow(Tu, Func, Key, FrameAddress, FirstParam, Count);
}
}
