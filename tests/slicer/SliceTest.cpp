// Backward and forward slices over the middle() run, with depth and kind
// limits (the Debugging Book's `depth` and `mode='d'`/`mode='c'`).
#include "SlicerTestSupport.h"

using namespace sleuth;
using namespace sleuth::test;
using Nodes = std::vector<DependenceGraph::Node>;

namespace {

// Sites of the middle run: 0-2 params x y z, 3 <test>(2), 4 <test>(3),
// 5 ret(4, unexecuted), 6 <test>(5), 7 ret(6), 8 <test>(8, unexecuted),
// 9 ret(13, unexecuted), 10 m(17), 11 <main() return value>(18).
constexpr DependenceGraph::Node MiddleReturn = 7;

Slice backward(const DependenceGraph &G, Nodes Criteria, SliceOptions Opts = {}) {
  Opts.Forward = false;
  return computeSlice(G, std::move(Criteria), Opts);
}

} // namespace

TEST(SliceTest, BackwardFromReturnValue) {
  MiddleRun Run;
  DependenceGraph G = Run.graph();
  Slice S = backward(G, {MiddleReturn});
  EXPECT_EQ(S.Nodes, (Nodes{0, 1, 2, 3, 4, 6, 7}));
  EXPECT_EQ(S.Criteria, (Nodes{MiddleReturn}));
  EXPECT_FALSE(S.Forward);
  EXPECT_TRUE(S.contains(6));
  EXPECT_FALSE(S.contains(10));
  EXPECT_FALSE(S.contains(1000));
  // Every edge among those nodes, origin first, sorted.
  std::vector<SliceEdge> Expected = {
      {0, 4, DependenceKind::Data},    {0, 6, DependenceKind::Data},
      {1, 3, DependenceKind::Data},    {1, 4, DependenceKind::Data},
      {1, 7, DependenceKind::Data},    {2, 3, DependenceKind::Data},
      {2, 6, DependenceKind::Data},    {3, 4, DependenceKind::Control},
      {4, 6, DependenceKind::Control}, {6, 7, DependenceKind::Control}};
  EXPECT_EQ(S.Edges, Expected);
}

TEST(SliceTest, BackwardFromMainReachesIntoCallee) {
  MiddleRun Run;
  DependenceGraph G = Run.graph();
  EXPECT_EQ(backward(G, {11}).Nodes, (Nodes{0, 1, 2, 3, 4, 6, 7, 10, 11}));
}

TEST(SliceTest, ForwardFromParameter) {
  MiddleRun Run;
  DependenceGraph G = Run.graph();
  SliceOptions Opts;
  Opts.Forward = true;
  // y decides every test on the path and is returned, so everything after
  // it depends on it; x and z do not.
  Slice S = computeSlice(G, {1}, Opts);
  EXPECT_TRUE(S.Forward);
  EXPECT_EQ(S.Nodes, (Nodes{1, 3, 4, 6, 7, 10, 11}));
  // z reaches the return value only through the control of <test> (5).
  EXPECT_EQ(computeSlice(G, {2}, Opts).Nodes, (Nodes{2, 3, 4, 6, 7, 10, 11}));
  // Nothing depends on main's return value.
  EXPECT_EQ(computeSlice(G, {11}, Opts).Nodes, (Nodes{11}));
}

TEST(SliceTest, DepthCountsEdges) {
  MiddleRun Run;
  DependenceGraph G = Run.graph();
  SliceOptions Opts;
  Opts.Depth = 0;
  EXPECT_EQ(backward(G, {MiddleReturn}, Opts).Nodes, (Nodes{7}));
  Opts.Depth = 1;
  EXPECT_EQ(backward(G, {MiddleReturn}, Opts).Nodes, (Nodes{1, 6, 7}));
  Opts.Depth = 2;
  EXPECT_EQ(backward(G, {MiddleReturn}, Opts).Nodes, (Nodes{0, 1, 2, 4, 6, 7}));
  // The shortest path counts: y is one edge from the return value even
  // though it is also three edges away through the tests.
  Opts.Depth = 1;
  Opts.Forward = true;
  EXPECT_EQ(computeSlice(G, {1}, Opts).Nodes, (Nodes{1, 3, 4, 7}));
}

TEST(SliceTest, DataOnlyAndControlOnly) {
  MiddleRun Run;
  DependenceGraph G = Run.graph();
  SliceOptions DataOnly;
  DataOnly.Control = false;
  Slice D = backward(G, {MiddleReturn}, DataOnly);
  EXPECT_EQ(D.Nodes, (Nodes{1, 7}));
  EXPECT_EQ(D.Edges, (std::vector<SliceEdge>{{1, 7, DependenceKind::Data}}));

  SliceOptions ControlOnly;
  ControlOnly.Data = false;
  Slice C = backward(G, {MiddleReturn}, ControlOnly);
  EXPECT_EQ(C.Nodes, (Nodes{3, 4, 6, 7}));
  for (const SliceEdge &E : C.Edges)
    EXPECT_EQ(E.Kind, DependenceKind::Control);
  EXPECT_EQ(C.Edges.size(), 3u);

  ControlOnly.Depth = 1;
  EXPECT_EQ(backward(G, {MiddleReturn}, ControlOnly).Nodes, (Nodes{6, 7}));
}

TEST(SliceTest, SeveralCriteriaMerge) {
  MiddleRun Run;
  DependenceGraph G = Run.graph();
  Slice S = backward(G, {3, 3, 10});
  EXPECT_EQ(S.Criteria, (Nodes{3, 10}));
  EXPECT_EQ(S.Nodes, (Nodes{0, 1, 2, 3, 4, 6, 7, 10}));
}

TEST(SliceTest, WholeGraphHoldsExecutedNodes) {
  MiddleRun Run;
  DependenceGraph G = Run.graph();
  Slice S = wholeGraph(G, {});
  EXPECT_EQ(S.Nodes, (Nodes{0, 1, 2, 3, 4, 6, 7, 10, 11}));
  EXPECT_EQ(S.Edges.size(), 12u);
  EXPECT_TRUE(S.Criteria.empty());
  SliceOptions DataOnly;
  DataOnly.Control = false;
  EXPECT_EQ(wholeGraph(G, DataOnly).Edges.size(), 9u);
}
