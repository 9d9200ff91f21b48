//===- Constants.cpp - obo: off-by-one integer constants -----------------===//
#include "Operator.h"

#include <algorithm>
#include <cctype>

using namespace clang;

namespace sleuth::mutator {
namespace {

/// How an integer literal is written: `0x1fUL` is prefix "0x", base 16, suffix "UL".
struct LiteralSpelling {
  std::string Prefix, Suffix;
  unsigned Base = 10;
  bool Upper = false;

  static std::optional<LiteralSpelling> parse(std::string_view Text) {
    LiteralSpelling L;
    std::string Digits;
    for (char Ch : Text)
      if (Ch != '\'') // C++14 digit separators are dropped in the mutant
        Digits += Ch;
    std::size_t End = Digits.size();
    while (End > 0 && std::string_view("uUlLzZ").find(Digits[End - 1]) != std::string_view::npos)
      --End;
    L.Suffix = Digits.substr(End);
    Digits.resize(End);
    if (Digits.size() > 2 && Digits[0] == '0' && (Digits[1] == 'x' || Digits[1] == 'X')) {
      L.Base = 16;
      L.Prefix = Digits.substr(0, 2);
    } else if (Digits.size() > 2 && Digits[0] == '0' && (Digits[1] == 'b' || Digits[1] == 'B')) {
      L.Base = 2;
      L.Prefix = Digits.substr(0, 2);
    } else if (Digits.size() > 1 && Digits[0] == '0') {
      L.Base = 8;
      L.Prefix.push_back('0'); // `= "0"` trips a false -Wrestrict in GCC 12's std::string
    }
    for (char Ch : Digits.substr(L.Prefix.size())) {
      if (!std::isxdigit(static_cast<unsigned char>(Ch)))
        return std::nullopt; // _BitInt suffixes, user-defined literals: not ours
      L.Upper |= Ch >= 'A' && Ch <= 'F';
    }
    return L;
  }

  std::string spell(uint64_t V) const {
    std::string Digits;
    do {
      unsigned D = unsigned(V % Base);
      Digits.push_back(char(D < 10 ? '0' + D : (Upper ? 'A' : 'a') + D - 10));
      V /= Base;
    } while (V);
    std::reverse(Digits.begin(), Digits.end());
    if (Base == 8 && Digits == "0")
      return "0" + Suffix;
    return Prefix + Digits + Suffix;
  }
};

class ConstantVisitor : public BodyVisitor<ConstantVisitor> {
public:
  using BodyVisitor::BodyVisitor;

  bool TraverseImplicitCastExpr(ImplicitCastExpr *E, DataRecursionQueue *Q = nullptr) {
    // `p = 0`: a null pointer constant; 1 would not convert to a pointer.
    if (E->getCastKind() == CK_NullToPointer || E->getCastKind() == CK_NullToMemberPointer)
      return true;
    return BodyVisitor::TraverseImplicitCastExpr(E, Q);
  }

  bool VisitIntegerLiteral(IntegerLiteral *L) {
    auto S = C.token(L->getLocation());
    if (!S)
      return true;
    auto Spelling = LiteralSpelling::parse(C.text(*S));
    const llvm::APInt &V = L->getValue();
    if (!Spelling || V.getActiveBits() > 63)
      return true;
    uint64_t N = V.getZExtValue();
    C.add("obo", *S, Spelling->spell(N + 1));
    if (N > 0)
      C.add("obo", *S, Spelling->spell(N - 1));
    else if (!L->getType()->isUnsignedIntegerType())
      C.add("obo", *S, "(-1" + Spelling->Suffix + ")");
    return true;
  }
};

class ConstantOperator : public MutationOperator {
public:
  const char *name() const override { return "obo"; }
  const char *description() const override {
    return "off-by-one constants: each integer literal N by N+1 and N-1";
  }
  void collect(BodyContext &C, Stmt *Body) const override { ConstantVisitor(C).TraverseStmt(Body); }
};

} // namespace

void addConstantOperator(OperatorList &L) { L.push_back(std::make_unique<ConstantOperator>()); }

} // namespace sleuth::mutator
