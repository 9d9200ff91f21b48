/*
 * The version of the interface between instrumented objects and the runtime they link with.
 *
 * An object instrumented by one build of sleuth bakes in the layout of the structures it shares
 * with the runtime (struct sleuth_tu, the thread's sleuth_reads, call records...) and the
 * probes' signatures. Linked with a runtime of another layout it would run and write a wrong
 * dependence file, or crash. So every unit that includes runtime.h or coverage.h refers to a
 * symbol named after the version, which only a runtime of that version defines: an object left
 * over from an older sleuth in a build directory makes the link fail, naming the symbol
 * (`undefined reference to 'sleuth_runtime_abi_5'`), instead of misreading.
 *
 * Bump SLEUTH_ABI_VERSION (and the symbol's name with it) whenever a shared structure or a
 * probe's signature changes; runtime/src/abi.cpp checks the structures' sizes to remind you.
 *
 * C89 under -pedantic -Werror and any C++ standard, as runtime.h.
 */
#ifndef SLEUTH_ABI_H
#define SLEUTH_ABI_H

#define SLEUTH_ABI_VERSION 5
#define SLEUTH_ABI_SYMBOL sleuth_runtime_abi_5

#ifdef __cplusplus
extern "C" {
#endif
extern const char SLEUTH_ABI_SYMBOL;
#ifdef __cplusplus
} /* extern "C" */
#endif

/* `used`: kept (with its relocation against the runtime's symbol) though nothing reads it;
 * `unused`: no -Wunused-const-variable. */
static const char *const sleuth_abi_reference __attribute__((used, unused)) = &SLEUTH_ABI_SYMBOL;

#endif /* SLEUTH_ABI_H */
