#include "ViewSupport.h"
#include "sleuth/slicer/source_hash.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>

namespace fs = std::filesystem;

namespace sleuth::localizer {

std::string displayPath(const std::string &Path) {
  std::error_code Ec;
  fs::path Cwd = fs::current_path(Ec);
  if (Ec)
    return Path;
  fs::path Rel = fs::path(Path).lexically_relative(Cwd);
  if (Rel.empty() || *Rel.begin() == "..")
    return Path;
  return Rel.string();
}

std::string formatScore(double Score) {
  if (std::isinf(Score))
    return Score > 0 ? "inf" : "-inf";
  return fmt::format("{:.3f}", Score);
}

std::string formatRank(const RankRange &Rank) {
  if (Rank.Best == Rank.Worst)
    return std::to_string(Rank.Best);
  return fmt::format("{}-{}", Rank.Best, Rank.Worst);
}

ColorScale::ColorScale(const Ranking &R) : Unit(R.UnitRange) {
  bool First = true;
  for (const ScoredEvent &E : R.Events) {
    if (!std::isfinite(E.Score))
      continue;
    Low = First ? E.Score : std::min(Low, E.Score);
    High = First ? E.Score : std::max(High, E.Score);
    First = false;
  }
}

double ColorScale::operator()(double Score) const {
  if (std::isinf(Score))
    return Score > 0 ? 1 : 0;
  if (Unit)
    return std::clamp(Score, 0.0, 1.0);
  if (High == Low)
    return 0.5;
  return (Score - Low) / (High - Low);
}

Rgb spectrumColor(double Suspiciousness) {
  // HSL with hue 120 (green) .. 0 (red), saturation 0.75, lightness 0.80.
  double Hue = (1 - std::clamp(Suspiciousness, 0.0, 1.0)) * 120;
  double S = 0.75, L = 0.80;
  double C = (1 - std::abs(2 * L - 1)) * S;
  double X = C * (1 - std::abs(std::fmod(Hue / 60, 2) - 1));
  double M = L - C / 2;
  double R = 0, G = 0, B = 0;
  if (Hue < 60) {
    R = C;
    G = X;
  } else {
    R = X;
    G = C;
  }
  auto To8 = [](double V) {
    return static_cast<unsigned>(std::lround(std::clamp(V, 0.0, 1.0) * 255));
  };
  return {To8(R + M), To8(G + M), To8(B + M)};
}

std::map<std::pair<unsigned, unsigned>, double> lineScores(const Report &R) {
  std::map<std::pair<unsigned, unsigned>, double> Out;
  for (const ScoredEvent &E : R.Result.Events) {
    Place P = placeOf(*R.Suite->Model, E.What);
    auto [It, New] = Out.emplace(std::make_pair(P.Source, P.Line), E.Score);
    if (!New)
      It->second = std::max(It->second, E.Score);
  }
  return Out;
}

std::optional<std::string> sourceLine(const Report &R, unsigned Source, unsigned Line) {
  if (Source >= R.SourceLines.size() || Line == 0 || Line > R.SourceLines[Source].size())
    return std::nullopt;
  return R.SourceLines[Source][Line - 1];
}

std::string eventText(const Report &R, const ScoredEvent &E) {
  if (E.What.Kind != EventKind::Line)
    return describeEvent(*R.Suite->Model, E.What, &R.SourceLines);
  Place P = placeOf(*R.Suite->Model, E.What);
  std::string Text = sourceLine(R, P.Source, P.Line).value_or("");
  std::size_t First = Text.find_first_not_of(" \t");
  return First == std::string::npos ? "" : Text.substr(First);
}

std::string liftedBy(const Report &R, const ScoredEvent &E) {
  if (!E.Lifted)
    return "";
  return fmt::format("{} (importance {})",
                     describeEvent(*R.Suite->Model, *E.Lifted, &R.SourceLines),
                     formatScore(E.Second));
}

std::string whyRanked(const Report &R, const ScoredEvent &E) {
  std::string Predicate = liftedBy(R, E);
  if (E.Reason.empty() || Predicate.empty())
    return E.Reason + Predicate;
  return E.Reason + "; " + Predicate;
}

std::string eventLocation(const Report &R, const ScoredEvent &E) {
  Place P = placeOf(*R.Suite->Model, E.What);
  std::string File = displayPath(R.Suite->Model->sources()[P.Source].Path);
  if (P.Column)
    return fmt::format("{}:{}:{}", File, P.Line, P.Column);
  return fmt::format("{}:{}", File, P.Line);
}

std::string escapeHtml(std::string_view Text) {
  std::string Out;
  for (char C : Text) {
    switch (C) {
    case '&':
      Out += "&amp;";
      break;
    case '<':
      Out += "&lt;";
      break;
    case '>':
      Out += "&gt;";
      break;
    case '"':
      Out += "&quot;";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

std::vector<std::pair<unsigned, std::vector<std::pair<unsigned, unsigned>>>>
executedRanges(const Report &R) {
  const Program &P = *R.Suite->Model;
  std::map<unsigned, std::vector<std::pair<unsigned, unsigned>>> BySource;
  for (const Program::Function &F : P.functions()) {
    bool Executed = std::any_of(F.Blocks.begin(), F.Blocks.end(), [&](unsigned B) {
      return std::any_of(R.Suite->Spectra.begin(), R.Suite->Spectra.end(),
                         [&](const Spectrum &S) { return Spectrum::at(S.Blocks, B) > 0; });
    });
    if (Executed && F.Begin > 0 && F.End >= F.Begin)
      BySource[F.Source].emplace_back(F.Begin, F.End);
  }
  // Sources known only from line records or dependences: their ranked lines.
  for (const auto &[Where, Score] : lineScores(R))
    if (!BySource.count(Where.first) ||
        std::none_of(BySource[Where.first].begin(), BySource[Where.first].end(), [&](auto Range) {
          return Range.first <= Where.second && Where.second <= Range.second;
        }))
      BySource[Where.first].emplace_back(Where.second, Where.second);
  std::vector<std::pair<unsigned, std::vector<std::pair<unsigned, unsigned>>>> Out;
  for (auto &[Source, Ranges] : BySource) {
    std::sort(Ranges.begin(), Ranges.end());
    std::vector<std::pair<unsigned, unsigned>> Merged;
    for (auto Range : Ranges)
      if (!Merged.empty() && Range.first <= Merged.back().second + 1)
        Merged.back().second = std::max(Merged.back().second, Range.second);
      else
        Merged.push_back(Range);
    Out.emplace_back(Source, std::move(Merged));
  }
  std::sort(Out.begin(), Out.end(), [&](const auto &A, const auto &B) {
    return P.sources()[A.first].Path < P.sources()[B.first].Path;
  });
  return Out;
}

std::vector<std::vector<std::string>> readSources(const Program &P,
                                                  std::vector<std::string> *Warnings) {
  std::vector<std::vector<std::string>> Out;
  for (const Program::Source &S : P.sources()) {
    std::vector<std::string> Lines;
    std::ifstream In(S.Path, std::ios::binary);
    if (!In) {
      if (Warnings)
        Warnings->push_back(fmt::format("cannot read source '{}': shown without its text", S.Path));
    } else {
      std::string Line;
      while (std::getline(In, Line)) {
        if (!Line.empty() && Line.back() == '\r')
          Line.pop_back();
        Lines.push_back(std::move(Line));
      }
      // A source edited after the run shows other lines than the ones that ran.
      std::string Changed = sourceChangedWarning(S.Path, S.ContentHash ? S.Hash : "");
      if (Warnings && !Changed.empty())
        Warnings->push_back(std::move(Changed));
    }
    Out.push_back(std::move(Lines));
  }
  return Out;
}

} // namespace sleuth::localizer
