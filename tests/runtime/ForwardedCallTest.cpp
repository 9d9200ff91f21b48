// The records of calls the library makes with the program's arguments (sleuth_forward): an entry
// of another function first (a map's try_emplace comparing keys with the program's operator<)
// ends the arguments' marks, so that what it pushes is no parameter's; and a std::thread's
// record goes to the new thread (sleuth_thread_args_take, sleuth_thread_args_give). These drive
// the C ABI as instrumented code would and check the origins the callee's entry gives its
// parameters.
//
// The runtime's state is process-global, so every scenario runs in a forked child that reports
// through its exit status.
#include "ForkedScenario.h"
#include "sleuth/runtime.h"
#include "state.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>
#include <vector>

namespace {

/// A unit of three functions (0: the caller, 1: the constructor the library enters with the
/// arguments, 2: a comparison it enters first) and their sites.
struct Unit {
  enum : unsigned { Opening, Call, Param, CompareRet, Member, Count };
  std::vector<sleuth_site> Sites{{SLEUTH_SITE_VAR, 0, 2, 1, 0, 0, 0, "opening"},
                                 {SLEUTH_SITE_CALL, 0, 3, 1, 0, 0, 0, "<call>"},
                                 {SLEUTH_SITE_PARAM, 0, 1, 1, 1, 0, 0, "o"},
                                 {SLEUTH_SITE_RET, 0, 5, 1, 2, 0, 0, "<return>"},
                                 {SLEUTH_SITE_VAR, 0, 1, 20, 1, 0, 0, "balance_"}};
  std::vector<sleuth_func> Funcs{{2, 3, "main"}, {1, 1, "Account::Account"}, {5, 5, "operator<"}};
  std::vector<sleuth_site_state> States = std::vector<sleuth_site_state>(Count);
  std::vector<sleuth_func_state> FuncStates = std::vector<sleuth_func_state>(3);
  sleuth_tu Tu = sleuth::test::unitTable("/forwarded.cpp", Sites, Funcs, States, FuncStates);
  static constexpr unsigned MainKey = 11, ConstructorKey = 0x80000022u, CompareKey = 33;
  long Value = 0;

  unsigned node(unsigned Site) const { return Tu.base - 1 + Site; }
  /// `long opening = ...;` then its read, pushed as an argument's.
  void readOpening() {
    sleuth_set(&Tu, Opening, 0, &Value, sizeof(Value));
    sleuth_get(&Value, sizeof(Value));
  }
};

/// The origins the current frame's entry gave its parameter at Position.
std::vector<unsigned> argumentOrigins(unsigned Position) {
  sleuth::rt::ThreadState &T = sleuth::rt::threadState();
  std::vector<unsigned> Origins;
  for (size_t I = T.Frames.back().args; I < T.ArgOrigins.size(); ++I)
    if (T.ArgOrigins[I].Position == Position)
      Origins.push_back(T.ArgOrigins[I].Origin);
  return Origins;
}

void inChild(const char *(*Scenario)(Unit &)) { sleuth::test::inChild<Unit>(Scenario); }

/// The origin of the long at Address (its shadow's, read as a probe reads it).
unsigned originOf(const long &Address) {
  sleuth_get(&Address, sizeof(long));
  sleuth::rt::ThreadState &T = sleuth::rt::threadState();
  unsigned Origin = T.Pending.size() != 0 ? T.Pending[T.Pending.size() - 1] : ~0u;
  sleuth_discard();
  return Origin;
}

/// `v.emplace(v.begin() + 1, opening)` on v = {e0, e1} with room for three, as libstdc++ runs it:
/// the program's constructor (entered through a record made by `Record`) builds a temporary,
/// then the library shifts e1 and move-assigns the temporary into v[1], unseen. The origin
/// of v[1] after the call.
unsigned insertedElementOrigin(Unit &U, void (*Record)(Unit &)) {
  long V[3] = {1, 2, 0};
  sleuth_set(&U.Tu, Unit::Opening, 0, &V[0], 2 * sizeof(long));
  Record(U);
  sleuth_watch_contents_at(V, 2 * sizeof(long), sizeof(long));
  long Temporary = 0;
  {
    sleuth::Frame Constructor(&U.Tu, 1, Unit::ConstructorKey);
    Constructor.constructs(&Temporary, sizeof Temporary);
    Temporary = 7;
    sleuth_set(&U.Tu, Unit::Member, 0, &Temporary, sizeof Temporary);
  }
  V[2] = V[1];
  V[1] = Temporary;
  sleuth_set(&U.Tu, Unit::Call, 0, &U.Value, sizeof U.Value); // the container's write
  sleuth_shifted_contents(&U.Tu, Unit::Call, V, 3 * sizeof(long));
  return originOf(V[1]);
}

TEST(ForwardedCallTest, AnEntryBeforeTheCalleeEndsTheArgumentsMarks) {
  inChild([](Unit &U) -> const char * {
    sleuth::Frame Main(&U.Tu, 0, Unit::MainKey);
    // `m.try_emplace(k, opening, 2)`: the last argument that reads something is opening.
    sleuth_forward(&U.Tu, Unit::Call, 0, Unit::ConstructorKey);
    sleuth_arg(&U.Tu, Unit::Call, 1);
    U.readOpening();
    // The map compares keys with the program's operator<, which returns a value it pushes.
    (void)sleuth_enter(&U.Tu, 2, Unit::CompareKey, nullptr);
    sleuth_ret(&U.Tu, Unit::CompareRet, 0, nullptr);
    // Then it constructs the mapped value.
    sleuth::Frame Constructor(&U.Tu, 1, Unit::ConstructorKey);
    std::vector<unsigned> Origins = argumentOrigins(1);
    if (Origins.size() != 1 || Origins[0] != U.node(Unit::Opening))
      return "the constructor's first parameter takes opening, not the comparison's value";
    return "";
  });
}

TEST(ForwardedCallTest, AThreadsArgumentsGoToTheNewThreadsEntry) {
  inChild([](Unit &U) -> const char * {
    sleuth::Frame Main(&U.Tu, 0, Unit::MainKey);
    // `std::thread t(f, opening)`: the argument makes the record...
    sleuth_construct_arg(&U.Tu, Unit::Call, 0, Unit::ConstructorKey, 1);
    U.readOpening();
    // ... which the library's copy of the function takes, once the arguments are evaluated.
    void *Args = sleuth_thread_args_take(&U.Tu, Unit::Call);
    if (Args == nullptr)
      return "the record is taken";
    if (sleuth_pending_reads.num_calls != 0)
      return "and it is no longer the constructing thread's";
    if (sleuth_thread_args_take(&U.Tu, Unit::Call) != nullptr)
      return "once";
    const char *Failure = "";
    std::thread([&] {
      sleuth_thread_args_give(Args);
      sleuth::Frame Callee(&U.Tu, 1, Unit::ConstructorKey);
      std::vector<unsigned> Origins = argumentOrigins(1);
      if (Origins.size() != 1 || Origins[0] != U.node(Unit::Opening))
        Failure = "the new thread's entry gives the parameter opening's origin";
    }).join();
    return Failure;
  });
}

TEST(ForwardedCallTest, AnElementBuiltByAForwardedConstructorKeepsItsWrites) {
  inChild([](Unit &U) -> const char * {
    sleuth::Frame Main(&U.Tu, 0, Unit::MainKey);
    unsigned Origin = insertedElementOrigin(U, [](Unit &U) {
      sleuth_forward(&U.Tu, Unit::Call, 0, Unit::ConstructorKey);
      sleuth_arg(&U.Tu, Unit::Call, 1);
      U.readOpening();
    });
    if (Origin != U.node(Unit::Member))
      return "the inserted element's origin is the constructor's write, not the call's";
    return "";
  });
}

TEST(ForwardedCallTest, AnElementTheCallBuiltItselfIsTheCallsWrite) {
  inChild([](Unit &U) -> const char * {
    sleuth::Frame Main(&U.Tu, 0, Unit::MainKey);
    // `v.insert(v.begin() + 1, Account(opening))`: the program called the constructor itself.
    unsigned Origin = insertedElementOrigin(U, [](Unit &U) {
      sleuth_call(&U.Tu, Unit::Call, 0, Unit::ConstructorKey);
      U.readOpening();
    });
    if (Origin != U.node(Unit::Call))
      return "the inserted element's origin is the call's write";
    return "";
  });
}

} // namespace
