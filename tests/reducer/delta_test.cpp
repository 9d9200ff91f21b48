// ddmin and dd on the Debugging Book's examples, the cache, and parallel
// evaluation.
#include "sleuth/reducer/delta.h"

#include <gtest/gtest.h>

#include <atomic>
#include <cmath>
#include <mutex>
#include <set>
#include <string>

using namespace sleuth::reducer;

namespace {

/// The book's mystery(): fails when the input has '(' before ')'.
Outcome mystery(const std::string &Inp) {
  auto X = Inp.find('('), Y = Inp.find(')');
  bool Fails = X != std::string::npos && Y != std::string::npos && X < Y;
  return Fails ? Outcome::Fail : Outcome::Pass;
}

const std::string MysteryInput = "V\"/+!aF-(V4EOz*+s/Q,7)2@0_";

/// A small Python-like evaluator of arithmetic, standing in for the book's
/// eval(): division by zero fails, a syntax error is unresolved.
class Eval {
public:
  explicit Eval(const std::string &S) : S(S) {}
  Outcome run() {
    try {
      skip();
      if (P == S.size())
        return Outcome::Unresolved;
      expr();
      skip();
      return P == S.size() ? Outcome::Pass : Outcome::Unresolved;
    } catch (const char *Why) {
      return std::string(Why) == "zero" ? Outcome::Fail : Outcome::Unresolved;
    }
  }

private:
  void skip() {
    while (P < S.size() && S[P] == ' ')
      ++P;
  }
  bool eat(const char *Op) {
    skip();
    std::size_t N = std::char_traits<char>::length(Op);
    if (S.compare(P, N, Op) != 0)
      return false;
    // '*' and '/' must not be the start of '**' or '//'.
    if (N == 1 && (Op[0] == '*' || Op[0] == '/') && P + 1 < S.size() && S[P + 1] == Op[0])
      return false;
    P += N;
    return true;
  }
  double expr() {
    double V = term();
    for (;;) {
      if (eat("+"))
        V += term();
      else if (eat("-"))
        V -= term();
      else
        return V;
    }
  }
  double term() {
    double V = unary();
    for (;;) {
      if (eat("*")) {
        V *= unary();
      } else if (eat("//")) {
        double D = unary();
        if (D == 0)
          throw "zero";
        V = std::floor(V / D);
      } else if (eat("/")) {
        double D = unary();
        if (D == 0)
          throw "zero";
        V /= D;
      } else {
        return V;
      }
    }
  }
  double unary() {
    if (eat("+"))
      return unary();
    if (eat("-"))
      return -unary();
    double V = primary();
    if (eat("**"))
      V = std::pow(V, unary());
    return V;
  }
  double primary() {
    skip();
    if (eat("(")) {
      double V = expr();
      if (!eat(")"))
        throw "syntax";
      return V;
    }
    std::size_t B = P;
    while (P < S.size() && std::isdigit((unsigned char)S[P]))
      ++P;
    if (B == P)
      throw "syntax";
    std::string Digits = S.substr(B, P - B);
    // Python rejects leading zeros in non-zero literals ("03").
    if (Digits.size() > 1 && Digits[0] == '0' && Digits.find_first_not_of('0') != std::string::npos)
      throw "syntax";
    return std::stod(Digits);
  }
  const std::string &S;
  std::size_t P = 0;
};

Outcome myeval(const std::string &S) { return Eval(S).run(); }

} // namespace

TEST(DeltaTest, EvaluatorBehavesLikePython) {
  EXPECT_EQ(myeval("1 + 2 * 3 / 0"), Outcome::Fail);
  EXPECT_EQ(myeval("1 + 2 * 3  "), Outcome::Pass);
  EXPECT_EQ(myeval("1 + "), Outcome::Unresolved);
  EXPECT_EQ(myeval("3//0"), Outcome::Fail);
}

TEST(DeltaTest, DDMinReducesMysteryInputToParentheses) {
  DeltaStats Stats;
  std::string R = ddmin(MysteryInput, mystery, {}, &Stats);
  EXPECT_EQ(R, "()");
  // Like the book, far fewer tests than characters squared.
  EXPECT_LT(Stats.Tests, 40u);
}

TEST(DeltaTest, DDMinResultIsOneMinimal) {
  std::string R = ddmin(MysteryInput, mystery);
  for (std::size_t I = 0; I < R.size(); ++I) {
    std::string Smaller = R;
    Smaller.erase(I, 1);
    EXPECT_EQ(mystery(Smaller), Outcome::Pass) << Smaller;
  }
}

TEST(DeltaTest, DDMinOnArithmetic) {
  EXPECT_EQ(ddmin(std::string("1 + 2 * 3 / 0"), myeval), "3/0");
}

TEST(DeltaTest, DDGivesPassingFailingAndDifference) {
  // The book's min_arg_diff() on myeval('1 + 2 * 3 / 0').
  DDResult<std::string> R = dd(std::string("1 + 2 * 3 / 0"), myeval);
  EXPECT_EQ(R.Passing, " 3 ");
  EXPECT_EQ(R.Failing, " 3 /0");
  EXPECT_EQ(R.Difference, "/0");
  EXPECT_EQ(myeval(R.Passing), Outcome::Pass);
  EXPECT_EQ(myeval(R.Failing), Outcome::Fail);
}

TEST(DeltaTest, DDMaxGrowsThePassingInput) {
  DDResult<std::string> R = dd(std::string("1 + 2 * 3 / 0"), myeval, {}, DDMode::Maximize);
  EXPECT_EQ(R.Passing, "1 + 2 * 3  ");
}

TEST(DeltaTest, DDOnMysteryMatchesDDMin) {
  DDResult<std::string> R = dd(MysteryInput, mystery, {}, DDMode::Minimize);
  EXPECT_EQ(R.Passing, "");
  EXPECT_EQ(R.Failing, "()");
  EXPECT_EQ(R.Difference, "()");
}

TEST(DeltaTest, WorksOnVectors) {
  std::vector<int> In = {5, 1, 7, 3, 9, 2, 8};
  auto Test = [](const std::vector<int> &V) {
    bool Has7 = false, Has9 = false;
    for (int X : V)
      Has7 |= X == 7, Has9 |= X == 9;
    return Has7 && Has9 ? Outcome::Fail : Outcome::Pass;
  };
  EXPECT_EQ(ddmin(In, Test), (std::vector<int>{7, 9}));
}

TEST(DeltaTest, CacheAsksEachInputOnce) {
  std::set<std::string> Seen;
  bool Repeated = false;
  auto Test = [&](const std::string &S) {
    Repeated |= !Seen.insert(S).second;
    return mystery(S);
  };
  DeltaStats Stats;
  ddmin(MysteryInput, Test, {}, &Stats);
  EXPECT_FALSE(Repeated);
  EXPECT_EQ(Stats.Tests, Seen.size());

  // Without the cache the same inputs come back.
  Seen.clear();
  Repeated = false;
  DeltaOptions NoCache;
  NoCache.Cache = false;
  ddmin(MysteryInput, Test, NoCache);
  EXPECT_TRUE(Repeated);
}

TEST(DeltaTest, ParallelEvaluationGivesTheSameResult) {
  std::atomic<int> Calls{0};
  std::mutex M;
  auto Test = [&](const std::string &S) {
    ++Calls;
    return myeval(S);
  };
  DeltaOptions Par;
  Par.Jobs = 4;
  DDResult<std::string> R = dd(std::string("1 + 2 * 3 / 0"), Test, Par);
  EXPECT_EQ(R.Failing, " 3 /0");
  EXPECT_EQ(R.Difference, "/0");
  EXPECT_EQ(ddmin(MysteryInput, mystery, Par), "()");
}

TEST(DeltaTest, RejectsInputThatDoesNotFail) {
  EXPECT_THROW(ddmin(std::string("no parens"), mystery), DeltaError);
  // dd needs the empty input to pass.
  auto AlwaysFails = [](const std::string &) { return Outcome::Fail; };
  EXPECT_THROW(dd(std::string("x"), AlwaysFails), DeltaError);
}
