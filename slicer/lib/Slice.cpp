// Backward and forward slices: breadth-first over the dependence graph, so
// that a depth limit counts edges from the nearest criterion.
#include "sleuth/slicer/dependences.h"

#include <algorithm>
#include <deque>
#include <tuple>

#include <boost/range/iterator_range.hpp>

namespace sleuth {

namespace {

using Node = DependenceGraph::Node;

bool follows(const SliceOptions &Opts, DependenceKind Kind) {
  return Kind == DependenceKind::Data ? Opts.Data : Opts.Control;
}

/// The selected edges whose both ends are members, sorted.
void collectEdges(const DependenceGraph &G, const SliceOptions &Opts, Slice &S) {
  const DependenceGraph::Graph &Graph = G.graph();
  for (Node N : S.Nodes)
    for (auto E : boost::make_iterator_range(boost::out_edges(N, Graph))) {
      Node To = boost::target(E, Graph);
      DependenceKind Kind = Graph[E].Kind;
      if (S.contains(To) && follows(Opts, Kind))
        S.Edges.push_back({N, To, Kind});
    }
  std::sort(S.Edges.begin(), S.Edges.end(), [](const SliceEdge &A, const SliceEdge &B) {
    return std::tie(A.From, A.To, A.Kind) < std::tie(B.From, B.To, B.Kind);
  });
}

} // namespace

Slice computeSlice(const DependenceGraph &G, std::vector<Node> Criteria, const SliceOptions &Opts) {
  const DependenceGraph::Graph &Graph = G.graph();
  Slice S;
  S.Forward = Opts.Forward;
  S.Member.assign(G.size(), false);
  std::sort(Criteria.begin(), Criteria.end());
  Criteria.erase(std::unique(Criteria.begin(), Criteria.end()), Criteria.end());

  std::deque<std::pair<Node, unsigned>> Queue;
  for (Node N : Criteria) {
    if (N >= G.size())
      continue;
    S.Member[N] = true;
    S.Criteria.push_back(N);
    Queue.emplace_back(N, 0);
  }
  auto visit = [&](Node Next, DependenceKind Kind, unsigned Depth) {
    if (!follows(Opts, Kind) || S.Member[Next])
      return;
    S.Member[Next] = true;
    Queue.emplace_back(Next, Depth + 1);
  };
  while (!Queue.empty()) {
    auto [N, Depth] = Queue.front();
    Queue.pop_front();
    if (Opts.Depth && Depth >= *Opts.Depth)
      continue;
    if (Opts.Forward) {
      for (auto E : boost::make_iterator_range(boost::out_edges(N, Graph)))
        visit(boost::target(E, Graph), Graph[E].Kind, Depth);
    } else {
      for (auto E : boost::make_iterator_range(boost::in_edges(N, Graph)))
        visit(boost::source(E, Graph), Graph[E].Kind, Depth);
    }
  }

  for (Node N = 0; N < G.size(); ++N)
    if (S.Member[N])
      S.Nodes.push_back(N);
  collectEdges(G, Opts, S);
  return S;
}

Slice wholeGraph(const DependenceGraph &G, const SliceOptions &Opts) {
  Slice S;
  S.Forward = Opts.Forward;
  S.Member.assign(G.size(), false);
  for (Node N = 0; N < G.size(); ++N)
    if (G.site(N).executed()) {
      S.Member[N] = true;
      S.Nodes.push_back(N);
    }
  collectEdges(G, Opts, S);
  return S;
}

} // namespace sleuth
