// The control of functions of the program's that the library calls back while the program's
// call runs (sleuth_library_call, sleuth::LibraryCall): every entry with no call record of its
// own, however many, takes the control of the call being made by the current frame, until the
// call returns; an entry with its own record keeps that record's control. These drive the C ABI
// as instrumented code would and check the control the entries return, inline
// (sleuth_enter_params) and in the runtime (sleuth_enter, sleuth_enter_destructor).
//
// The runtime's state is process-global, so every scenario runs in a forked child that reports
// through its exit status.
#include "ForkedScenario.h"
#include "sleuth/runtime.h"
#include "state.h"

#include <gtest/gtest.h>

#include <vector>

namespace {

/// A unit of four functions (0: the caller, 1: a comparator with a parameter, 2: a function the
/// caller calls directly, 3: a destructor) and the sites the scenarios name.
struct Unit {
  enum : unsigned { Test, OtherTest, Call, Param, Count };
  std::vector<sleuth_site> Sites{{SLEUTH_SITE_TEST, 0, 2, 1, 0, 0, 0, "<test>"},
                                 {SLEUTH_SITE_TEST, 0, 3, 1, 0, 0, 0, "<test>"},
                                 {SLEUTH_SITE_CALL, 0, 4, 1, 0, 0, 0, "<call>"},
                                 {SLEUTH_SITE_PARAM, 0, 10, 1, 1, 0, 0, "a"}};
  std::vector<sleuth_func> Funcs{
      {1, 9, "main"}, {10, 12, "order"}, {13, 14, "direct"}, {15, 16, "Guard::~Guard"}};
  std::vector<sleuth_site_state> States = std::vector<sleuth_site_state>(Count);
  std::vector<sleuth_func_state> FuncStates = std::vector<sleuth_func_state>(4);
  sleuth_tu Tu = sleuth::test::unitTable("/callbacks.cpp", Sites, Funcs, States, FuncStates);
  static constexpr unsigned MainKey = 11, OrderKey = 22, DirectKey = 33, DestructorKey = 44;

  /// 1 + the node of Site, as probes pass a control.
  unsigned control(unsigned Site) const { return Tu.base + Site; }
  /// The comparator entered by the library, inline (with its parameter) and by the runtime:
  /// the control both entries give it, or ~0u if they differ.
  unsigned callBack() {
    unsigned Inline;
    {
      sleuth::Frame Order(&Tu, 1, OrderKey, Param, 1);
      Inline = Order.control();
    }
    unsigned Runtime = sleuth_enter(&Tu, 1, OrderKey, nullptr);
    sleuth_leave(nullptr);
    return Inline == Runtime ? Inline : ~0u;
  }
};

void inChild(const char *(*Scenario)(Unit &)) { sleuth::test::inChild<Unit>(Scenario); }

TEST(LibraryCallbackTest, EveryEntryDuringTheCallTakesItsControl) {
  inChild([](Unit &U) -> const char * {
    sleuth::Frame Main(&U.Tu, 0, Unit::MainKey);
    if (U.callBack() != 0)
      return "an entry outside any library call has no control";
    {
      // `if (n > 1) qsort(v, n, sizeof *v, order);`: the comparator runs many times.
      sleuth::LibraryCall Sort(U.control(Unit::Test));
      for (int I = 0; I < 3; ++I)
        if (U.callBack() != U.control(Unit::Test))
          return "each of the comparator's entries is controlled by the call's test";
    }
    if (U.callBack() != 0)
      return "once the call returned, an entry has no control again";
    return "";
  });
}

TEST(LibraryCallbackTest, AnEntryWithItsOwnRecordKeepsItsControl) {
  inChild([](Unit &U) -> const char * {
    sleuth::Frame Main(&U.Tu, 0, Unit::MainKey);
    sleuth::LibraryCall Sort(U.control(Unit::Test));
    // `std::sort(b, e, pick(x))`: pick is called by the program, under another test.
    sleuth_call(&U.Tu, Unit::Call, U.control(Unit::OtherTest), Unit::DirectKey);
    unsigned Direct = sleuth_enter(&U.Tu, 2, Unit::DirectKey, nullptr);
    sleuth_leave(nullptr);
    if (Direct != U.control(Unit::OtherTest))
      return "a direct call's entry takes its record's control";
    if (U.callBack() != U.control(Unit::Test))
      return "the library call's control is still there for the callbacks";
    return "";
  });
}

TEST(LibraryCallbackTest, AnInnerCallPutsTheOuterControlBack) {
  inChild([](Unit &U) -> const char * {
    sleuth::Frame Main(&U.Tu, 0, Unit::MainKey);
    sleuth::LibraryCall Outer(U.control(Unit::Test));
    {
      sleuth::LibraryCall Inner(U.control(Unit::OtherTest));
      if (U.callBack() != U.control(Unit::OtherTest))
        return "the innermost call controls";
    }
    if (U.callBack() != U.control(Unit::Test))
      return "the outer call controls again once the inner returned";
    {
      // A callback's own frame makes no library call: what it enters without a record is
      // controlled by nothing.
      sleuth::Frame Order(&U.Tu, 1, Unit::OrderKey, Unit::Param, 1);
      if (U.callBack() != 0)
        return "a deeper frame does not take its caller's library call";
    }
    return "";
  });
}

TEST(LibraryCallbackTest, AFrameStartsWithoutALibraryCall) {
  inChild([](Unit &U) -> const char * {
    sleuth::Frame Main(&U.Tu, 0, Unit::MainKey);
    {
      // A frame left while its library call was running (longjmp out of the comparator).
      sleuth::Frame Order(&U.Tu, 1, Unit::OrderKey, Unit::Param, 1);
      (void)sleuth_library_call(U.control(Unit::Test));
    }
    {
      sleuth::Frame Again(&U.Tu, 1, Unit::OrderKey, Unit::Param, 1);
      if (U.callBack() != 0)
        return "a frame entered inline at the same depth starts with no library call";
    }
    (void)sleuth_enter(&U.Tu, 2, Unit::DirectKey, nullptr);
    if (U.callBack() != 0)
      return "nor does one the runtime entered";
    sleuth_leave(nullptr);
    return "";
  });
}

TEST(LibraryCallbackTest, ADestructorTheLibraryRunsTakesTheCallsControl) {
  inChild([](Unit &U) -> const char * {
    sleuth::Frame Main(&U.Tu, 0, Unit::MainKey);
    sleuth::LibraryCall Erase(U.control(Unit::Test));
    unsigned Control = sleuth_enter_destructor(&U.Tu, 3, Unit::DestructorKey);
    sleuth_leave(nullptr);
    if (Control != U.control(Unit::Test))
      return "an element destroyed by the call is destroyed under its control";
    return "";
  });
}

} // namespace
