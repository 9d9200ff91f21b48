// The harness of the tracker's tests (design brief §4). As the Debugging Book
// tests its DataTracker with `_test_data.set/get`, these drive the runtime's C
// ABI directly: a hand-written site table (Unit) stands in for the
// instrumenter's, the probes run on real variables, sleuth_flush() writes the
// dependence file and the slicer's loader reads it back.
//
// The runtime's state is process-global and cannot be reset (registry, shadow
// memory, per-thread state), so every scenario runs in a forked child
// (TrackerTest::record): it starts from a clean runtime, and node ids and
// edges are exactly those the scenario made. The scenarios are grouped by
// concern in Tracker*Test.cpp.
#pragma once

#include "sleuth/runtime.h"
#include "sleuth/slicer/dependences.h"
#include "state.h"

#include <cstdarg>
#include <gtest/gtest.h>

#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <type_traits>
#include <unistd.h>
#include <utility>
#include <vector>

/// How often a test's probes took the runtime's slow paths (TrackerSupport.cpp wraps them; the
/// link's --wrap options are in tests/runtime/CMakeLists.txt): whether a probe ran inline.
extern unsigned long SlowMemoryProbes, SlowTests, SlowCalls, SlowEntries;

namespace sleuth::tracker_test {

using sleuth::DependenceGraph;
using sleuth::DependenceKind;
using Node = DependenceGraph::Node;
using Names = std::set<std::string>;

constexpr unsigned VarSite = SLEUTH_SITE_VAR;
constexpr unsigned ParamSite = SLEUTH_SITE_PARAM;
constexpr unsigned TestSite = SLEUTH_SITE_TEST;
constexpr unsigned RetSite = SLEUTH_SITE_RET;
constexpr unsigned AssertSite = SLEUTH_SITE_ASSERT;
constexpr unsigned CallSite = SLEUTH_SITE_CALL;
constexpr unsigned EffectSite = SLEUTH_SITE_EFFECT;

/// Fails the child: its assertions cannot reach GoogleTest in the parent, so
/// the parent reports the exit status and this message.
inline void require(bool Condition, const char *What) {
  if (!Condition) {
    std::fprintf(stderr, "scenario check failed: %s\n", What);
    std::fflush(stderr);
    _exit(2);
  }
}

/// The control that the instrumented code keeps in locals of each function and passes to every
/// node probe as `ctl` (instrumenter/src/FunctionInstrumenter.cpp: control(),
/// computeControlGroups(), testEffects()): the call's control, which sleuth_enter returns, and
/// per set of static controllers a local that each of those tests sets when it runs. A site's
/// ctl is among its static controllers the one whose probe ran last in the current frame, else
/// the call's control. The runtime no longer finds this out itself, so the scenarios' probes
/// compute it here as the instrumented code would: one frame per instrumented call on the
/// thread, pushed by Unit::enter and popped by Unit::ret and leave(), which gives a recursive
/// call's tests a frame of their own that never counts in the caller. The bottom frame stands
/// for code outside any instrumented function, which nothing controls.
struct ControlFrame {
  unsigned CallControl = 0;
  std::vector<unsigned> Tests; ///< 1 + the node of each test run in this frame, the latest last.
};

inline std::vector<ControlFrame> &controlFrames() {
  thread_local std::vector<ControlFrame> Frames(1);
  return Frames;
}

inline void popControlFrame() {
  // As the runtime, which ignores a leave of its bottom frame.
  if (controlFrames().size() > 1)
    controlFrames().pop_back();
}

/// Leaves the current frame without a return value.
inline void leave() {
  sleuth_leave(nullptr);
  popControlFrame();
}

/// A longjmp back to the function of the Depth'th frame: the instrumented code runs on with that
/// function's control locals at once, while the runtime learns of it only at the next entry.
inline void longjmpTo(size_t Depth) { controlFrames().resize(Depth); }

/// One translation unit's site table, as the instrumenter would generate it.
/// Site i is at line i + 1 so that the file shows the table's order.
class Unit {
public:
  explicit Unit(const char *Path) : Path(Path) { func("main"); }
  Unit(const Unit &) = delete;
  Unit &operator=(const Unit &) = delete;

  unsigned func(const char *Name) {
    require(!Finished, "functions added after the first probe");
    Funcs.push_back(sleuth_func{1, 1000, Name});
    return static_cast<unsigned>(Funcs.size() - 1);
  }
  /// A static data edge (sleuth_tu::static_data): Site reads what Origin wrote, whenever
  /// Site ran (or Origin, with WitnessIsOrigin).
  void staticData(unsigned Site, unsigned Origin, bool WitnessIsOrigin = false) {
    require(!Finished, "static edges added after the first probe");
    StaticData.push_back(Site);
    StaticData.push_back(Origin | (WitnessIsOrigin ? SLEUTH_STATIC_WITNESS_ORIGIN : 0u));
  }
  unsigned site(unsigned Kind, const char *Name, unsigned Func = 0, std::vector<unsigned> Cds = {},
                unsigned Flags = 0) {
    require(!Finished, "sites added after the first probe");
    unsigned Index = static_cast<unsigned>(Sites.size());
    Sites.push_back(sleuth_site{Kind, Flags, Index + 1, 1, Func,
                                static_cast<unsigned>(CdTable.size()),
                                static_cast<unsigned>(Cds.size()), Name});
    CdTable.insert(CdTable.end(), Cds.begin(), Cds.end());
    return Index;
  }
  /// The unit as probes take it; the table is frozen from now on.
  sleuth_tu *tu() {
    if (!Finished) {
      Finished = true;
      if (CdTable.empty())
        CdTable.push_back(0); // never read: every site has cd_count 0
      States.assign(Sites.size(), sleuth_site_state{});
      FuncStates.assign(std::max<size_t>(Funcs.size(), 1), sleuth_func_state{});
      Tu = sleuth_tu{Path,
                     "0123456789abcdef",
                     Sites.data(),
                     static_cast<unsigned>(Sites.size()),
                     CdTable.data(),
                     Funcs.data(),
                     static_cast<unsigned>(Funcs.size()),
                     States.data(),
                     FuncStates.data(),
                     StaticData.data(),
                     static_cast<unsigned>(StaticData.size() / 2),
                     0,
                     0,
                     0};
    }
    return &Tu;
  }
  /// What the runtime has recorded of Site for the inline probes.
  const sleuth_site_state &state(unsigned Site) {
    tu();
    return States[Site];
  }
  /// 1 + the node of Site: what a probe passes as `ctl` for a test site, what sleuth_def
  /// returns. Valid once the unit is registered.
  unsigned origin(unsigned Site) { return tu()->base + Site; }

  /// The `ctl` the instrumented code passes for Site now (see ControlFrame).
  unsigned ctl(unsigned Site) {
    sleuth_tu *T = tu();
    const ControlFrame &F = controlFrames().back();
    const sleuth_site &S = Sites[Site];
    // The instrumenter flags a site whose one controller always ran first: its probe passes none.
    if (S.flags & SLEUTH_FLAG_STATIC_CONTROL)
      return 0;
    // Before registration no test of this unit can have run (its probe registers it), and
    // base 0 would mistake other units' tests for ours.
    if (T->base != 0)
      for (auto It = F.Tests.rbegin(); It != F.Tests.rend(); ++It)
        for (unsigned I = 0; I < S.cd_count; ++I)
          if (*It == T->base + CdTable[S.cd_begin + I])
            return *It;
    return F.CallControl;
  }

  // The probes, named after what the instrumented code does.
  unsigned enter(unsigned Func, unsigned Key = 0, const void *FrameAddress = nullptr) {
    return pushFrame(sleuth_enter(tu(), Func, Key, FrameAddress));
  }
  unsigned enterParams(unsigned Func, unsigned Key, unsigned FirstParam, unsigned Count) {
    return pushFrame(sleuth_enter_params(tu(), Func, Key, nullptr, FirstParam, Count));
  }
  template <class T> void set(unsigned Site, T &Lvalue) { set(Site, &Lvalue, sizeof(T)); }
  void set(unsigned Site, const volatile void *Addr, unsigned long Size) {
    sleuth_set(tu(), Site, ctl(Site), Addr, Size);
  }
  template <class T> T *created(unsigned Site, const T &Literal) {
    return static_cast<T *>(sleuth_created(tu(), Site, ctl(Site), &Literal, sizeof(T)));
  }
  template <class T> void swapped(unsigned SiteA, unsigned SiteB, T &A, T &B) {
    sleuth_swapped(tu(), SiteA, SiteB, ctl(SiteA), &A, &B, sizeof(T));
  }
  void *setnow(unsigned Site, void *Addr, unsigned long Size) {
    return sleuth_setnow(tu(), Site, ctl(Site), Addr, Size);
  }
  void *setp(unsigned Site, void *Addr, unsigned long Size) {
    return sleuth_setp(tu(), Site, ctl(Site), Addr, Size);
  }
  template <class T> void decl(unsigned Site, T &Lvalue) {
    require(sleuth_decl(tu(), Site, ctl(Site), &Lvalue, sizeof(T)) == 0, "sleuth_decl returns 0");
  }
  /// A write of a kept local: its new origin.
  unsigned def(unsigned Site) { return sleuth_def(tu(), Site, ctl(Site)); }
  unsigned defnow(unsigned Site) { return sleuth_defnow(tu(), Site, ctl(Site)); }
  int test(unsigned Site, int Outcome = 1) {
    int Result = sleuth_test(tu(), Site, ctl(Site), Outcome);
    require(Result == Outcome, "sleuth_test returns the outcome");
    ran(Site);
    return Result;
  }
  unsigned long sw(unsigned Site, unsigned long Value) {
    unsigned long Result = sleuth_switch(tu(), Site, ctl(Site), Value);
    ran(Site);
    return Result;
  }
  int assertion(unsigned Site, int Outcome) {
    return sleuth_assert(tu(), Site, ctl(Site), Outcome);
  }
  void effect(unsigned Site) {
    sleuth_effect(tu(), Site, ctl(Site));
    ran(Site);
  }
  void call(unsigned Site, unsigned Key) { sleuth_call(tu(), Site, ctl(Site), Key); }
  /// sleuth_call_args: Pairs (position, origin) pairs of unsigned follow.
  template <class... Args> void callArgs(unsigned Site, unsigned Key, unsigned Pairs, Args... A) {
    static_assert((std::is_same_v<Args, unsigned> && ...), "the pairs are unsigned");
    sleuth_call_args(tu(), Site, ctl(Site), Key, Pairs, A...);
  }
  void arg(unsigned Site, unsigned Position) { sleuth_arg(tu(), Site, Position); }
  void constructArg(unsigned Site, unsigned Key, unsigned Position) {
    sleuth_construct_arg(tu(), Site, ctl(Site), Key, Position);
  }
  template <class T> void param(unsigned Site, T &Lvalue, unsigned Position) {
    sleuth_param(tu(), Site, &Lvalue, sizeof(T), Position);
  }
  unsigned paramOrigin(unsigned Site, unsigned Position) {
    return sleuth_param_origin(tu(), Site, Position);
  }
  void ret(unsigned Site) {
    sleuth_ret(tu(), Site, ctl(Site), nullptr);
    popControlFrame();
  }

private:
  unsigned pushFrame(unsigned CallControl) {
    controlFrames().push_back(ControlFrame{CallControl, {}});
    return CallControl;
  }
  /// Test Site ran in this frame: the latest of the frame's tests from now on.
  void ran(unsigned Site) {
    std::vector<unsigned> &Tests = controlFrames().back().Tests;
    std::erase(Tests, origin(Site));
    Tests.push_back(origin(Site));
  }

  const char *Path;
  std::vector<sleuth_site> Sites;
  std::vector<unsigned> CdTable;
  std::vector<unsigned> StaticData; // pairs (site, origin site)
  std::vector<sleuth_func> Funcs;
  std::vector<sleuth_site_state> States;
  std::vector<sleuth_func_state> FuncStates;
  sleuth_tu Tu{};
  bool Finished = false;
};

template <class T> void get(const T &Lvalue) { sleuth_get(&Lvalue, sizeof(T)); }

/// True if the inline node probe of Site would only count a hit, without a call (runtime.h):
/// with the ctl the instrumented code would pass now, consuming the pending reads or not.
inline bool quiet(Unit &U, unsigned Site, bool Consume = true) {
  return sleuth_quiet(U.tu(), Site, U.ctl(Site), Consume) != nullptr;
}

/// What a scenario runs in: owns the units, which the runtime keeps pointers
/// to until the dependence file is written.
class Program {
public:
  Unit &unit(const char *Path = "/src/scenario.c") { return Units.emplace_back(Path); }

private:
  std::deque<Unit> Units;
};

struct Recording {
  std::optional<DependenceGraph> Graph;
  std::string Text; ///< The dependence file as written.
};

class TrackerTest : public ::testing::Test {
protected:
  void SetUp() override {
    std::string Template =
        (std::filesystem::temp_directory_path() / "runtime-test-XXXXXX").string();
    ASSERT_NE(::mkdtemp(Template.data()), nullptr);
    Dir = Template;
  }
  void TearDown() override {
    std::error_code Ec;
    std::filesystem::remove_all(Dir, Ec);
  }

  /// Runs Scenario in a forked child with a fresh runtime; the child writes
  /// the dependence file with sleuth_flush() and the parent loads it.
  Recording record(const std::function<void(Program &)> &Scenario) {
    return record(Scenario, (Dir / "scenario.deps").string());
  }
  Recording record(const std::function<void(Program &)> &Scenario, const std::string &Out) {
    std::fflush(nullptr);
    pid_t Child = fork();
    if (Child == 0) {
      // SLEUTH_OUT is read when the file is written; setting it first anyway
      // keeps the scenario independent of that detail.
      setenv("SLEUTH_OUT", Out.c_str(), 1);
      {
        Program P;
        Scenario(P);
        sleuth_flush();
      }
      // Skips the runtime's final write at exit, which would overwrite the
      // file with `status exit 0`.
      _exit(0);
    }
    Recording R;
    int Status = 0;
    EXPECT_GT(Child, 0) << "fork failed";
    if (Child <= 0)
      return R;
    while (waitpid(Child, &Status, 0) < 0 && errno == EINTR) {
    }
    EXPECT_TRUE(WIFEXITED(Status) && WEXITSTATUS(Status) == 0)
        << "the scenario failed, wait status " << Status;
    std::ifstream In(Out, std::ios::binary);
    std::ostringstream Buffer;
    Buffer << In.rdbuf();
    R.Text = Buffer.str();
    std::string Error;
    R.Graph = DependenceGraph::load(Out, Error);
    EXPECT_TRUE(R.Graph.has_value()) << Error << "\n" << R.Text;
    return R;
  }

  std::filesystem::path Dir;
};

/// The node named Name; scenarios give their sites unique names.
inline Node node(const DependenceGraph &G, const std::string &Name) {
  std::optional<Node> Found;
  for (Node N = 0; N < G.size(); ++N)
    if (G.site(N).Name == Name) {
      EXPECT_FALSE(Found.has_value()) << "two sites named " << Name;
      Found = N;
    }
  EXPECT_TRUE(Found.has_value()) << "no site named " << Name;
  return Found.value_or(0);
}

/// The names of the nodes that Name depends on by edges of Kind.
inline Names origins(const DependenceGraph &G, const std::string &Name, DependenceKind Kind) {
  Names Result;
  for (auto E : boost::make_iterator_range(boost::in_edges(node(G, Name), G.graph())))
    if (G.graph()[E].Kind == Kind)
      Result.insert(G.site(boost::source(E, G.graph())).Name);
  return Result;
}
inline Names dataOf(const DependenceGraph &G, const std::string &Name) {
  return origins(G, Name, DependenceKind::Data);
}
inline Names ctrlOf(const DependenceGraph &G, const std::string &Name) {
  return origins(G, Name, DependenceKind::Control);
}
inline uint64_t hits(const DependenceGraph &G, const std::string &Name) {
  return G.site(node(G, Name)).Hits;
}

} // namespace sleuth::tracker_test
