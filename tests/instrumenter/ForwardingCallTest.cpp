// Library calls that call the program's code with their own arguments (ForwardingCallProbe):
// std::make_unique, emplace_back, std::invoke and a std::function's call make a record for the
// callee the library enters (sleuth_forward), each argument marked at the position of the
// parameter it becomes; an argument taken by reference is read there. Other library calls get
// no record.
#include "RewriteFixture.h"

#include <regex>

using namespace sleuth;

namespace {

class ForwardingCallTest : public RewriteFixture {
protected:
  /// The rewritten line of Source's that contains Marker.
  std::string rewrittenLine(const std::string &Source, const std::string &Marker) {
    return lineWith(rewrite("forwarding.cpp", Source, {"-std=c++20"}), Marker);
  }
};

const char *Prelude = "#include <functional>\n"
                      "#include <memory>\n"
                      "#include <vector>\n"
                      "struct Account {\n"
                      "  Account(long o, int r) : balance(o), rate(r) {}\n"
                      "  long balance;\n"
                      "  int rate;\n"
                      "};\n";

TEST_F(ForwardingCallTest, MakeUniqueMarksEachArgumentForTheConstructor) {
  // Without the record the constructor's parameters had no origin: make_unique takes its
  // arguments by reference, so nothing even read them.
  std::string Line = rewrittenLine(std::string(Prelude) + "long f(long opening, int rate) {\n"
                                                          "  auto a = std::make_unique<Account>("
                                                          "opening, rate);\n"
                                                          "  return a->balance;\n"
                                                          "}\n",
                                   "make_unique");
  std::smatch M;
  ASSERT_TRUE(std::regex_search(
      Line, M,
      std::regex("\\(sleuth_forward\\(&__sleuth_tu, ([0-9]+)u, [^,]+, ([0-9]+)u\\), "
                 "std::make_unique<Account>\\(")))
      << Line;
  EXPECT_NE(M[2], "0") << "the key of Account's constructors";
  std::string Site = M[1];
  EXPECT_TRUE(std::regex_search(Line, std::regex("\\(sleuth_arg\\(&__sleuth_tu, " + Site +
                                                 "u, 1\\), sleuth::rd\\(opening\\)\\)")))
      << Line;
  EXPECT_TRUE(std::regex_search(Line, std::regex("\\(sleuth_arg\\(&__sleuth_tu, " + Site +
                                                 "u, 2\\), sleuth::rd\\(rate\\)\\)")))
      << Line;
}

TEST_F(ForwardingCallTest, InvokeSkipsTheCallable) {
  // The lambda is argument 1 of std::invoke and no parameter of its own call: position 0.
  std::string Line = rewrittenLine("#include <functional>\n"
                                   "int f(int bonus) {\n"
                                   "  auto add = [](int x) { return x + 1; };\n"
                                   "  return std::invoke(add, bonus);\n"
                                   "}\n",
                                   "std::invoke");
  std::smatch M;
  ASSERT_TRUE(std::regex_search(
      Line, M, std::regex("sleuth_forward\\(&__sleuth_tu, ([0-9]+)u, [^,]+, [1-9][0-9]*u\\)")))
      << Line;
  EXPECT_TRUE(std::regex_search(
      Line, std::regex("sleuth_arg\\(&__sleuth_tu, " + std::string(M[1]) + "u, 1\\), [^)]*bonus")))
      << Line;
}

TEST_F(ForwardingCallTest, AFunctionObjectsCallEntersAnyCallee) {
  std::string Line = rewrittenLine("#include <functional>\n"
                                   "long f(const std::function<long(long)> &fee, long d) {\n"
                                   "  long c = fee(d);\n"
                                   "  return c;\n"
                                   "}\n",
                                   "long c =");
  EXPECT_TRUE(std::regex_search(Line, std::regex("sleuth_forward\\(&__sleuth_tu, [0-9]+u, [^,]+, "
                                                 "0u\\)")))
      << Line;
}

TEST_F(ForwardingCallTest, OtherLibraryCallsGetNoRecord) {
  // std::max calls nothing of the program's; a map's emplace compares keys first.
  std::string Line = rewrittenLine("#include <algorithm>\n"
                                   "#include <map>\n"
                                   "int f(int a, int b, std::map<int, int> &m) {\n"
                                   "  m.emplace(a, b); int x = std::max(a, b);\n"
                                   "  return x;\n"
                                   "}\n",
                                   "std::max");
  EXPECT_EQ(Line.find("sleuth_forward"), std::string::npos) << Line;
}

} // namespace
