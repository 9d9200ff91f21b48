/*
 * The sleuth runtime: the control of destructors that C++ runs implicitly (sleuth::Scope).
 *
 * In dynamic control dependence (Xin and Zhang), the call of a destructor that ends an object's
 * scope is a call made where the scope ends: compilers run one cleanup of the scope for every
 * way out of it but an exception (its end, a return, break, continue, goto), which the
 * declaration's control reaches unless a test on the way has a branch that always throws; and
 * when an exception unwinds the scope, the cleanup runs because of the throw. No call record of
 * the program's announces such a call, so a destructor enters with sleuth_enter_destructor
 * (sleuth::Frame's DestructorEntry), which finds its control:
 * - while an exception is in flight (std::uncaught_exceptions()), the program's throw node;
 * - otherwise, that of the innermost live sleuth::Scope of the frame that runs the destructor.
 * Only the functions whose locals run the program's code when they are destroyed have scopes:
 * ordinary calls pay nothing.
 *
 * Part of sleuth/runtime.h, C++ only.
 */
#ifndef SLEUTH_RUNTIME_SCOPES_H
#define SLEUTH_RUNTIME_SCOPES_H

#include "sleuth/runtime/cxx.h"

namespace sleuth {
class Scope;
} // namespace sleuth

extern "C" {
/* A scope's companion comes alive and dies (innermost first: destruction is in reverse order
 * of construction, also when an exception unwinds). */
SLEUTH_PROBE void sleuth_scope_open(sleuth::Scope *scope);
SLEUTH_PROBE void sleuth_scope_close(sleuth::Scope *scope);
} /* extern "C" */

namespace sleuth {
/* The companion of a local whose destruction runs the program's code (a destructor of the
 * program's, directly or through the library's: `Guard g;`, `std::vector<Guard> v;`): declared
 * right before it, so that it is alive while the local is destroyed, however the scope ends.
 * It holds what controls the scope's cleanup: the declaration's control, until a statement
 * after an `if` whose branch throws names that test's (end()). */
class Scope {
public:
  explicit Scope(unsigned Ctl) : EndControl(Ctl) { sleuth_scope_open(this); }
  Scope(const Scope &) = delete;
  Scope &operator=(const Scope &) = delete;
  ~Scope() { sleuth_scope_close(this); }
  /* From here on the scope's cleanup runs under Ctl. */
  void end(unsigned Ctl) { EndControl = Ctl; }
  unsigned endControl() const { return EndControl; }

  /* The runtime's: the scope around this one still alive, and the frames it was opened in. */
  Scope *Outer = SLEUTH_NULL;
  unsigned Depth = 0;

private:
  unsigned EndControl;
};
} // namespace sleuth

#endif /* SLEUTH_RUNTIME_SCOPES_H */
