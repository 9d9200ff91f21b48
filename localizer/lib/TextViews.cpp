// Terminal views: ranked list, event table, colored source.
#include "ViewSupport.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace sleuth::localizer {

namespace {

std::string background(const Rgb &C) {
  return fmt::format("\x1b[48;2;{};{};{}m\x1b[38;2;0;0;0m", C.R, C.G, C.B);
}
constexpr const char *Reset = "\x1b[0m";

std::string colored(bool Color, double Suspiciousness, const std::string &Text) {
  if (!Color)
    return Text;
  return background(spectrumColor(Suspiciousness)) + Text + Reset;
}

std::string headline(const Report &R, std::string_view What) {
  std::size_t Failed = R.Suite->failures();
  std::size_t Count = R.Result.Events.size();
  std::string Kinds;
  std::vector<std::string_view> Seen;
  for (const ScoredEvent &E : R.Result.Events)
    if (std::find(Seen.begin(), Seen.end(), eventKindName(E.What.Kind)) == Seen.end())
      Seen.push_back(eventKindName(E.What.Kind));
  return fmt::format("{} {} {} event{} ({}) from {} tests ({} failing){}:\n", R.Result.Title, What,
                     Count, Count == 1 ? "" : "s",
                     Seen.empty() ? "none" : fmt::format("{}", fmt::join(Seen, ", ")),
                     R.Suite->Spectra.size(), Failed,
                     R.Result.TieBreak.empty() ? "" : ", ties broken by predicate importance");
}

} // namespace

std::string rankedListView(const Report &R, const ViewOptions &Options) {
  std::size_t Shown =
      Options.Top ? std::min(Options.Top, R.Result.Events.size()) : R.Result.Events.size();
  // The score's parts: how many of the failing and of the passing tests showed the event.
  std::vector<std::string> Ranks, Scores, Failing, Passing, Places;
  std::size_t RankWidth = 4, ScoreWidth = 5, FailingWidth = 6, PassingWidth = 6, PlaceWidth = 8;
  for (std::size_t I = 0; I < Shown; ++I) {
    const ScoredEvent &E = R.Result.Events[I];
    Ranks.push_back(formatRank(E.Rank));
    Scores.push_back(formatScore(E.Score));
    Failing.push_back(fmt::format("{:g}/{:g}", E.Counts.Ef, E.Counts.failed()));
    Passing.push_back(fmt::format("{:g}/{:g}", E.Counts.Ep, E.Counts.passed()));
    Places.push_back(eventLocation(R, E));
    RankWidth = std::max(RankWidth, Ranks.back().size());
    ScoreWidth = std::max(ScoreWidth, Scores.back().size());
    FailingWidth = std::max(FailingWidth, Failing.back().size());
    PassingWidth = std::max(PassingWidth, Passing.back().size());
    PlaceWidth = std::max(PlaceWidth, Places.back().size());
  }
  ColorScale Scale(R.Result);
  std::string Out = headline(R, "ranking of");
  Out += fmt::format("{:>{}}  {:>{}}  {:>{}}  {:>{}}  {:<{}}  {}\n", "rank", RankWidth, "score",
                     ScoreWidth, "failed", FailingWidth, "passed", PassingWidth, "location",
                     PlaceWidth, "source");
  for (std::size_t I = 0; I < Shown; ++I) {
    const ScoredEvent &E = R.Result.Events[I];
    std::string Row = fmt::format("{:>{}}  {:>{}}  {:>{}}  {:>{}}  {:<{}}  {}", Ranks[I], RankWidth,
                                  Scores[I], ScoreWidth, Failing[I], FailingWidth, Passing[I],
                                  PassingWidth, Places[I], PlaceWidth, eventText(R, E));
    if (std::string Why = whyRanked(R, E); !Why.empty())
      Row += "  [" + Why + "]";
    Out += colored(Options.Color, Scale(E.Score), Row) + "\n";
  }
  if (Shown < R.Result.Events.size())
    Out += fmt::format("... {} more (--top 0 shows all)\n", R.Result.Events.size() - Shown);
  return Out;
}

std::string eventTableView(const Report &R, const ViewOptions &Options) {
  // Source order as in the book, unless only the top events are asked for.
  std::vector<const ScoredEvent *> Rows;
  for (const ScoredEvent &E : R.Result.Events)
    Rows.push_back(&E);
  if (Options.Top && Rows.size() > Options.Top)
    Rows.resize(Options.Top);
  else
    std::sort(Rows.begin(), Rows.end(), [&](const ScoredEvent *A, const ScoredEvent *B) {
      Place PA = placeOf(*R.Suite->Model, A->What), PB = placeOf(*R.Suite->Model, B->What);
      const std::string &FA = R.Suite->Model->sources()[PA.Source].Path,
                        &FB = R.Suite->Model->sources()[PB.Source].Path;
      if (FA != FB)
        return FA < FB;
      return std::tie(PA.Line, PA.Column, A->What) < std::tie(PB.Line, PB.Column, B->What);
    });
  std::vector<std::string> Labels;
  std::size_t LabelWidth = 7;
  for (const ScoredEvent *E : Rows) {
    std::string Label = eventLocation(R, *E);
    if (E->What.Kind != EventKind::Line)
      Label += " " + describeEvent(*R.Suite->Model, E->What, &R.SourceLines);
    Labels.push_back(Label);
    LabelWidth = std::max(LabelWidth, Label.size());
  }
  std::size_t Tests = R.Suite->Spectra.size();
  std::size_t Cell = std::max<std::size_t>(2, std::to_string(Tests).size() + 1);
  std::string Out = headline(R, "event table of");
  Out += fmt::format("{:<{}}", "", LabelWidth);
  for (std::size_t T = 0; T < Tests; ++T)
    Out += fmt::format("{:>{}}", T + 1, Cell);
  Out += "   score\n";
  ColorScale Scale(R.Result);
  for (std::size_t I = 0; I < Rows.size(); ++I) {
    std::string Row = fmt::format("{:<{}}", Labels[I], LabelWidth);
    for (std::size_t T = 0; T < Tests; ++T)
      Row +=
          fmt::format("{:>{}}", eventCount(R.Suite->Spectra[T], Rows[I]->What) ? "X" : "-", Cell);
    Row += fmt::format("  {:>6}", formatScore(Rows[I]->Score));
    Out += colored(Options.Color, Scale(Rows[I]->Score), Row) + "\n";
  }
  Out += fmt::format("{:<{}}", "outcome", LabelWidth);
  for (std::size_t T = 0; T < Tests; ++T)
    Out += fmt::format("{:>{}}", R.Suite->Failed[T] ? "F" : "P", Cell);
  Out += "\n\n";
  for (std::size_t T = 0; T < Tests; ++T) {
    const TestInfo &Info = R.Tests[T];
    Out +=
        fmt::format("{:>{}}  {:<7} {}  {}{}\n", T + 1, Cell, verdictName(Info.Outcome), Info.Name,
                    Info.Command, Info.Detail.empty() ? "" : fmt::format("  ({})", Info.Detail));
  }
  return Out;
}

std::string sourceView(const Report &R, const ViewOptions &Options) {
  const Program &P = *R.Suite->Model;
  std::map<std::pair<unsigned, unsigned>, double> Scores = lineScores(R);
  // Why a line ranks above its spectrum or its tie, shown after its text.
  std::map<std::pair<unsigned, unsigned>, std::string> Lifted;
  for (const ScoredEvent &E : R.Result.Events)
    if (std::string Why = whyRanked(R, E); !Why.empty() && E.What.Kind == EventKind::Line) {
      Place Where = placeOf(P, E.What);
      Lifted[{Where.Source, Where.Line}] = Why;
    }
  ColorScale Scale(R.Result);
  std::string Out;
  for (const auto &[Source, Ranges] : executedRanges(R)) {
    if (!Out.empty())
      Out += "\n";
    Out += fmt::format("{} ({}):\n", displayPath(P.sources()[Source].Path), R.Result.Title);
    bool FirstRange = true;
    for (auto [Begin, End] : Ranges) {
      if (!FirstRange)
        Out += "     ...\n";
      FirstRange = false;
      for (unsigned Line = Begin; Line <= End; ++Line) {
        std::string Text = sourceLine(R, Source, Line).value_or("");
        auto It = Scores.find({Source, Line});
        std::string Score;
        if (It != Scores.end())
          Score = R.Result.UnitRange && std::isfinite(It->second)
                      ? fmt::format("{:>3.0f}%", It->second * 100)
                      : formatScore(It->second);
        std::string Row = fmt::format("{:>5} {:>7}  {}", Line, Score, Text);
        if (auto Why = Lifted.find({Source, Line}); Why != Lifted.end())
          Row += "  [" + Why->second + "]";
        Out += (It != Scores.end() ? colored(Options.Color, Scale(It->second), Row) : Row) + "\n";
      }
    }
  }
  if (Out.empty())
    Out = "no executed code to show\n";
  return Out;
}

} // namespace sleuth::localizer
