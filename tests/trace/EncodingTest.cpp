//===- EncodingTest.cpp - Paths against hand-written formulas -------------===//

#include "TraceTestSupport.h"

#include "sleuth/trace/formula.h"

#include <gtest/gtest.h>

using namespace sleuth::trace;
using namespace sleuth::trace::testing;

namespace {

class Encoding : public ::testing::Test {
protected:
  z3::context ctx;
  z3::expr bv(const char *name, unsigned width = 32) { return ctx.bv_const(name, width); }
  z3::expr val(int64_t v, unsigned width = 32) { return ctx.bv_val(uint64_t(v), width); }
  z3::expr sel(unsigned i) { return ctx.bool_const(("sel" + std::to_string(i)).c_str()); }
  z3::expr arr(const char *name, unsigned width = 32) {
    return ctx.constant(name, ctx.array_sort(ctx.bv_sort(64), ctx.bv_sort(width)));
  }
};

TEST_F(Encoding, RenamesAcrossTwoAssignments) {
  Path p;
  Expr x = p.scalar("x", Type::i32());
  p.input(x, 3);
  p.assign(x, x + 1, at(1));
  p.assign(x, x * 2, at(2));
  p.assertThat(x > 0, at(3));
  TraceFormula f(ctx, p);

  z3::expr expected = bv("x#0") == val(3) && z3::implies(sel(0), bv("x#1") == bv("x#0") + 1) &&
                      z3::implies(sel(1), bv("x#2") == bv("x#1") * 2);
  EXPECT_TRUE(equivalent(f.pathConstraints(), expected));
  EXPECT_TRUE(equivalent(f.specification(), bv("x#2") > 0));
  ASSERT_EQ(f.selectors().size(), 2u);
  EXPECT_EQ(f.selectors()[1].stmt, 1u);
  EXPECT_TRUE(entails(f, bv("x#2") == val(8)));
}

TEST_F(Encoding, TellsAWrongFormulaApart) {
  // The equivalence check has teeth: one constant off is found.
  Path p;
  Expr x = p.scalar("x", Type::i32());
  p.assign(x, x + 1, at(1));
  TraceFormula f(ctx, p);
  EXPECT_FALSE(equivalent(f.pathConstraints(), z3::implies(sel(0), bv("x#1") == bv("x#0") + 2)));
  EXPECT_FALSE(equivalent(f.pathConstraints(), bv("x#1") == bv("x#0") + 1));
}

TEST_F(Encoding, InlinesCallsWithFreshNamesPerActivation) {
  // r = inc(a); r = inc(r); with int inc(int p) { int t = p + 1; return t; }
  Path p;
  Expr a = p.scalar("a", Type::i32()), r = p.scalar("r", Type::i32());
  Expr param = p.scalar("p", Type::i32()), t = p.scalar("t", Type::i32());
  p.assign(a, 5, at(1));
  for (int call = 0; call < 2; ++call) {
    p.enter();
    p.bindParam(param, call == 0 ? a : r, at(2));
    p.assign(t, param + 1, at(10));
    p.leave(r, t, at(11));
  }
  TraceFormula f(ctx, p);

  z3::expr expected = z3::implies(sel(0), bv("a#1") == val(5)) &&
                      z3::implies(sel(1), bv("p@1#1") == bv("a#1")) &&
                      z3::implies(sel(2), bv("t@1#1") == bv("p@1#1") + 1) &&
                      z3::implies(sel(3), bv("r#1") == bv("t@1#1")) &&
                      z3::implies(sel(4), bv("p@2#1") == bv("r#1")) &&
                      z3::implies(sel(5), bv("t@2#1") == bv("p@2#1") + 1) &&
                      z3::implies(sel(6), bv("r#2") == bv("t@2#1"));
  EXPECT_TRUE(equivalent(f.pathConstraints(), expected));
  EXPECT_TRUE(entails(f, bv("r#2") == val(7)));
}

TEST_F(Encoding, WritesArrayElementsThenReadsThem) {
  Path p;
  ArrayRef a = p.array("a", Type::i32());
  Expr i = p.scalar("i", Type::i32()), x = p.scalar("x", Type::i32());
  p.input(i, 1);
  p.assign(a[0], 7, at(1));
  p.assign(a[i], 9, at(2));
  p.assign(x, a[0] + a[1], at(3));
  TraceFormula f(ctx, p);

  z3::expr a1 = arr("a#1"), a2 = arr("a#2");
  z3::expr expected =
      bv("i#0") == val(1) &&
      a1 == z3::store(arr("a#0"), val(0, 64), z3::ite(sel(0), val(7), bv("a#1!free"))) &&
      a2 == z3::store(a1, z3::sext(bv("i#0"), 32), z3::ite(sel(1), val(9), bv("a#2!free"))) &&
      z3::implies(sel(2), bv("x#1") == z3::select(a2, val(0, 64)) + z3::select(a2, val(1, 64)));
  EXPECT_TRUE(equivalent(f.pathConstraints(), expected));
  EXPECT_TRUE(entails(f, bv("x#1") == val(16)));
}

TEST_F(Encoding, GivesEachStructFieldItsOwnVersions) {
  Path p;
  StructRef s = p.record("s", {{"a", Type::i32()}, {"b", Type::i16()}});
  p.assign(s.field("a"), 1, at(1));
  p.assign(s.field("b"), s.field("a") + 2, at(2));
  p.assign(s.field("a"), s.field("b"), at(3));
  p.assertThat(s.field("b") == 3, at(4));
  TraceFormula f(ctx, p);

  // s.b is a short: the int sum is truncated, and widened again where it is read.
  z3::expr expected = z3::implies(sel(0), bv("s.a#1") == val(1)) &&
                      z3::implies(sel(1), bv("s.b#1", 16) == (bv("s.a#1") + 2).extract(15, 0)) &&
                      z3::implies(sel(2), bv("s.a#2") == z3::sext(bv("s.b#1", 16), 16));
  EXPECT_TRUE(equivalent(f.pathConstraints(), expected));
  EXPECT_TRUE(equivalent(f.specification(), z3::sext(bv("s.b#1", 16), 16) == val(3)));
}

TEST_F(Encoding, WritesThroughAPointerIntoAnArray) {
  // int a[3], y, x; int *p = &a[1]; int *q = &y; *p = 5; x = a[1] + *q;
  Path p;
  ArrayRef a = p.array("a", Type::i32());
  Expr y = p.scalar("y", Type::i32()), x = p.scalar("x", Type::i32());
  Expr ptr = p.scalar("p", Type::pointerTo(Type::i32()));
  Expr q = p.scalar("q", Type::pointerTo(Type::i32()));
  p.input(y, 4);
  p.assign(ptr, addressOf(a[1]), at(1));
  p.assign(q, addressOf(y), at(2));
  p.assign(deref(ptr), 5, at(3));
  p.assign(x, a[1] + deref(q), at(4));
  TraceFormula f(ctx, p);

  ASSERT_EQ(f.objectId(0), 1u); // a
  ASSERT_EQ(f.objectId(1), 2u); // y
  EXPECT_EQ(f.objectId(2), 0u); // x: its address is not taken.
  z3::sort ps = f.pointerSort();
  z3::expr p1 = ctx.constant("p#1", ps), q1 = ctx.constant("q#1", ps);
  auto obj = [&](const z3::expr &e) { return f.objectOf(e); };
  auto off = [&](const z3::expr &e) { return f.offsetOf(e); };
  z3::expr written = z3::ite(sel(2), val(5), bv("deref2!free"));
  z3::expr a1 = arr("a#1");
  z3::expr expected =
      bv("y#0") == val(4) && z3::implies(sel(0), p1 == f.pointer(1, val(1, 64))) &&
      z3::implies(sel(1), q1 == f.pointer(2, val(0, 64))) &&
      a1 == z3::ite(obj(p1) == val(1), z3::store(arr("a#0"), off(p1), written), arr("a#0")) &&
      bv("y#1") == z3::ite(obj(p1) == val(2) && off(p1) == val(0, 64), written, bv("y#0")) &&
      z3::implies(sel(3),
                  bv("x#1") == z3::select(a1, val(1, 64)) +
                                   z3::ite(obj(q1) == val(1), z3::select(a1, off(q1)), bv("y#1")));
  EXPECT_TRUE(equivalent(f.pathConstraints(), expected));
  EXPECT_TRUE(entails(f, bv("x#1") == val(9)));
}

TEST_F(Encoding, WrapsAroundAt32Bits) {
  Path p;
  Expr x = p.scalar("x", Type::i32()), y = p.scalar("y", Type::i32());
  Expr c = p.scalar("c", Type::u8());
  p.input(x, 2147483647);
  p.input(c, 255);
  p.assign(y, x + 1, at(1));
  p.assign(c, c + 1, at(2)); // int 256, truncated to unsigned char.
  TraceFormula f(ctx, p);

  z3::expr expected =
      bv("x#0") == val(0x7fffffff) && bv("c#0", 8) == val(255, 8) &&
      z3::implies(sel(0), bv("y#1") == bv("x#0") + 1) &&
      z3::implies(sel(1), bv("c#1", 8) == (z3::zext(bv("c#0", 8), 24) + 1).extract(7, 0));
  EXPECT_TRUE(equivalent(f.pathConstraints(), expected));
  EXPECT_TRUE(entails(f, bv("y#1") == val(INT32_MIN) && bv("y#1") < 0));
  EXPECT_TRUE(entails(f, bv("c#1", 8) == val(0, 8)));
}

TEST_F(Encoding, ComparesSignedAndUnsignedAsCDoes) {
  Path p;
  Expr a = p.scalar("a", Type::i32()), b = p.scalar("b", Type::u32());
  Expr l = p.scalar("l", Type::i64());
  Expr r1 = p.scalar("r1", Type::boolean()), r2 = p.scalar("r2", Type::boolean());
  Expr r3 = p.scalar("r3", Type::boolean());
  p.input(a, -1);
  p.input(b, 1);
  p.input(l, -1);
  p.assign(r1, a < b, at(1)); // -1 becomes UINT_MAX: false.
  p.assign(r2, a < 1, at(2)); // Signed: true.
  p.assign(r3, l < b, at(3)); // b becomes long long: true.
  TraceFormula f(ctx, p);

  z3::expr r1v = ctx.bool_const("r1#1"), r2v = ctx.bool_const("r2#1"), r3v = ctx.bool_const("r3#1");
  z3::expr expected = bv("a#0") == val(-1) && bv("b#0") == val(1) && bv("l#0", 64) == val(-1, 64) &&
                      z3::implies(sel(0), r1v == z3::ult(bv("a#0"), bv("b#0"))) &&
                      z3::implies(sel(1), r2v == (bv("a#0") < val(1))) &&
                      z3::implies(sel(2), r3v == (bv("l#0", 64) < z3::zext(bv("b#0"), 32)));
  EXPECT_TRUE(equivalent(f.pathConstraints(), expected));
  EXPECT_TRUE(entails(f, !r1v && r2v && r3v));
}

TEST_F(Encoding, DividesAndShiftsByTheOperandsSignedness) {
  Path p;
  Expr s = p.scalar("s", Type::i32()), u = p.scalar("u", Type::u32());
  Expr q = p.scalar("q", Type::i32()), m = p.scalar("m", Type::i32());
  Expr sh = p.scalar("sh", Type::i32()), ush = p.scalar("ush", Type::u32());
  p.input(s, -7);
  p.input(u, 0xfffffff8u);
  p.assign(q, s / 2, at(1));
  p.assign(m, s % 2, at(2));
  p.assign(sh, s >> 1, at(3));
  p.assign(ush, u >> 1, at(4));
  TraceFormula f(ctx, p);
  EXPECT_TRUE(entails(f, bv("q#1") == val(-3) && bv("m#1") == val(-1) && bv("sh#1") == val(-4) &&
                             bv("ush#1") == val(0x7ffffffc)));
}

TEST_F(Encoding, KeepsTheOracleApartFromThePath) {
  Path p;
  Expr x = p.scalar("x", Type::i32());
  p.assign(x, 1, at(1));
  p.assume(x != 0, at(2));
  p.expect(x, 2, 1, at(3));
  TraceFormula f(ctx, p);
  EXPECT_TRUE(equivalent(f.pathConstraints(),
                         z3::implies(sel(0), bv("x#1") == val(1)) && bv("x#1") != val(0)));
  EXPECT_TRUE(equivalent(f.specification(), bv("x#1") == val(2)));
  EXPECT_TRUE(equivalent(f.observed(), bv("x#1") == val(1)));
}

TEST_F(Encoding, RejectsWhatItCannotEncode) {
  Path p;
  Expr ptr = p.scalar("p", Type::pointerTo(Type::i32()));
  Expr x = p.scalar("x", Type::i32());
  p.assign(x, deref(ptr), at(1)); // No object's address is taken: nothing to point to.
  EXPECT_THROW(TraceFormula(ctx, p), EncodeError);
  EXPECT_THROW(p.assign(x + 1, 2, at(2)), std::invalid_argument);
}

} // namespace
