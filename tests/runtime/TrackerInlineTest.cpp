// Tracker scenarios (TrackerSupport.h): the inline node probes: hits counted without a call, new
// edges still recorded.
#include "TrackerSupport.h"

namespace sleuth::tracker_test {
namespace {

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

} // namespace
} // namespace sleuth::tracker_test
