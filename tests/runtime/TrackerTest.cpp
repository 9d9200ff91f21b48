// Tests of the tracker's semantics (design brief §4). As the Debugging Book
// tests its DataTracker with `_test_data.set/get`, these drive the runtime's C
// ABI directly: a hand-written site table stands in for the instrumenter's, the
// probes run on real variables, sleuth_flush() writes the dependence file and
// the slicer's loader reads it back.
//
// The runtime's state is process-global and cannot be reset (registry, shadow
// memory, per-thread state), so every scenario runs in a forked child: it
// starts from a clean runtime, and node ids and edges are exactly those the
// scenario made.
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

// The memory probes' slow paths as the tests' inline probes call them (the link wraps them,
// tests/runtime/CMakeLists.txt): counted, then the runtime's.
extern "C" {
void __real_sleuth_get_slow(const volatile void *Addr, unsigned long Size);
void __real_sleuth_getc_slow(sleuth_tu *Tu, unsigned *Cache, unsigned Site,
                             const volatile void *Addr, unsigned long Size);
void __real_sleuth_set_slow(sleuth_tu *Tu, unsigned Site, unsigned Ctl, const volatile void *Addr,
                            unsigned long Size);
void __real_sleuth_chk_slow(sleuth_tu *Tu, unsigned *Cache, unsigned Site, unsigned Origin);
int __real_sleuth_test_slow(sleuth_tu *Tu, unsigned Site, unsigned Ctl, int Outcome);
void __real_sleuth_call_argsv(sleuth_tu *Tu, unsigned Site, unsigned Ctl, unsigned Key,
                              unsigned Consumer, unsigned *Cache, unsigned Pairs, ...);
unsigned __real_sleuth_enter_params_slow(sleuth_tu *Tu, unsigned Func, unsigned Key,
                                         const void *FrameAddress, unsigned FirstParam,
                                         unsigned Count);
}
static unsigned long SlowMemoryProbes = 0, SlowTests = 0, SlowCalls = 0, SlowEntries = 0;
extern "C" {
void __wrap_sleuth_get_slow(const volatile void *Addr, unsigned long Size) {
  ++SlowMemoryProbes;
  __real_sleuth_get_slow(Addr, Size);
}
void __wrap_sleuth_getc_slow(sleuth_tu *Tu, unsigned *Cache, unsigned Site,
                             const volatile void *Addr, unsigned long Size) {
  ++SlowMemoryProbes;
  __real_sleuth_getc_slow(Tu, Cache, Site, Addr, Size);
}
void __wrap_sleuth_set_slow(sleuth_tu *Tu, unsigned Site, unsigned Ctl, const volatile void *Addr,
                            unsigned long Size) {
  ++SlowMemoryProbes;
  __real_sleuth_set_slow(Tu, Site, Ctl, Addr, Size);
}
void __wrap_sleuth_chk_slow(sleuth_tu *Tu, unsigned *Cache, unsigned Site, unsigned Origin) {
  ++SlowMemoryProbes;
  __real_sleuth_chk_slow(Tu, Cache, Site, Origin);
}
int __wrap_sleuth_test_slow(sleuth_tu *Tu, unsigned Site, unsigned Ctl, int Outcome) {
  ++SlowTests;
  return __real_sleuth_test_slow(Tu, Site, Ctl, Outcome);
}
// The inline call probes' way to the runtime: up to eight pairs passed on.
void __wrap_sleuth_call_argsv(sleuth_tu *Tu, unsigned Site, unsigned Ctl, unsigned Key,
                              unsigned Consumer, unsigned *Cache, unsigned Pairs, ...) {
  ++SlowCalls;
  unsigned V[2 * SLEUTH_CALL_PAIRS] = {};
  va_list Args;
  va_start(Args, Pairs);
  for (unsigned I = 0; I < 2 * Pairs && I < 2 * SLEUTH_CALL_PAIRS; ++I)
    V[I] = va_arg(Args, unsigned);
  va_end(Args);
  __real_sleuth_call_argsv(Tu, Site, Ctl, Key, Consumer, Cache, Pairs, V[0], V[1], V[2], V[3], V[4],
                           V[5], V[6], V[7], V[8], V[9], V[10], V[11], V[12], V[13], V[14], V[15]);
}
unsigned __wrap_sleuth_enter_params_slow(sleuth_tu *Tu, unsigned Func, unsigned Key,
                                         const void *FrameAddress, unsigned FirstParam,
                                         unsigned Count) {
  ++SlowEntries;
  return __real_sleuth_enter_params_slow(Tu, Func, Key, FrameAddress, FirstParam, Count);
}
}

namespace {

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
void require(bool Condition, const char *What) {
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

std::vector<ControlFrame> &controlFrames() {
  thread_local std::vector<ControlFrame> Frames(1);
  return Frames;
}

void popControlFrame() {
  // As the runtime, which ignores a leave of its bottom frame.
  if (controlFrames().size() > 1)
    controlFrames().pop_back();
}

/// Leaves the current frame without a return value.
void leave() {
  sleuth_leave(nullptr);
  popControlFrame();
}

/// A longjmp back to the function of the Depth'th frame: the instrumented code runs on with that
/// function's control locals at once, while the runtime learns of it only at the next entry.
void longjmpTo(size_t Depth) { controlFrames().resize(Depth); }

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
bool quiet(Unit &U, unsigned Site, bool Consume = true) {
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
Node node(const DependenceGraph &G, const std::string &Name) {
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
Names origins(const DependenceGraph &G, const std::string &Name, DependenceKind Kind) {
  Names Result;
  for (auto E : boost::make_iterator_range(boost::in_edges(node(G, Name), G.graph())))
    if (G.graph()[E].Kind == Kind)
      Result.insert(G.site(boost::source(E, G.graph())).Name);
  return Result;
}
Names dataOf(const DependenceGraph &G, const std::string &Name) {
  return origins(G, Name, DependenceKind::Data);
}
Names ctrlOf(const DependenceGraph &G, const std::string &Name) {
  return origins(G, Name, DependenceKind::Control);
}
uint64_t hits(const DependenceGraph &G, const std::string &Name) {
  return G.site(node(G, Name)).Hits;
}

// --- The file -------------------------------------------------------------

TEST_F(TrackerTest, TheOutputFilesDirectoriesAreCreated) {
  std::string Out = (Dir / "runs" / "today" / "x.deps").string();
  Recording R = record(
      [](Program &P) {
        Unit &U = P.unit();
        unsigned A = U.site(VarSite, "a");
        U.enter(0);
        int a = 1;
        U.decl(A, a);
        leave();
      },
      Out);
  ASSERT_TRUE(R.Graph.has_value());
  EXPECT_EQ(hits(*R.Graph, "a"), 1u);
}

// Version 2 of the format: each file record carries the unit's content hash.
TEST_F(TrackerTest, FileRecordsCarryTheUnitsContentHash) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned A = U.site(VarSite, "a");
    U.enter(0);
    int a = 1;
    U.decl(A, a);
    leave();
  });
  ASSERT_TRUE(R.Graph.has_value());
  EXPECT_EQ(R.Text.substr(0, 14), "sleuth-deps 2\n");
  ASSERT_EQ(R.Graph->files().size(), 1u);
  EXPECT_EQ(R.Graph->files()[0].Hash, "0123456789abcdef");
}

// --- Data dependences ------------------------------------------------------

TEST_F(TrackerTest, AssignmentDependsOnTheOriginsOfWhatItReads) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned X = U.site(VarSite, "x"), Y = U.site(VarSite, "y"), Z = U.site(VarSite, "z");
    U.enter(0);
    int x = 1, y = 2;
    U.decl(X, x);
    U.decl(Y, y);
    get(x);
    get(y);
    int z = x + y;
    U.set(Z, z);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "z"), (Names{"x", "y"}));
  EXPECT_EQ(dataOf(G, "x"), Names{});
  EXPECT_EQ(ctrlOf(G, "z"), Names{});
  EXPECT_TRUE(G.status().Running);
}

TEST_F(TrackerTest, WriteThroughPointerIsSeenUnderAnotherName) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned Deref = U.site(VarSite, "*p"), W = U.site(VarSite, "w"),
             Elem = U.site(VarSite, "q[1]"), H = U.site(VarSite, "h");
    U.enter(0);
    int v = 0;
    int *p = &v;
    *p = 42;
    U.set(Deref, *p);
    int &r = v; // a reference: yet another name of the same bytes
    get(r);
    int w = r;
    U.set(W, w);
    // Heap memory written under one pointer, read under another.
    int *q = static_cast<int *>(std::malloc(4 * sizeof(int)));
    q[1] = w;
    get(w);
    U.set(Elem, q[1]);
    int *Alias = q + 1;
    get(*Alias);
    int h = *Alias;
    U.set(H, h);
    std::free(q);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "w"), Names{"*p"});
  EXPECT_EQ(dataOf(*R.Graph, "q[1]"), Names{"w"});
  EXPECT_EQ(dataOf(*R.Graph, "h"), Names{"q[1]"});
}

TEST_F(TrackerTest, ArrayElementsAndStructFieldsHaveTheirOwnOrigins) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned A0 = U.site(VarSite, "a[0]"), A1 = U.site(VarSite, "a[1]"),
             A1Again = U.site(VarSite, "a[1] again"), R0 = U.site(VarSite, "r0"),
             R1 = U.site(VarSite, "r1"), SC = U.site(VarSite, "s.c"), SI = U.site(VarSite, "s.i"),
             SD = U.site(VarSite, "s.d"), RI = U.site(VarSite, "ri"),
             Whole = U.site(VarSite, "copy");
    U.enter(0);
    int a[3] = {};
    U.set(A0, a[0]);
    U.set(A1, a[1]);
    U.set(A1Again, a[1]); // must not touch a[0]'s origin
    get(a[0]);
    int r0 = a[0];
    U.set(R0, r0);
    get(a[1]);
    int r1 = a[1];
    U.set(R1, r1);
    struct S {
      char c;
      int i;
      double d;
    } s{};
    U.set(SC, s.c);
    U.set(SI, s.i);
    U.set(SD, s.d);
    get(s.i);
    int ri = s.i;
    U.set(RI, ri);
    get(s); // a struct copy reads every field (padding has no origin)
    S copy = s;
    U.set(Whole, copy);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "r0"), Names{"a[0]"});
  EXPECT_EQ(dataOf(G, "r1"), Names{"a[1] again"});
  EXPECT_EQ(dataOf(G, "ri"), Names{"s.i"});
  EXPECT_EQ(dataOf(G, "copy"), (Names{"s.c", "s.i", "s.d"}));
}

TEST_F(TrackerTest, BytesKeepTheirOriginsAcrossWholeAndPartialWrites) {
  // The shadow keeps one origin per 4-byte word until a part of a word is written: then per
  // byte, until the whole word is written again.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned Fill = U.site(VarSite, "fill"), Second = U.site(VarSite, "second byte"),
             Again = U.site(VarSite, "again"), Third = U.site(VarSite, "third byte"),
             ReadSplit = U.site(VarSite, "read split"), ReadByte0 = U.site(VarSite, "read 0"),
             ReadAgain = U.site(VarSite, "read again"), ReadLater = U.site(VarSite, "read later"),
             Across = U.site(VarSite, "across"), Tail = U.site(VarSite, "tail");
    U.enter(0);
    alignas(8) unsigned char buffer[12] = {};
    U.set(Fill, buffer, 8); // two whole words
    buffer[1] = 1;
    U.set(Second, &buffer[1], 1); // word 0 splits
    int v = 0;
    sleuth_get(buffer, 4);
    U.set(ReadSplit, v);
    sleuth_get(&buffer[0], 1);
    U.set(ReadByte0, v);
    U.set(Again, buffer, 4); // word 0 whole again
    sleuth_get(buffer, 4);
    U.set(ReadAgain, v);
    U.set(Third, &buffer[2], 1); // splits again, from "again"
    sleuth_get(&buffer[1], 2);
    U.set(ReadLater, v);
    sleuth_get(&buffer[3], 3); // unaligned, across words 0 and 1
    U.set(Across, v);
    U.set(Tail, &buffer[6], 6); // half of word 1, all of word 2
    sleuth_get(&buffer[4], 8);
    U.set(Tail, v);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "read split"), (Names{"fill", "second byte"}));
  EXPECT_EQ(dataOf(G, "read 0"), Names{"fill"});
  EXPECT_EQ(dataOf(G, "read again"), Names{"again"});
  EXPECT_EQ(dataOf(G, "read later"), (Names{"again", "third byte"}));
  EXPECT_EQ(dataOf(G, "across"), (Names{"again", "fill"}));
  EXPECT_EQ(dataOf(G, "tail"), (Names{"fill", "tail"}));
}

TEST_F(TrackerTest, BytesWrittenIntoNeverWrittenMemoryKeepTheirOrigins) {
  // Bytes stored into memory no instrumented code wrote before (a buffer filled by memcpy or
  // read): the bytes not written keep no origin, also after a second writer splits the word.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned Nul = U.site(VarSite, "nul"), Other = U.site(VarSite, "other"),
             Over = U.site(VarSite, "over"), ReadWord = U.site(VarSite, "read word"),
             ReadMixed = U.site(VarSite, "read mixed"), ReadUntouched = U.site(VarSite, "read 3"),
             ReadOther = U.site(VarSite, "read 2"), ReadOver = U.site(VarSite, "read over"),
             ReadRest = U.site(VarSite, "read rest");
    U.enter(0);
    alignas(8) unsigned char buffer[8] = {};
    U.set(Nul, &buffer[0], 1);
    U.set(Nul, &buffer[1], 1);
    int v = 0;
    sleuth_get(buffer, 4);
    U.set(ReadWord, v);
    U.set(Other, &buffer[2], 1); // a second writer: per byte from now on
    sleuth_get(buffer, 4);
    U.set(ReadMixed, v);
    sleuth_get(&buffer[3], 1);
    U.set(ReadUntouched, v);
    sleuth_get(&buffer[2], 1);
    U.set(ReadOther, v);
    U.set(Nul, &buffer[4], 1);  // word 1: nul's byte 4 ...
    U.set(Over, &buffer[4], 2); // ... overwritten whole by over's bytes 4-5
    sleuth_get(&buffer[4], 1);
    U.set(ReadOver, v);
    sleuth_get(&buffer[6], 2);
    U.set(ReadRest, v);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "read word"), Names{"nul"});
  EXPECT_EQ(dataOf(G, "read mixed"), (Names{"nul", "other"}));
  EXPECT_EQ(dataOf(G, "read 3"), Names{});
  EXPECT_EQ(dataOf(G, "read 2"), Names{"other"});
  EXPECT_EQ(dataOf(G, "read over"), Names{"over"});
  EXPECT_EQ(dataOf(G, "read rest"), Names{});
}

TEST_F(TrackerTest, InlineReadsFindTheOriginsOfWholeWords) {
  // An 8-byte value written as two halves, read whole, by halves and by parts of a half: once
  // the thread has looked up its leaf, such reads run inline (runtime.h), and find the same
  // origins as the runtime; a split word still goes to the runtime.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned Low = U.site(VarSite, "low"), High = U.site(VarSite, "high"),
             Byte = U.site(VarSite, "byte"), ReadAll = U.site(VarSite, "read all"),
             ReadLow = U.site(VarSite, "read low"), ReadHigh = U.site(VarSite, "read high part"),
             ReadSplit = U.site(VarSite, "read split");
    U.enter(0);
    alignas(8) static unsigned Halves[2];
    int v = 0;
    U.set(Low, &Halves[0], 4);
    U.set(High, &Halves[1], 4);
    unsigned long Key = reinterpret_cast<unsigned long>(Halves) >> 16;
    require(sleuth_pending_reads.leaf_keys[Key & (SLEUTH_LEAF_WAYS - 1)] == Key,
            "the leaf is published");
    sleuth_get(&Halves[0], 4); // (in the runtime: the thread has no stack of reads yet)
    U.set(ReadLow, v);
    sleuth_get(Halves, 8);
    require(sleuth_pending_reads.top - sleuth_pending_reads.frame == 2, "two origins");
    U.set(ReadAll, v);
    sleuth_get(reinterpret_cast<char *>(&Halves[1]) + 2, 2);
    U.set(ReadHigh, v);
    U.set(Byte, reinterpret_cast<char *>(&Halves[1]) + 3, 1);
    sleuth_get(Halves, 8);
    U.set(ReadSplit, v);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "read all"), (Names{"low", "high"}));
  EXPECT_EQ(dataOf(G, "read low"), Names{"low"});
  EXPECT_EQ(dataOf(G, "read high part"), Names{"high"});
  EXPECT_EQ(dataOf(G, "read split"), (Names{"low", "high", "byte"}));
}

TEST_F(TrackerTest, PartialOverwriteGivesBothOrigins) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned X = U.site(VarSite, "x"), Low = U.site(VarSite, "low byte"),
             Whole = U.site(VarSite, "whole"), High = U.site(VarSite, "high");
    U.enter(0);
    unsigned x = 0x01020304;
    U.decl(X, x);
    unsigned char *Bytes = reinterpret_cast<unsigned char *>(&x);
    Bytes[1] = 7;
    U.set(Low, Bytes[1]);
    get(x);
    unsigned whole = x;
    U.set(Whole, whole);
    get(Bytes[3]);
    unsigned char high = Bytes[3];
    U.set(High, high);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "whole"), (Names{"x", "low byte"}));
  EXPECT_EQ(dataOf(*R.Graph, "high"), Names{"x"});
}

// Reads whose origin the instrumenter knew have no probe: their edges are written for the
// nodes that ran, the reading node's or, for a read right after its write, the write's.
TEST_F(TrackerTest, StaticDataEdgesAreWrittenForTheNodesThatShowTheyHeld) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned A = U.site(VarSite, "a"), B = U.site(VarSite, "b"), C = U.site(VarSite, "c"),
             D = U.site(VarSite, "d"), E = U.site(VarSite, "e");
    U.staticData(B, A);       // b ran: written
    U.staticData(C, A);       // c never ran: not written
    U.staticData(D, B, true); // b ran, d did not: written, as the read right after b's write ran
    U.staticData(E, C, true); // c never ran: not written
    U.enter(0);
    int a = 1, b = 2;
    U.decl(A, a);
    U.decl(B, b);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "b"), Names{"a"});
  EXPECT_EQ(dataOf(G, "c"), Names{});
  EXPECT_EQ(dataOf(G, "d"), Names{"b"});
  EXPECT_EQ(dataOf(G, "e"), Names{});
}

TEST_F(TrackerTest, CompoundWriteDependsOnTheOldValue) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned X = U.site(VarSite, "x"), Y = U.site(VarSite, "y"),
             PlusEq = U.site(VarSite, "x += y", 0, {}, SLEUTH_FLAG_COMPOUND),
             Plain = U.site(VarSite, "x = y"), Z = U.site(VarSite, "z");
    U.enter(0);
    int x = 1, y = 2;
    U.decl(X, x);
    U.decl(Y, y);
    get(y);
    x += y;
    U.set(PlusEq, x);
    get(y);
    x = y; // not compound: the old value is overwritten, not read
    U.set(Plain, x);
    get(x);
    int z = x;
    U.set(Z, z);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "x += y"), (Names{"x", "y"}));
  EXPECT_EQ(dataOf(*R.Graph, "x = y"), Names{"y"});
  EXPECT_EQ(dataOf(*R.Graph, "z"), Names{"x = y"});
}

TEST_F(TrackerTest, CompoundMemoryWriteDependsOnEachNewOldValue) {
  // x = a; x += 1; x += 1; x = b; x += 1; x += 1; ... and the same on a 64-bit l whose halves
  // came from l low and l high: the compound site reads the old value through the shadow. The
  // inline path finds the old value's origin among the latest data origins of the node's state
  // (whose edges are recorded), and goes to the runtime for any other, also once the site's
  // control is long known.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned A = U.site(VarSite, "a"), B = U.site(VarSite, "b");
    unsigned Inc = U.site(VarSite, "x += 1", 0, {}, SLEUTH_FLAG_COMPOUND);
    unsigned LowA = U.site(VarSite, "l low"), HighB = U.site(VarSite, "l high");
    unsigned LInc = U.site(VarSite, "l += 1", 0, {}, SLEUTH_FLAG_COMPOUND);
    U.enter(0);
    alignas(8) int x = 0;
    // The two latest data origins of Site's state, which the inline path looks at.
    auto Latest = [&](unsigned Site, unsigned First, unsigned Second) {
      return U.state(Site).data[0] == First && U.state(Site).data[1] == Second;
    };
    U.set(A, x);
    U.set(Inc, x); // old value from a
    require(Latest(Inc, U.origin(A), 0), "a's edge recorded");
    U.set(Inc, x); // old value from x += 1 itself
    require(Latest(Inc, U.origin(Inc), U.origin(A)), "its own edge recorded");
    for (unsigned K = 0; K < 10; ++K) {
      require(quiet(U, Inc), "inline: no reads, no control");
      U.set(Inc, x);
    }
    U.set(B, x);
    U.set(Inc, x); // old value from b: to the runtime, though its control is known
    require(Latest(Inc, U.origin(B), U.origin(Inc)), "b's edge recorded");
    U.set(Inc, x);
    alignas(8) long l = 0;
    int *Halves = reinterpret_cast<int *>(&l);
    U.set(LowA, Halves[0]);
    U.set(HighB, Halves[1]);
    U.set(LInc, l); // two old origins at once
    require(Latest(LInc, U.origin(HighB), U.origin(LowA)) ||
                Latest(LInc, U.origin(LowA), U.origin(HighB)),
            "both halves' origins");
    U.set(LInc, l);
    U.set(LInc, l);
    U.set(LowA, Halves[0]); // from l low again: an edge known, but not among the latest
    U.set(LInc, l);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "x += 1"), (Names{"a", "x += 1", "b"}));
  EXPECT_EQ(hits(G, "x += 1"), 14u);
  EXPECT_EQ(dataOf(G, "l += 1"), (Names{"l low", "l high", "l += 1"}));
  EXPECT_EQ(hits(G, "l += 1"), 4u);
}

TEST_F(TrackerTest, SetNowRecordsTheWriteBeforeTheStore) {
  // z = x++: the instrumenter records the increment before the store, while
  // the shadow still holds x's old origin; z reads the value of `x++`.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned X = U.site(VarSite, "x"), Inc = U.site(VarSite, "x++", 0, {}, SLEUTH_FLAG_COMPOUND),
             Z = U.site(VarSite, "z"), W = U.site(VarSite, "w");
    U.enter(0);
    int x = 1;
    U.decl(X, x);
    int *Target = static_cast<int *>(U.setnow(Inc, &x, sizeof x));
    require(Target == &x, "sleuth_setnow returns its address");
    int z = (*Target)++;
    U.set(Z, z);
    get(x);
    int w = x;
    U.set(W, w);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "x++"), Names{"x"});
  EXPECT_EQ(dataOf(*R.Graph, "z"), Names{"x++"});
  EXPECT_EQ(dataOf(*R.Graph, "w"), Names{"x++"});
}

TEST_F(TrackerTest, SetpAndCommitCompleteTheInnermostWriteAfterTheStore) {
  // a[i] = (b[j] = y): two writes with side-effecting lvalues, the inner one
  // completed first.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned Y = U.site(VarSite, "y"), A = U.site(VarSite, "a[i]"), B = U.site(VarSite, "b[j]"),
             RA = U.site(VarSite, "ra");
    U.enter(0);
    int y = 5, a[2] = {}, b[2] = {};
    U.decl(Y, y);
    int *PA = static_cast<int *>(U.setp(A, &a[1], sizeof(int)));
    int *PB = static_cast<int *>(U.setp(B, &b[0], sizeof(int)));
    require(PA == &a[1] && PB == &b[0], "sleuth_setp returns its address");
    get(y);
    *PB = y;
    require(sleuth_commit() == &b[0], "commit completes the inner write");
    get(b[0]);
    *PA = b[0];
    require(sleuth_commit() == &a[1], "then the outer write");
    require(sleuth_commit() == nullptr, "nothing left to commit");
    get(a[1]);
    int ra = a[1];
    U.set(RA, ra);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "b[j]"), Names{"y"});
  EXPECT_EQ(dataOf(*R.Graph, "a[i]"), Names{"b[j]"});
  EXPECT_EQ(dataOf(*R.Graph, "ra"), Names{"a[i]"});
}

TEST_F(TrackerTest, IncrementInsideAnExpressionKeepsTheExpressionsReads) {
  // y = a + i++;  g(n, i++);  the increment reads only i's old value; a and n
  // are read by the enclosing assignment and by g's first parameter.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned G = U.func("g");
    unsigned A = U.site(VarSite, "a"), N = U.site(VarSite, "n"), I = U.site(VarSite, "i");
    unsigned Inc1 = U.site(VarSite, "i++ (1)", 0, {}, SLEUTH_FLAG_COMPOUND);
    unsigned Y = U.site(VarSite, "y"), C = U.site(CallSite, "<call g>");
    unsigned Inc2 = U.site(VarSite, "i++ (2)", 0, {}, SLEUTH_FLAG_COMPOUND);
    unsigned Pa = U.site(ParamSite, "pa", G), Pb = U.site(ParamSite, "pb", G);
    U.enter(0);
    int a = 1, n = 2, i = 0;
    U.decl(A, a);
    U.decl(N, n);
    U.decl(I, i);
    get(a);
    int y = a + (*static_cast<int *>(U.setnow(Inc1, &i, sizeof i)))++;
    U.set(Y, y);
    U.call(C, 6);
    U.arg(C, 1);
    get(n);
    U.arg(C, 2);
    int b = (*static_cast<int *>(U.setnow(Inc2, &i, sizeof i)))++;
    U.enter(G, 6);
    int pa = n, pb = b;
    U.param(Pa, pa, 1);
    U.param(Pb, pb, 2);
    leave();
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "i++ (1)"), Names{"i"});
  EXPECT_EQ(dataOf(G, "y"), (Names{"a", "i++ (1)"}));
  EXPECT_EQ(dataOf(G, "i++ (2)"), Names{"i++ (1)"});
  EXPECT_EQ(dataOf(G, "pa"), Names{"n"});
  EXPECT_EQ(dataOf(G, "pb"), Names{"i++ (2)"});
}

TEST_F(TrackerTest, WriteInsideAnArgumentDoesNotInventReads) {
  // z = a + b + g(y, c = 2): the write of c consumes the reads pending before
  // it, so the call's argument marks point past the reads that are left. The
  // runtime must neither read past them nor invent reads of node 0.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned G = U.func("g");
    unsigned Zero = U.site(VarSite, "site zero");
    unsigned A = U.site(VarSite, "a"), B = U.site(VarSite, "b"), Y = U.site(VarSite, "y"),
             C = U.site(VarSite, "c");
    unsigned Cg = U.site(CallSite, "<call g>");
    unsigned P1 = U.site(ParamSite, "p1", G), P2 = U.site(ParamSite, "p2", G);
    unsigned Rv = U.site(RetSite, "<g() return value>", G);
    unsigned Z = U.site(VarSite, "z");
    U.enter(0);
    int zero = 0, a = 1, b = 2, y = 3, c = 0;
    U.decl(Zero, zero);
    U.decl(A, a);
    U.decl(B, b);
    U.decl(Y, y);
    get(a);
    get(b);
    U.call(Cg, 12);
    U.arg(Cg, 1);
    get(y);
    U.arg(Cg, 2);
    c = 2;
    U.set(C, c);
    get(c); // the assignment's value
    U.enter(G, 12);
    int p1 = y, p2 = c;
    U.param(P1, p1, 1);
    U.param(P2, p2, 2);
    U.ret(Rv);
    int z = a + b + p1;
    U.set(Z, z);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  for (const char *Name : {"p1", "p2", "z", "<g() return value>"})
    EXPECT_EQ(dataOf(G, Name).count("site zero"), 0u) << Name;
  EXPECT_EQ(dataOf(G, "z").count("<g() return value>"), 1u);
}

// --- Pending reads ---------------------------------------------------------

TEST_F(TrackerTest, PendingReadsAreConsumedByTheNextNode) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned X = U.site(VarSite, "x"), Y = U.site(VarSite, "y"), Z = U.site(VarSite, "z"),
             T = U.site(TestSite, "<test>"), W = U.site(VarSite, "w"),
             D = U.site(VarSite, "after discard");
    U.enter(0);
    int x = 1;
    U.decl(X, x);
    get(x);
    int y = x;
    U.set(Y, y);
    int z = 3; // reads nothing: the read of x was consumed by y
    U.set(Z, z);
    get(z);
    U.test(T, z > 0);
    int w = 4; // the test consumed the read of z
    U.set(W, w);
    get(x);
    get(y);
    sleuth_discard(); // `x + y;` as an expression statement
    int d = 0;
    U.set(D, d);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "y"), Names{"x"});
  EXPECT_EQ(dataOf(G, "z"), Names{});
  EXPECT_EQ(dataOf(G, "<test>"), Names{"z"});
  EXPECT_EQ(dataOf(G, "w"), Names{});
  EXPECT_EQ(dataOf(G, "after discard"), Names{});
}

// --- Control dependences ---------------------------------------------------

TEST_F(TrackerTest, SiteDependsOnItsControllingTest) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned X = U.site(VarSite, "x"), T = U.site(TestSite, "t");
    unsigned S = U.site(VarSite, "s", 0, {T});
    U.enter(0);
    int x = 1;
    U.decl(X, x);
    get(x);
    if (U.test(T, x > 0)) {
      int s = 2;
      U.set(S, s);
    }
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(ctrlOf(*R.Graph, "s"), Names{"t"});
  EXPECT_EQ(dataOf(*R.Graph, "s"), Names{});
  // A test is never a data dependence, and the top-level test has no
  // controller of its own.
  EXPECT_EQ(dataOf(*R.Graph, "t"), Names{"x"});
  EXPECT_EQ(ctrlOf(*R.Graph, "t"), Names{});
}

TEST_F(TrackerTest, AStaticControlEdgeIsWrittenForEveryNodeThatRan) {
  // `if (t) { s = 2; } else { u = 3; }`: s and u have the one controller t, which always ran
  // before them (SLEUTH_FLAG_STATIC_CONTROL): their probes pass no control, and the edge is
  // written with the dependence file, for the one that ran only.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned T = U.site(TestSite, "t");
    unsigned S = U.site(VarSite, "s", 0, {T}, SLEUTH_FLAG_STATIC_CONTROL);
    unsigned V = U.site(VarSite, "u", 0, {T}, SLEUTH_FLAG_STATIC_CONTROL);
    U.enter(0);
    for (int I = 0; I < 3; ++I) {
      if (U.test(T, 1)) {
        int s = 2;
        U.set(S, s);
      } else {
        int u = 3;
        U.set(V, u);
      }
    }
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(ctrlOf(*R.Graph, "s"), Names{"t"});
  EXPECT_EQ(ctrlOf(*R.Graph, "u"), Names{});
  EXPECT_EQ(boost::num_edges(R.Graph->graph()), 1u);
}

TEST_F(TrackerTest, MostRecentlyExecutedControllerWins) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned T1 = U.site(TestSite, "t1"), T2 = U.site(TestSite, "t2");
    unsigned S1 = U.site(VarSite, "s1", 0, {T1, T2}), S2 = U.site(VarSite, "s2", 0, {T1, T2});
    U.enter(0);
    int s = 0;
    U.test(T2);
    U.test(T1);
    U.set(S1, s);
    U.test(T2);
    U.set(S2, s);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(ctrlOf(*R.Graph, "s1"), Names{"t1"});
  EXPECT_EQ(ctrlOf(*R.Graph, "s2"), Names{"t2"});
}

TEST_F(TrackerTest, CalleeStatementsDependOnTheTestThatControlledTheCall) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned G = U.func("g"), H = U.func("h");
    unsigned T = U.site(TestSite, "t");
    unsigned CallG = U.site(CallSite, "<call g>", 0, {T});
    unsigned InG = U.site(VarSite, "in g", G);
    unsigned CallH = U.site(CallSite, "<call h>", G);
    unsigned InH = U.site(VarSite, "in h", H);
    unsigned After = U.site(VarSite, "after");
    U.enter(0);
    int v = 0;
    if (U.test(T)) {
      U.call(CallG, 7);
      U.enter(G, 7);
      U.set(InG, v);
      U.call(CallH, 8); // uncontrolled in g: h inherits g's call control
      U.enter(H, 8);
      U.set(InH, v);
      leave();
      leave();
    }
    U.set(After, v); // back in main, which nothing called
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(ctrlOf(*R.Graph, "in g"), Names{"t"});
  EXPECT_EQ(ctrlOf(*R.Graph, "in h"), Names{"t"});
  EXPECT_EQ(ctrlOf(*R.Graph, "after"), Names{});
}

// A call whose callee never enters (a library function through a pointer, a body in a file that
// is not instrumented) leaves its record; the next call at the same site in the frame drops it,
// so that a loop keeps one record per site (one per call grew by gigabytes), and a call in the
// argument of another leaves the other's record alone: g still takes its argument's origin.
TEST_F(TrackerTest, ACallSiteWhoseCalleeNeverEntersKeepsOneRecordPerFrame) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned G = U.func("g");
    unsigned X = U.site(VarSite, "x"), Lib = U.site(CallSite, "<call through a pointer>");
    unsigned CallG = U.site(CallSite, "<call g>"), Param = U.site(ParamSite, "a", G);
    unsigned Y = U.site(VarSite, "y", G);
    U.enter(0);
    int v = 0;
    U.set(X, v);
    unsigned Before = sleuth_pending_reads.num_calls;
    for (int I = 0; I < 1000; ++I)
      U.call(Lib, 5);
    require(sleuth_pending_reads.num_calls == Before + 1, "one record for the site");
    U.callArgs(CallG, 7, 1, 1u, U.origin(X)); // g(lib(...), x): g's record first
    U.call(Lib, 5);
    U.call(Lib, 5);
    require(sleuth_pending_reads.num_calls == Before + 2, "g's record and one of the site's");
    require(sleuth_pending_reads.calls[Before].key == 7, "g's record below");
    U.enter(G, 7);
    U.param(Param, v, 1);
    U.set(Y, v);
    leave();
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "a"), Names{"x"});
}

// A constructor call's record comes with its arguments (sleuth_construct_arg): the one evaluated
// first makes it, in either order, and the constructor takes each argument's reads as its
// parameter's. What a member initializer's call returns before the constructor's body enters
// belongs to no parameter. A construction abandoned after an argument (it threw) leaves a record
// whose mark the next construction at the site finds taken: that one starts afresh.
TEST_F(TrackerTest, AConstructorCallsArgumentsFlowIntoItsParameters) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned Ctor = U.func("Box::Box"), Twice = U.func("twice");
    unsigned X = U.site(VarSite, "x"), Y = U.site(VarSite, "y"), Z = U.site(VarSite, "z");
    unsigned Make = U.site(CallSite, "<call>");
    unsigned A = U.site(ParamSite, "a", Ctor), B = U.site(ParamSite, "b", Ctor);
    unsigned Doubled = U.site(RetSite, "<twice() return value>", Twice);
    const unsigned Key = SLEUTH_CONSTRUCTOR_KEY | 5u;
    U.enter(0);
    int x = 1, y = 2, z = 3;
    U.set(X, x);
    U.set(Y, y);
    U.set(Z, z);
    unsigned Calls = sleuth_pending_reads.num_calls;
    U.constructArg(Make, Key, 1); // abandoned: z read, the constructor never entered
    get(z);
    for (int Order = 0; Order < 2; ++Order) {
      if (Order == 0) { // left to right
        U.constructArg(Make, Key, 1);
        get(x);
        U.constructArg(Make, Key, 2);
        get(y);
      } else { // right to left
        U.constructArg(Make, Key, 2);
        get(y);
        U.constructArg(Make, Key, 1);
        get(x);
      }
      require(sleuth_pending_reads.num_calls == Calls + 1,
              "one record per construction (the abandoned one dropped by the first)");
      U.enter(Twice, 9); // `x_(twice(a))`: no record of its own
      U.ret(Doubled);
      U.enter(Ctor, Key);
      int a = x, b = y;
      U.param(A, a, 1);
      U.param(B, b, 2);
      leave();
    }
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "a"), Names{"x"});
  EXPECT_EQ(dataOf(*R.Graph, "b"), Names{"y"});
}

TEST_F(TrackerTest, AnInitializerListsCallsGiveTheConstructorsParametersNothing) {
  // `Box box(x, y)` enters `Box(int a, int b) : m_(lib(a))`, where lib's record is pushed before
  // its argument pushes a's node, and lib turns out not to be instrumented: nothing takes the
  // record. What it pushed must not become an origin of b, the constructor's last parameter.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned Ctor = U.func("Box::Box");
    unsigned X = U.site(VarSite, "x"), Y = U.site(VarSite, "y");
    unsigned Make = U.site(CallSite, "<call>"), Lib = U.site(CallSite, "<lib>", Ctor);
    unsigned A = U.site(ParamSite, "a", Ctor), B = U.site(ParamSite, "b", Ctor);
    const unsigned Key = SLEUTH_CONSTRUCTOR_KEY | 5u;
    U.enter(0);
    int x = 1, y = 2;
    U.set(X, x);
    U.set(Y, y);
    U.constructArg(Make, Key, 1);
    get(x);
    U.constructArg(Make, Key, 2);
    get(y);
    sleuth_initializer_call();
    U.call(Lib, 77u);
    U.arg(Lib, 1);
    sleuth_use(U.tu()->base + A);
    U.enter(Ctor, Key);
    int a = x, b = y;
    U.param(A, a, 1);
    U.param(B, b, 2);
    leave();
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "a"), Names{"x"});
  EXPECT_EQ(dataOf(*R.Graph, "b"), Names{"y"});
}

TEST_F(TrackerTest, TestExecutedInAnotherCallIsIgnored) {
  // g's site s is controlled by g's test tg. The second call of g reaches s
  // without executing tg: tg's execution in the first call must not count,
  // s depends on the test that controlled the second call.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned G = U.func("g");
    unsigned Tm1 = U.site(TestSite, "tm1"), Tm2 = U.site(TestSite, "tm2");
    unsigned C1 = U.site(CallSite, "<call 1>", 0, {Tm1}),
             C2 = U.site(CallSite, "<call 2>", 0, {Tm2});
    unsigned Tg = U.site(TestSite, "tg", G);
    unsigned S = U.site(VarSite, "s", G, {Tg});
    U.enter(0);
    int v = 0;
    U.test(Tm1);
    U.call(C1, 5);
    U.enter(G, 5);
    U.test(Tg);
    U.set(S, v);
    leave();
    U.test(Tm2);
    U.call(C2, 5);
    U.enter(G, 5);
    U.set(S, v);
    leave();
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(ctrlOf(*R.Graph, "s"), (Names{"tg", "tm2"}));
  EXPECT_EQ(ctrlOf(*R.Graph, "tg"), Names{"tm1"});
}

TEST_F(TrackerTest, TestExecutedByARecursiveCalleeDoesNotControlTheCaller) {
  // f's site s has two static controllers, ta and tb (as after `if (a) goto
  // L; if (b) return; L: s;`). The outer f executes ta and calls f, whose
  // inner instance executes tb and returns; the outer s was decided by ta.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned F = U.func("f");
    unsigned Ta = U.site(TestSite, "ta", F), Tb = U.site(TestSite, "tb", F);
    unsigned C = U.site(CallSite, "<call f>", F, {Ta});
    unsigned S = U.site(VarSite, "s", F, {Ta, Tb});
    U.enter(F, 3);
    int v = 0;
    U.test(Ta);
    U.call(C, 3);
    U.enter(F, 3);
    U.test(Ta, 0);
    U.test(Tb);
    leave();
    U.set(S, v);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(ctrlOf(*R.Graph, "s"), Names{"ta"});
}

TEST_F(TrackerTest, TestJustBeforeARecursiveCallDoesNotCountInTheCallee) {
  // f: if (c) { if (a) f(); }  where f's site u is controlled by a. The inner
  // f reaches u before executing any test of its own: u depends on what
  // controlled the call (c), not on the outer a executed just before it.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned F = U.func("f");
    unsigned Tc = U.site(TestSite, "c", F), Ta = U.site(TestSite, "a", F);
    unsigned C = U.site(CallSite, "<call f>", F, {Tc});
    unsigned Us = U.site(VarSite, "u", F, {Ta});
    U.enter(F, 3);
    int v = 0;
    U.test(Tc);
    U.test(Ta);
    U.call(C, 3);
    U.enter(F, 3);
    U.set(Us, v);
    leave();
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(ctrlOf(*R.Graph, "u"), Names{"c"});
}

TEST_F(TrackerTest, LoopTestIsControlledByWhatControlsTheLoopNotByItself) {
  // while (i < 3) i = i + 1;  in g, called under tm. The instrumenter filters
  // a loop test out of its own controllers; the runtime adds no self-edge.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned G = U.func("g");
    unsigned Tm = U.site(TestSite, "tm");
    unsigned C = U.site(CallSite, "<call g>", 0, {Tm});
    unsigned I0 = U.site(VarSite, "i", G);
    unsigned Loop = U.site(TestSite, "i < 3", G);
    unsigned Body = U.site(VarSite, "i = i + 1", G, {Loop});
    U.enter(0);
    U.test(Tm);
    U.call(C, 9);
    U.enter(G, 9);
    int i = 0;
    U.decl(I0, i);
    while (get(i), U.test(Loop, i < 3)) {
      get(i);
      i = i + 1;
      U.set(Body, i);
    }
    leave();
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(ctrlOf(G, "i < 3"), Names{"tm"});
  EXPECT_EQ(ctrlOf(G, "i = i + 1"), Names{"i < 3"});
  EXPECT_EQ(dataOf(G, "i < 3"), (Names{"i", "i = i + 1"}));
  EXPECT_EQ(dataOf(G, "i = i + 1"), (Names{"i", "i = i + 1"}));
  EXPECT_EQ(hits(G, "i < 3"), 4u);
  EXPECT_EQ(hits(G, "i = i + 1"), 3u);
}

TEST_F(TrackerTest, SwitchAndAssertAreNodesLikeTests) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned X = U.site(VarSite, "x"), Sw = U.site(TestSite, "switch");
    unsigned Case = U.site(VarSite, "case 2", 0, {Sw});
    unsigned A = U.site(AssertSite, "<assertion>", 0, {Sw});
    U.enter(0);
    int x = 2;
    U.decl(X, x);
    get(x);
    require(U.sw(Sw, 2ul) == 2ul, "sleuth_switch returns the value");
    int y = 1;
    U.set(Case, y);
    get(y);
    require(U.assertion(A, 1) == 1, "sleuth_assert returns the outcome");
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "switch"), Names{"x"});
  EXPECT_EQ(ctrlOf(G, "case 2"), Names{"switch"});
  EXPECT_EQ(dataOf(G, "<assertion>"), Names{"case 2"});
  EXPECT_EQ(ctrlOf(G, "<assertion>"), Names{"switch"});
  EXPECT_EQ(G.site(node(G, "<assertion>")).Kind, sleuth::SiteKind::Assert);
}

TEST_F(TrackerTest, ACreatedLiteralLeavesThePendingReadsToTheirConsumer) {
  // g(a, &(struct s){x}): a's read is pushed for the first argument before the literal is
  // created. The literal's node gets only what is checked against it (here nothing pending),
  // its bytes get its origin, and a's read stays for the call's consumer.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned A = U.site(VarSite, "a"), Literal = U.site(VarSite, "(struct s){...}");
    unsigned Use = U.site(VarSite, "use");
    U.enter(0);
    int a = 1;
    U.decl(A, a);
    get(a);
    const int Object[2] = {2, 3};
    const void *Address = U.created(Literal, Object);
    require(Address == &Object, "sleuth_created returns the literal's address");
    get(Object[1]);
    int use = 0;
    U.set(Use, use);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "(struct s){...}"), Names{});
  EXPECT_EQ(dataOf(G, "use"), (Names{"(struct s){...}", "a"}));
}

TEST_F(TrackerTest, ASwapCrossesTheTwoObjectsOrigins) {
  // std::swap(a, b) with a read of c pending for the call's consumer: a's new node reads b's
  // old origin, b's reads a's, and c's read stays pending for `use`.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned A = U.site(VarSite, "a"), B = U.site(VarSite, "b"), C = U.site(VarSite, "c");
    unsigned SwapA = U.site(VarSite, "a'"), SwapB = U.site(VarSite, "b'");
    unsigned Use = U.site(VarSite, "use"), UseA = U.site(VarSite, "use a");
    U.enter(0);
    int a = 1, b = 2, c = 3;
    U.decl(A, a);
    U.decl(B, b);
    U.decl(C, c);
    get(c);
    std::swap(a, b);
    U.swapped(SwapA, SwapB, a, b);
    int use = 0;
    U.set(Use, use);
    get(a);
    U.set(UseA, use);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "a'"), Names{"b"});
  EXPECT_EQ(dataOf(G, "b'"), Names{"a"});
  EXPECT_EQ(dataOf(G, "use"), Names{"c"});
  EXPECT_EQ(dataOf(G, "use a"), Names{"a'"});
}

TEST_F(TrackerTest, AStringIsReadToItsTerminator) {
  // puts(buf) after buf[0] and buf[1] were written apart (buf[2] = '\0' by a third write):
  // the call's node reads all three writes, and nothing past the terminator; a null pointer
  // reads nothing.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned First = U.site(VarSite, "buf[0]"), Second = U.site(VarSite, "buf[1]");
    unsigned End = U.site(VarSite, "buf[2]"), After = U.site(VarSite, "buf[3]");
    unsigned Put = U.site(VarSite, "<puts()>");
    U.enter(0);
    char buf[4];
    buf[0] = 'o';
    U.set(First, buf[0]);
    buf[1] = 'k';
    U.set(Second, buf[1]);
    buf[2] = '\0';
    U.set(End, buf[2]);
    buf[3] = 'x';
    U.set(After, buf[3]);
    sleuth_get_string(buf);
    sleuth_get_string(nullptr);
    int done = 0;
    U.set(Put, done);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "<puts()>"), (Names{"buf[0]", "buf[1]", "buf[2]"}));
}

TEST_F(TrackerTest, AContainerReadWholeReadsEachOriginOfItsElementsOnce) {
  // Six elements written alternately by two writes (and two never written), read whole: two
  // pending reads, not one per element; the checked form records the same two edges.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned A = U.site(VarSite, "a"), B = U.site(VarSite, "b");
    unsigned Use = U.site(VarSite, "use"), Sum = U.site(VarSite, "sum");
    U.enter(0);
    int e[6] = {0, 0, 0, 0, 0, 0};
    for (int I = 0; I < 4; ++I)
      U.set(I % 2 ? B : A, e[I]);
    const sleuth_reads &Reads = sleuth_pending_reads;
    long Before = Reads.top - Reads.reads;
    sleuth_get_all(e, sizeof e);
    require(Reads.top - Reads.reads == Before + 2, "one pending read per distinct origin");
    int use = 0;
    U.set(Use, use);
    static unsigned Cache[2];
    sleuth_getc_all(U.tu(), Cache, Sum, e, sizeof e);
    require(Reads.top - Reads.reads == Before, "the checked form pushes nothing");
    int sum = 0;
    U.set(Sum, sum);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "use"), (Names{"a", "b"}));
  EXPECT_EQ(dataOf(*R.Graph, "sum"), (Names{"a", "b"}));
}

TEST_F(TrackerTest, ALibraryWriteOfAContainerWritesItsElements) {
  // std::sort(v.begin(), v.end()) of elements written by a and b: the write reads both and the
  // object's old origin (compound), and each element, read later, leads to the sort alone.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned Object = U.site(VarSite, "v"), A = U.site(VarSite, "a"), B = U.site(VarSite, "b");
    unsigned Sort = U.site(VarSite, "sort", 0, {}, SLEUTH_FLAG_COMPOUND);
    unsigned Use = U.site(VarSite, "use");
    U.enter(0);
    struct {
      int *data;
      unsigned long size;
    } v;
    int e[2] = {2, 1};
    v.data = e;
    v.size = 2;
    U.decl(Object, v);
    U.set(A, e[0]);
    U.set(B, e[1]);
    std::swap(e[0], e[1]);
    sleuth_set_all(U.tu(), Sort, 0, &v, sizeof v, e, sizeof e);
    get(e[1]);
    int use = 0;
    U.set(Use, use);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "sort"), (Names{"a", "b", "v"}));
  EXPECT_EQ(dataOf(*R.Graph, "use"), Names{"sort"});
}

TEST_F(TrackerTest, ElementsMovedToNewStorageKeepTheirOrigins) {
  // A vector growing as the library does it: new storage, the elements copied unseen, the old
  // storage freed (whose origins the free hook forgets). Watched around the member, the
  // elements keep their origins at their places in the new storage. Storage that was not freed
  // (a string's buffer inside its object) is copied from where it is; unmoved, nothing changes.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned A = U.site(VarSite, "a"), B = U.site(VarSite, "b"), C = U.site(VarSite, "c");
    unsigned UseB = U.site(VarSite, "use b"), UseC = U.site(VarSite, "use c");
    unsigned UseA = U.site(VarSite, "use a");
    U.enter(0);
    int *Old = static_cast<int *>(std::malloc(2 * sizeof(int)));
    Old[0] = 1;
    U.set(A, Old[0]);
    Old[1] = 2;
    U.set(B, Old[1]);
    sleuth_watch_contents(Old, 2 * sizeof(int));
    int *New = static_cast<int *>(std::malloc(4 * sizeof(int)));
    std::memcpy(New, Old, 2 * sizeof(int));
    // As the shared runtime's free hook does (this test links the archive, which has none).
    namespace rt = sleuth::rt;
    rt::ShadowMemory::LeafCache Cache;
    rt::keepWatchedContents(rt::shadow(), Cache, reinterpret_cast<uintptr_t>(Old));
    rt::shadow().forget(reinterpret_cast<uintptr_t>(Old), 2 * sizeof(int), Cache);
    rt::shadow().giveBack(Cache);
    std::free(Old);
    sleuth_moved_contents(New, 3 * sizeof(int));
    get(New[1]);
    int use_b = New[1];
    U.set(UseB, use_b);
    // Not freed: copied from the old place.
    char Inline[4] = {'x', 0, 0, 0};
    U.set(C, Inline[0]);
    sleuth_watch_contents(Inline, 1);
    char *Grown = static_cast<char *>(std::malloc(8));
    Grown[0] = Inline[0];
    sleuth_moved_contents(Grown, 2);
    get(Grown[0]);
    int use_c = Grown[0];
    U.set(UseC, use_c);
    // Not moved: the elements' origins stay.
    sleuth_watch_contents(New, 3 * sizeof(int));
    sleuth_moved_contents(New, 4 * sizeof(int));
    get(New[0]);
    int use_a = New[0];
    U.set(UseA, use_a);
    std::free(New);
    std::free(Grown);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "use b"), Names{"b"});
  EXPECT_EQ(dataOf(*R.Graph, "use c"), Names{"c"});
  EXPECT_EQ(dataOf(*R.Graph, "use a"), Names{"a"});
}

TEST_F(TrackerTest, AnEraseOrInsertShiftsTheOriginsOfTheElementsAfterIt) {
  // e = {a, b, c}: erasing e[0] in place leaves {b, c}, whose origins move left with them;
  // inserting x at e[1] then gives {b, x, c}, the inserted element the insert's node.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned A = U.site(VarSite, "a"), B = U.site(VarSite, "b"), C = U.site(VarSite, "c");
    unsigned Erase = U.site(VarSite, "erase"), Insert = U.site(VarSite, "insert");
    unsigned Use0 = U.site(VarSite, "use 0"), Use1 = U.site(VarSite, "use 1");
    unsigned Use2 = U.site(VarSite, "use 2");
    U.enter(0);
    int e[3] = {1, 2, 3};
    U.set(A, e[0]);
    U.set(B, e[1]);
    U.set(C, e[2]);
    sleuth_watch_contents_at(e, sizeof e, 0);
    e[0] = e[1];
    e[1] = e[2];
    int object = 0;
    U.set(Erase, object);
    sleuth_shifted_contents(U.tu(), Erase, e, 2 * sizeof(int));
    sleuth_watch_contents_at(e, 2 * sizeof(int), sizeof(int));
    e[2] = e[1];
    e[1] = 9;
    U.set(Insert, object);
    sleuth_shifted_contents(U.tu(), Insert, e, 3 * sizeof(int));
    int use = 0;
    get(e[0]);
    U.set(Use0, use);
    get(e[1]);
    U.set(Use1, use);
    get(e[2]);
    U.set(Use2, use);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "use 0"), Names{"b"});
  EXPECT_EQ(dataOf(*R.Graph, "use 1"), Names{"insert"});
  EXPECT_EQ(dataOf(*R.Graph, "use 2"), Names{"c"});
}

TEST_F(TrackerTest, ADiscardedLibraryCallIsANodeOfItsArgumentsReads) {
  // printf("%d", x); under a test: the <printf()> node reads x and is controlled by the test;
  // it consumes the reads, so the next node does not get them. Internal call sites stay out of
  // the graph, effect nodes do not.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned X = U.site(VarSite, "x"), T = U.site(TestSite, "<test>");
    unsigned Internal = U.site(CallSite, "<call>");
    unsigned Print = U.site(EffectSite, "<printf()>", 0, {T});
    unsigned Y = U.site(VarSite, "y", 0, {T});
    U.enter(0);
    int x = 5;
    U.decl(X, x);
    get(x);
    require(U.test(T, 1) == 1, "sleuth_test returns the outcome");
    (void)Internal;
    for (int I = 0; I < 3; ++I) {
      get(x);
      U.effect(Print);
    }
    int y = 1;
    U.set(Y, y);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(G.site(node(G, "<printf()>")).Kind, sleuth::SiteKind::Effect);
  EXPECT_EQ(dataOf(G, "<printf()>"), Names{"x"});
  EXPECT_EQ(ctrlOf(G, "<printf()>"), Names{"<test>"});
  EXPECT_EQ(hits(G, "<printf()>"), 3u);
  EXPECT_EQ(dataOf(G, "y"), Names{});
  for (unsigned N = 0; N < boost::num_vertices(G.graph()); ++N)
    EXPECT_NE(G.site(N).Name, "<call>");
}

TEST_F(TrackerTest, ASwitchRunsInlineOnceItsEdgesAreKnown) {
  // for (...) switch (op) { ... }: an interpreter's dispatch. After its first executions the
  // switch's node only counts hits inline, as a test's does; a new origin of op still reaches
  // the runtime and becomes an edge.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned Op = U.site(VarSite, "op"), Other = U.site(VarSite, "other op"),
             Sw = U.site(TestSite, "switch");
    U.enter(0);
    unsigned Origin = U.def(Op);
    for (unsigned K = 0; K < 10; ++K) {
      sleuth_use(Origin);
      require(U.sw(Sw, K) == K, "sleuth_switch returns the value");
      if (K == 2)
        require(SlowTests == 1, "after the first, inline");
    }
    sleuth_use(U.def(Other));
    U.sw(Sw, 0);
    require(SlowTests == 2, "a new origin goes to the runtime");
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "switch"), (Names{"op", "other op"}));
  EXPECT_EQ(hits(G, "switch"), 11u);
}

// --- Locals whose origins live in companion locals ---------------------------

TEST_F(TrackerTest, CompanionOriginsFlowLikeShadowedOnes) {
  // int x = 1; int y = x; y += x; int z = y++; *p = z; int w = *p;  with x, y and z kept in
  // companions (sleuth_def/defnow/use/chk) and *p in the shadow memory.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned X = U.site(VarSite, "x"), Y = U.site(VarSite, "y"),
             PlusEq = U.site(VarSite, "y += x", 0, {}, SLEUTH_FLAG_COMPOUND),
             Inc = U.site(VarSite, "y++", 0, {}, SLEUTH_FLAG_COMPOUND), Z = U.site(VarSite, "z"),
             Deref = U.site(VarSite, "*p"), W = U.site(VarSite, "w");
    U.enter(0);
    unsigned Ox = U.def(X);
    require(Ox != 0, "a definition gives an origin");
    sleuth_use(Ox);
    unsigned Oy = U.def(Y);
    sleuth_use(Ox);
    // Compound writes read the old value where they happen (a checked read, one cache each).
    unsigned PlusEqCache[2] = {}, IncCache[2] = {};
    sleuth_chk(U.tu(), PlusEqCache, PlusEq, Oy);
    Oy = U.def(PlusEq);
    sleuth_chk(U.tu(), IncCache, Inc, Oy);
    unsigned Oinc = U.defnow(Inc);
    sleuth_use(Oinc); // the value of y++, which z reads
    unsigned Oz = U.def(Z);
    require(Oinc != Oy, "the increment is a new origin");
    int Target = 0;
    sleuth_use(Oz);
    U.set(Deref, Target);
    get(Target);
    int w = Target;
    U.set(W, w);
    sleuth_use(0); // a local never written: nothing
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "y"), Names{"x"});
  EXPECT_EQ(dataOf(G, "y += x"), (Names{"x", "y"}));
  EXPECT_EQ(dataOf(G, "y++"), Names{"y += x"});
  EXPECT_EQ(dataOf(G, "z"), Names{"y++"});
  EXPECT_EQ(dataOf(G, "*p"), Names{"z"});
  EXPECT_EQ(dataOf(G, "w"), Names{"*p"});
}

TEST_F(TrackerTest, ParameterOriginsComeFromTheArguments) {
  // g(x, 7) into g(int a, int b), both parameters in companions; s = b + a. Either one probe per
  // parameter, or a fused entry that makes both nodes, whose origins are then the unit's base
  // plus the site.
  for (bool Fused : {false, true}) {
    Recording R = record([Fused](Program &P) {
      Unit &U = P.unit();
      unsigned G = U.func("g");
      unsigned X = U.site(VarSite, "x"), C = U.site(CallSite, "<call g>");
      unsigned A = U.site(ParamSite, "a", G), B = U.site(ParamSite, "b", G),
               S = U.site(VarSite, "s", G);
      U.enter(0);
      unsigned Ox = U.def(X);
      U.call(C, 9);
      U.arg(C, 1);
      sleuth_use(Ox);
      U.arg(C, 2);
      unsigned Oa, Ob;
      if (Fused) {
        U.enterParams(G, 9, A, 2);
        Oa = U.tu()->base + A;
        Ob = U.tu()->base + B;
      } else {
        U.enter(G, 9);
        Oa = U.paramOrigin(A, 1);
        Ob = U.paramOrigin(B, 2);
      }
      require(Oa != 0 && Ob != 0 && Oa != Ob, "parameters get origins of their own");
      sleuth_use(Ob);
      sleuth_use(Oa);
      U.def(S);
      leave();
      leave();
    });
    ASSERT_TRUE(R.Graph);
    EXPECT_EQ(dataOf(*R.Graph, "a"), Names{"x"}) << Fused;
    EXPECT_EQ(dataOf(*R.Graph, "b"), Names{}) << Fused;
    EXPECT_EQ(dataOf(*R.Graph, "s"), (Names{"a", "b"})) << Fused;
    EXPECT_EQ(hits(*R.Graph, "a"), 1u) << Fused;
  }
}

TEST_F(TrackerTest, CallWithArgumentOriginsPassesThemByPosition) {
  // r = g(7, y - x, x) where every argument reads only kept locals: one probe carries the
  // (position, origin) pairs; what the arguments then read is dropped at the callee's entry.
  // ext(y) is not instrumented: its result still depends on what its argument read.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned G = U.func("g");
    unsigned X = U.site(VarSite, "x"), Y = U.site(VarSite, "y"), C = U.site(CallSite, "<call g>"),
             E = U.site(CallSite, "<call ext>"), Q = U.site(VarSite, "q");
    unsigned A = U.site(ParamSite, "a", G);
    U.site(ParamSite, "b", G); // A + 1 and A + 2: sleuth_enter_params makes the three of them
    U.site(ParamSite, "c", G);
    U.enter(0);
    unsigned Ox = U.def(X), Oy = U.def(Y);
    U.callArgs(C, 9, 4, 1u, 0u, 2u, Oy, 2u, Ox, 3u, Ox);
    sleuth_use(Oy); // the arguments' own reads
    sleuth_use(Ox);
    sleuth_use(Ox);
    U.enterParams(G, 9, A, 3);
    leave();
    U.callArgs(E, 5, 1, 1u, Oy);
    sleuth_use(Oy);
    U.def(Q);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "a"), Names{});
  EXPECT_EQ(dataOf(*R.Graph, "b"), (Names{"x", "y"}));
  EXPECT_EQ(dataOf(*R.Graph, "c"), Names{"x"});
  EXPECT_EQ(dataOf(*R.Graph, "q"), Names{"y"});
}

TEST_F(TrackerTest, FiveToEightArgumentOriginsGoWithTheCallInline) {
  // r = g(x, y, x, y, x) three times, every argument a kept local. The first call and entry go
  // to the runtime (the thread's first call record; g's parameters learn the origins); then
  // sleuth_call_pairs8 pushes the record and the five origins inline, and g is entered inline.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned G = U.func("g");
    unsigned X = U.site(VarSite, "x"), Y = U.site(VarSite, "y"), C = U.site(CallSite, "<call g>");
    unsigned A = U.site(ParamSite, "a", G);
    for (const char *Name : {"b", "c", "d", "e"})
      U.site(ParamSite, Name, G); // A + 1 .. A + 4
    U.enter(0);
    unsigned Ox = U.def(X), Oy = U.def(Y);
    unsigned long Calls = 0, Entries = 0;
    for (int Round = 0; Round < 3; ++Round) {
      if (Round == 1)
        Calls = SlowCalls, Entries = SlowEntries;
      sleuth_call_pairs8(U.tu(), C, U.ctl(C), 9, 0, nullptr, 5, 1, Ox, 2, Oy, 3, Ox, 4, Oy, 5, Ox,
                         0, 0, 0, 0, 0, 0);
      U.enterParams(G, 9, A, 5);
      leave();
    }
    require(Calls != 0 && Entries != 0, "the first call and entry go to the runtime");
    require(SlowCalls == Calls, "five pairs go with the call inline");
    require(SlowEntries == Entries, "the parameters know their origins: entered inline");
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "a"), Names{"x"});
  EXPECT_EQ(dataOf(G, "b"), Names{"y"});
  EXPECT_EQ(dataOf(G, "e"), Names{"x"});
  EXPECT_EQ(hits(G, "e"), 3u);
}

TEST_F(TrackerTest, DiscardDropsOnlyTheCurrentFramesReads) {
  // w = x + (g(), 0) with `y;` discarded inside g, then `x;` discarded in the caller before
  // v = 1: the inline discard drops to the current frame's first read, which entering and
  // leaving g move.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned G = U.func("g");
    unsigned X = U.site(VarSite, "x"), Y = U.site(VarSite, "y"), C = U.site(CallSite, "<call g>"),
             W = U.site(VarSite, "w"), V = U.site(VarSite, "v"), Z = U.site(VarSite, "z", G);
    U.enter(0);
    unsigned Ox = U.def(X), Oy = U.def(Y);
    sleuth_use(Ox);
    U.call(C, 3);
    U.enter(G, 3);
    sleuth_use(Oy);
    sleuth_discard();
    U.def(Z);
    leave();
    U.def(W);
    sleuth_use(Ox);
    sleuth_discard();
    U.def(V);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "z"), Names{});
  EXPECT_EQ(dataOf(*R.Graph, "w"), Names{"x"});
  EXPECT_EQ(dataOf(*R.Graph, "v"), Names{});
}

TEST_F(TrackerTest, ManyPendingReadsOutgrowTheInlineStack) {
  // The inline push falls back to the runtime when the stack is full (and on a thread's
  // first read, before it has one): a node reading 1,000 locals depends on all of them.
  constexpr unsigned Count = 1000;
  std::vector<std::string> Labels;
  for (unsigned I = 0; I < Count; ++I)
    Labels.push_back("v" + std::to_string(I));
  Recording R = record([&Labels](Program &P) {
    Unit &U = P.unit();
    std::vector<unsigned> Sites;
    for (const std::string &Label : Labels)
      Sites.push_back(U.site(VarSite, Label.c_str()));
    unsigned Sum = U.site(VarSite, "sum");
    std::thread Worker([&] {
      U.enter(0);
      std::vector<unsigned> Origins;
      for (unsigned Site : Sites)
        Origins.push_back(U.def(Site));
      for (unsigned Origin : Origins)
        sleuth_use(Origin);
      U.def(Sum);
      leave();
    });
    Worker.join();
  });
  ASSERT_TRUE(R.Graph);
  Names Expected(Labels.begin(), Labels.end());
  EXPECT_EQ(dataOf(*R.Graph, "sum"), Expected);
}

// --- Checked reads -----------------------------------------------------------

TEST_F(TrackerTest, CheckedReadsRecordTheirEdgeAtOnceAndRememberTheirOrigins) {
  // Reads whose consumer the instrumenter knows: `s = ...` reads the kept locals a, b, c, a
  // again (sleuth_chk), and `r = ...` the words w[0], w[1], w[2], w[0] again, then w[0..1]
  // whole (sleuth_getc). Each edge is recorded where the read happens, into the node of the
  // given site, which s never runs, and the read is not left pending for the next node; the
  // read's cache remembers the last two origins the runtime saw, so a third new one reaches the
  // runtime, as does a new origin in the second word of a pair read. An origin whose edge the
  // thread recorded before (a again, w[0] again) is found in the thread's table of edges
  // without the runtime, and remembered.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned A = U.site(VarSite, "a"), B = U.site(VarSite, "b"), C = U.site(VarSite, "c");
    unsigned W0 = U.site(VarSite, "w[0]"), W1 = U.site(VarSite, "w[1]"),
             W2 = U.site(VarSite, "w[2]");
    unsigned S = U.site(VarSite, "s"), Rs = U.site(VarSite, "r"), Pair = U.site(VarSite, "pair"),
             Next = U.site(VarSite, "next");
    U.enter(0);
    unsigned Oa = U.def(A), Ob = U.def(B), Oc = U.def(C);
    auto Slots = [](const unsigned *Cache, unsigned First, unsigned Second) {
      return Cache[0] == First && Cache[1] == Second;
    };
    auto NothingPending = [] { return sleuth_pending_reads.top == sleuth_pending_reads.frame; };
    unsigned Cache[2] = {};
    sleuth_chk(U.tu(), Cache, S, 0); // a local never written
    require(Slots(Cache, 0, 0), "no origin, nothing to remember");
    sleuth_chk(U.tu(), Cache, S, Oa);
    require(Slots(Cache, Oa, 0), "a remembered");
    sleuth_chk(U.tu(), Cache, S, Oa);
    sleuth_chk(U.tu(), Cache, S, Ob);
    require(Slots(Cache, Ob, Oa), "b, then a");
    sleuth_chk(U.tu(), Cache, S, Oc);
    require(Slots(Cache, Oc, Ob), "c pushed a out");
    sleuth_chk(U.tu(), Cache, S, Oa);
    require(Slots(Cache, Oa, Oc), "a again: a known edge");
    require(NothingPending(), "checked reads are not pending");
    alignas(8) int w[4] = {};
    const unsigned Writers[] = {W0, W1, W2};
    for (unsigned I = 0; I < 3; ++I)
      U.set(Writers[I], w[I]);
    unsigned Ow0 = U.origin(W0), Ow1 = U.origin(W1), Ow2 = U.origin(W2);
    unsigned long Before = SlowMemoryProbes;
    unsigned RCache[2] = {};
    sleuth_getc(U.tu(), RCache, Rs, &w[3], sizeof(int)); // never written
    require(Slots(RCache, 0, 0), "no origin, nothing to remember");
    sleuth::rdc(U.tu(), RCache, Rs, w[0]);
    require(Slots(RCache, Ow0, 0), "w[0] remembered");
    require(&sleuth::rdc(U.tu(), RCache, Rs, w[0]) == &w[0], "rdc yields its lvalue");
    sleuth_getc(U.tu(), RCache, Rs, &w[1], sizeof(int));
    require(Slots(RCache, Ow1, Ow0), "w[1], then w[0]");
    sleuth_getc(U.tu(), RCache, Rs, &w[2], sizeof(int));
    require(Slots(RCache, Ow2, Ow1), "w[2] pushed w[0] out");
    sleuth_getc(U.tu(), RCache, Rs, &w[0], sizeof(int));
    require(Slots(RCache, Ow0, Ow2), "w[0] again: a known edge");
    require(SlowMemoryProbes == Before + 3, "only the new origins of w[0], w[1], w[2] went slow");
    unsigned PairCache[2] = {};
    sleuth_getc(U.tu(), PairCache, Pair, w, 2 * sizeof(int)); // two words at once
    require((Slots(PairCache, Ow1, Ow0) || Slots(PairCache, Ow0, Ow1)), "both words' origins");
    sleuth_getc(U.tu(), PairCache, Pair, w, 2 * sizeof(int)); // both known: inline
    U.set(W2, w[1]); // a new origin in the second word only
    sleuth_getc(U.tu(), PairCache, Pair, w, 2 * sizeof(int));
    require(PairCache[0] == Ow2, "w[1]'s new origin remembered");
    require(NothingPending(), "checked reads are not pending");
    U.def(Next); // reads nothing: the checked reads were not left for it
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "s"), (Names{"a", "b", "c"}));
  EXPECT_EQ(hits(G, "s"), 0u);
  EXPECT_EQ(dataOf(G, "r"), (Names{"w[0]", "w[1]", "w[2]"}));
  EXPECT_EQ(dataOf(G, "pair"), (Names{"w[0]", "w[1]", "w[2]"}));
  EXPECT_EQ(dataOf(G, "next"), Names{});
}

TEST_F(TrackerTest, CheckedReadOfASplitWordRecordsEveryOrigin) {
  // int x = ...; ((char *)&x)[1] = ...; r = x;  then ((char *)&x)[2] = ...; r2 = x: a word whose
  // bytes came from several writes gives a checked read all of their origins, each time.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned X = U.site(VarSite, "x"), Byte1 = U.site(VarSite, "byte 1"),
             Byte2 = U.site(VarSite, "byte 2"), Rs = U.site(VarSite, "r"),
             R2 = U.site(VarSite, "r2"), Low = U.site(VarSite, "low");
    U.enter(0);
    alignas(4) unsigned x = 0;
    U.decl(X, x);
    unsigned char *Bytes = reinterpret_cast<unsigned char *>(&x);
    U.set(Byte1, Bytes[1]);
    unsigned Cache[2] = {}, Cache2[2] = {}, LowCache[2] = {};
    for (unsigned K = 0; K < 2; ++K) // split: the runtime both times, one edge each
      sleuth_getc(U.tu(), Cache, Rs, &x, sizeof x);
    require((Cache[0] == U.origin(X) && Cache[1] == U.origin(Byte1)) ||
                (Cache[0] == U.origin(Byte1) && Cache[1] == U.origin(X)),
            "both origins remembered");
    U.set(Byte2, Bytes[2]);
    sleuth_getc(U.tu(), Cache2, R2, &x, sizeof x);
    sleuth_getc(U.tu(), LowCache, Low, &Bytes[0], 1);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "r"), (Names{"x", "byte 1"}));
  EXPECT_EQ(dataOf(G, "r2"), (Names{"x", "byte 1", "byte 2"}));
  EXPECT_EQ(dataOf(G, "low"), Names{"x"});
}

TEST_F(TrackerTest, ReadsOfManyOriginsFindTheEdgesRecordedBeforeInline) {
  // A loop reading words that eight writes made, and a kept local that eight writes made, in
  // turn (zlib's inflate copying from its window): the read's cache of two cannot hold them,
  // so each new edge goes to the runtime once, and the thread's table of recorded edges then
  // answers every later read inline. An origin whose edge into this node was never recorded
  // still goes to the runtime, though another node has that edge.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    static const char *const WriterNames[] = {"w0", "w1", "w2", "w3", "w4", "w5", "w6", "w7"};
    std::vector<unsigned> Writers;
    for (const char *Name : WriterNames)
      Writers.push_back(U.site(VarSite, Name));
    unsigned Sum = U.site(VarSite, "sum"), Copy = U.site(VarSite, "copy"),
             Late = U.site(VarSite, "late"), Ninth = U.site(VarSite, "w8");
    U.enter(0);
    alignas(8) static int Window[16];
    std::vector<unsigned> Locals;
    for (unsigned I = 0; I < 8; ++I) {
      U.set(Writers[I], Window[I]);
      Locals.push_back(U.def(Writers[I]));
    }
    unsigned SumCache[2] = {}, CopyCache[2] = {}, LateCache[2] = {};
    unsigned long Before = SlowMemoryProbes;
    for (unsigned I = 0; I < 8; ++I) {
      sleuth_getc(U.tu(), SumCache, Sum, &Window[I], sizeof(int));
      sleuth_chk(U.tu(), CopyCache, Copy, Locals[I]);
    }
    require(SlowMemoryProbes == Before + 16, "each new edge reaches the runtime");
    for (unsigned Pass = 0; Pass < 3; ++Pass)
      for (unsigned I = 0; I < 8; ++I) {
        sleuth_getc(U.tu(), SumCache, Sum, &Window[(I * 3) % 8], sizeof(int));
        sleuth_chk(U.tu(), CopyCache, Copy, Locals[(I * 5) % 8]);
      }
    require(SlowMemoryProbes == Before + 16, "known edges are found inline");
    sleuth_getc(U.tu(), LateCache, Late, &Window[3], sizeof(int));
    require(SlowMemoryProbes == Before + 17, "an edge another node has is new to this one");
    U.set(Ninth, Window[4]);
    sleuth_getc(U.tu(), SumCache, Sum, &Window[4], sizeof(int));
    require(SlowMemoryProbes == Before + 19, "a new origin reaches the runtime");
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  Names Eight;
  for (unsigned I = 0; I < 8; ++I)
    Eight.insert("w" + std::to_string(I));
  EXPECT_EQ(dataOf(G, "copy"), Eight);
  Eight.insert("w8");
  EXPECT_EQ(dataOf(G, "sum"), Eight);
  EXPECT_EQ(dataOf(G, "late"), Names{"w3"});
}

TEST_F(TrackerTest, CharsOfSplitWordsAreWrittenAndReadInline) {
  // An output buffer whose bytes come from several writes (a decompressor's literal and copy
  // statements): each word is split, its bytes' origins in a split record. Once a write's
  // node and a read's edges are known, chars stored into such a word and chars read from it
  // (checked, pushed, one or two at a time) run inline on the record, each byte keeping its
  // own origin; a compound write reads the old origins of the bytes it covers.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned Lit = U.site(VarSite, "literal"), CopyA = U.site(VarSite, "copy a"),
             CopyB = U.site(VarSite, "copy b"), Crc = U.site(VarSite, "crc"),
             Pair = U.site(VarSite, "pair"), Arg = U.site(VarSite, "arg"),
             Bump = U.site(VarSite, "bump", 0, {}, SLEUTH_FLAG_COMPOUND),
             Wide = U.site(VarSite, "wide");
    U.enter(0);
    alignas(8) static unsigned char Out[32];
    const unsigned Writers[] = {Lit, CopyA, CopyB};
    for (unsigned K = 0; K < 32; ++K) // byte K from writer K % 3: every word split
      U.set(Writers[K % 3], &Out[K], 1);
    unsigned CrcCache[2] = {}, PairCache[2] = {};
    for (unsigned K = 0; K < 32; ++K) // the first reads find new edges
      sleuth_getc(U.tu(), CrcCache, Crc, &Out[K], 1);
    sleuth_getc(U.tu(), PairCache, Pair, &Out[0], 2);
    sleuth_getc(U.tu(), PairCache, Pair, &Out[2], 2);
    unsigned long Before = SlowMemoryProbes;
    for (unsigned K = 0; K < 32; ++K) // written again by other writers, inline on the records
      U.set(Writers[(K + 1) % 3], &Out[K], 1);
    for (unsigned K = 0; K < 32; ++K)
      sleuth_getc(U.tu(), CrcCache, Crc, &Out[K], 1);
    sleuth_getc(U.tu(), PairCache, Pair, &Out[4], 2);
    sleuth_getc(U.tu(), CrcCache, Crc, &Out[8], 8); // two split words at once (crc32's braids)
    U.set(Bump, &Out[8], 1);  // its first run: the runtime, reading the literal's byte
    U.set(Bump, &Out[11], 1); // ... the literal's again: known, inline
    require(SlowMemoryProbes == Before + 1, "split words written and read inline");
    sleuth_get(&Out[12], 2); // pushed: bytes 12-13 from copy a and copy b
    U.def(Arg);
    sleuth_get(&Out[16], 8); // pushed: two split words
    U.def(Wide);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "crc"), (Names{"literal", "copy a", "copy b"}));
  EXPECT_EQ(dataOf(G, "pair"), (Names{"literal", "copy a", "copy b"}));
  EXPECT_EQ(dataOf(G, "arg"), (Names{"copy a", "copy b"}));
  EXPECT_EQ(dataOf(G, "bump"), Names{"literal"});
  EXPECT_EQ(dataOf(G, "wide"), (Names{"literal", "copy a", "copy b"}));
  EXPECT_EQ(hits(G, "literal"), 21u); // 11 bytes, then 10
}

TEST_F(TrackerTest, CharsStoredOneByOneIntoFreshMemoryAreWrittenAndReadInline) {
  // A buffer no instrumented code wrote (read() filled it) takes chars one by one, as a parser
  // terminating its tokens in place does: each word's entry is a part (some bytes from one
  // write, the others from none) until that write covers it whole. Such stores and the reads of
  // their chars run inline; a word that takes bytes of two writes goes to the runtime.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned Ch = U.site(VarSite, "ch"), Nul = U.site(VarSite, "nul"),
             Scan = U.site(VarSite, "scan"), Fresh = U.site(VarSite, "fresh"),
             Mixed = U.site(VarSite, "mixed");
    U.enter(0);
    alignas(8) static unsigned char Buffer[64];
    U.set(Ch, &Buffer[0], 1); // registers the unit, counts the node: the runtime
    unsigned ScanCache[2] = {}, FreshCache[2] = {}, MixedCache[2] = {};
    sleuth_getc(U.tu(), ScanCache, Scan, &Buffer[0], 1); // a new origin for the read: the runtime
    unsigned long Before = SlowMemoryProbes;
    for (unsigned K = 1; K < 48; ++K) // words 0..11: parts growing, then whole
      U.set(Ch, &Buffer[K], 1);
    for (unsigned K = 0; K < 48; ++K)
      sleuth_getc(U.tu(), ScanCache, Scan, &Buffer[K], 1);
    sleuth_getc(U.tu(), ScanCache, Scan, &Buffer[44], 4);
    sleuth_getc(U.tu(), ScanCache, Scan, &Buffer[40], 8);
    sleuth_getc(U.tu(), FreshCache, Fresh, &Buffer[49], 2); // never written: no origin
    U.set(Ch, &Buffer[50], 1);                              // a part of word 12 ...
    sleuth_getc(U.tu(), FreshCache, Fresh, &Buffer[48], 2); // ... not covering bytes 48-49
    sleuth_getc(U.tu(), ScanCache, Scan, &Buffer[50], 2);   // ... covering byte 50
    require(SlowMemoryProbes == Before, "parts are written and read inline");
    U.set(Nul, &Buffer[40], 1); // nul into a word whole from ch: a split record, the runtime's
    require(SlowMemoryProbes == Before + 1, "a split word goes to the runtime");
    sleuth_getc(U.tu(), MixedCache, Mixed, &Buffer[40], 4);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "scan"), Names{"ch"});
  EXPECT_EQ(dataOf(G, "fresh"), Names{});
  EXPECT_EQ(dataOf(G, "mixed"), (Names{"ch", "nul"}));
  EXPECT_EQ(hits(G, "ch"), 49u);
}

TEST_F(TrackerTest, APartOverwrittenByAnotherWriteKeepsEachBytesOrigin) {
  // Parts written inline over parts of another write: the bytes the new write covers take its
  // origin, the others keep theirs (or none), whichever path the store takes.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned A = U.site(VarSite, "a"), B = U.site(VarSite, "b"), Low = U.site(VarSite, "low"),
             High = U.site(VarSite, "high"), Whole = U.site(VarSite, "whole"),
             Cover = U.site(VarSite, "cover");
    U.enter(0);
    alignas(8) static unsigned char Word[8];
    U.set(A, &Word[0], 1);
    U.set(B, &Word[4], 1);
    U.set(A, &Word[1], 1); // word 0: a's bytes 0-1, inline
    U.set(B, &Word[0], 2); // ... overwritten by b's: a part of b's, inline
    U.set(A, &Word[5], 1); // word 1: b's byte 4, a's byte 5: split
    U.set(B, &Word[6], 2); // ... b's bytes 6-7
    unsigned LowCache[2] = {}, HighCache[2] = {}, WholeCache[2] = {}, CoverCache[2] = {};
    sleuth_getc(U.tu(), LowCache, Low, &Word[0], 2);
    sleuth_getc(U.tu(), HighCache, High, &Word[2], 2);
    sleuth_getc(U.tu(), WholeCache, Whole, &Word[4], 4);
    U.set(A, &Word[0], 4); // whole again
    sleuth_getc(U.tu(), CoverCache, Cover, &Word[0], 8);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "low"), Names{"b"});
  EXPECT_EQ(dataOf(G, "high"), Names{});
  EXPECT_EQ(dataOf(G, "whole"), (Names{"a", "b"}));
  EXPECT_EQ(dataOf(G, "cover"), (Names{"a", "b"}));
}

// --- Inline node probes ------------------------------------------------------

TEST_F(TrackerTest, InlineWritesCountHitsAndStillFindNewEdges) {
  // for (i = 0; i < 100; i++) sum += i (+ x in iteration 60 only): after its first executions
  // the loop body's writes are inline hit counts; the one new read still becomes an edge, and
  // the last node is one written inline.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned X = U.site(VarSite, "x"), I = U.site(VarSite, "i");
    unsigned Loop = U.site(TestSite, "i < 100");
    unsigned Sum = U.site(VarSite, "sum", 0, {Loop}), Inc = U.site(VarSite, "i++", 0, {Loop});
    U.enter(0);
    unsigned Ox = U.def(X), Oi = U.def(I), Osum = 0;
    unsigned SumCache[2] = {}, IncCache[2] = {}; // the compound writes' reads of the old value
    for (unsigned K = 0; K < 100; ++K) {
      sleuth_use(Oi);
      U.test(Loop);
      if (K == 50)
        require(quiet(U, Sum) && quiet(U, Inc), "the loop body's writes are inline");
      sleuth_use(Oi);
      if (K == 60)
        sleuth_use(Ox);
      sleuth_chk(U.tu(), SumCache, Sum, Osum);
      Osum = U.def(Sum);
      sleuth_chk(U.tu(), IncCache, Inc, Oi);
      Oi = U.def(Inc);
    }
    require(sleuth_pending_reads.top == sleuth_pending_reads.frame, "reads consumed");
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "sum"), (Names{"i", "i++", "sum", "x"}));
  EXPECT_EQ(ctrlOf(G, "sum"), Names{"i < 100"});
  EXPECT_EQ(dataOf(G, "i++"), (Names{"i", "i++"}));
  EXPECT_EQ(hits(G, "sum"), 100u);
  EXPECT_EQ(hits(G, "i++"), 100u);
  ASSERT_TRUE(G.last(0));
  EXPECT_EQ(*G.last(0), node(G, "i++"));
}

TEST_F(TrackerTest, InlineNodesCountHitsUnderAKnownControlAndRecordEachNewOne) {
  // g() { y = 1; if (t) ...; m = 1; } with y kept in a companion and m in memory, nothing in g
  // controlling them: their ctl is the call's. g is called 100 times under t0, once under t1,
  // then under each of the other tests, then round and round under all of them, one more than
  // a node's state remembers controls. Under a control its node's state knows, each of
  // sleuth_def, sleuth_test and sleuth_set only counts a hit inline; a new one (t1 after 100
  // inline hits) still records its control edge; and the controls that the state forgets
  // again and again still go to the runtime, which loses none (nor writes one twice).
  constexpr unsigned Controls = std::size(sleuth_site_state{}.control) + 1;
  static const char *const TestNames[] = {"t0", "t1", "t2", "t3", "t4", "t5", "t6", "t7", "t8"};
  static const char *const CallNames[] = {"<call g 0>", "<call g 1>", "<call g 2>",
                                          "<call g 3>", "<call g 4>", "<call g 5>",
                                          "<call g 6>", "<call g 7>", "<call g 8>"};
  static_assert(Controls <= std::size(TestNames));
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned G = U.func("g");
    std::vector<unsigned> Tests, Calls;
    for (unsigned I = 0; I < Controls; ++I) {
      Tests.push_back(U.site(TestSite, TestNames[I]));
      Calls.push_back(U.site(CallSite, CallNames[I], 0, {Tests[I]}));
    }
    unsigned Y = U.site(VarSite, "y", G), T = U.site(TestSite, "t", G), M = U.site(VarSite, "m", G);
    int m = 0;
    unsigned Misses = 0;
    U.enter(0);
    // Calls g under test I; Inline: whether g's nodes must (1), must not (0) or may (-1) only
    // count hits.
    auto CallG = [&](unsigned I, int Inline) {
      U.test(Tests[I]);
      U.call(Calls[I], 7);
      require(U.enter(G, 7) == U.origin(Tests[I]), "g's sites are controlled by the call");
      for (unsigned Site : {Y, T, M})
        require(Inline < 0 || quiet(U, Site) == (Inline == 1),
                Inline == 1 ? "inline: a known control" : "to the runtime: a new control");
      Misses += !quiet(U, Y);
      U.def(Y);
      U.test(T);
      U.set(M, m);
      leave();
    };
    CallG(0, 0);
    for (unsigned K = 0; K < 99; ++K)
      CallG(0, 1);
    require(U.state(Y).control[0] == U.origin(Tests[0]) && U.state(Y).control[1] == 0,
            "the state knows t0 only");
    const unsigned long *Hits = sleuth_pending_reads.hits;
    require(Hits[U.origin(Y) - 1] == 100 && Hits[U.origin(M) - 1] == 100,
            "hits counted inline, in the thread's counts");
    CallG(1, 0);
    require(U.state(M).control[0] == U.origin(Tests[1]) &&
                U.state(M).control[1] == U.origin(Tests[0]),
            "the state knows t1, then t0");
    CallG(0, 1);
    CallG(1, 1);
    for (unsigned I = 2; I < Controls; ++I)
      CallG(I, 0);
    Misses = 0;
    for (unsigned Round = 0; Round < 10; ++Round)
      for (unsigned I = 0; I < Controls; ++I)
        CallG(I, -1);
    require(Misses >= 10, "a control the state forgot, each round");
    leave();
  });
  ASSERT_TRUE(R.Graph); // the loader rejects duplicate edges
  const DependenceGraph &G = *R.Graph;
  Names Expected(std::begin(TestNames), std::begin(TestNames) + Controls);
  for (const char *Name : {"y", "t", "m"}) {
    EXPECT_EQ(ctrlOf(G, Name), Expected) << Name;
    EXPECT_EQ(dataOf(G, Name), Names{}) << Name;
    EXPECT_EQ(hits(G, Name), 103u + (Controls - 2) + 10 * Controls) << Name;
  }
}

TEST_F(TrackerTest, NodeCalledUnderManyControllersKeepsEveryControlEdge) {
  // g() { y = 1; } called under five different tests, twice round: more controllers than a
  // node's state remembers, so some calls go to the runtime again, and none is lost.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned G = U.func("g"), Y = U.site(VarSite, "y", G);
    static const char *const TestNames[] = {"t0", "t1", "t2", "t3", "t4"};
    static const char *const CallNames[] = {"<call g 0>", "<call g 1>", "<call g 2>", "<call g 3>",
                                            "<call g 4>"};
    std::vector<unsigned> Tests, Calls;
    for (unsigned I = 0; I < 5; ++I) {
      Tests.push_back(U.site(TestSite, TestNames[I]));
      Calls.push_back(U.site(CallSite, CallNames[I], 0, {Tests[I]}));
    }
    U.enter(0);
    for (unsigned Round = 0; Round < 2; ++Round)
      for (unsigned I = 0; I < 5; ++I) {
        U.test(Tests[I]);
        U.call(Calls[I], 7);
        U.enter(G, 7);
        U.def(Y);
        leave();
      }
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(ctrlOf(G, "y"), (Names{"t0", "t1", "t2", "t3", "t4"}));
  EXPECT_EQ(hits(G, "y"), 10u);
}

TEST_F(TrackerTest, IncrementOfAKeptLocalNeitherConsumesNorPushesTheExpressionsReads) {
  // while (loop) z = a + n++  with a and n kept: the instrumented code pushes a for z, checks
  // n's old origin into n++, runs sleuth_defnow and pushes the new origin, which z consumes
  // with a. sleuth_defnow leaves the reads pending before it to the enclosing expression and
  // pushes nothing of its own: through the runtime the first time (loop, a control it does not
  // know yet), then inline, with a read pending.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned A = U.site(VarSite, "a"), N = U.site(VarSite, "n"), Loop = U.site(TestSite, "loop");
    unsigned Inc = U.site(VarSite, "n++", 0, {Loop}, SLEUTH_FLAG_COMPOUND),
             Z = U.site(VarSite, "z", 0, {Loop});
    U.enter(0);
    unsigned Oa = U.def(A), On = U.def(N);
    unsigned IncCache[2] = {};
    auto Pending = [] { return sleuth_pending_reads.top - sleuth_pending_reads.frame; };
    for (unsigned K = 0; K < 10; ++K) {
      U.test(Loop);
      sleuth_use(Oa);
      sleuth_chk(U.tu(), IncCache, Inc, On);
      require(quiet(U, Inc, false) == (K > 0) && !quiet(U, Inc, true),
              "inline from the second time, though a read is pending");
      On = U.defnow(Inc);
      require(On == U.origin(Inc), "n's new origin");
      require(Pending() == 1, "a still pending, n++ not pushed");
      sleuth_use(On);
      U.def(Z);
      require(Pending() == 0, "z consumed a and n++");
    }
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "n++"), (Names{"n", "n++"}));
  EXPECT_EQ(ctrlOf(G, "n++"), Names{"loop"});
  EXPECT_EQ(dataOf(G, "z"), (Names{"a", "n++"}));
  EXPECT_EQ(hits(G, "n++"), 10u);
  EXPECT_EQ(hits(G, "z"), 10u);
}

TEST_F(TrackerTest, NodesConsumeFewKnownPushedReadsInline) {
  // f() { a = 1; b = 2; c = 3; loop { x = M(a, b); m[0] = M(a, b); y = M(a, b, c, d, e); } }
  // with M a macro: its arguments' reads are pushed, not checked. From its second execution a
  // node whose pending reads are all among the origins its state knows counts a hit inline and
  // consumes them; a new origin, or more than SLEUTH_QUIET_READS reads, go to the runtime, which
  // records the edge.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned A = U.site(VarSite, "a"), B = U.site(VarSite, "b"), C = U.site(VarSite, "c");
    unsigned D = U.site(VarSite, "d"), E = U.site(VarSite, "e");
    unsigned X = U.site(VarSite, "x"), M = U.site(VarSite, "m[0]"), Y = U.site(VarSite, "y");
    int Memory[2] = {};
    auto Pending = [] { return sleuth_pending_reads.top - sleuth_pending_reads.frame; };
    U.enter(0);
    unsigned Oa = U.def(A), Ob = U.def(B), Oc = U.def(C), Od = U.def(D), Oe = U.def(E);
    for (unsigned K = 0; K < 4; ++K) {
      // In the third round x reads c instead of b: an origin x does not know yet.
      unsigned Second = K == 2 ? Oc : Ob;
      sleuth_use(Oa);
      sleuth_use(Second);
      require(quiet(U, X) == (K == 1 || K == 3), "x inline once its reads are known");
      require(quiet(U, X, false), "without consuming, the reads do not matter");
      U.def(X);
      require(Pending() == 0, "x consumed its reads");
      sleuth_use(Oa);
      sleuth_use(Ob);
      require(quiet(U, M) == (K > 0), "m[0] inline once its reads are known");
      U.set(M, Memory[0]);
      require(Pending() == 0, "m[0] consumed its reads");
      for (unsigned O : {Oa, Ob, Oc, Od, Oe})
        sleuth_use(O);
      require(!quiet(U, Y), "five reads: through the runtime");
      U.def(Y);
      require(Pending() == 0, "y consumed its reads");
    }
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "x"), (Names{"a", "b", "c"}));
  EXPECT_EQ(dataOf(G, "m[0]"), (Names{"a", "b"}));
  EXPECT_EQ(dataOf(G, "y"), (Names{"a", "b", "c", "d", "e"}));
  EXPECT_EQ(hits(G, "x"), 4u);
  EXPECT_EQ(hits(G, "m[0]"), 4u);
  EXPECT_EQ(hits(G, "y"), 4u);
}

TEST_F(TrackerTest, ValueTestLeavesTheReadOfItsNodeToTheInstrumentedCode) {
  // g() { while (loop) { if (a) goto L; if (b) { L: z = 1; } v = a2 && w(); u = a2 && w(); } }:
  // a test inside an expression (SLEUTH_FLAG_VALUE) only records its node, through the runtime
  // the first time and inline the second; the expression's value reads it because the
  // instrumented code says so, by a pushed read (v) or a checked one (u). z has two static
  // controllers: b ran last in the first round, a in the second.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned G = U.func("g");
    unsigned Loop = U.site(TestSite, "loop", G), A = U.site(TestSite, "a", G, {Loop});
    unsigned B = U.site(TestSite, "b", G, {Loop}), Z = U.site(VarSite, "z", G, {A, B});
    unsigned A2 = U.site(TestSite, "a2", G, {Loop}, SLEUTH_FLAG_VALUE);
    unsigned V = U.site(VarSite, "v", G, {Loop});
    unsigned A3 = U.site(TestSite, "a3", G, {Loop}, SLEUTH_FLAG_VALUE);
    unsigned Us = U.site(VarSite, "u", G, {Loop});
    unsigned UCache[2] = {};
    auto NothingPending = [] { return sleuth_pending_reads.top == sleuth_pending_reads.frame; };
    U.enter(G);
    for (unsigned K = 0; K < 2; ++K) {
      U.test(Loop);
      U.test(A, K == 1);
      if (K == 0)
        U.test(B, 1);
      U.def(Z); // controlled by b, then by a
      require(quiet(U, A2) == (K == 1), "a2 inline from its second execution");
      U.test(A2);
      require(NothingPending(), "a2 pushed nothing");
      sleuth_use(U.origin(A2));
      U.def(V);
      U.test(A3);
      require(NothingPending(), "a3 pushed nothing");
      sleuth_chk(U.tu(), UCache, Us, U.origin(A3));
      U.def(Us);
    }
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(ctrlOf(G, "z"), (Names{"a", "b"}));
  EXPECT_EQ(dataOf(G, "v"), Names{"a2"});
  EXPECT_EQ(dataOf(G, "u"), Names{"a3"});
  EXPECT_EQ(dataOf(G, "a2"), Names{});
  EXPECT_EQ(hits(G, "loop"), 2u);
  EXPECT_EQ(hits(G, "a"), 2u);
  EXPECT_EQ(hits(G, "a2"), 2u);
  EXPECT_EQ(hits(G, "z"), 2u);
}

TEST_F(TrackerTest, NodesTakeTheControlTheirProbeGivesNotTheSiteTables) {
  // The instrumented code passes each node its control; the site table's controlling tests
  // are for the instrumenter and the views, not for the runtime to resolve. Here the probes
  // pass a ctl the table does not say (direct calls, not the scenario's Unit helpers): s,
  // controlled by ta in the table, is given none although ta just ran, then tb; u, which no
  // test controls in the table, is given ta; v is given a ctl that is no node of the program
  // (a control local clobbered by longjmp), which must be ignored. Each reads x, so that the
  // runtime makes its node.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned X = U.site(VarSite, "x"), Ta = U.site(TestSite, "ta"), Tb = U.site(TestSite, "tb");
    unsigned S = U.site(VarSite, "s", 0, {Ta}), Us = U.site(VarSite, "u"),
             V = U.site(VarSite, "v", 0, {Ta});
    U.enter(0);
    unsigned Ox = U.def(X);
    sleuth_test(U.tu(), Ta, 0, 1);
    sleuth_test(U.tu(), Tb, U.origin(Ta), 1);
    sleuth_use(Ox);
    sleuth_def(U.tu(), S, 0);
    sleuth_def(U.tu(), S, 0); // inline
    sleuth_use(Ox);
    sleuth_def(U.tu(), S, U.origin(Tb));
    int u = 0;
    sleuth_use(Ox);
    sleuth_set(U.tu(), Us, U.origin(Ta), &u, sizeof u);
    for (unsigned K = 0; K < 3; ++K) {
      sleuth_use(Ox);
      sleuth_def(U.tu(), V, 1000000);
    }
    require(U.state(V).control[0] == 0, "no control to know");
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(ctrlOf(G, "s"), Names{"tb"});
  EXPECT_EQ(dataOf(G, "s"), Names{"x"});
  EXPECT_EQ(ctrlOf(G, "u"), Names{"ta"});
  EXPECT_EQ(ctrlOf(G, "v"), Names{});
  EXPECT_EQ(dataOf(G, "v"), Names{"x"});
  EXPECT_EQ(ctrlOf(G, "tb"), Names{"ta"});
  EXPECT_EQ(hits(G, "s"), 3u);
  EXPECT_EQ(hits(G, "v"), 3u);
}

// --- Calls -----------------------------------------------------------------

class CallTest : public TrackerTest {
protected:
  /// r = g(x, y) with the arguments evaluated in the order Order gives
  /// (1-based positions); g returns a + b.
  Recording callG(std::vector<unsigned> Order) {
    return record([Order](Program &P) {
      Unit &U = P.unit();
      unsigned G = U.func("g");
      unsigned X = U.site(VarSite, "x"), Y = U.site(VarSite, "y");
      unsigned C = U.site(CallSite, "<call g>");
      unsigned R = U.site(VarSite, "r");
      unsigned A = U.site(ParamSite, "a", G), B = U.site(ParamSite, "b", G);
      unsigned Rv = U.site(RetSite, "<g() return value>", G);
      U.enter(0);
      int x = 1, y = 2;
      U.decl(X, x);
      U.decl(Y, y);
      U.call(C, 11);
      int Args[3] = {};
      for (unsigned Position : Order) {
        U.arg(C, Position);
        if (Position == 1) {
          get(x);
          Args[1] = x;
        } else {
          get(y);
          Args[2] = y;
        }
      }
      U.enter(G, 11);
      int a = Args[1], b = Args[2];
      U.param(A, a, 1);
      U.param(B, b, 2);
      get(a);
      get(b);
      U.ret(Rv);
      int r = a + b;
      U.set(R, r);
      leave();
    });
  }
};

TEST_F(CallTest, ArgumentsFlowIntoParametersByPosition) {
  Recording R = callG({1, 2});
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "a"), Names{"x"});
  EXPECT_EQ(dataOf(G, "b"), Names{"y"});
  EXPECT_EQ(dataOf(G, "<g() return value>"), (Names{"a", "b"}));
  // The return value is read by the caller's next node.
  EXPECT_EQ(dataOf(G, "r"), Names{"<g() return value>"});
}

TEST_F(CallTest, ArgumentsEvaluatedRightToLeftStillMatchTheirParameters) {
  Recording R = callG({2, 1});
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "a"), Names{"x"});
  EXPECT_EQ(dataOf(*R.Graph, "b"), Names{"y"});
}

TEST_F(TrackerTest, ConstantArgumentGivesTheParameterNoOrigin) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned G = U.func("g");
    unsigned Y = U.site(VarSite, "y"), C = U.site(CallSite, "<call g>");
    unsigned A = U.site(ParamSite, "a", G), B = U.site(ParamSite, "b", G);
    U.enter(0);
    int y = 2;
    U.decl(Y, y);
    U.call(C, 4);
    U.arg(C, 1); // g(42, y): the literal reads nothing
    U.arg(C, 2);
    get(y);
    U.enter(G, 4);
    int a = 42, b = y;
    U.param(A, a, 1);
    U.param(B, b, 2);
    leave();
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "a"), Names{});
  EXPECT_EQ(dataOf(*R.Graph, "b"), Names{"y"});
}

TEST_F(TrackerTest, EnterReturnsTheControlOfTheMatchingCall) {
  // sleuth_enter gives the callee the ctl of the call record it matches, which controls the
  // callee's parameters (the runtime) and its uncontrolled sites (the instrumented code):
  // g(x) under t (one probe per parameter), h(x) under t2 (the fused entry, after
  // sleuth_call_args), k(x) through a pointer (key 0) under t; none for the entry without a
  // call, a call under no test, and a call whose record is for another callee (an
  // uninstrumented ext calling back g: the record is ext's).
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned G = U.func("g"), H = U.func("h"), K = U.func("k");
    unsigned T = U.site(TestSite, "t"), T2 = U.site(TestSite, "t2");
    unsigned X = U.site(VarSite, "x");
    unsigned CallG = U.site(CallSite, "<call g>", 0, {T}),
             CallH = U.site(CallSite, "<call h>", 0, {T2}),
             CallK = U.site(CallSite, "<call k>", 0, {T}), CallG2 = U.site(CallSite, "<call g 2>"),
             CallExt = U.site(CallSite, "<call ext>", 0, {T});
    unsigned Ga = U.site(ParamSite, "g a", G), Gs = U.site(VarSite, "in g", G);
    unsigned Ha = U.site(ParamSite, "h a", H);
    U.site(ParamSite, "h b", H); // Ha + 1: sleuth_enter_params makes both
    unsigned Ka = U.site(ParamSite, "k a", K), Ks = U.site(VarSite, "in k", K);
    unsigned Ma = U.site(ParamSite, "main a");
    int x = 1, a = 0;
    require(U.enter(0) == 0, "no call, no control");
    U.param(Ma, a, 1);
    U.decl(X, x);
    unsigned Ox = U.origin(X);
    U.test(T);
    U.call(CallG, 5);
    U.arg(CallG, 1);
    get(x);
    require(U.enter(G, 5) == U.origin(T), "g's call was under t");
    U.param(Ga, a, 1);
    U.def(Gs);
    leave();
    U.test(T2);
    U.callArgs(CallH, 6, 2, 1u, Ox, 2u, 0u);
    require(U.enterParams(H, 6, Ha, 2) == U.origin(T2), "h's call was under t2");
    leave();
    U.call(CallK, 0);
    require(U.enter(K, 8) == U.origin(T), "a call through a pointer matches any callee");
    U.param(Ka, a, 1);
    U.def(Ks);
    leave();
    U.call(CallG2, 5);
    require(U.enter(G, 5) == 0, "a call under no test");
    U.param(Ga, a, 1);
    leave();
    U.call(CallExt, 100);
    require(U.enter(G, 5) == 0, "ext's record is not g's");
    U.param(Ga, a, 1);
    leave();
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(ctrlOf(G, "g a"), Names{"t"});
  EXPECT_EQ(ctrlOf(G, "in g"), Names{"t"});
  EXPECT_EQ(dataOf(G, "g a"), Names{"x"});
  EXPECT_EQ(ctrlOf(G, "h a"), Names{"t2"});
  EXPECT_EQ(ctrlOf(G, "h b"), Names{"t2"});
  EXPECT_EQ(dataOf(G, "h a"), Names{"x"});
  EXPECT_EQ(ctrlOf(G, "k a"), Names{"t"});
  EXPECT_EQ(ctrlOf(G, "in k"), Names{"t"});
  EXPECT_EQ(ctrlOf(G, "main a"), Names{});
  EXPECT_EQ(hits(G, "g a"), 3u);
}

TEST_F(TrackerTest, UninstrumentedCalleeResultDependsOnItsArguments) {
  // r = ext(x); q = g(y);  where ext is not instrumented (it never enters).
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned G = U.func("g");
    unsigned X = U.site(VarSite, "x"), Y = U.site(VarSite, "y");
    unsigned CExt = U.site(CallSite, "<call ext>"), CG = U.site(CallSite, "<call g>");
    unsigned Rs = U.site(VarSite, "r"), Q = U.site(VarSite, "q");
    unsigned A = U.site(ParamSite, "a", G);
    unsigned Rv = U.site(RetSite, "<g() return value>", G);
    U.enter(0);
    int x = 1, y = 2;
    U.decl(X, x);
    U.decl(Y, y);
    U.call(CExt, 100);
    U.arg(CExt, 1);
    get(x);
    int r = std::abs(x);
    U.set(Rs, r);
    U.call(CG, 200);
    U.arg(CG, 1);
    get(y);
    U.enter(G, 200);
    int a = y;
    U.param(A, a, 1);
    get(a);
    U.ret(Rv);
    int q = a;
    U.set(Q, q);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "r"), Names{"x"});
  EXPECT_EQ(dataOf(G, "a"), Names{"y"});
  EXPECT_EQ(dataOf(G, "q"), Names{"<g() return value>"});
}

TEST_F(TrackerTest, CalleeKeyMismatchDropsTheStaleCallRecord) {
  // ext(x) is not instrumented and calls back the instrumented cb (as qsort
  // calls its comparator): cb must not take ext's argument for its own.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned Cb = U.func("cb");
    unsigned X = U.site(VarSite, "x"), CExt = U.site(CallSite, "<call ext>");
    unsigned Pa = U.site(ParamSite, "p", Cb);
    unsigned Rs = U.site(VarSite, "r");
    U.enter(0);
    int x = 1;
    U.decl(X, x);
    U.call(CExt, 100);
    U.arg(CExt, 1);
    get(x);
    U.enter(Cb, 300); // from inside ext
    int p = 0;
    U.param(Pa, p, 1);
    leave();
    int r = x; // ext's result: its argument is still pending in main
    U.set(Rs, r);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  EXPECT_EQ(dataOf(*R.Graph, "p"), Names{});
  EXPECT_EQ(dataOf(*R.Graph, "r"), Names{"x"});
}

TEST_F(TrackerTest, NestedCallsPassReturnValuesAsArguments) {
  // y = g(f(x)) and z = g(ext(w)) with ext not instrumented.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned F = U.func("f"), G = U.func("g");
    unsigned X = U.site(VarSite, "x"), W = U.site(VarSite, "w");
    unsigned CG = U.site(CallSite, "<call g>"), CF = U.site(CallSite, "<call f>");
    unsigned CG2 = U.site(CallSite, "<call g 2>"), CExt = U.site(CallSite, "<call ext>");
    unsigned Y = U.site(VarSite, "y"), Z = U.site(VarSite, "z");
    unsigned Fa = U.site(ParamSite, "fa", F), Ga = U.site(ParamSite, "ga", G);
    unsigned Fr = U.site(RetSite, "<f() return value>", F),
             Gr = U.site(RetSite, "<g() return value>", G);
    auto EnterG = [&](int Value) {
      U.enter(G, 2);
      int ga = Value;
      U.param(Ga, ga, 1);
      get(ga);
      U.ret(Gr);
      return ga;
    };
    U.enter(0);
    int x = 1, w = 2;
    U.decl(X, x);
    U.decl(W, w);
    U.call(CG, 2);
    U.arg(CG, 1);
    U.call(CF, 1);
    U.arg(CF, 1);
    get(x);
    U.enter(F, 1);
    int fa = x;
    U.param(Fa, fa, 1);
    get(fa);
    U.ret(Fr);
    int y = EnterG(fa);
    U.set(Y, y);
    U.call(CG2, 2);
    U.arg(CG2, 1);
    U.call(CExt, 50);
    U.arg(CExt, 1);
    get(w);
    int z = EnterG(std::abs(w));
    U.set(Z, z);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "fa"), Names{"x"});
  EXPECT_EQ(dataOf(G, "ga"), (Names{"<f() return value>", "w"}));
  EXPECT_EQ(dataOf(G, "y"), Names{"<g() return value>"});
  EXPECT_EQ(dataOf(G, "z"), Names{"<g() return value>"});
}

// --- C frames and longjmp --------------------------------------------------

TEST_F(TrackerTest, FramesAbandonedByLongjmpArePoppedLazily) {
  // main calls f calls g; g longjmps back to main, which then calls h(y). The
  // runtime learns that f and g are dead only when h enters at an address at
  // or above theirs (the stack grows down).
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned F = U.func("f"), G = U.func("g"), H = U.func("h");
    unsigned Y = U.site(VarSite, "y"), Tm = U.site(TestSite, "tm");
    unsigned CF = U.site(CallSite, "<call f>", 0, {Tm});
    unsigned Tf = U.site(TestSite, "tf", F);
    unsigned CG = U.site(CallSite, "<call g>", F, {Tf});
    unsigned Tm2 = U.site(TestSite, "tm2");
    unsigned CH = U.site(CallSite, "<call h>", 0, {Tm2});
    unsigned Ha = U.site(ParamSite, "a", H), InH = U.site(VarSite, "in h", H);
    unsigned After = U.site(VarSite, "after", 0, {Tm});
    static char Stack[4096];
    U.enter(0, 1, &Stack[4000]);
    size_t MainDepth = controlFrames().size();
    int y = 2, v = 0;
    U.decl(Y, y);
    U.test(Tm);
    U.call(CF, 2);
    U.enter(F, 2, &Stack[3000]);
    U.test(Tf);
    U.call(CG, 3);
    U.enter(G, 3, &Stack[2000]);
    get(v); // pending in g when it jumps
    // longjmp to main: its probes run on, the runtime unaware that f and g are gone.
    longjmpTo(MainDepth);
    U.test(Tm2);
    U.call(CH, 4);
    U.arg(CH, 1);
    get(y);
    U.enter(H, 4, &Stack[3000]);
    int a = y;
    U.param(Ha, a, 1);
    U.set(InH, v);
    leave();
    U.set(After, v);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "a"), Names{"y"});
  EXPECT_EQ(ctrlOf(G, "in h"), Names{"tm2"});
  // Back in main: g's pending read is gone and main's own test controls.
  EXPECT_EQ(dataOf(G, "after"), Names{});
  EXPECT_EQ(ctrlOf(G, "after"), Names{"tm"});
}

TEST_F(TrackerTest, AFunctionReturnedUnderACallControlIsQuietUnderItFromThen) {
  // main() { for each round: for each of t1..t6: if (ti) y = f(k); } with f(a) { x = a; return
  // x; } whose sites no test of f controls: they pass f's quiet control. The first call under a
  // control records their edges from it; once f returned normally under it, calls under it get
  // no control to pass (cq 0) and f's entry, x and the return stay inline. Six controls are more
  // than the function's four slots: the thread remembers the rest. A frame an exception unwinds
  // did not return normally: under t7, whose call throws, f stays loud.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned Main = U.func("main"), F = U.func("f");
    std::vector<unsigned> Tests, Calls;
    for (const char *Name : {"t1", "t2", "t3", "t4", "t5", "t6", "t7"}) {
      Tests.push_back(U.site(TestSite, Name, Main));
      Calls.push_back(U.site(CallSite, "<call f>", Main, {Tests.back()}));
    }
    unsigned A = U.site(ParamSite, "a", F), X = U.site(VarSite, "x", F);
    unsigned Ret = U.site(RetSite, "<f() return value>", F);
    unsigned Cache[2] = {};
    U.enter(Main);
    auto CallF = [&](unsigned I, bool Known) {
      U.test(Tests[I]);
      unsigned Ctl = U.origin(Tests[I]);
      sleuth_callv(U.tu(), Calls[I], Ctl, 9, 0, Cache);
      unsigned Depth = sleuth_pending_reads.num_frames;
      unsigned Cc = sleuth_enter_params(U.tu(), F, 9, nullptr, A, 1);
      require(Cc == Ctl, "f's call control");
      require(sleuth_pending_reads.num_frames == Depth + 1, "f entered");
      unsigned Cq = sleuth_quiet_control(U.tu(), F, Cc);
      require(Cq == (Known ? 0 : Ctl), "quiet once f returned under the control");
      require(!Known || (quiet(U, X) && sleuth_quiet(U.tu(), X, Cq, 1) != nullptr),
              "x inline under a known control");
      sleuth_def(U.tu(), X, Cq);
      return Cq;
    };
    for (unsigned Round = 0; Round < 3; ++Round)
      for (unsigned I = 0; I < 6; ++I) {
        unsigned Cq = CallF(I, Round > 0);
        sleuth_ret(U.tu(), Ret, Cq, nullptr);
      }
    struct Unwound {
      ~Unwound() { sleuth_leave(nullptr); }
    };
    for (unsigned Round = 0; Round < 2; ++Round) {
      try {
        Unwound Frame;
        CallF(6, false);
        throw 1;
      } catch (int) {
      }
    }
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  Names All{"t1", "t2", "t3", "t4", "t5", "t6", "t7"};
  EXPECT_EQ(ctrlOf(G, "x"), All);
  EXPECT_EQ(ctrlOf(G, "a"), All);
  EXPECT_EQ(ctrlOf(G, "<f() return value>"), (Names{"t1", "t2", "t3", "t4", "t5", "t6"}));
  EXPECT_EQ(dataOf(G, "x"), Names{});
  EXPECT_EQ(hits(G, "x"), 20u);
  EXPECT_EQ(hits(G, "a"), 20u);
  EXPECT_EQ(hits(G, "<f() return value>"), 18u);
}

TEST_F(TrackerTest, AnEntryWithoutACallRecordHasNoControlNorArguments) {
  // main() { x = 1; loop { y = x + S(a); } } where S's constructor (no call syntax, no record)
  // enters s(a) { v = a; return v; }: the parameter has no origin and no control, main's read
  // of x stays pending across the call, and the value is pushed for y. The first entry goes
  // through the runtime (no hit counts yet), the later ones inline; they record alike.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned Main = U.func("main"), S = U.func("S::S");
    unsigned Loop = U.site(TestSite, "loop", Main);
    unsigned X = U.site(VarSite, "x", Main), Y = U.site(VarSite, "y", Main, {Loop});
    unsigned A = U.site(ParamSite, "a", S), V = U.site(VarSite, "v", S);
    unsigned Ret = U.site(RetSite, "<S::S() return value>", S);
    U.enter(Main);
    unsigned Ox = U.def(X);
    for (unsigned K = 0; K < 3; ++K) {
      U.test(Loop);
      sleuth_use(Ox);
      unsigned *Top = sleuth_pending_reads.top;
      unsigned Depth = sleuth_pending_reads.num_frames;
      unsigned Cc = sleuth_enter_params(U.tu(), S, 5, nullptr, A, 1);
      require(Cc == 0, "no call's control");
      require(sleuth_pending_reads.num_frames == Depth + 1, "entered");
      require(sleuth_pending_reads.frame == Top && sleuth_pending_reads.top == Top,
              "main's read stays below s's frame");
      unsigned Oa = U.origin(A);
      sleuth_use(Oa);
      sleuth_def(U.tu(), V, 0);
      sleuth_use(U.origin(V));
      sleuth_ret(U.tu(), Ret, 0, nullptr);
      require(sleuth_pending_reads.num_frames == Depth, "left");
      require(sleuth_pending_reads.top == Top + 1, "x and the return value pending");
      U.def(Y);
    }
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "a"), Names{});
  EXPECT_EQ(ctrlOf(G, "a"), Names{});
  EXPECT_EQ(dataOf(G, "v"), Names{"a"});
  EXPECT_EQ(dataOf(G, "y"), (Names{"<S::S() return value>", "x"}));
  EXPECT_EQ(ctrlOf(G, "y"), Names{"loop"});
  EXPECT_EQ(hits(G, "a"), 3u);
  EXPECT_EQ(hits(G, "<S::S() return value>"), 3u);
}

TEST_F(TrackerTest, AnUnrecordedEntryInsideAnArgumentLeavesTheCallsRecord) {
  // main() { if (t) y = f(x + S().v); } where the constructor S() (no call syntax, no record)
  // runs while f's arguments are evaluated, after f's record was pushed: f's record stays for
  // f, whose parameter then reads x and S's value, under t. Twice: through the runtime, then
  // inline.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned Main = U.func("main"), S = U.func("S::S"), F = U.func("f");
    unsigned T = U.site(TestSite, "t", Main), X = U.site(VarSite, "x", Main);
    unsigned CallF = U.site(CallSite, "<call f>", Main, {T});
    unsigned Y = U.site(VarSite, "y", Main, {T});
    unsigned V = U.site(VarSite, "v", S), RetS = U.site(RetSite, "<S::S() return value>", S);
    unsigned A = U.site(ParamSite, "a", F), RetF = U.site(RetSite, "<f() return value>", F);
    unsigned Cache[2] = {};
    U.enter(Main);
    unsigned Ox = U.def(X);
    for (unsigned K = 0; K < 2; ++K) {
      U.test(T);
      sleuth_callv(U.tu(), CallF, U.origin(T), 11, Y, Cache);
      sleuth_arg(U.tu(), CallF, 1);
      sleuth_use(Ox);
      unsigned Cs = sleuth_enter_params(U.tu(), S, 12, nullptr, 0, 0);
      require(Cs == 0, "S entered without a record");
      unsigned Qs = sleuth_quiet_control(U.tu(), S, Cs);
      sleuth_def(U.tu(), V, Qs);
      sleuth_use(U.origin(V));
      sleuth_ret(U.tu(), RetS, Qs, nullptr);
      unsigned Cf = sleuth_enter_params(U.tu(), F, 11, nullptr, A, 1);
      require(Cf == U.origin(T), "f's record was kept for f");
      sleuth_use(U.origin(A));
      sleuth_ret(U.tu(), RetF, sleuth_quiet_control(U.tu(), F, Cf), nullptr);
      U.def(Y);
    }
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "a"), (Names{"<S::S() return value>", "x"}));
  EXPECT_EQ(ctrlOf(G, "a"), Names{"t"});
  EXPECT_EQ(ctrlOf(G, "v"), Names{});
  EXPECT_EQ(dataOf(G, "y"), Names{"<f() return value>"});
  EXPECT_EQ(hits(G, "a"), 2u);
}

TEST_F(TrackerTest, ReturnAfterALongjmpLeavesTheReturningFunctionsOwnFrame) {
  // main calls f, which calls g, which calls h; h longjmps back into f (a setjmp in f), which
  // then returns. f's return must leave f's own frame, not h's or g's that are still on top,
  // so that its value reaches main's consumer and main's next write is controlled as main's.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned F = U.func("f"), G = U.func("g"), H = U.func("h");
    unsigned Tm = U.site(TestSite, "tm");
    unsigned CF = U.site(CallSite, "<call f>", 0, {Tm});
    unsigned Y = U.site(VarSite, "y", 0, {Tm});
    unsigned CG = U.site(CallSite, "<call g>", F);
    unsigned Tg = U.site(TestSite, "tg", G);
    unsigned CH = U.site(CallSite, "<call h>", G, {Tg});
    unsigned Z = U.site(VarSite, "z", G, {Tg});
    unsigned RetF = U.site(RetSite, "<f() return value>", F);
    unsigned After = U.site(VarSite, "after", 0, {Tm});
    static char Stack[4096];
    unsigned Cache[2] = {0, 0};
    U.enter(0, 1, &Stack[4000]);
    U.test(Tm);
    sleuth_callv(U.tu(), CF, U.ctl(CF), 2, Y, Cache); // y = f();
    unsigned FControl = sleuth_enter(U.tu(), F, 2, &Stack[3000]);
    require(FControl == U.origin(Tm), "f's call is controlled by tm");
    sleuth_callv(U.tu(), CG, FControl, 3, RetF, Cache + 0); // return g();, as g's value
    sleuth_enter(U.tu(), G, 3, &Stack[2000]);
    U.test(Tg);
    sleuth_callv(U.tu(), CH, U.origin(Tg), 4, Z, Cache); // z = h();
    sleuth_enter(U.tu(), H, 4, &Stack[1000]);
    // h longjmps into f, which returns a value computed there: g's and h's frames are dead.
    sleuth_ret(U.tu(), RetF, FControl, &Stack[3000]);
    int y = 0;
    sleuth_set(U.tu(), Y, U.origin(Tm), &y, sizeof y);
    int after = y;
    sleuth_get(&y, sizeof y);
    sleuth_set(U.tu(), After, U.origin(Tm), &after, sizeof after);
    sleuth_leave(&Stack[4000]);
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  // f's value went to main's consumer y, not to h's caller's z.
  EXPECT_EQ(dataOf(G, "y"), Names{"<f() return value>"});
  EXPECT_EQ(dataOf(G, "z"), Names{});
  EXPECT_EQ(ctrlOf(G, "<f() return value>"), Names{"tm"});
  EXPECT_EQ(dataOf(G, "after"), Names{"y"});
  EXPECT_EQ(ctrlOf(G, "after"), Names{"tm"});
}

TEST_F(TrackerTest, AnInlinedCalleeEntersAtItsCallersFrameAddressAndNestsInIt) {
  // main calls f, f calls g, and g calls h, which the compiler inlined into g: h's entry and
  // return pass g's own frame address. h's frame nests in g's (g is live, not a frame a longjmp
  // left behind), so that each value goes to its caller's consumer: h's to z in g, g's to x in
  // f, f's to y in main.
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned F = U.func("f"), G = U.func("g"), H = U.func("h");
    unsigned Tm = U.site(TestSite, "tm");
    unsigned CF = U.site(CallSite, "<call f>", 0, {Tm});
    unsigned Y = U.site(VarSite, "y", 0, {Tm});
    unsigned CG = U.site(CallSite, "<call g>", F);
    unsigned X = U.site(VarSite, "x", F);
    unsigned RetF = U.site(RetSite, "<f() return value>", F);
    unsigned CH = U.site(CallSite, "<call h>", G);
    unsigned Z = U.site(VarSite, "z", G);
    unsigned RetG = U.site(RetSite, "<g() return value>", G);
    unsigned RetH = U.site(RetSite, "<h() return value>", H);
    static char Stack[4096];
    unsigned Cache[10] = {};
    U.enter(0, 1, &Stack[4000]);
    U.test(Tm);
    sleuth_callv(U.tu(), CF, U.ctl(CF), 2, Y, Cache); // y = f();
    unsigned FControl = sleuth_enter(U.tu(), F, 2, &Stack[3000]);
    sleuth_callv(U.tu(), CG, FControl, 3, X, Cache + 2); // x = g();
    unsigned GControl = sleuth_enter(U.tu(), G, 3, &Stack[2000]);
    sleuth_callv(U.tu(), CH, GControl, 4, Z, Cache + 4); // z = h(); h inlined into g
    unsigned HControl = sleuth_enter(U.tu(), H, 4, &Stack[2000]);
    sleuth_ret(U.tu(), RetH, HControl, &Stack[2000]);
    int z = 0, x = 0, y = 0;
    sleuth_set(U.tu(), Z, GControl, &z, sizeof z);
    sleuth_getc(U.tu(), Cache + 6, RetG, &z, sizeof z);
    sleuth_ret(U.tu(), RetG, GControl, &Stack[2000]); // return z;
    sleuth_set(U.tu(), X, FControl, &x, sizeof x);
    sleuth_getc(U.tu(), Cache + 8, RetF, &x, sizeof x);
    sleuth_ret(U.tu(), RetF, FControl, &Stack[3000]); // return x;
    sleuth_set(U.tu(), Y, U.origin(Tm), &y, sizeof y);
    sleuth_leave(&Stack[4000]);
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "z"), Names{"<h() return value>"});
  EXPECT_EQ(dataOf(G, "x"), Names{"<g() return value>"});
  EXPECT_EQ(dataOf(G, "y"), Names{"<f() return value>"});
  EXPECT_EQ(ctrlOf(G, "<h() return value>"), Names{"tm"});
}

// --- Threads ---------------------------------------------------------------

TEST_F(TrackerTest, ThreadsAreTrackedSeparatelyAndMergedWithoutDuplicates) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned Work = U.func("work");
    unsigned M = U.site(VarSite, "m");
    unsigned In = U.site(VarSite, "in", Work), Out = U.site(VarSite, "out", Work);
    unsigned A = U.site(VarSite, "a only", Work), B = U.site(VarSite, "b only", Work);
    unsigned After = U.site(VarSite, "after join");
    U.enter(0);
    int m = 0;
    U.decl(M, m); // the main thread is thread 0
    std::atomic<int> Arrived{0};
    auto Worker = [&](unsigned Own, int *Result) {
      U.enter(Work);
      // Both threads run the same sites on their own variables: the same
      // edges, which the file must hold once.
      int in = 1;
      U.set(In, in);
      ++Arrived;
      while (Arrived.load() < 2) // both threads are tracking at once
        std::this_thread::yield();
      for (int I = 0; I < 100; ++I) {
        get(in);
        int out = in + I;
        U.set(Out, out);
      }
      get(in);
      *Result = in;
      U.set(Own, Result, sizeof *Result);
      leave();
    };
    int ResultA = 0, ResultB = 0;
    std::thread TA(Worker, A, &ResultA), TB(Worker, B, &ResultB);
    TA.join();
    TB.join();
    // Memory is shared: main reads what the threads wrote.
    get(ResultA);
    get(ResultB);
    int after = ResultA + ResultB;
    U.set(After, after);
    leave();
  });
  ASSERT_TRUE(R.Graph); // the loader rejects duplicate edges and `last`s
  const DependenceGraph &G = *R.Graph;
  EXPECT_EQ(dataOf(G, "out"), Names{"in"});
  EXPECT_EQ(dataOf(G, "a only"), Names{"in"});
  EXPECT_EQ(dataOf(G, "b only"), Names{"in"});
  EXPECT_EQ(dataOf(G, "after join"), (Names{"a only", "b only"}));
  EXPECT_EQ(hits(G, "in"), 2u);
  EXPECT_EQ(hits(G, "out"), 200u);
  // Each thread's last node; the workers are threads 1 and 2 in either order.
  ASSERT_TRUE(G.last(0));
  EXPECT_EQ(*G.last(0), node(G, "after join"));
  ASSERT_TRUE(G.last(1));
  ASSERT_TRUE(G.last(2));
  EXPECT_EQ((std::set<Node>{*G.last(1), *G.last(2)}),
            (std::set<Node>{node(G, "a only"), node(G, "b only")}));
  EXPECT_FALSE(G.last(3));
  size_t DataLines = 0;
  std::istringstream Lines(R.Text);
  for (std::string Line; std::getline(Lines, Line);)
    DataLines += Line.rfind("data ", 0) == 0;
  EXPECT_EQ(DataLines, 5u) << R.Text;
}

// --- Registration, hits and `last` -----------------------------------------

TEST_F(TrackerTest, CopiesOfOneHeaderInstrumentedAlikeShareTheirNodes) {
  // A header with code, inlined into two translation units: two tables with the same sites.
  // A third copy instrumented otherwise (another macro made one more site) keeps its own.
  Recording R = record([](Program &P) {
    Unit &Main = P.unit("/src/main.c");
    Unit &InMain = P.unit("/src/lib/clamp.h");
    Unit &InOther = P.unit("/src/lib/clamp.h");
    Unit &Differs = P.unit("/src/lib/clamp.h");
    unsigned M = Main.site(VarSite, "m");
    unsigned HeaderSites[3];
    for (Unit *U : {&InMain, &InOther, &Differs}) {
      unsigned Clamp = U->func("clamp");
      HeaderSites[0] = U->site(ParamSite, "value", Clamp);
      HeaderSites[1] = U->site(TestSite, "<test>", Clamp);
      HeaderSites[2] = U->site(VarSite, "r", Clamp, {HeaderSites[1]});
    }
    Differs.site(VarSite, "extra");
    unsigned Value = HeaderSites[0], Test = HeaderSites[1], Result = HeaderSites[2];
    int v = 5, m = 0;
    Main.enter(0);
    Main.decl(M, m);
    for (Unit *U : {&InMain, &InOther, &Differs}) {
      U->enter(1);
      U->param(Value, v, 1);
      get(v);
      U->test(Test);
      int r = v;
      get(v);
      U->set(Result, r);
      leave();
    }
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  // main.c, the shared header unit, the differing copy.
  ASSERT_EQ(G.files().size(), 3u);
  EXPECT_EQ(G.files()[1].Path, "/src/lib/clamp.h");
  EXPECT_EQ(G.files()[2].Path, "/src/lib/clamp.h");
  // m, three shared sites, three sites of the differing copy and its extra one.
  ASSERT_EQ(G.size(), 8u);
  std::map<std::string, std::vector<Node>> ByName;
  for (Node N = 0; N < G.size(); ++N)
    ByName[G.site(N).Name].push_back(N);
  ASSERT_EQ(ByName["r"].size(), 2u);
  Node Shared = ByName["r"][0], Own = ByName["r"][1];
  EXPECT_EQ(G.site(Shared).Hits, 2u); // run once in each of the two alike copies
  EXPECT_EQ(G.site(Own).Hits, 1u);
  EXPECT_EQ(G.fileOf(Shared).Path, "/src/lib/clamp.h");
  // Each test unit's table starts with a `main`: main.c's, the shared unit's two, the
  // differing copy's two; the second alike copy adds none.
  EXPECT_EQ(G.functions().size(), 5u);
}

TEST_F(TrackerTest, UnitsGetDistinctFileIdsAndDenseNodeIds) {
  Recording R = record([](Program &P) {
    Unit &First = P.unit("/src/first.c");
    Unit &Second = P.unit("/src/second.c");
    unsigned Helper = Second.func("helper");
    unsigned A = First.site(VarSite, "first a");
    First.site(CallSite, "<call>"); // not a node: ids skip it
    unsigned B = First.site(VarSite, "first b");
    First.site(VarSite, "first never");
    unsigned C = Second.site(VarSite, "second c", Helper);
    unsigned D = Second.site(VarSite, "second d", Helper);
    int v = 0;
    // The second unit runs first and is registered first.
    Second.enter(Helper);
    Second.set(C, v);
    get(v);
    Second.set(D, v);
    leave();
    First.enter(0);
    get(v);
    First.set(A, v);
    for (int I = 0; I < 3; ++I)
      First.set(B, v);
    leave();
  });
  ASSERT_TRUE(R.Graph);
  const DependenceGraph &G = *R.Graph;
  ASSERT_EQ(G.files().size(), 2u);
  EXPECT_EQ(G.files()[0].Path, "/src/second.c");
  EXPECT_EQ(G.files()[1].Path, "/src/first.c");
  ASSERT_EQ(G.functions().size(), 3u);
  EXPECT_EQ(G.functions()[0].Name, "main");
  EXPECT_EQ(G.functions()[0].File, 0u);
  EXPECT_EQ(G.functions()[1].Name, "helper");
  EXPECT_EQ(G.functions()[2].File, 1u);
  ASSERT_EQ(G.size(), 5u);
  const char *Order[] = {"second c", "second d", "first a", "first b", "first never"};
  for (Node N = 0; N < 5; ++N)
    EXPECT_EQ(G.site(N).Name, Order[N]);
  EXPECT_EQ(G.functionOf(node(G, "second c")).Name, "helper");
  EXPECT_EQ(G.fileOf(node(G, "first a")).Path, "/src/first.c");
  EXPECT_EQ(G.site(node(G, "first b")).Line, 3u); // the table's site 2
  EXPECT_EQ(dataOf(G, "second d"), Names{"second c"});
  EXPECT_EQ(dataOf(G, "first a"), Names{"second d"});
  EXPECT_EQ(hits(G, "first b"), 3u);
  EXPECT_EQ(hits(G, "first a"), 1u);
  EXPECT_EQ(hits(G, "first never"), 0u);
  ASSERT_TRUE(G.last(0));
  EXPECT_EQ(*G.last(0), node(G, "first b"));
}

TEST_F(TrackerTest, LastIsTheReturnNodeWhenAFunctionReturnedLast) {
  Recording R = record([](Program &P) {
    Unit &U = P.unit();
    unsigned G = U.func("g");
    unsigned X = U.site(VarSite, "x"), Rv = U.site(RetSite, "<g() return value>", G);
    int x = 0;
    U.enter(0);
    U.decl(X, x);
    U.enter(G);
    U.ret(Rv);
    sleuth_discard(); // `g();` as a statement: its value is dropped
  });
  ASSERT_TRUE(R.Graph);
  ASSERT_TRUE(R.Graph->last(0));
  EXPECT_EQ(*R.Graph->last(0), node(*R.Graph, "<g() return value>"));
  EXPECT_NE(R.Text.find("\nstatus running\n"), std::string::npos);
  EXPECT_EQ(R.Text.substr(R.Text.size() - 4), "end\n");
}

} // namespace
