// The HTML report: one self-contained page (inline style, no scripts).
#include "ViewSupport.h"

#include <fmt/format.h>

#include <cmath>

namespace sleuth::localizer {

namespace {

std::string cssColor(double Suspiciousness) {
  Rgb C = spectrumColor(Suspiciousness);
  return fmt::format("#{:02x}{:02x}{:02x}", C.R, C.G, C.B);
}

constexpr const char *Style = R"(
body { font-family: sans-serif; margin: 1.5em; color: #222; }
h1 { font-size: 1.4em; } h2 { font-size: 1.15em; margin-top: 1.6em; }
table { border-collapse: collapse; }
td, th { padding: 0.15em 0.6em; text-align: left; vertical-align: top; }
th { border-bottom: 1px solid #999; }
td.num, th.num { text-align: right; }
.code, .mono { font-family: monospace; white-space: pre; }
table.source td { padding: 0 0.6em; }
td.ln { color: #777; text-align: right; }
.PASS { color: #1a7f37; } .FAIL, .CRASH, .TIMEOUT { color: #b42318; font-weight: bold; }
table.events td.cell { text-align: center; font-family: monospace; }
.gap td { color: #999; }
.legend span { padding: 0.1em 0.5em; font-family: monospace; }
)";

} // namespace

std::string htmlReport(const Report &R) {
  const Program &P = *R.Suite->Model;
  ColorScale Scale(R.Result);
  std::string Out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n";
  Out += fmt::format("<title>sleuth localize: {}</title>\n<style>{}</style>\n</head>\n<body>\n",
                     escapeHtml(R.Result.Title), Style);
  std::size_t Failed = R.Suite->failures();
  Out += fmt::format("<h1>Fault localization ({})</h1>\n<p>{} tests, {} failing; {} ranked "
                     "events. Colors run from green (innocent) to red (suspicious).</p>\n",
                     escapeHtml(R.Result.Title), R.Suite->Spectra.size(), Failed,
                     R.Result.Events.size());
  Out += "<p class=\"legend\">";
  for (double S : {0.0, 0.25, 0.5, 0.75, 1.0})
    Out += fmt::format("<span style=\"background:{}\">{:.0f}%</span>", cssColor(S), S * 100);
  Out += "</p>\n";

  // Tests.
  Out += "<h2>Tests</h2>\n<table>\n<tr><th class=\"num\">#</th><th>test</th><th>outcome</th>"
         "<th>why</th><th class=\"num\">seconds</th><th>command</th></tr>\n";
  for (std::size_t T = 0; T < R.Tests.size(); ++T) {
    const TestInfo &Info = R.Tests[T];
    std::string_view Verdict = verdictName(Info.Outcome);
    Out += fmt::format("<tr><td class=\"num\">{}</td><td>{}</td><td class=\"{}\">{}</td><td>{}"
                       "</td><td class=\"num\">{:.2f}</td><td class=\"mono\">{}</td></tr>\n",
                       T + 1, escapeHtml(Info.Name), Verdict, Verdict, escapeHtml(Info.Detail),
                       Info.Seconds, escapeHtml(Info.Command));
  }
  Out += "</table>\n";

  // Ranking.
  constexpr std::size_t MaxRanked = 500;
  Out += "<h2>Ranking</h2>\n<table>\n<tr><th class=\"num\">rank</th><th class=\"num\">score</th>"
         "<th>location</th><th>source</th><th class=\"num\">failing</th>"
         "<th class=\"num\">passing</th></tr>\n";
  for (std::size_t I = 0; I < R.Result.Events.size() && I < MaxRanked; ++I) {
    const ScoredEvent &E = R.Result.Events[I];
    Out += fmt::format("<tr style=\"background:{}\" title=\"average rank {:g}\"><td class=\"num\">"
                       "{}</td><td class=\"num\">{}</td><td class=\"mono\">{}</td><td "
                       "class=\"code\">{}</td><td class=\"num\">{:g}/{:g}</td><td "
                       "class=\"num\">{:g}/{:g}</td></tr>\n",
                       cssColor(Scale(E.Score)), E.Rank.average(), formatRank(E.Rank),
                       formatScore(E.Score), escapeHtml(eventLocation(R, E)),
                       escapeHtml(eventText(R, E)), E.Counts.Ef, E.Counts.failed(), E.Counts.Ep,
                       E.Counts.passed());
  }
  Out += "</table>\n";
  if (R.Result.Events.size() > MaxRanked)
    Out += fmt::format("<p>... and {} more (see the CSV or JSON export).</p>\n",
                       R.Result.Events.size() - MaxRanked);

  // Source.
  std::map<std::pair<unsigned, unsigned>, double> Scores = lineScores(R);
  std::map<std::pair<unsigned, unsigned>, const ScoredEvent *> Best;
  for (const ScoredEvent &E : R.Result.Events) {
    Place Pl = placeOf(P, E.What);
    Best.emplace(std::make_pair(Pl.Source, Pl.Line), &E); // the first is the best ranked
  }
  Out += "<h2>Source</h2>\n";
  for (const auto &[Source, Ranges] : executedRanges(R)) {
    Out += fmt::format("<h3 class=\"mono\">{}</h3>\n<table class=\"source\">\n",
                       escapeHtml(displayPath(P.sources()[Source].Path)));
    bool First = true;
    for (auto [Begin, End] : Ranges) {
      if (!First)
        Out += "<tr class=\"gap\"><td class=\"ln\">...</td><td></td><td></td></tr>\n";
      First = false;
      for (unsigned Line = Begin; Line <= End; ++Line) {
        std::string Text = sourceLine(R, Source, Line).value_or("");
        auto It = Scores.find({Source, Line});
        if (It == Scores.end()) {
          Out += fmt::format("<tr title=\"line {}: not executed\"><td class=\"ln\">{}</td><td>"
                             "</td><td class=\"code\">{}</td></tr>\n",
                             Line, Line, escapeHtml(Text));
          continue;
        }
        const ScoredEvent *E = Best.at({Source, Line});
        Out += fmt::format("<tr style=\"background:{}\" title=\"line {}: score {}, rank {}; in "
                           "{:g} of {:g} failing and {:g} of {:g} passing tests\"><td "
                           "class=\"ln\">{}</td><td class=\"num mono\">{}</td><td "
                           "class=\"code\">{}</td></tr>\n",
                           cssColor(Scale(It->second)), Line, formatScore(It->second),
                           formatRank(E->Rank), E->Counts.Ef, E->Counts.failed(), E->Counts.Ep,
                           E->Counts.passed(), Line, formatScore(It->second), escapeHtml(Text));
      }
    }
    Out += "</table>\n";
  }

  // Event table.
  constexpr std::size_t MaxRows = 1000;
  Out += "<h2>Event table</h2>\n<table class=\"events\">\n<tr><th>event</th>";
  for (std::size_t T = 0; T < R.Tests.size(); ++T)
    Out +=
        fmt::format("<th class=\"num\" title=\"{}\">{}</th>", escapeHtml(R.Tests[T].Name), T + 1);
  Out += "<th class=\"num\">score</th></tr>\n";
  std::size_t Rows = 0;
  for (const ScoredEvent &E : R.Result.Events) {
    if (++Rows > MaxRows)
      break;
    std::string Label = eventLocation(R, E);
    if (E.What.Kind != EventKind::Line)
      Label += " " + describeEvent(P, E.What, &R.SourceLines);
    if (std::string Why = whyRanked(R, E); !Why.empty())
      Label += " [" + Why + "]";
    Out += fmt::format("<tr style=\"background:{}\"><td class=\"mono\">{}</td>",
                       cssColor(Scale(E.Score)), escapeHtml(Label));
    for (std::size_t T = 0; T < R.Suite->Spectra.size(); ++T)
      Out += fmt::format("<td class=\"cell\">{}</td>",
                         eventCount(R.Suite->Spectra[T], E.What) ? "X" : "-");
    Out += fmt::format("<td class=\"num\">{}</td></tr>\n", formatScore(E.Score));
  }
  Out += "<tr><td><b>outcome</b></td>";
  for (std::size_t T = 0; T < R.Tests.size(); ++T) {
    std::string_view V = verdictName(R.Tests[T].Outcome);
    Out += fmt::format("<td class=\"cell {}\">{}</td>", V, R.Suite->Failed[T] ? "F" : "P");
  }
  Out += "<td></td></tr>\n</table>\n";
  if (R.Result.Events.size() > MaxRows)
    Out += fmt::format("<p>The table shows the {} most suspicious events.</p>\n", MaxRows);
  Out += "</body>\n</html>\n";
  return Out;
}

} // namespace sleuth::localizer
