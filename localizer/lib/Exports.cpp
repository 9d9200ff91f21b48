// Machine-readable exports: CSV, JSON, SARIF 2.1.0.
#include "ViewSupport.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>

namespace fs = std::filesystem;

namespace sleuth::localizer {

namespace {

std::string csvField(std::string_view Text) {
  if (Text.find_first_of(",\"\n\r") == std::string_view::npos)
    return std::string(Text);
  std::string Out = "\"";
  for (char C : Text)
    Out += C == '"' ? std::string("\"\"") : std::string(1, C);
  return Out + "\"";
}

std::string csvNumber(double V) {
  if (std::isinf(V))
    return V > 0 ? "inf" : "-inf";
  return fmt::format("{:.6g}", V);
}

/// JSON has no infinity: DStar's "as suspicious as it gets" is the string "inf".
nlohmann::json jsonScore(double V) {
  if (std::isinf(V))
    return V > 0 ? "inf" : "-inf";
  return V;
}

std::string fileUri(const std::string &Path) {
  std::string Out = "file://";
  for (unsigned char C : Path) {
    if (std::isalnum(C) ||
        std::string_view("/-._~").find(static_cast<char>(C)) != std::string_view::npos)
      Out += static_cast<char>(C);
    else
      Out += fmt::format("%{:02X}", C);
  }
  return Out;
}

std::string relativeUri(const std::string &Path) {
  std::string Out;
  for (unsigned char C : Path) {
    if (std::isalnum(C) ||
        std::string_view("/-._~").find(static_cast<char>(C)) != std::string_view::npos)
      Out += static_cast<char>(C);
    else
      Out += fmt::format("%{:02X}", C);
  }
  return Out;
}

} // namespace

std::string csvExport(const Report &R) {
  std::string Out = "rank_best,rank_worst,rank_average,score,kind,file,line,column,event,ef,ep,"
                    "nf,np,second,predicate,reason";
  for (const Formula &F : formulas())
    Out += "," + std::string(F.Name);
  Out += "\n";
  for (const ScoredEvent &E : R.Result.Events) {
    Place P = placeOf(*R.Suite->Model, E.What);
    Out +=
        fmt::format("{},{},{:g},{},{},{},{},{},{},{:g},{:g},{:g},{:g}", E.Rank.Best, E.Rank.Worst,
                    E.Rank.average(), csvNumber(E.Score), eventKindName(E.What.Kind),
                    csvField(R.Suite->Model->sources()[P.Source].Path), P.Line, P.Column,
                    csvField(eventText(R, E)), E.Counts.Ef, E.Counts.Ep, E.Counts.Nf, E.Counts.Np);
    Out += "," + csvNumber(E.Second) + "," + csvField(liftedBy(R, E)) + "," + csvField(E.Reason);
    for (const Formula &F : formulas())
      Out += "," + csvNumber(F.Score(E.Counts));
    Out += "\n";
  }
  return Out;
}

std::string jsonExport(const Report &R) {
  nlohmann::json J;
  J["version"] = 1;
  J["technique"] = R.Result.Technique;
  J["title"] = R.Result.Title;
  if (!R.Result.TieBreak.empty())
    J["tie_break"] = R.Result.TieBreak;
  nlohmann::json Tests = nlohmann::json::array();
  for (const TestInfo &T : R.Tests)
    Tests.push_back({{"name", T.Name},
                     {"command", T.Command},
                     {"outcome", std::string(verdictName(T.Outcome))},
                     {"failed", T.Outcome != Verdict::Passed},
                     {"detail", T.Detail},
                     {"seconds", T.Seconds}});
  J["tests"] = std::move(Tests);
  nlohmann::json Events = nlohmann::json::array();
  for (const ScoredEvent &E : R.Result.Events) {
    Place P = placeOf(*R.Suite->Model, E.What);
    nlohmann::json Row = {
        {"kind", std::string(eventKindName(E.What.Kind))},
        {"file", R.Suite->Model->sources()[P.Source].Path},
        {"line", P.Line},
        {"score", jsonScore(E.Score)},
        {"rank", {{"best", E.Rank.Best}, {"worst", E.Rank.Worst}, {"average", E.Rank.average()}}},
        {"ef", E.Counts.Ef},
        {"ep", E.Counts.Ep},
        {"nf", E.Counts.Nf},
        {"np", E.Counts.Np},
        {"text", eventText(R, E)}};
    if (P.Column)
      Row["column"] = P.Column;
    if (E.Lifted) {
      Row["second"] = jsonScore(E.Second);
      Row["predicate"] = describeEvent(*R.Suite->Model, *E.Lifted, &R.SourceLines);
    }
    if (!E.Reason.empty())
      Row["reason"] = E.Reason;
    nlohmann::json Covered = nlohmann::json::array();
    for (const Spectrum &S : R.Suite->Spectra)
      Covered.push_back(eventCount(S, E.What));
    Row["counts"] = std::move(Covered);
    Events.push_back(std::move(Row));
  }
  J["events"] = std::move(Events);
  return J.dump(2) + "\n";
}

std::string sarifExport(const Report &R, std::size_t Top) {
  std::error_code Ec;
  fs::path Cwd = fs::current_path(Ec);
  nlohmann::json Rule = {
      {"id", "sleuth/suspicious"},
      {"name", "SuspiciousCode"},
      {"shortDescription", {{"text", "Code that correlates with failing tests"}}},
      {"fullDescription",
       {{"text", "Spectrum-based fault localization: this code was executed by failing tests "
                 "more than by passing ones, so it is among the first places to look for the "
                 "fault."}}},
      {"defaultConfiguration", {{"level", "warning"}}}};
  nlohmann::json Results = nlohmann::json::array();
  ColorScale Scale(R.Result);
  std::size_t Total = R.Result.Events.size();
  for (std::size_t I = 0; I < Total && (Top == 0 || I < Top); ++I) {
    const ScoredEvent &E = R.Result.Events[I];
    Place P = placeOf(*R.Suite->Model, E.What);
    const std::string &Path = R.Suite->Model->sources()[P.Source].Path;
    nlohmann::json Artifact;
    fs::path Rel = fs::path(Path).lexically_relative(Cwd);
    if (!Ec && !Rel.empty() && *Rel.begin() != "..") {
      Artifact = {{"uri", relativeUri(Rel.string())}, {"uriBaseId", "%SRCROOT%"}};
    } else {
      Artifact = {{"uri", fileUri(Path)}};
    }
    nlohmann::json Region = {{"startLine", P.Line}};
    if (P.Column)
      Region["startColumn"] = P.Column;
    std::string What =
        E.What.Kind == EventKind::Line
            ? std::string("Suspicious line")
            : fmt::format("Suspicious {}: {}", eventKindName(E.What.Kind), eventText(R, E));
    std::string Message = fmt::format(
        "{} ({} {}, rank {} of {}): executed by {:g} of {:g} failing and {:g} of {:g} passing "
        "tests{}",
        What, R.Result.Title, formatScore(E.Score), formatRank(E.Rank), Total, E.Counts.Ef,
        E.Counts.failed(), E.Counts.Ep, E.Counts.passed(),
        (E.Reason.empty() ? std::string() : "; " + E.Reason) +
            (E.Lifted ? "; among equal scores ranked by " + liftedBy(R, E) : std::string()));
    Results.push_back(
        {{"ruleId", "sleuth/suspicious"},
         {"ruleIndex", 0},
         {"level", E.Rank.Best == 1 ? "warning" : "note"},
         {"message", {{"text", Message}}},
         {"rank", std::round(Scale(E.Score) * 1000) / 10},
         {"locations",
          {{{"physicalLocation", {{"artifactLocation", Artifact}, {"region", Region}}}}}},
         {"properties",
          {{"score", jsonScore(E.Score)},
           {"rankBest", E.Rank.Best},
           {"rankWorst", E.Rank.Worst},
           {"technique", R.Result.Technique}}}});
  }
  nlohmann::json Run = {
      {"tool", {{"driver", {{"name", "sleuth"}, {"rules", nlohmann::json::array({Rule})}}}}},
      {"results", std::move(Results)}};
  if (!Ec) {
    std::string Base = fileUri(Cwd.string());
    if (Base.back() != '/')
      Base += '/';
    Run["originalUriBaseIds"] = {{"%SRCROOT%", {{"uri", Base}}}};
  }
  nlohmann::json Sarif = {{"$schema", "https://json.schemastore.org/sarif-2.1.0.json"},
                          {"version", "2.1.0"},
                          {"runs", nlohmann::json::array({Run})}};
  return Sarif.dump(2) + "\n";
}

} // namespace sleuth::localizer
