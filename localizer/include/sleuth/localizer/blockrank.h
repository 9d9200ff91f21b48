// BlockRank (Zhang, Chan, Tse, Jiang, COMPSAC 2011): fault relevance
// propagated over control-flow graphs from the difference between the mean
// edge profiles of failed and passed runs, calibrated for runs that stop
// inside a block (crashes, exit).
#pragma once

#include "sleuth/localizer/ranking.h"

#include <span>
#include <vector>

namespace sleuth::localizer {

/// A control-flow graph given by its edges; blocks are 0..Blocks-1. Several
/// functions' graphs may share one FlowGraph (they do not interact).
struct FlowGraph {
  unsigned Blocks = 0;
  struct Arc {
    unsigned From = 0, To = 0;
  };
  std::vector<Arc> Edges;
};

/// One run: how often each edge was taken and each block executed.
struct EdgeProfile {
  std::vector<double> Edges;
  std::vector<double> Blocks; ///< Used for blocks without incoming edges.
  bool Failed = false;
};

struct BlockRankResult {
  std::vector<double> MeanPassed, MeanFailed; ///< Per edge.
  std::vector<double> Suspicious;             ///< Per edge: MeanFailed - MeanPassed.
  std::vector<double> Transition;             ///< Per block: T(b), in [0, 1].
  std::vector<double> Incoming;               ///< Per block: I(b), sum of Suspicious over in-edges.
  std::vector<double> Propagated;             ///< Per block: BR(b), the solved equation set.
  std::vector<double> Score;                  ///< Per block: T BR + (1 - T) I.
  unsigned IterativeComponents = 0;           ///< Graphs solved by iteration (singular systems).
};

/// Computes BlockRank for G from the runs' edge profiles. Needs at least one
/// passed and one failed run (the means are undefined otherwise).
BlockRankResult blockRank(const FlowGraph &G, std::span<const EdgeProfile> Runs);

/// BlockRank over the suite's CFGs; each executed line gets the highest score
/// of the blocks it belongs to (the paper maps a block's rank to its
/// statements).
Ranking rankByBlockRank(const SuiteSpectra &Suite, BlockRankResult *Details = nullptr);

/// Solves A x = B (A is N x N, row-major) by LU decomposition with partial
/// pivoting. Returns false when A is singular.
bool solveDense(std::vector<double> A, std::vector<double> B, std::vector<double> &X);

} // namespace sleuth::localizer
