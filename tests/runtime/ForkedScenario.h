// Runs a scenario of runtime calls in a forked child: the runtime's state is process-global (the
// registered units, the thread's frames and records), so each scenario starts from a fresh copy
// of it and reports through its exit status, leaving no dependence file behind.
#ifndef SLEUTH_TESTS_RUNTIME_FORKEDSCENARIO_H
#define SLEUTH_TESTS_RUNTIME_FORKEDSCENARIO_H

#include <gtest/gtest.h>

#include <cstdio>
#include <sys/wait.h>
#include <unistd.h>

namespace sleuth::test {

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
