// BlockRank: suspicious edge profile, block transition rates, the equation set
// of fault relevance, and its solution.
//
// The paper's worked example (Fig. 1 of "Precise Propagation of Fault-Failure
// Correlations in Program Flow Graphs") fixes how the pieces combine: the
// relevance BR of each block is the solution of
//   BR(j) = sum over edges e = (j, k): W(e) BR(k)    for blocks with successors,
//   BR(j) = I(j)                                     for blocks without,
// where W(e) = D(e) / (sum of D over the edges into k), D the suspicious edge
// profile and I(j) the sum of D over the edges into j; each block's score is
// then calibrated by its transition rate T(j):
//   BR'(j) = T(j) BR(j) + (1 - T(j)) I(j).
// That reproduces every number the paper derives (BR = 4.00, 4.00, 3.67, 4.00,
// BR'(b2) = 4.32); putting T inside the equation set instead would lift b1 to
// 4.32 as well, which the paper does not report.
#include "sleuth/localizer/blockrank.h"

#include <algorithm>
#include <cmath>
#include <numeric>

namespace sleuth::localizer {

bool solveDense(std::vector<double> A, std::vector<double> B, std::vector<double> &X) {
  std::size_t N = B.size();
  std::vector<std::size_t> Perm(N);
  std::iota(Perm.begin(), Perm.end(), 0);
  double Scale = 0;
  for (double V : A)
    Scale = std::max(Scale, std::abs(V));
  double Tiny = 1e-12 * std::max(Scale, 1.0);
  for (std::size_t K = 0; K < N; ++K) {
    std::size_t Pivot = K;
    for (std::size_t R = K + 1; R < N; ++R)
      if (std::abs(A[R * N + K]) > std::abs(A[Pivot * N + K]))
        Pivot = R;
    if (std::abs(A[Pivot * N + K]) <= Tiny)
      return false;
    if (Pivot != K) {
      std::swap_ranges(A.begin() + static_cast<std::ptrdiff_t>(K * N),
                       A.begin() + static_cast<std::ptrdiff_t>(K * N + N),
                       A.begin() + static_cast<std::ptrdiff_t>(Pivot * N));
      std::swap(B[K], B[Pivot]);
    }
    for (std::size_t R = K + 1; R < N; ++R) {
      double Factor = A[R * N + K] / A[K * N + K];
      if (Factor == 0)
        continue;
      for (std::size_t C = K; C < N; ++C)
        A[R * N + C] -= Factor * A[K * N + C];
      B[R] -= Factor * B[K];
    }
  }
  X.assign(N, 0);
  for (std::size_t K = N; K-- > 0;) {
    double Sum = B[K];
    for (std::size_t C = K + 1; C < N; ++C)
      Sum -= A[K * N + C] * X[C];
    X[K] = Sum / A[K * N + K];
  }
  return true;
}

namespace {

/// Weakly connected components (one per function's CFG).
std::vector<std::vector<unsigned>> components(const FlowGraph &G) {
  std::vector<unsigned> Parent(G.Blocks);
  std::iota(Parent.begin(), Parent.end(), 0);
  auto Find = [&](unsigned X) {
    while (Parent[X] != X)
      X = Parent[X] = Parent[Parent[X]];
    return X;
  };
  for (const FlowGraph::Arc &E : G.Edges)
    Parent[Find(E.From)] = Find(E.To);
  std::vector<std::vector<unsigned>> ByRoot(G.Blocks);
  for (unsigned B = 0; B < G.Blocks; ++B)
    ByRoot[Find(B)].push_back(B);
  std::vector<std::vector<unsigned>> Out;
  for (std::vector<unsigned> &C : ByRoot)
    if (!C.empty())
      Out.push_back(std::move(C));
  return Out;
}

/// Larger systems are solved by Gauss-Seidel sweeps instead of LU.
constexpr std::size_t DenseLimit = 1500;
/// The paper bounds iteration by 200 rounds (its footnote 8).
constexpr unsigned MaxSweeps = 200;

} // namespace

BlockRankResult blockRank(const FlowGraph &G, std::span<const EdgeProfile> Runs) {
  std::size_t M = G.Edges.size(), N = G.Blocks;
  BlockRankResult R;
  R.MeanPassed.assign(M, 0);
  R.MeanFailed.assign(M, 0);
  unsigned Passed = 0, Failed = 0;
  std::vector<double> Entered(N, 0), Left(N, 0);
  std::vector<std::vector<unsigned>> In(N), Out(N);
  for (unsigned E = 0; E < M; ++E) {
    Out[G.Edges[E].From].push_back(E);
    In[G.Edges[E].To].push_back(E);
  }
  for (const EdgeProfile &Run : Runs) {
    (Run.Failed ? Failed : Passed) += 1;
    std::vector<double> &Mean = Run.Failed ? R.MeanFailed : R.MeanPassed;
    auto At = [](const std::vector<double> &V, std::size_t I) { return I < V.size() ? V[I] : 0; };
    for (unsigned E = 0; E < M; ++E) {
      double Count = At(Run.Edges, E);
      Mean[E] += Count;
      Left[G.Edges[E].From] += Count;
      Entered[G.Edges[E].To] += Count;
    }
    // A block nothing in its graph leads to (a function's entry) is entered
    // from outside: as often as it executed.
    for (unsigned B = 0; B < N; ++B)
      if (In[B].empty())
        Entered[B] += At(Run.Blocks, B);
  }
  for (unsigned E = 0; E < M; ++E) {
    if (Passed)
      R.MeanPassed[E] /= Passed;
    if (Failed)
      R.MeanFailed[E] /= Failed;
  }
  R.Suspicious.resize(M);
  for (unsigned E = 0; E < M; ++E)
    R.Suspicious[E] = R.MeanFailed[E] - R.MeanPassed[E];

  R.Incoming.assign(N, 0);
  R.Transition.assign(N, 0);
  for (unsigned B = 0; B < N; ++B) {
    for (unsigned E : In[B])
      R.Incoming[B] += R.Suspicious[E];
    if (Out[B].empty())
      R.Transition[B] = 0; // nowhere to go: all of its relevance is its own
    else if (Entered[B] == 0)
      R.Transition[B] = 1; // never entered: no sign of stopping inside
    else
      R.Transition[B] = std::clamp(Left[B] / Entered[B], 0.0, 1.0);
  }
  std::vector<double> Weight(M, 0);
  for (unsigned E = 0; E < M; ++E) {
    double Den = R.Incoming[G.Edges[E].To];
    Weight[E] = Den == 0 ? 0 : R.Suspicious[E] / Den; // the paper's footnote 7
  }

  R.Propagated.assign(N, 0);
  for (const std::vector<unsigned> &Component : components(G)) {
    std::size_t K = Component.size();
    std::vector<std::size_t> Local(N, 0);
    for (std::size_t I = 0; I < K; ++I)
      Local[Component[I]] = I;
    bool Solved = false;
    if (K <= DenseLimit) {
      std::vector<double> A(K * K, 0), Rhs(K, 0), X;
      for (std::size_t I = 0; I < K; ++I) {
        unsigned B = Component[I];
        A[I * K + I] = 1;
        if (Out[B].empty())
          Rhs[I] = R.Incoming[B];
        for (unsigned E : Out[B])
          A[I * K + Local[G.Edges[E].To]] -= Weight[E];
      }
      if ((Solved = solveDense(std::move(A), std::move(Rhs), X)))
        for (std::size_t I = 0; I < K; ++I)
          R.Propagated[Component[I]] = X[I];
    }
    if (Solved)
      continue;
    // Too large for LU, or singular (a cycle no relevance enters or leaves):
    // iterate from zero, as the paper suggests for loops.
    ++R.IterativeComponents;
    for (unsigned Sweep = 0; Sweep < MaxSweeps; ++Sweep) {
      double Change = 0;
      for (unsigned B : Component) {
        double Self = 0, Sum = Out[B].empty() ? R.Incoming[B] : 0;
        for (unsigned E : Out[B]) {
          if (G.Edges[E].To == B)
            Self += Weight[E];
          else
            Sum += Weight[E] * R.Propagated[G.Edges[E].To];
        }
        double Next = Self != 1 ? Sum / (1 - Self) : Sum;
        if (!std::isfinite(Next))
          Next = 0;
        Change = std::max(Change, std::abs(Next - R.Propagated[B]));
        R.Propagated[B] = Next;
      }
      if (Change <= 1e-12)
        break;
    }
  }

  R.Score.resize(N);
  for (unsigned B = 0; B < N; ++B)
    R.Score[B] = R.Transition[B] * R.Propagated[B] + (1 - R.Transition[B]) * R.Incoming[B];
  return R;
}

Ranking rankByBlockRank(const SuiteSpectra &Suite, BlockRankResult *Details) {
  const Program &P = *Suite.Model;
  FlowGraph G;
  G.Blocks = static_cast<unsigned>(P.blocks().size());
  for (const Program::Edge &E : P.edges())
    G.Edges.push_back({E.From, E.To});
  std::vector<EdgeProfile> Runs;
  for (std::size_t T = 0; T < Suite.Spectra.size(); ++T) {
    const Spectrum &S = Suite.Spectra[T];
    EdgeProfile Run;
    Run.Failed = Suite.Failed[T];
    for (unsigned E = 0; E < P.edges().size(); ++E)
      Run.Edges.push_back(static_cast<double>(Spectrum::at(S.Edges, E)));
    for (unsigned B = 0; B < P.blocks().size(); ++B)
      Run.Blocks.push_back(static_cast<double>(Spectrum::at(S.Blocks, B)));
    Runs.push_back(std::move(Run));
  }
  BlockRankResult Result = blockRank(G, Runs);

  // A line takes the highest score of the blocks it starts a statement in.
  std::vector<double> LineScore(P.lines().size(), -INFINITY);
  for (unsigned B = 0; B < P.blocks().size(); ++B)
    for (unsigned Line : P.blocks()[B].Lines)
      if (std::optional<unsigned> Id = P.lineId(P.sourceOfBlock(B), Line))
        LineScore[*Id] = std::max(LineScore[*Id], Result.Score[B]);
  EventKind Lines[] = {EventKind::Line};
  std::vector<Event> Observed = observedEvents(Suite, Lines);
  // Lines in no block come last, below every block (as the paper appends
  // them as one more block).
  double Lowest = 0;
  for (Event E : Observed)
    if (std::isfinite(LineScore[E.Id]))
      Lowest = std::min(Lowest, LineScore[E.Id]);
  Ranking R;
  R.Technique = "blockrank";
  R.Title = "BlockRank";
  R.UnitRange = false;
  for (Event E : Observed) {
    ScoredEvent S;
    S.What = E;
    S.Counts = countEvent(Suite, E);
    S.Score = std::isfinite(LineScore[E.Id]) ? LineScore[E.Id] : Lowest - 1;
    R.Events.push_back(S);
  }
  orderRanking(P, R.Events);
  if (Details)
    *Details = std::move(Result);
  return R;
}

} // namespace sleuth::localizer
