// The views on the book's middle() suite.
#include "TestSupport.h"

#include "ViewSupport.h"
#include "sleuth/localizer/views.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

using namespace sleuth::localizer;

namespace {

struct MiddleReport {
  Program Model;
  SuiteSpectra Suite;
  Report R;
  MiddleReport(std::string_view FormulaName = "tarantula") {
    const std::vector<std::pair<std::set<unsigned>, bool>> Runs = {
        {{1, 2, 3, 5, 6}, false},   {{1, 2, 3, 4}, false},     {{1, 2, 8, 9}, false},
        {{1, 2, 8, 10, 12}, false}, {{1, 2, 3, 5, 12}, false}, {{1, 2, 3, 5, 6}, true}};
    Suite.Model = &Model;
    int N = 0;
    for (const auto &[Lines, Failed] : Runs) {
      Spectrum S;
      std::string Error;
      EXPECT_TRUE(Model.merge(test::linesOnly("/src/middle.py", 12, Lines), "run", S, Error));
      Suite.Spectra.push_back(S);
      Suite.Failed.push_back(Failed);
      ++N;
      R.Tests.push_back({"t" + std::to_string(N), "./middle",
                         Failed ? Verdict::Failed : Verdict::Passed,
                         Failed ? "exit 1, expected 0" : "", 0.01});
    }
    R.Suite = &Suite;
    EventKind Kinds[] = {EventKind::Line};
    R.Result = rankByFormula(Suite, observedEvents(Suite, Kinds), *findFormula(FormulaName));
    R.SourceLines = {{"def middle(x, y, z):", "    if y < z:", "        if x < y:",
                      "            return y", "        elif x < z:", "            return y",
                      "    else:", "        if x > y:", "            return y",
                      "        elif x > z:", "            return x", "    return z"}};
  }
};

TEST(ViewTest, RankedList) {
  MiddleReport M;
  ViewOptions Options;
  Options.Top = 3;
  EXPECT_EQ(rankedListView(M.R, Options),
            "Tarantula ranking of 10 events (line) from 6 tests (1 failing):\n"
            "rank  score  failed  passed  location          source\n"
            "   1  0.833     1/1     1/5  /src/middle.py:6  return y\n"
            "   2  0.714     1/1     2/5  /src/middle.py:5  elif x < z:\n"
            "   3  0.625     1/1     3/5  /src/middle.py:3  if x < y:\n"
            "... 7 more (--top 0 shows all)\n");
  Options.Top = 0;
  std::string All = rankedListView(M.R, Options);
  EXPECT_NE(All.find(" 4-5  0.500     1/1     5/5  /src/middle.py:1   def middle(x, y, z):\n"),
            std::string::npos)
      << All;
  EXPECT_NE(All.find("6-10  0.000     0/1     1/5  /src/middle.py:4   return y\n"),
            std::string::npos)
      << All;
  Options.Color = true;
  std::string Colored = rankedListView(M.R, Options);
  EXPECT_NE(Colored.find("\x1b[48;2;"), std::string::npos);
}

TEST(ViewTest, EventTableAsInTheBook) {
  MiddleReport M;
  std::string Table = eventTableView(M.R, ViewOptions());
  EXPECT_NE(Table.find("                  1 2 3 4 5 6   score\n"), std::string::npos) << Table;
  EXPECT_NE(Table.find("/src/middle.py:3  X X - - X X   0.625\n"), std::string::npos) << Table;
  EXPECT_NE(Table.find("/src/middle.py:6  X - - - - X   0.833\n"), std::string::npos) << Table;
  EXPECT_NE(Table.find("outcome           P P P P P F\n"), std::string::npos) << Table;
  EXPECT_NE(Table.find(" 6  FAIL    t6  ./middle  (exit 1, expected 0)\n"), std::string::npos)
      << Table;
}

TEST(ViewTest, SourceListing) {
  MiddleReport M;
  std::string Source = sourceView(M.R, ViewOptions());
  EXPECT_NE(Source.find("    6     83%              return y\n"), std::string::npos) << Source;
  EXPECT_NE(Source.find("    7              else:\n"), std::string::npos) << Source;
}

TEST(ViewTest, SpectrumColorsRunFromGreenToRed) {
  Rgb Green = spectrumColor(0), Red = spectrumColor(1), Middle = spectrumColor(0.5);
  EXPECT_GT(Green.G, Green.R);
  EXPECT_GT(Red.R, Red.G);
  EXPECT_EQ(Middle.R, Middle.G); // yellow
}

TEST(ViewTest, HtmlReport) {
  MiddleReport M;
  std::string Html = htmlReport(M.R);
  EXPECT_EQ(Html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(Html.find("<td class=\"code\">            return y</td>"), std::string::npos);
  EXPECT_NE(Html.find("title=\"line 6: score 0.833, rank 1; in 1 of 1 failing and 1 of 5 "
                      "passing tests\""),
            std::string::npos);
  EXPECT_NE(Html.find("<td class=\"FAIL\">FAIL</td>"), std::string::npos);
  EXPECT_EQ(Html.find("<script"), std::string::npos); // self-contained, static
  EXPECT_NE(Html.find("</html>\n"), std::string::npos);
}

TEST(ViewTest, JsonAndCsv) {
  MiddleReport M("ochiai");
  nlohmann::json J = nlohmann::json::parse(jsonExport(M.R));
  EXPECT_EQ(J["version"], 1);
  EXPECT_EQ(J["technique"], "ochiai");
  ASSERT_EQ(J["events"].size(), 10u);
  EXPECT_EQ(J["events"][0]["line"], 6);
  EXPECT_NEAR(J["events"][0]["score"].get<double>(), 0.7071, 1e-4);
  EXPECT_EQ(J["events"][0]["rank"]["best"], 1);
  EXPECT_EQ(J["events"][0]["counts"], nlohmann::json::array({1, 0, 0, 0, 0, 1}));
  EXPECT_EQ(J["tests"][5]["outcome"], "FAIL");
  std::string Csv = csvExport(M.R);
  EXPECT_EQ(Csv.substr(0, Csv.find('\n')),
            "rank_best,rank_worst,rank_average,score,kind,file,line,column,event,ef,ep,nf,np,"
            "second,predicate,reason,tarantula,ochiai,jaccard,dstar,op2,barinel,kulczynski2,naish1,"
            "naish2,"
            "kulczynski1,"
            "sorensen-dice,russell-rao,wong2,zoltar,importance");
  EXPECT_NE(
      Csv.find("\n1,1,1,0.707107,line,/src/middle.py,6,0,return y,1,1,0,4,0,,,0.833333,0.707107,"
               "0.5,1,0.833333,0.5,0.75,4,"),
      std::string::npos)
      << Csv;
}

TEST(ViewTest, Sarif) {
  MiddleReport M;
  nlohmann::json S = nlohmann::json::parse(sarifExport(M.R, 2));
  EXPECT_EQ(S["version"], "2.1.0");
  const nlohmann::json &Results = S["runs"][0]["results"];
  ASSERT_EQ(Results.size(), 2u);
  EXPECT_EQ(Results[0]["ruleId"], "sleuth/suspicious");
  EXPECT_EQ(Results[0]["level"], "warning");
  EXPECT_EQ(Results[1]["level"], "note");
  const nlohmann::json &Location = Results[0]["locations"][0]["physicalLocation"];
  EXPECT_EQ(Location["artifactLocation"]["uri"], "file:///src/middle.py");
  EXPECT_EQ(Location["region"]["startLine"], 6);
  EXPECT_EQ(Results[0]["message"]["text"],
            "Suspicious line (Tarantula 0.833, rank 1 of 10): executed by 1 of 1 failing and 1 "
            "of 5 passing tests");
  EXPECT_DOUBLE_EQ(Results[0]["rank"].get<double>(), 83.3);
}

} // namespace
