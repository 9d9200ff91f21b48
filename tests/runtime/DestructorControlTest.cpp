// The control of destructors that C++ runs implicitly (runtime/src/destructor_control.cpp,
// sleuth/runtime/scopes.h): a destructor entered with no call record takes the control of the
// innermost live sleuth::Scope of the frame that runs it, or of the throw in flight while an
// exception unwinds; one a record announced takes the record's. These drive the C++ layer directly,
// as instrumented code would, and check the control sleuth_enter_destructor returns.
//
// The runtime's state is process-global, so every scenario runs in a forked child that reports
// through its exit status.
#include "ForkedScenario.h"
#include "sleuth/runtime.h"
#include "state.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

/// A unit of two functions (0: the owner of the scopes, 1: a destructor) and the sites the
/// scenarios name: a test, a throw and a call.
struct Unit {
  enum : unsigned { Test, Throw, Call, Count };
  std::vector<sleuth_site> Sites{{SLEUTH_SITE_TEST, 0, 1, 1, 0, 0, 0, "<test>"},
                                 {SLEUTH_SITE_VAR, 0, 2, 1, 0, 0, 0, "<throw>"},
                                 {SLEUTH_SITE_CALL, 0, 3, 1, 0, 0, 0, "<call>"}};
  std::vector<unsigned> Cds{Test};
  std::vector<sleuth_func> Funcs{{1, 10, "f"}, {11, 12, "Guard::~Guard"}};
  std::vector<sleuth_site_state> States = std::vector<sleuth_site_state>(Count);
  std::vector<sleuth_func_state> FuncStates = std::vector<sleuth_func_state>(2);
  sleuth_tu Tu = sleuth::test::unitTable("/scopes.cpp", Sites, Funcs, States, FuncStates, Cds);
  static constexpr unsigned OwnerKey = 11, DestructorKey = 22;

  /// 1 + the node of Site, as probes pass a control.
  unsigned control(unsigned Site) const { return Tu.base + Site; }
  /// The implicit destructor call's control, its frame left again.
  unsigned destroy() {
    unsigned Control = sleuth_enter_destructor(&Tu, 1, DestructorKey);
    sleuth_leave(nullptr);
    return Control;
  }
};

void inChild(const char *(*Scenario)(Unit &)) { sleuth::test::inChild<Unit>(Scenario); }

TEST(DestructorControlTest, TheInnermostScopeControlsItsDestructors) {
  inChild([](Unit &U) -> const char * {
    sleuth::Frame Owner(&U.Tu, 0, Unit::OwnerKey);
    if (U.destroy() != 0)
      return "a destructor outside any scope has no control";
    {
      sleuth::Scope Outer(0);
      {
        sleuth::Scope Inner(U.control(Unit::Call));
        Inner.end(U.control(Unit::Test));
        if (U.destroy() != U.control(Unit::Test))
          return "the innermost scope's control, as end() left it, controls the destructor";
        if (U.destroy() != U.control(Unit::Test))
          return "and every destructor its cleanup runs (a vector's elements)";
      }
      if (U.destroy() != 0)
        return "a closed scope no longer does";
    }
    return "";
  });
}

TEST(DestructorControlTest, OnlyTheScopesOfTheCallingFrameCount) {
  inChild([](Unit &U) -> const char * {
    sleuth::Frame Owner(&U.Tu, 0, Unit::OwnerKey);
    sleuth::Scope Block(U.control(Unit::Test));
    unsigned Control;
    {
      // A callee without scopes of its own destroys a temporary: no scope of its frame.
      sleuth::Frame Callee(&U.Tu, 0, Unit::OwnerKey);
      Control = U.destroy();
    }
    return Control == 0 ? "" : "a scope of the caller's frame controlled the callee's destructor";
  });
}

TEST(DestructorControlTest, TheThrowControlsTheDestructorsItUnwinds) {
  inChild([](Unit &U) -> const char * {
    unsigned Control = ~0u;
    {
      struct Destroyed {
        Unit &U;
        unsigned &Control;
        ~Destroyed() { Control = U.destroy(); }
      };
      sleuth::Frame Owner(&U.Tu, 0, Unit::OwnerKey);
      sleuth::Scope Block(U.control(Unit::Call));
      try {
        Destroyed D{U, Control};
        sleuth_throwing(&U.Tu, Unit::Throw, 0);
        sleuth_exception_thrown(); // as the runtime's __cxa_throw does
        throw 1;
      } catch (int) {
        (void)sleuth_caught(0);
      }
    }
    return Control == U.control(Unit::Throw) ? "" : "the throw controls the unwound destructor";
  });
}

TEST(DestructorControlTest, AnExplicitCallKeepsItsRecordsControl) {
  inChild([](Unit &U) -> const char * {
    sleuth::Frame Owner(&U.Tu, 0, Unit::OwnerKey);
    sleuth::Scope Block(U.control(Unit::Call));
    sleuth_call_slow(&U.Tu, Unit::Call, U.control(Unit::Throw), Unit::DestructorKey, 0, nullptr);
    if (U.destroy() != U.control(Unit::Throw))
      return "the call's record controls an explicit destructor call";
    return "";
  });
}

} // namespace
