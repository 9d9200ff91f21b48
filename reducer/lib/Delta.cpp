//===- Delta.cpp - ddmin and dd over configurations -----------------------===//
//
// One algorithm serves ddmin, ddmax and dd: each round splits the difference
// between the passing and the failing configuration into n parts and asks, in
// a fixed order, whether adding a part to the passing side or removing it from
// the failing side keeps the outcome. The questions of a round are handed to a
// ProbeEvaluator as a lazy list, so an evaluator may answer several of them at
// once on other cores without changing which answer the algorithm acts on.
//
//===----------------------------------------------------------------------===//
#include "sleuth/reducer/delta.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <mutex>
#include <thread>

namespace sleuth::reducer {

const char *outcomeName(Outcome O) {
  switch (O) {
  case Outcome::Pass:
    return "PASS";
  case Outcome::Fail:
    return "FAIL";
  case Outcome::Unresolved:
    return "UNRESOLVED";
  }
  return "?";
}

ProbeEvaluator::~ProbeEvaluator() = default;

namespace {

Config unite(const Config &A, const Config &B) {
  Config Out;
  std::set_union(A.begin(), A.end(), B.begin(), B.end(), std::back_inserter(Out));
  return Out;
}

Config subtract(const Config &A, const Config &B) {
  Config Out;
  std::set_difference(A.begin(), A.end(), B.begin(), B.end(), std::back_inserter(Out));
  return Out;
}

/// Splits Elems into N runs of nearly equal length, the longer ones first.
std::vector<Config> split(const Config &Elems, std::size_t N) {
  std::vector<Config> Parts;
  std::size_t K = Elems.size() / N, M = Elems.size() % N;
  for (std::size_t I = 0; I < N; ++I) {
    std::size_t Begin = I * K + std::min(I, M);
    std::size_t End = (I + 1) * K + std::min(I + 1, M);
    Parts.emplace_back(Elems.begin() + Begin, Elems.begin() + End);
  }
  return Parts;
}

/// The four moves of a dd round, in the order they are tried for each part.
enum class Move { ReduceToSubset, IncreaseToSubset, ReduceToComplement, IncreaseToComplement };

class ThreadedEvaluator : public ProbeEvaluator {
public:
  ThreadedEvaluator(std::function<Outcome(const Config &)> Test, DeltaOptions Opts,
                    DeltaStats *Stats)
      : Test(std::move(Test)), Opts(Opts), Stats(Stats ? Stats : &Own) {
    if (this->Opts.Jobs == 0)
      this->Opts.Jobs = 1;
  }

  Outcome test(const Config &C) override {
    if (Opts.Cache) {
      std::lock_guard<std::mutex> Lock(M);
      auto It = Cache.find(C);
      if (It != Cache.end()) {
        ++Stats->CacheHits;
        return It->second;
      }
    }
    Outcome O = Test(C);
    std::lock_guard<std::mutex> Lock(M);
    ++Stats->Tests;
    if (Opts.Cache)
      Cache.emplace(C, O);
    return O;
  }

  std::optional<std::size_t> firstMatch(const ProbeSource &Next) override {
    for (std::size_t Base = 0;; Base += Opts.Jobs) {
      // Evaluate a window of Jobs probes at once; with one job this is the
      // plain sequential loop that stops at the first match.
      std::vector<Probe> Window;
      for (std::size_t I = 0; I < Opts.Jobs; ++I) {
        std::optional<Probe> P = Next(Base + I);
        if (!P)
          break;
        Window.push_back(std::move(*P));
      }
      if (Window.empty())
        return std::nullopt;
      std::vector<Outcome> Results(Window.size(), Outcome::Unresolved);
      if (Window.size() == 1) {
        Results[0] = test(Window[0].Candidate);
      } else {
        std::vector<std::thread> Threads;
        for (std::size_t I = 0; I < Window.size(); ++I)
          Threads.emplace_back([&, I] { Results[I] = test(Window[I].Candidate); });
        for (std::thread &T : Threads)
          T.join();
      }
      for (std::size_t I = 0; I < Window.size(); ++I)
        if (Results[I] == Window[I].Wanted)
          return Base + I;
    }
  }

private:
  std::function<Outcome(const Config &)> Test;
  DeltaOptions Opts;
  DeltaStats Own;
  DeltaStats *Stats;
  std::mutex M;
  std::map<Config, Outcome> Cache;
};

} // namespace

std::unique_ptr<ProbeEvaluator> makeEvaluator(std::function<Outcome(const Config &)> Test,
                                              DeltaOptions Opts, DeltaStats *Stats) {
  return std::make_unique<ThreadedEvaluator>(std::move(Test), Opts, Stats);
}

DDConfigs deltaDebug(std::size_t N, ProbeEvaluator &E, DDMode Mode) {
  const bool Minimize = Mode != DDMode::Maximize;
  const bool Maximize = Mode != DDMode::Minimize;
  Config Pass, Fail = detail::fullConfig(N);
  auto Result = [&] { return DDConfigs{Pass, Fail, subtract(Fail, Pass)}; };

  if (E.test(Pass) == Outcome::Fail) {
    if (Maximize)
      throw DeltaError("the empty input was expected to pass, but fails");
    Fail = Pass;
    return Result();
  }
  if (E.test(Fail) == Outcome::Pass) {
    if (Minimize)
      throw DeltaError("the input was expected to fail, but passes");
    Pass = Fail;
    return Result();
  }

  std::size_t Granularity = 2, Offset = 0;
  for (;;) {
    Config Delta = subtract(Fail, Pass);
    if (Delta.size() < Granularity)
      return Result();
    std::vector<Config> Parts = split(Delta, Granularity);

    // The round's questions, in the order the algorithm asks them.
    std::vector<std::pair<std::size_t, Move>> Plan;
    for (std::size_t J = 0; J < Granularity; ++J) {
      std::size_t I = (J + Offset) % Granularity;
      if (Minimize && Granularity == 2)
        Plan.emplace_back(I, Move::ReduceToSubset);
      if (Maximize && Granularity == 2)
        Plan.emplace_back(I, Move::IncreaseToSubset);
      // With two parts and one direction, a complement is the other part's
      // subset: the book's version asks again and hits its cache; asking
      // only once keeps parallel jobs from testing one input twice.
      bool Redundant = Granularity == 2 && Mode != DDMode::Both;
      if (Minimize && !Redundant)
        Plan.emplace_back(I, Move::ReduceToComplement);
      if (Maximize && !Redundant)
        Plan.emplace_back(I, Move::IncreaseToComplement);
    }
    auto Candidate = [&](std::size_t K) -> Probe {
      auto [I, M] = Plan[K];
      switch (M) {
      case Move::ReduceToSubset:
        return {unite(Pass, Parts[I]), Outcome::Fail};
      case Move::IncreaseToSubset:
        return {subtract(Fail, Parts[I]), Outcome::Pass};
      case Move::ReduceToComplement:
        return {subtract(Fail, Parts[I]), Outcome::Fail};
      case Move::IncreaseToComplement:
        return {unite(Pass, Parts[I]), Outcome::Pass};
      }
      return {};
    };
    std::optional<std::size_t> Hit = E.firstMatch([&](std::size_t K) -> std::optional<Probe> {
      if (K >= Plan.size())
        return std::nullopt;
      return Candidate(K);
    });

    if (!Hit) {
      if (Granularity >= Delta.size())
        return Result();
      Granularity = std::min(Granularity * 2, Delta.size());
      continue;
    }
    auto [I, M] = Plan[*Hit];
    Config Next = Candidate(*Hit).Candidate;
    // Continue with the part after the one that helped, so that reductions
    // spread over the input instead of always starting at its beginning.
    Offset = I;
    switch (M) {
    case Move::ReduceToSubset:
      Fail = std::move(Next);
      break;
    case Move::IncreaseToSubset:
      Pass = std::move(Next);
      break;
    case Move::ReduceToComplement:
      Fail = std::move(Next);
      Granularity = std::max<std::size_t>(Granularity - 1, 2);
      break;
    case Move::IncreaseToComplement:
      Pass = std::move(Next);
      Granularity = std::max<std::size_t>(Granularity - 1, 2);
      break;
    }
  }
}

} // namespace sleuth::reducer
