//===- DiagnosisTest.cpp - Correction sets and cores on known examples ----===//

#include "TraceTestSupport.h"

#include "sleuth/trace/diagnosis.h"
#include "sleuth/trace/formula.h"

#include <gtest/gtest.h>

#include <algorithm>

using namespace sleuth::trace;
using namespace sleuth::trace::testing;

namespace {

bool contains(const std::vector<size_t> &v, size_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

/// Whether relaxing exactly the statements of `set` lets the path meet its specification.
bool corrects(const TraceFormula &f, const std::vector<size_t> &set) {
  z3::solver s(f.context());
  s.add(f.formula());
  for (const TraceFormula::Selector &sel : f.selectors())
    if (!contains(set, sel.stmt))
      s.add(sel.var);
  return s.check() == z3::sat;
}

/// Whether the statements of `enabled`, with the others relaxed, meet the specification.
bool satisfiable(const TraceFormula &f, const std::vector<size_t> &enabled) {
  z3::solver s(f.context());
  s.add(f.formula());
  for (const TraceFormula::Selector &sel : f.selectors())
    if (contains(enabled, sel.stmt))
      s.add(sel.var);
  return s.check() == z3::sat;
}

/// The Debugging Book's middle(), called as r = middle(a, b, c) with (2, 1, 3):
///
///   1 int middle(int x, int y, int z) {
///   2   if (y < z) {
///   3     if (x < y)
///   4       return y;
///   5     else if (x < z)
///   6       return y;        // the fault: should be x
///     ...
///  20 r = middle(a, b, c);
///
/// The return is the assignment `m = y` (line 6) and then r = m.
struct Middle {
  Path path;
  size_t fault = 0;

  Middle() {
    Expr a = path.scalar("a", Type::i32()), b = path.scalar("b", Type::i32());
    Expr c = path.scalar("c", Type::i32()), r = path.scalar("r", Type::i32());
    Expr x = path.scalar("x", Type::i32()), y = path.scalar("y", Type::i32());
    Expr z = path.scalar("z", Type::i32()), m = path.scalar("m", Type::i32());
    path.input(a, 2);
    path.input(b, 1);
    path.input(c, 3);
    path.enter();
    path.bindParam(x, a, at(20, 5));
    path.bindParam(y, b, at(20, 5));
    path.bindParam(z, c, at(20, 5));
    path.assume(y < z, at(2));
    path.assume(!(x < y), at(3));
    path.assume(x < z, at(5));
    fault = path.statements.size();
    path.assign(m, y, at(6), "return y");
    path.leave(r, m, at(20));
    path.expect(r, 2, 1, at(21));
  }
};

TEST(Diagnosis, MiddleBlamesTheFaultyReturn) {
  Middle middle;
  z3::context ctx;
  TraceFormula f(ctx, middle.path);
  Diagnosis d = diagnose(f);
  ASSERT_EQ(d.status, Diagnosis::Status::Failing);
  EXPECT_TRUE(d.complete());
  // {return y}, {y = b}, {r = m}: each alone explains the wrong result; x and z do not.
  ASSERT_EQ(d.correctionSets.size(), 3u);
  bool faultFound = false;
  for (const CorrectionSet &set : d.correctionSets) {
    EXPECT_EQ(set.statements.size(), 1u);
    EXPECT_TRUE(corrects(f, set.statements));
    faultFound |= set.statements == std::vector<size_t>{middle.fault};
  }
  EXPECT_TRUE(faultFound);
  for (const CorrectionSet &set : d.correctionSets) {
    EXPECT_FALSE(contains(set.statements, 0)); // x = a
    EXPECT_FALSE(contains(set.statements, 2)); // z = c
  }
  // The fault is a correction set on its own, so every core holds it.
  EXPECT_TRUE(d.coreMinimal);
  EXPECT_TRUE(contains(d.core, middle.fault));
  auto line6 = std::find_if(d.ranking.begin(), d.ranking.end(),
                            [](const LocationCount &c) { return c.loc == at(6); });
  ASSERT_NE(line6, d.ranking.end());
  EXPECT_EQ(line6->correctionSets, 1u);
}

/// x = 1; a = x + 1 (line 1); b = a * 2 (line 2, the fault: a * 3); c = a + 2 (line 3);
/// assert(b == 6 && c == 4). Only the fault explains it alone; {a, c} is the other set.
Path onlySingleFault() {
  Path p;
  Expr x = p.scalar("x", Type::i32()), a = p.scalar("a", Type::i32());
  Expr b = p.scalar("b", Type::i32()), c = p.scalar("c", Type::i32());
  p.input(x, 1);
  p.assign(a, x + 1, at(1));
  p.assign(b, a * 2, at(2));
  p.assign(c, a + 2, at(3));
  p.assertThat(b == 6 && c == 4, at(4));
  return p;
}

TEST(Diagnosis, FindsTheOnlyCorrectionSetOfSizeOne) {
  Path p = onlySingleFault();
  z3::context ctx;
  TraceFormula f(ctx, p);
  Diagnosis d = diagnose(f);
  ASSERT_EQ(d.status, Diagnosis::Status::Failing);
  ASSERT_EQ(d.correctionSets.size(), 2u);
  EXPECT_EQ(d.correctionSets[0].statements, std::vector<size_t>({1}));
  EXPECT_EQ(d.correctionSets[0].locations, std::vector<SourceLoc>({at(2)}));
  EXPECT_EQ(d.correctionSets[1].statements, std::vector<size_t>({0, 2}));
  EXPECT_TRUE(d.complete());
  // Ranking: line 2 first (in one set, like lines 1 and 3, then by location).
  ASSERT_EQ(d.ranking.size(), 3u);
  EXPECT_EQ(d.ranking[0].loc, at(1));
  EXPECT_EQ(d.ranking[1].loc, at(2));
  // The cores are {a, b} and {b, c}; whichever was found, it is minimal.
  EXPECT_TRUE(d.coreMinimal);
  EXPECT_TRUE(d.core == std::vector<size_t>({0, 1}) || d.core == std::vector<size_t>({1, 2}));
  EXPECT_FALSE(satisfiable(f, d.core));
  for (size_t drop : d.core) {
    std::vector<size_t> rest = d.core;
    std::erase(rest, drop);
    EXPECT_TRUE(satisfiable(f, rest)) << "without " << drop;
  }
}

/// Two independent faults, each behind its own assert:
/// a = x + 1 (line 10, fault), p = a * 2 (11), assert(p == 6) (12);
/// b = y * 2 (line 20, fault), q = b + 1 (21), assert(q == 7) (22).
Path twoFaults() {
  Path p;
  Expr x = p.scalar("x", Type::i32()), y = p.scalar("y", Type::i32());
  Expr a = p.scalar("a", Type::i32()), b = p.scalar("b", Type::i32());
  Expr pv = p.scalar("p", Type::i32()), q = p.scalar("q", Type::i32());
  p.input(x, 1);
  p.input(y, 2);
  p.assign(a, x + 1, at(10));
  p.assign(pv, a * 2, at(11));
  p.assertThat(pv == 6, at(12));
  p.assign(b, y * 2, at(20));
  p.assign(q, b + 1, at(21));
  p.assertThat(q == 7, at(22));
  return p;
}

TEST(Diagnosis, EnumeratesBothIndependentFaults) {
  Path p = twoFaults();
  Diagnosis d = diagnose(p);
  ASSERT_EQ(d.status, Diagnosis::Status::Failing);
  // One statement of each chain: 2 x 2 sets of size 2.
  ASSERT_EQ(d.correctionSets.size(), 4u);
  bool first = false, second = false;
  for (const CorrectionSet &set : d.correctionSets) {
    ASSERT_EQ(set.statements.size(), 2u);
    EXPECT_LE(set.statements[0], 1u);
    EXPECT_GE(set.statements[1], 3u);
    first |= contains(set.statements, 0);
    second |= contains(set.statements, 3);
  }
  EXPECT_TRUE(first && second);
  EXPECT_TRUE(d.complete());
  ASSERT_EQ(d.ranking.size(), 4u);
  for (const LocationCount &c : d.ranking)
    EXPECT_EQ(c.correctionSets, 2u);
}

TEST(Diagnosis, FixesAnOpaqueCallsValue) {
  // r = isqrt(x) (line 1, a library call: 2 in the run); y = r + 1 (line 2, the fault);
  // assert(y == 4).
  Path p;
  Expr x = p.scalar("x", Type::i32()), r = p.scalar("r", Type::i32());
  Expr y = p.scalar("y", Type::i32());
  p.input(x, 4);
  p.assign(r, opaque("isqrt", 2, Type::i32(), {x}), at(1));
  p.assign(y, r + 1, at(2));
  p.assertThat(y == 4, at(3));
  z3::context ctx;
  TraceFormula f(ctx, p);
  EXPECT_EQ(f.concretized(), std::vector<size_t>({0}));
  ASSERT_EQ(f.selectors().size(), 1u);
  EXPECT_EQ(f.selectors()[0].stmt, 1u);
  // The call's result holds whatever the selectors say.
  z3::solver s(ctx);
  s.add(f.pathConstraints() && ctx.bv_const("r#1", 32) != ctx.bv_val(2, 32));
  EXPECT_EQ(s.check(), z3::unsat);

  Diagnosis d = diagnose(f);
  EXPECT_EQ(d.concretized, std::vector<size_t>({0}));
  ASSERT_EQ(d.correctionSets.size(), 1u);
  EXPECT_EQ(d.correctionSets[0].statements, std::vector<size_t>({1}));
  EXPECT_EQ(d.core, std::vector<size_t>({1}));

  // The same statement without the fallback is a correction set of its own.
  Path plain = p;
  plain.statements[0].value = x - 2;
  Diagnosis without = diagnose(plain);
  EXPECT_EQ(without.correctionSets.size(), 2u);
  EXPECT_TRUE(without.concretized.empty());
}

TEST(Diagnosis, SaysWhenThereIsNothingToExplain) {
  Path passing;
  Expr x = passing.scalar("x", Type::i32());
  passing.assign(x, 3, at(1));
  passing.expect(x, 3, 3);
  EXPECT_EQ(diagnose(passing).status, Diagnosis::Status::SpecHolds);

  // The run says it produced 5, the encoding gives 3: the description is wrong.
  Path wrong = passing;
  wrong.expect(x, 4, 5);
  Diagnosis d = diagnose(wrong);
  EXPECT_EQ(d.status, Diagnosis::Status::Inconsistent);
  EXPECT_TRUE(d.correctionSets.empty());

  Path failing = passing;
  failing.expect(x, 4, 3);
  EXPECT_EQ(diagnose(failing).status, Diagnosis::Status::Failing);
}

TEST(DiagnosisLimits, StopsAfterNSetsAndSaysSo) {
  Path p = twoFaults();
  DiagnosisOptions options;
  options.maxCorrectionSets = 3;
  Diagnosis d = diagnose(p, options);
  EXPECT_EQ(d.correctionSets.size(), 3u);
  EXPECT_TRUE(d.cutByCount);
  EXPECT_FALSE(d.complete());

  options.maxCorrectionSets = 4; // Exactly all of them: not cut.
  d = diagnose(p, options);
  EXPECT_EQ(d.correctionSets.size(), 4u);
  EXPECT_FALSE(d.cutByCount);
  EXPECT_TRUE(d.complete());
}

TEST(DiagnosisLimits, StopsAtTheTimeLimitAndSaysSo) {
  // x = x + 1, 400 times, then assert(x == 0): each statement alone is a
  // correction set. Enumerating all 400 takes about a minute; 300 ms are allowed.
  Path p;
  Expr x = p.scalar("x", Type::i32());
  p.input(x, 1);
  const unsigned steps = 400;
  for (unsigned i = 0; i < steps; ++i)
    p.assign(x, x + 1, at(i + 1));
  p.assertThat(x == 0, at(steps + 1));
  DiagnosisOptions options;
  options.maxCorrectionSets = 0;
  options.timeLimit = std::chrono::milliseconds(300);
  options.computeCore = false;
  auto start = std::chrono::steady_clock::now();
  Diagnosis d = diagnose(p, options);
  auto elapsed = std::chrono::steady_clock::now() - start;
  ASSERT_EQ(d.status, Diagnosis::Status::Failing);
  EXPECT_TRUE(d.cutByTime);
  EXPECT_FALSE(d.cutByCount);
  EXPECT_FALSE(d.complete());
  EXPECT_LT(d.correctionSets.size(), steps);
  for (const CorrectionSet &set : d.correctionSets)
    EXPECT_EQ(set.statements.size(), 1u);
  // Encoding and the checks before the enumeration take part of a second.
  EXPECT_LT(elapsed, std::chrono::seconds(4));
  EXPECT_TRUE(d.core.empty());
}

} // namespace
