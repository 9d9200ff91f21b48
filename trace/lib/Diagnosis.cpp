//===- Diagnosis.cpp - Correction sets and unsatisfiable cores ------------===//
//
// Correction sets: z3::optimize with the trace formula hard and every selector
// soft (weight 1). A model of least cost relaxes a correction set of least size;
// the clause "one of these selectors holds" then blocks that set and its
// supersets, so each next optimum is another minimal correction set, no smaller
// than the one before. Cores: z3::solver with the selectors as assumptions,
// then deletion-based minimization.
//
//===----------------------------------------------------------------------===//

#include "sleuth/trace/diagnosis.h"
#include "sleuth/trace/formula.h"

#include <algorithm>
#include <map>
#include <set>

namespace sleuth::trace {

namespace {

using Clock = std::chrono::steady_clock;

void setTimeout(z3::context &ctx, auto &solver, Clock::duration remaining) {
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(remaining).count();
  z3::params p(ctx);
  p.set("timeout", unsigned(std::clamp<long long>(ms, 1, 1 << 30)));
  solver.set(p);
}

class Diagnoser {
public:
  Diagnoser(const TraceFormula &formula, const DiagnosisOptions &options)
      : formula(formula), options(options), ctx(formula.context()), selectors(ctx) {
    for (const TraceFormula::Selector &s : formula.selectors()) {
      selectors.push_back(s.var);
      statementOf[s.var.id()] = s.stmt;
    }
  }

  Diagnosis run() {
    Diagnosis d;
    d.concretized = formula.concretized();
    d.status = status();
    if (d.status != Diagnosis::Status::Failing)
      return d;
    enumerate(d);
    rank(d);
    if (options.computeCore)
      minimalCore(d);
    return d;
  }

private:
  const TraceFormula &formula;
  const DiagnosisOptions &options;
  z3::context &ctx;
  z3::expr_vector selectors;
  std::map<unsigned, size_t> statementOf; // By the selector's AST id.

  Diagnosis::Status status() {
    z3::solver s(ctx);
    setTimeout(ctx, s, options.coreTimeLimit);
    s.add(formula.pathConstraints() && formula.observed());
    if (s.check(selectors) == z3::unsat)
      return Diagnosis::Status::Inconsistent;
    s.add(formula.specification());
    if (s.check(selectors) == z3::sat)
      return Diagnosis::Status::SpecHolds;
    return Diagnosis::Status::Failing;
  }

  CorrectionSet correctionSet(const z3::expr_vector &relaxed) const {
    CorrectionSet set;
    for (const z3::expr &sel : relaxed)
      set.statements.push_back(statementOf.at(sel.id()));
    std::sort(set.statements.begin(), set.statements.end());
    std::set<SourceLoc> locs;
    for (size_t stmt : set.statements)
      locs.insert(formula.path().statements[stmt].loc);
    set.locations.assign(locs.begin(), locs.end());
    return set;
  }

  void enumerate(Diagnosis &d) {
    auto deadline = Clock::now() + options.timeLimit;
    z3::optimize opt(ctx);
    opt.add(formula.formula());
    for (const z3::expr &sel : selectors)
      opt.add_soft(sel, 1);
    z3::expr_vector blocks(ctx);
    while (true) {
      if (options.maxCorrectionSets && d.correctionSets.size() >= options.maxCorrectionSets) {
        // Cut only if another set exists.
        z3::solver s(ctx);
        setTimeout(ctx, s, std::max(deadline - Clock::now(), Clock::duration(1)));
        s.add(formula.formula());
        s.add(blocks);
        d.cutByCount = s.check() != z3::unsat;
        return;
      }
      auto remaining = deadline - Clock::now();
      if (remaining <= Clock::duration::zero()) {
        d.cutByTime = true;
        return;
      }
      setTimeout(ctx, opt, remaining);
      z3::check_result r = opt.check();
      if (r == z3::unsat)
        return;
      if (r == z3::unknown) {
        d.cutByTime = true;
        return;
      }
      z3::model m = opt.get_model();
      z3::expr_vector relaxed(ctx);
      for (const z3::expr &sel : selectors)
        if (m.eval(sel, true).is_false())
          relaxed.push_back(sel);
      if (relaxed.empty()) // Cannot be while the path fails; do not loop.
        return;
      d.correctionSets.push_back(correctionSet(relaxed));
      z3::expr block = z3::mk_or(relaxed);
      blocks.push_back(block);
      opt.add(block);
    }
  }

  static void rank(Diagnosis &d) {
    std::map<SourceLoc, unsigned> counts;
    for (const CorrectionSet &set : d.correctionSets)
      for (const SourceLoc &loc : set.locations)
        ++counts[loc];
    for (const auto &[loc, count] : counts)
      d.ranking.push_back({loc, count});
    std::stable_sort(d.ranking.begin(), d.ranking.end(),
                     [](const LocationCount &a, const LocationCount &b) {
                       return a.correctionSets > b.correctionSets;
                     });
  }

  void minimalCore(Diagnosis &d) {
    auto deadline = Clock::now() + options.coreTimeLimit;
    z3::solver s(ctx);
    s.add(formula.formula());
    setTimeout(ctx, s, options.coreTimeLimit);
    if (s.check(selectors) != z3::unsat)
      return;
    std::vector<z3::expr> core;
    for (const z3::expr &e : s.unsat_core())
      core.push_back(e);
    d.coreMinimal = true;
    // Deletion: a selector whose removal leaves the rest unsatisfiable goes,
    // with whatever else the smaller core leaves out; one whose removal makes it
    // satisfiable stays (it stays needed in any subset).
    std::vector<z3::expr> candidates = core;
    for (const z3::expr &candidate : candidates) {
      auto position = std::find_if(core.begin(), core.end(),
                                   [&](const z3::expr &e) { return e.id() == candidate.id(); });
      if (position == core.end())
        continue;
      auto remaining = deadline - Clock::now();
      if (remaining <= Clock::duration::zero()) {
        d.coreMinimal = false;
        break;
      }
      z3::expr_vector without(ctx);
      for (const z3::expr &e : core)
        if (e.id() != candidate.id())
          without.push_back(e);
      setTimeout(ctx, s, remaining);
      z3::check_result r = s.check(without);
      if (r == z3::unknown) {
        d.coreMinimal = false;
        break;
      }
      if (r == z3::sat)
        continue;
      std::set<unsigned> kept;
      for (const z3::expr &e : s.unsat_core())
        kept.insert(e.id());
      std::erase_if(core, [&](const z3::expr &e) { return !kept.count(e.id()); });
    }
    for (const z3::expr &e : core)
      d.core.push_back(statementOf.at(e.id()));
    std::sort(d.core.begin(), d.core.end());
  }
};

} // namespace

Diagnosis diagnose(const TraceFormula &formula, const DiagnosisOptions &options) {
  return Diagnoser(formula, options).run();
}

Diagnosis diagnose(const Path &path, const DiagnosisOptions &options) {
  z3::context ctx;
  TraceFormula formula(ctx, path);
  return diagnose(formula, options);
}

} // namespace sleuth::trace
