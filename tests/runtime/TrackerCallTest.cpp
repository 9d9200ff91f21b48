// Tracker scenarios (TrackerSupport.h): calls: arguments into parameters, return values, call
// records, C frames and longjmp.
#include "TrackerSupport.h"

namespace sleuth::tracker_test {
namespace {

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

} // namespace
} // namespace sleuth::tracker_test
