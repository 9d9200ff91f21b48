/*
 * The sleuth runtime: the writes of kept locals in a build for the soundness oracle
 * (`sleuth instrument --perturbable`, SLEUTH_PERTURBABLE=1 for the wrappers), which pass the
 * local's address so that a perturbed run (SLEUTH_PERTURB) can change the value they stored.
 *
 * Part of sleuth/runtime.h, which instrumented code includes: C89 under -pedantic -Werror and
 * any C++ standard, as that header.
 */
#ifndef SLEUTH_RUNTIME_PERTURB_H
#define SLEUTH_RUNTIME_PERTURB_H

#include "sleuth/runtime/tables.h"

#ifdef __cplusplus
extern "C" {
#endif

/* sleuth_def of the local at addr (size bytes), just stored: returns its new origin. */
SLEUTH_PROBE unsigned sleuth_def_at(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                    const volatile void *addr, unsigned long size);
/* sleuth_defnow of the local at addr, whose ++/-- is about to store. */
SLEUTH_PROBE unsigned sleuth_defnow_at(struct sleuth_tu *tu, unsigned site, unsigned ctl,
                                       const volatile void *addr, unsigned long size);

#ifdef __cplusplus
} /* extern "C" */
#endif

#endif /* SLEUTH_RUNTIME_PERTURB_H */
