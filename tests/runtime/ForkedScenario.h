// Runs a scenario of runtime calls in a forked child: the runtime's state is process-global (the
// registered units, the thread's frames and records), so each scenario starts from a fresh copy
// of it and reports through its exit status, leaving no dependence file behind.
#ifndef SLEUTH_TESTS_RUNTIME_FORKEDSCENARIO_H
#define SLEUTH_TESTS_RUNTIME_FORKEDSCENARIO_H

#include "sleuth/runtime.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace sleuth::test {

/// The static tables of a unit at Path, as the instrumenter emits them for an instrumented file,
/// over the scenario's own Sites and Funcs, with their states (one each, zero) and the
/// controlling tests Cds (none if empty).
inline sleuth_tu unitTable(const char *Path, const std::vector<sleuth_site> &Sites,
                           const std::vector<sleuth_func> &Funcs,
                           std::vector<sleuth_site_state> &States,
                           std::vector<sleuth_func_state> &FuncStates,
                           const std::vector<unsigned> &Cds = {}) {
  return sleuth_tu{Path,
                   "0123456789abcdef",
                   Sites.data(),
                   static_cast<unsigned>(Sites.size()),
                   Cds.empty() ? nullptr : Cds.data(),
                   Funcs.data(),
                   static_cast<unsigned>(Funcs.size()),
                   States.data(),
                   FuncStates.data(),
                   nullptr,
                   0,
                   0,
                   0,
                   0};
}

/// Runs Scenario on a fresh Unit in a forked child; Scenario returns an empty string on success,
/// else what failed.
template <class Unit> void inChild(const char *(*Scenario)(Unit &)) {
  pid_t Child = fork();
  ASSERT_NE(Child, -1);
  if (Child == 0) {
    Unit U;
    const char *Failure = Scenario(U);
    if (*Failure)
      std::fprintf(stderr, "scenario failed: %s\n", Failure);
    std::fflush(stderr);
    _exit(*Failure ? 1 : 0); // no dependence file at exit
  }
  int Status = 0;
  ASSERT_EQ(waitpid(Child, &Status, 0), Child);
  ASSERT_TRUE(WIFEXITED(Status));
  EXPECT_EQ(WEXITSTATUS(Status), 0);
}

} // namespace sleuth::test

#endif // SLEUTH_TESTS_RUNTIME_FORKEDSCENARIO_H
