//===- sleuth/reducer/delta.h - Delta debugging over any sequence -*- C++
//-*-===//
//
// ddmin and dd (Zeller & Hildebrandt, 2002) over any indexable sequence, with
// a three-valued test, an outcome cache and parallel evaluation of candidates.
//
//   auto Smaller = sleuth::reducer::ddmin(Input, [](const std::string &S) {
//     return crashes(S) ? Outcome::Fail : Outcome::Pass;
//   });
//
// A configuration is a sorted list of indices into the original input. The
// algorithms never see elements, only configurations, so the same code
// reduces characters, lines, tokens, or the changes between two files.
//
//===----------------------------------------------------------------------===//
#pragma once

#include <cstddef>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <utility>
#include <vector>

namespace sleuth::reducer {

/// Outcome of one test, as in the Debugging Book: Fail means the failure
/// reproduces (the input is "interesting"), Pass means it does not, and
/// Unresolved means the test could not decide (invalid input, timeout).
enum class Outcome { Pass, Fail, Unresolved };

const char *outcomeName(Outcome O);

/// Sorted indices into the original input.
using Config = std::vector<std::size_t>;

/// One question the algorithm wants answered: does Candidate yield Wanted?
struct Probe {
  Config Candidate;
  Outcome Wanted;
};

/// Produces the I-th probe of a round, or nothing past the last one.
using ProbeSource = std::function<std::optional<Probe>(std::size_t I)>;

/// Answers probes. Delta debugging asks a round of questions and acts on the
/// first one answered "yes"; an evaluator may answer several at once in
/// parallel, as long as it reports the first match in generation order.
class ProbeEvaluator {
public:
  virtual ~ProbeEvaluator();
  /// Returns the index of the first probe whose outcome is the wanted one.
  virtual std::optional<std::size_t> firstMatch(const ProbeSource &Next) = 0;
  /// Outcome of a single configuration.
  virtual Outcome test(const Config &C) = 0;
};

struct DeltaOptions {
  /// Candidates evaluated at once; the test must be thread-safe if > 1.
  unsigned Jobs = 1;
  /// Remember outcomes by configuration, so no input is tested twice.
  bool Cache = true;
};

struct DeltaStats {
  std::size_t Tests = 0;     ///< Test function invocations.
  std::size_t CacheHits = 0; ///< Questions answered from the cache.
};

/// An evaluator that calls Test on up to Opts.Jobs threads.
std::unique_ptr<ProbeEvaluator> makeEvaluator(std::function<Outcome(const Config &)> Test,
                                              DeltaOptions Opts, DeltaStats *Stats = nullptr);

/// What general delta debugging optimizes.
enum class DDMode {
  Minimize, ///< Shrink the failing input (ddmin).
  Maximize, ///< Grow the passing input (ddmax).
  Both      ///< Narrow the difference between the two (dd).
};

struct DDConfigs {
  Config Passing;    ///< Maximal passing configuration found.
  Config Failing;    ///< Minimal failing configuration found.
  Config Difference; ///< Failing minus Passing: the failure cause.
};

/// The input given to dd or ddmin did not behave as required.
class DeltaError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

/// General delta debugging over elements 0..N-1. The empty configuration must
/// pass (unless only minimizing) and the full one must fail (unless only
/// maximizing); otherwise throws DeltaError.
DDConfigs deltaDebug(std::size_t N, ProbeEvaluator &E, DDMode Mode);

/// The elements of Input selected by C, in order.
template <typename Seq> Seq select(const Seq &Input, const Config &C) {
  Seq Out;
  for (std::size_t I : C)
    Out.push_back(Input[I]);
  return Out;
}

template <typename Seq> struct DDResult {
  Seq Passing;    ///< Maximal passing input.
  Seq Failing;    ///< Minimal failing input.
  Seq Difference; ///< Elements in Failing but not in Passing.
  DeltaStats Stats;
};

namespace detail {
inline Config fullConfig(std::size_t N) {
  Config C(N);
  for (std::size_t I = 0; I < N; ++I)
    C[I] = I;
  return C;
}
template <typename Seq, typename Fn>
std::function<Outcome(const Config &)> onSequence(const Seq &Input, Fn &Test) {
  return [&Input, &Test](const Config &C) { return Test(select(Input, C)); };
}
} // namespace detail

/// Reduces a failing Input to a 1-minimal failing subsequence.
/// Test: Outcome(const Seq &). Throws DeltaError if Input does not fail.
template <typename Seq, typename Fn>
Seq ddmin(const Seq &Input, Fn &&Test, DeltaOptions Opts = {}, DeltaStats *Stats = nullptr) {
  auto E = makeEvaluator(detail::onSequence(Input, Test), Opts, Stats);
  return select(Input, deltaDebug(Input.size(), *E, DDMode::Minimize).Failing);
}

/// dd on a failing Input, starting from the empty input as the passing one:
/// the maximal passing input, the minimal failing input and their difference
/// (the Debugging Book's min_arg_diff).
template <typename Seq, typename Fn>
DDResult<Seq> dd(const Seq &Failing, Fn &&Test, DeltaOptions Opts = {},
                 DDMode Mode = DDMode::Both) {
  DDResult<Seq> R;
  auto E = makeEvaluator(detail::onSequence(Failing, Test), Opts, &R.Stats);
  DDConfigs C = deltaDebug(Failing.size(), *E, Mode);
  R.Passing = select(Failing, C.Passing);
  R.Failing = select(Failing, C.Failing);
  R.Difference = select(Failing, C.Difference);
  return R;
}

} // namespace sleuth::reducer
