// Library calls that call the program's code with their own arguments (ForwardingCallProbe):
// std::make_unique, a container's emplace_back, emplace and try_emplace, std::invoke, a
// std::function's call and std::visit make a record for the callee the library enters
// (sleuth_forward), each argument marked at the position of the parameter it becomes; an
// argument taken by reference is read there. A std::thread's function gets its record through
// sleuth::ThreadStart. Other library calls get no record.
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

// The record's site in Line (a sleuth_forward whose key is not 0), or "".
static std::string forwardedSite(const std::string &Line) {
  std::smatch M;
  if (!std::regex_search(
          Line, M, std::regex("sleuth_forward\\(&__sleuth_tu, ([0-9]+)u, [^,]+, [1-9][0-9]*u\\)")))
    return "";
  return M[1];
}

// True if Line marks the argument that reads Variable at Position of call Site.
static bool marks(const std::string &Line, const std::string &Site, unsigned Position,
                  const std::string &Variable) {
  return std::regex_search(Line, std::regex("sleuth_arg\\(&__sleuth_tu, " + Site + "u, " +
                                            std::to_string(Position) + "\\), [^)]*\\b" + Variable +
                                            "\\b"));
}

TEST_F(ForwardingCallTest, TryEmplaceMarksTheMappedValuesArguments) {
  // The key is the map's, no parameter of Account's constructor: the arguments after it are.
  // With a hint, the arguments after the hint and the key.
  std::string Source = std::string(Prelude) + "#include <map>\n"
                                              "long f(int k, long opening, int rate) {\n"
                                              "  std::map<int, Account> m;\n"
                                              "  m.try_emplace(k, opening, rate);\n"
                                              "  m.try_emplace(m.end(), k + 1, rate, rate);\n"
                                              "  return m.at(k).balance;\n"
                                              "}\n";
  std::string Line = rewrittenLine(Source, "try_emplace"); // the first
  std::string Site = forwardedSite(Line);
  ASSERT_NE(Site, "") << Line;
  EXPECT_TRUE(marks(Line, Site, 1, "opening")) << Line;
  EXPECT_TRUE(marks(Line, Site, 2, "rate")) << Line;
  std::string Hinted = rewrittenLine(Source, ".end()");
  std::string HintSite = forwardedSite(Hinted);
  ASSERT_NE(HintSite, "") << Hinted;
  EXPECT_TRUE(marks(Hinted, HintSite, 0, "k")) << Hinted;
  EXPECT_TRUE(marks(Hinted, HintSite, 1, "rate")) << Hinted;
}

TEST_F(ForwardingCallTest, AMapsEmplaceMarksTheConvertedMappedValue) {
  // `m.emplace(k, v)` constructs the mapped Limit from v with the program's constructor; a
  // Limit itself is copied (no record: nothing of the program's enters).
  std::string Source = "#include <map>\n"
                       "struct Limit {\n"
                       "  Limit(long c) : cap(c) {}\n"
                       "  long cap;\n"
                       "};\n"
                       "long f(long overdraft, const Limit &l) {\n"
                       "  std::map<int, Limit> m;\n"
                       "  m.emplace(1, overdraft);\n"
                       "  m.emplace(2, l);\n"
                       "  return m.at(1).cap;\n"
                       "}\n";
  std::string Line = rewrittenLine(Source, "emplace(1,");
  std::string Site = forwardedSite(Line);
  ASSERT_NE(Site, "") << Line;
  EXPECT_TRUE(marks(Line, Site, 1, "overdraft")) << Line;
  std::string Copy = rewrittenLine(Source, "emplace(2,");
  EXPECT_EQ(Copy.find("sleuth_forward"), std::string::npos) << Copy;
}

TEST_F(ForwardingCallTest, AVectorsEmplaceSkipsThePosition) {
  std::string Line = rewrittenLine(std::string(Prelude) + "long f(long opening, int rate) {\n"
                                                          "  std::vector<Account> v;\n"
                                                          "  v.emplace(v.begin(), opening, rate);\n"
                                                          "  return v.front().balance;\n"
                                                          "}\n",
                                   "v.emplace(");
  std::string Site = forwardedSite(Line);
  ASSERT_NE(Site, "") << Line;
  EXPECT_TRUE(marks(Line, Site, 1, "opening")) << Line;
  EXPECT_TRUE(marks(Line, Site, 2, "rate")) << Line;
}

TEST_F(ForwardingCallTest, AConstructorSaysWhatItConstructs) {
  // The library may build the object elsewhere and move it into place unseen (a vector's
  // emplace in the middle): the frame names the object, whose origins it keeps if a forwarded
  // record entered it (also in a template's, which the library may enter for a specialization).
  // Copies and moves are never a forwarded call's callee.
  std::string Text = rewrite("forwarding.cpp",
                             "struct Entry {\n"
                             "  Entry(long a, int d) : due(a * d) {}\n"
                             "  Entry(const Entry &o) : due(o.due) {}\n"
                             "  long due;\n"
                             "};\n"
                             "template <class T> struct Box {\n"
                             "  Box(T v) : value(v) {}\n"
                             "  T value;\n"
                             "};\n"
                             "long f(long a) { Entry e(a, 2); Entry c(e); Box<long> b(a);\n"
                             "  return c.due + b.value; }\n",
                             {"-std=c++20"});
  EXPECT_NE(lineWith(Text, "Entry(long a").find(".constructs(this, sizeof(*this));"),
            std::string::npos)
      << Text;
  EXPECT_EQ(lineWith(Text, "Entry(const Entry").find(".constructs("), std::string::npos) << Text;
  EXPECT_NE(lineWith(Text, "Box(T v)").find(".constructs(this, sizeof(*this));"), std::string::npos)
      << Text;
}

TEST_F(ForwardingCallTest, VisitMarksTheVariantForTheVisitor) {
  // The visitor's operator() takes the variant's alternative: parameter 1 reads the variant.
  std::string Line = rewrittenLine("#include <variant>\n"
                                   "struct Fee {\n"
                                   "  long operator()(long cents) const { return cents / 10; }\n"
                                   "  long operator()(int units) const { return units; }\n"
                                   "};\n"
                                   "long f(std::variant<long, int> &charge) {\n"
                                   "  return std::visit(Fee{}, charge);\n"
                                   "}\n",
                                   "std::visit");
  std::string Site = forwardedSite(Line);
  ASSERT_NE(Site, "") << Line;
  EXPECT_TRUE(marks(Line, Site, 1, "charge")) << Line;
}

TEST_F(ForwardingCallTest, AThreadsFunctionTakesItsRecordToTheNewThread) {
  // std::thread's constructor: each argument makes or marks the record (the order is
  // unspecified), and sleuth::ThreadStart stands for the function, taking the record along.
  std::string Source = "#include <thread>\n"
                       "#include <vector>\n"
                       "long result;\n"
                       "void audit(long total, int times) { result = total * times; }\n"
                       "struct Auditor {\n"
                       "  void run(long total) { result = total; }\n"
                       "};\n"
                       "void f(long total, int rate) {\n"
                       "  std::thread t(audit, total, rate);\n"
                       "  t.join();\n"
                       "  std::vector<std::thread> pool;\n"
                       "  pool.emplace_back(audit, total, 2);\n"
                       "  pool.back().join();\n"
                       "  auto work = [](long o) { result = o; };\n"
                       "  std::thread w(work, total);\n"
                       "  w.join();\n"
                       "  Auditor auditor;\n"
                       "  std::thread m(&Auditor::run, &auditor, total);\n"
                       "  m.join();\n"
                       "}\n";
  std::string Line = rewrittenLine(Source, "std::thread t(");
  std::smatch M;
  ASSERT_TRUE(std::regex_search(
      Line, M,
      std::regex("std::thread t\\(sleuth::thread_start\\(&__sleuth_tu, ([0-9]+)u, audit\\)")))
      << Line;
  std::string Site = M[1];
  EXPECT_TRUE(std::regex_search(Line, std::regex("sleuth_construct_arg\\(&__sleuth_tu, " + Site +
                                                 "u, [^,]+, [1-9][0-9]*u, 1u\\), [^)]*total")))
      << Line;
  EXPECT_TRUE(std::regex_search(Line, std::regex("sleuth_construct_arg\\(&__sleuth_tu, " + Site +
                                                 "u, [^,]+, [1-9][0-9]*u, 2u\\), [^)]*rate")))
      << Line;
  std::string Emplaced = rewrittenLine(Source, "pool.emplace_back");
  std::string EmplacedSite = forwardedSite(Emplaced);
  ASSERT_NE(EmplacedSite, "") << Emplaced;
  EXPECT_NE(Emplaced.find("sleuth::thread_start(&__sleuth_tu, " + EmplacedSite + "u, audit)"),
            std::string::npos)
      << Emplaced;
  EXPECT_TRUE(marks(Emplaced, EmplacedSite, 1, "total")) << Emplaced;
  // A callable the library reads (an lvalue lambda): ThreadStart outside the read, which
  // yields an lvalue, not inside it, which would take ThreadStart's prvalue.
  std::string Lambda = rewrittenLine(Source, "std::thread w(");
  EXPECT_TRUE(std::regex_search(
      Lambda,
      std::regex("std::thread w\\(sleuth::thread_start\\(&__sleuth_tu, [0-9]+u, [^;]*\\bwork\\)")))
      << Lambda;
  // A member function's object is no parameter of it: total is the first.
  std::string Member = rewrittenLine(Source, "std::thread m(");
  ASSERT_TRUE(std::regex_search(
      Member, M,
      std::regex(
          "std::thread m\\(sleuth::thread_start\\(&__sleuth_tu, ([0-9]+)u, &Auditor::run\\)")))
      << Member;
  EXPECT_TRUE(std::regex_search(Member, std::regex("sleuth_construct_arg\\(&__sleuth_tu, " +
                                                   std::string(M[1]) +
                                                   "u, [^,]+, [1-9][0-9]*u, 1u\\), [^)]*total")))
      << Member;
}

TEST_F(ForwardingCallTest, OtherLibraryCallsGetNoRecord) {
  // std::max calls nothing of the program's, nor does a map of ints' emplace.
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
