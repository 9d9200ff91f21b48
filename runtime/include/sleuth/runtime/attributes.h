/*
 * The sleuth runtime: how the probes are declared and inlined, and what the inline paths need.
 *
 * Part of sleuth/runtime.h, which instrumented code includes: C89 under -pedantic -Werror and
 * any C++ standard, as that header.
 */
#ifndef SLEUTH_RUNTIME_ATTRIBUTES_H
#define SLEUTH_RUNTIME_ATTRIBUTES_H

#include "sleuth/abi.h"

/* The probes are called from every instrumented function and live in a shared library (one
 * runtime per process): GCC's noplt calls them through the GOT directly, without the PLT stub's
 * extra jump (a few per cent of dependency mode's time on Lua, bench/RESULTS.md). Clang has no
 * such attribute. */
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define SLEUTH_PROBE __attribute__((noplt))
#else
#define SLEUTH_PROBE
#endif

/* The inline probes are a few instructions, but GCC weighs them against the size of the function
 * they are used in and, in a large one (Lua's interpreter loop), calls an outlined copy instead:
 * a call per read of a kept local. */
#define SLEUTH_INLINE static __inline__ __attribute__((always_inline))
/* The local fast paths of nodes and shadow reads are larger: inlined at each of a file's
 * thousands of probes they make GCC take 3.6 times as long on cJSON.c. One
 * copy per file, called directly (no PLT, no runtime entry), costs little more at run time,
 * but in a tight loop: each is the call of an always-inlined twin (`sleuth_getc_hot`, ...),
 * which the instrumenter names instead in the probes of small loops (zlib's longest_match ran
 * 27 % faster; instrumenter/src/HotLoops.h). */
#define SLEUTH_LOCAL static __inline__ __attribute__((noinline))
/* The same for the rare paths of the inline probes, kept out of their code (GCC places them
 * apart): the hot loops of zlib's longest_match ran 15 % longer with a few more instructions
 * among the probes it calls, though it never took them. */
#define SLEUTH_COLD static __inline__ __attribute__((noinline, cold))
/* `inline` keeps an unused copy from being reported (-Wunused-function); GCC reports the pair of
 * `inline` and `noinline` instead (-Wattributes), turned off around the definitions. */

/* A void call that the instrumenter put behind a comma of its own and that is the left operand
 * of a comma itself (`f(), g()`): Clang's -Wcomma accepts a void call or a cast to void there,
 * GCC's -Wuseless-cast (C++) rejects casting a void expression; only Clang gets the cast. */
#if defined(__clang__) && defined(__cplusplus)
#define SLEUTH_COMMA_OPERAND(e) static_cast<void>(e)
#elif defined(__clang__)
#define SLEUTH_COMMA_OPERAND(e) ((void)(e))
#else
#define SLEUTH_COMMA_OPERAND(e) (e)
#endif

/* A null pointer for probes' arguments and the inline paths. */
#ifdef __cplusplus
#define SLEUTH_NULL __null /* not 0: -Wzero-as-null-pointer-constant */
#else
#define SLEUTH_NULL ((void *)0)
#endif

/* The inline paths need 64-bit longs; elsewhere every probe calls the runtime. */
#if defined(__SIZEOF_LONG__) && __SIZEOF_LONG__ == 8 && !defined(SLEUTH_NO_INLINE_WRITES)
#define SLEUTH_INLINE_WRITES 1
#endif

#endif /* SLEUTH_RUNTIME_ATTRIBUTES_H */
