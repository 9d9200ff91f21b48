// Tracker scenarios (TrackerSupport.h): whole programs: threads, headers instrumented in several
// units, registration and `last`.
#include "TrackerSupport.h"

namespace sleuth::tracker_test {
namespace {

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
} // namespace sleuth::tracker_test
