//===- TraceTestSupport.h - Helpers for the trace formula tests -----------===//

#ifndef SLEUTH_TESTS_TRACE_TRACETESTSUPPORT_H
#define SLEUTH_TESTS_TRACE_TRACETESTSUPPORT_H

#include "sleuth/trace/formula.h"

#include <gtest/gtest.h>

namespace sleuth::trace::testing {

inline SourceLoc at(uint32_t line, uint32_t column = 1) { return {1, line, column}; }

/// Whether `a` and `b` agree in every interpretation (a solver finds no model of a != b).
inline ::testing::AssertionResult equivalent(const z3::expr &a, const z3::expr &b) {
  z3::solver s(a.ctx());
  s.add(a != b);
  switch (s.check()) {
  case z3::unsat:
    return ::testing::AssertionSuccess();
  case z3::sat:
    return ::testing::AssertionFailure()
           << "not equivalent:\n  " << a << "\nvs\n  " << b << "\nwhere\n"
           << s.get_model();
  default:
    return ::testing::AssertionFailure() << "the solver gave up";
  }
}

/// All selectors of `f` true: the path exactly as it ran.
inline z3::expr asRun(const TraceFormula &f) {
  z3::expr e = f.pathConstraints();
  for (const TraceFormula::Selector &s : f.selectors())
    e = e && s.var;
  return e;
}

/// Whether the path as it ran implies `cond`.
inline ::testing::AssertionResult entails(const TraceFormula &f, const z3::expr &cond) {
  z3::solver s(f.context());
  s.add(asRun(f) && !cond);
  if (s.check() == z3::unsat)
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << "the path does not imply " << cond;
}

} // namespace sleuth::trace::testing

#endif // SLEUTH_TESTS_TRACE_TRACETESTSUPPORT_H
