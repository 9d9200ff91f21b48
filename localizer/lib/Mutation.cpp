//===- Mutation.cpp - Metallaxis-FL on a mutant schemata ------------------===//
#include "sleuth/localizer/mutation.h"
#include "sleuth/slicer/source_hash.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <random>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace sleuth::localizer {

namespace {

std::string absolutePath(const fs::path &P) {
  std::error_code Ec;
  fs::path A = fs::weakly_canonical(fs::absolute(P), Ec);
  return (Ec ? fs::absolute(P) : A).lexically_normal().string();
}

std::string readWholeFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::ostringstream Out;
  Out << In.rdbuf();
  return Out.str();
}

/// The standard output a run left in the store: beside its spectrum or dependence file.
std::string stdoutOf(const TestResult &R) {
  const std::string &Kept = !R.Spectrum.empty() ? R.Spectrum : R.Dependences;
  if (Kept.empty())
    return "";
  return readWholeFile((fs::path(Kept).parent_path() / "stdout").string());
}

} // namespace

bool readSchemataManifest(const std::string &Path, SchemataManifest &Manifest, std::string &Error) {
  std::ifstream In(Path, std::ios::binary);
  if (!In) {
    Error = fmt::format("cannot read schemata manifest '{}': no such file", Path);
    return false;
  }
  nlohmann::json J;
  try {
    J = nlohmann::json::parse(In);
    if (!J.is_object() || !J.contains("mutants") || !J.contains("path"))
      throw std::runtime_error("no \"mutants\" or \"path\"");
    Manifest = SchemataManifest();
    Manifest.Source = absolutePath(J.at("path").get<std::string>());
    Manifest.Variable = J.value("variable", std::string("SLEUTH_MUTANT"));
    Manifest.PreludeLines = J.value("prelude_lines", 0u);
    Manifest.SchemataHash = J.value("schemata_hash", std::string());
    for (const nlohmann::json &M : J.at("mutants"))
      Manifest.Mutants.push_back({M.at("id").get<unsigned>(), M.at("line").get<unsigned>(),
                                  M.value("operator", ""), M.value("original", ""),
                                  M.value("replacement", "")});
  } catch (const std::exception &E) {
    Error = fmt::format("{}: not a schemata manifest of `sleuth mutate --schemata`: {}", Path,
                        E.what());
    return false;
  }
  std::string Schemata = Path;
  if (Schemata.size() > 5 && Schemata.ends_with(".json"))
    Schemata.resize(Schemata.size() - 5);
  Manifest.Schemata = absolutePath(Schemata);
  // Without the schemata at hand (the build may be elsewhere) only the coverage files can tell.
  std::ifstream Text(Manifest.Schemata, std::ios::binary);
  if (Text && !Manifest.SchemataHash.empty()) {
    std::string Bytes((std::istreambuf_iterator<char>(Text)), std::istreambuf_iterator<char>());
    if (sourceHash(Bytes) != Manifest.SchemataHash) {
      Error = fmt::format("{}: describes another version of {} (one of the two was rewritten "
                          "since); run `sleuth mutate --schemata` again",
                          Path, Schemata);
      return false;
    }
  }
  return true;
}

SchemataMatch mapSchemataCoverage(CoverageFile &Cov, const SchemataManifest &Manifest) {
  std::optional<unsigned> File;
  for (unsigned I = 0; I < Cov.Files.size(); ++I)
    if (Cov.Files[I].Path == Manifest.Schemata ||
        absolutePath(Cov.Files[I].Path) == Manifest.Schemata)
      File = I;
  if (!File)
    return SchemataMatch::None;
  // A build of an older schemata numbers its mutants differently.
  if (!Manifest.SchemataHash.empty() && Cov.Files[*File].ContentHash &&
      Cov.Files[*File].Hash != Manifest.SchemataHash)
    return SchemataMatch::OtherVersion;
  unsigned Shift = Manifest.PreludeLines;
  Cov.Files[*File].Path = Manifest.Source;
  // The hash is of the schemata's text, not of the file the views read.
  Cov.Files[*File].ContentHash = false;
  auto Mapped = [&](unsigned Line) { return Line > Shift ? Line - Shift : 0; };

  // The prelude's function goes, with its blocks, edges and conditions; ids are renumbered.
  std::vector<int> FunctionId(Cov.Functions.size(), -1), BlockId(Cov.Blocks.size(), -1);
  std::vector<CoverageFile::Function> Functions;
  for (unsigned F = 0; F < Cov.Functions.size(); ++F) {
    CoverageFile::Function Fn = Cov.Functions[F];
    if (Fn.File == *File) {
      if (Fn.Begin <= Shift)
        continue;
      Fn.Begin = Mapped(Fn.Begin);
      Fn.End = Mapped(Fn.End);
    }
    FunctionId[F] = int(Functions.size());
    Functions.push_back(Fn);
  }
  std::vector<CoverageFile::Block> Blocks;
  for (unsigned B = 0; B < Cov.Blocks.size(); ++B) {
    CoverageFile::Block Bl = Cov.Blocks[B];
    if (FunctionId[Bl.Function] < 0)
      continue;
    bool Ours = Cov.Functions[Bl.Function].File == *File;
    Bl.Function = unsigned(FunctionId[Bl.Function]);
    if (Ours)
      for (unsigned &L : Bl.Lines)
        L = Mapped(L);
    BlockId[B] = int(Blocks.size());
    Blocks.push_back(std::move(Bl));
  }
  for (CoverageFile::Function &Fn : Functions) {
    Fn.Entry = unsigned(std::max(0, BlockId[Fn.Entry]));
    Fn.Exit = unsigned(std::max(0, BlockId[Fn.Exit]));
  }
  std::vector<CoverageFile::Edge> Edges;
  for (CoverageFile::Edge E : Cov.Edges)
    if (BlockId[E.From] >= 0 && BlockId[E.To] >= 0) {
      E.From = unsigned(BlockId[E.From]);
      E.To = unsigned(BlockId[E.To]);
      Edges.push_back(E);
    }
  std::vector<CoverageFile::Condition> Conditions;
  for (CoverageFile::Condition C : Cov.Conditions)
    if (BlockId[C.Block] >= 0) {
      bool Ours = Cov.Functions[Cov.Blocks[C.Block].Function].File == *File;
      C.Block = unsigned(BlockId[C.Block]);
      if (Ours) {
        C.Line = Mapped(C.Line);
        C.EndLine = Mapped(C.EndLine);
      }
      Conditions.push_back(C);
    }
  std::vector<CoverageFile::Line> Lines;
  for (CoverageFile::Line L : Cov.Lines) {
    if (L.File == *File) {
      if (L.Number <= Shift)
        continue;
      L.Number = Mapped(L.Number);
    }
    Lines.push_back(L);
  }
  Cov.Functions = std::move(Functions);
  Cov.Blocks = std::move(Blocks);
  Cov.Edges = std::move(Edges);
  Cov.Conditions = std::move(Conditions);
  Cov.Lines = std::move(Lines);
  return SchemataMatch::Mapped;
}

double metallaxisScore(std::size_t ChangedFailing, std::size_t ChangedPassing,
                       std::size_t Failing) {
  double Denominator = double(Failing) * double(ChangedFailing + ChangedPassing);
  return Denominator > 0 ? double(ChangedFailing) / std::sqrt(Denominator) : 0;
}

std::map<unsigned, double> lineScores(const std::vector<MutantOutcome> &Outcomes,
                                      MutationTechnique Technique, std::size_t Failing) {
  std::map<unsigned, double> Scores;
  if (Technique == MutationTechnique::Metallaxis) {
    for (const MutantOutcome &O : Outcomes) {
      double Score = metallaxisScore(O.ChangedFailing, O.ChangedPassing, Failing);
      auto [It, New] = Scores.try_emplace(O.Line, Score);
      if (!New)
        It->second = std::max(It->second, Score);
    }
    return Scores;
  }
  double F2P = 0, P2F = 0;
  for (const MutantOutcome &O : Outcomes) {
    F2P += double(O.FailToPass);
    P2F += double(O.PassToFail);
  }
  std::map<unsigned, std::size_t> Mutants;
  for (const MutantOutcome &O : Outcomes) {
    Scores[O.Line] += double(O.FailToPass) / (F2P + 1) - double(O.PassToFail) / (P2F + 1);
    ++Mutants[O.Line];
  }
  for (auto &[Line, Score] : Scores)
    Score /= double(Mutants[Line] + 1);
  return Scores;
}

bool outcomeChanged(const TestResult &Original, const std::string &OriginalStdout,
                    const TestResult &Mutant, const std::string &MutantStdout) {
  return Original.Outcome != Mutant.Outcome || Original.Detail != Mutant.Detail ||
         OriginalStdout != MutantStdout;
}

bool rankByMutants(const std::vector<TestCase> &Tests, const std::vector<TestResult> &Results,
                   const SuiteSpectra &Suite, const SchemataManifest &Manifest,
                   const MutationOptions &Options, Ranking &Out, MutationSummary &Summary,
                   std::string &Error) {
  using Clock = std::chrono::steady_clock;
  auto Start = Clock::now();
  auto Elapsed = [&] { return std::chrono::duration<double>(Clock::now() - Start).count(); };
  const Program &Model = *Suite.Model;
  Summary = MutationSummary();
  std::size_t Failing = Suite.failures();

  // The lines of the mutated file that failing tests executed, and who executed them.
  std::map<unsigned, unsigned> LineEvent; // line number -> line id
  std::optional<unsigned> Source = Model.sourceId(Manifest.Source);
  auto InSource = [&](unsigned LineId) {
    return Source && Model.lines()[LineId].Source == *Source;
  };
  for (unsigned Id = 0; Id < Model.lines().size(); ++Id)
    if (InSource(Id))
      LineEvent[Model.lines()[Id].Number] = Id;
  auto Executed = [&](std::size_t Test, unsigned LineId) {
    return Spectrum::at(Suite.Spectra[Test].Lines, LineId) > 0;
  };
  std::map<unsigned, std::vector<const SchemataManifest::Mutant *>> ByLine;
  for (const SchemataManifest::Mutant &M : Manifest.Mutants) {
    auto It = LineEvent.find(M.Line);
    if (It == LineEvent.end())
      continue;
    for (std::size_t T = 0; T < Tests.size(); ++T)
      if (Suite.Failed[T] && Executed(T, It->second)) {
        ByLine[M.Line].push_back(&M);
        break;
      }
  }
  for (const auto &[Line, Id] : LineEvent)
    for (std::size_t T = 0; T < Tests.size(); ++T)
      if (Suite.Failed[T] && Executed(T, Id)) {
        ++Summary.Lines;
        break;
      }

  // Most suspicious lines first, one mutant per line per round.
  std::vector<unsigned> LineOrder;
  if (Options.Order)
    for (const ScoredEvent &E : Options.Order->Events)
      if (E.What.Kind == EventKind::Line && InSource(E.What.Id) &&
          ByLine.count(Model.lines()[E.What.Id].Number))
        LineOrder.push_back(Model.lines()[E.What.Id].Number);
  for (const auto &[Line, Mutants] : ByLine)
    if (std::find(LineOrder.begin(), LineOrder.end(), Line) == LineOrder.end())
      LineOrder.push_back(Line);
  std::vector<const SchemataManifest::Mutant *> Queue;
  for (std::size_t Round = 0;; ++Round) {
    bool Any = false;
    for (unsigned Line : LineOrder)
      if (Round < ByLine[Line].size()) {
        Queue.push_back(ByLine[Line][Round]);
        Any = true;
      }
    if (!Any)
      break;
  }
  Summary.Available = Queue.size();

  std::vector<std::string> OriginalStdout(Tests.size());
  for (std::size_t T = 0; T < Tests.size(); ++T)
    OriginalStdout[T] = stdoutOf(Results[T]);
  std::vector<MutantOutcome> Outcomes;
  std::set<unsigned> LinesRun;
  fs::path Scratch = fs::path(Options.Run.Store) / "mutants";
  for (const SchemataManifest::Mutant *M : Queue) {
    if (Elapsed() >= Options.Budget) {
      Summary.BudgetSpent = true;
      break;
    }
    unsigned LineId = LineEvent.at(M->Line);
    std::vector<std::size_t> Chosen, Passing;
    for (std::size_t T = 0; T < Tests.size(); ++T)
      if (Executed(T, LineId))
        (Suite.Failed[T] ? Chosen : Passing).push_back(T);
    // A sample of the passing tests, the same for the same mutant on every run.
    std::mt19937_64 Random(M->Id);
    std::size_t Keep = std::min(Passing.size(), Options.PassingPerMutant);
    for (std::size_t I = 0; I < Keep; ++I)
      std::swap(Passing[I], Passing[I + std::size_t(Random() % (Passing.size() - I))]);
    Passing.resize(Keep);
    std::sort(Passing.begin(), Passing.end());
    Chosen.insert(Chosen.end(), Passing.begin(), Passing.end());

    std::vector<TestCase> Subset;
    for (std::size_t T : Chosen) {
      TestCase C = Tests[T];
      C.Environment.push_back({Manifest.Variable, std::to_string(M->Id)});
      // A mutant may loop forever: allow ten times the original run, at least two seconds.
      double Limit = C.Timeout > 0 ? C.Timeout : Options.Run.Timeout;
      C.Timeout = std::min(Limit, std::max(2.0, 10 * Results[T].Seconds));
      Subset.push_back(std::move(C));
    }
    RunOptions Run = Options.Run;
    Run.Store = (Scratch / fmt::format("m{}", M->Id)).string();
    Run.Incremental = false;
    Run.Verbose = false;
    Run.Quiet = true;
    // The tests run a batch of --jobs at a time, the budget checked between batches: a mutant
    // that loops would otherwise run every one of its tests to the timeout past the budget. A
    // mutant cut short is left out, as one never started.
    std::vector<TestResult> MutantResults;
    std::size_t Batch = std::max<std::size_t>(1, Run.Jobs);
    bool Cut = false;
    for (std::size_t First = 0; First < Subset.size(); First += Batch) {
      if (First > 0 && Elapsed() >= Options.Budget) {
        Cut = true;
        break;
      }
      std::vector<TestCase> Part(Subset.begin() + First,
                                 Subset.begin() + std::min(Subset.size(), First + Batch));
      std::vector<TestResult> PartResults;
      if (!runSuite(Part, Run, PartResults, Error))
        return false;
      MutantResults.insert(MutantResults.end(), PartResults.begin(), PartResults.end());
    }
    if (Cut) {
      std::error_code Ec;
      fs::remove_all(Run.Store, Ec);
      Summary.BudgetSpent = true;
      break;
    }
    MutantOutcome Outcome;
    Outcome.Line = M->Line;
    for (std::size_t K = 0; K < Chosen.size(); ++K) {
      std::size_t T = Chosen[K];
      if (outcomeChanged(Results[T], OriginalStdout[T], MutantResults[K],
                         stdoutOf(MutantResults[K])))
        ++(Suite.Failed[T] ? Outcome.ChangedFailing : Outcome.ChangedPassing);
      if (Suite.Failed[T] && !MutantResults[K].failed())
        ++Outcome.FailToPass;
      if (!Suite.Failed[T] && MutantResults[K].failed())
        ++Outcome.PassToFail;
    }
    Outcomes.push_back(Outcome);
    std::error_code Ec;
    fs::remove_all(Run.Store, Ec);
    ++Summary.Run;
    Summary.TestRuns += Chosen.size();
    Summary.PassingRuns += Passing.size();
    LinesRun.insert(M->Line);
  }
  std::error_code Ec;
  fs::remove(Scratch, Ec);
  Summary.LinesScored = LinesRun.size();
  Summary.Seconds = Elapsed();

  std::map<unsigned, double> LineScore = lineScores(Outcomes, Options.Technique, Failing);
  bool Muse = Options.Technique == MutationTechnique::Muse;
  Out = Ranking();
  Out.Technique = Muse ? "muse" : "metallaxis";
  Out.Title = Muse ? "MUSE" : "Metallaxis-FL";
  Out.UnitRange = !Muse; // MUSE scores may be negative
  const EventKind LineKind[] = {EventKind::Line};
  for (Event E : observedEvents(Suite, LineKind)) {
    ScoredEvent S;
    S.What = E;
    S.Counts = countEvent(Suite, E);
    if (InSource(E.Id))
      if (auto It = LineScore.find(Model.lines()[E.Id].Number); It != LineScore.end())
        S.Score = It->second;
    Out.Events.push_back(S);
  }
  orderRanking(Model, Out.Events);
  return true;
}

} // namespace sleuth::localizer
