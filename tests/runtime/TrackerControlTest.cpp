// Tracker scenarios (TrackerSupport.h): control dependences: controlling tests, loops, recursion,
// switches, library calls.
#include "TrackerSupport.h"

namespace sleuth::tracker_test {
namespace {

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

} // namespace
} // namespace sleuth::tracker_test
