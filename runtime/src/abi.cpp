// The symbol every instrumented unit refers to (sleuth/abi.h): defined by this runtime only for
// objects instrumented against the same interface. Its own member of the archive, so that a
// coverage-only program does not pull in the dependence runtime through it.
#include "sleuth/abi.h"
#include "sleuth/coverage.h"
#include "sleuth/runtime.h"

extern "C" const char SLEUTH_ABI_SYMBOL = 0;

// A change of a structure the instrumented code shares with the runtime changes the interface:
// bump SLEUTH_ABI_VERSION (sleuth/abi.h) and update these sizes. (Not every change of the
// interface changes a size, a probe's new parameter for one; bump for those too.)
static_assert(SLEUTH_ABI_VERSION == 5 && sizeof(sleuth_site) == 40 && sizeof(sleuth_func) == 16 &&
                  sizeof(sleuth_site_state) == 64 && sizeof(sleuth_func_state) == 64 &&
                  sizeof(sleuth_tu) == 96 && sizeof(sleuth_frame) == 56 &&
                  sizeof(sleuth_call_mark) == 8 && sizeof(sleuth_call_record) == 240 &&
                  sizeof(sleuth_reads) == 376 && sizeof(sleuth_cov_unit) == 160,
              "the instrumented code's interface with the runtime changed: bump "
              "SLEUTH_ABI_VERSION in sleuth/abi.h");
