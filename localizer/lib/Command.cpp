// `sleuth localize`: run a suite on a coverage build (or read stored spectra),
// rank, show.
#include "sleuth/localizer/command.h"
#include "sleuth/localizer/blockrank.h"
#include "sleuth/localizer/mutation.h"
#include "sleuth/localizer/specification.h"
#include "sleuth/localizer/views.h"

#include "sleuth/slicer/dependences.h"

#include <fmt/format.h>

#include <chrono>
#include <fstream>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <functional>
#include <thread>

#include <unistd.h>

namespace fs = std::filesystem;

namespace sleuth {

namespace localizer {
namespace {

constexpr const char *Usage =
    R"(usage: sleuth localize SUITE [options]

Runs a test suite on a build made in coverage mode (SLEUTH_MODE=coverage
sleuth c++ ...), collects one spectrum per test, and ranks the code by how
strongly its execution correlates with failing tests.

SUITE (one of):
  --tests FILE           one test per line: [EXIT] [stdout=FILE] [name=NAME]
                         [timeout=S] COMMAND (run by /bin/sh in FILE's directory)
  --ctest BUILD_DIR      the tests ctest knows in BUILD_DIR
  --ctest-regex REGEX    with --ctest: only tests matching REGEX (ctest -R)
  --from STORE           rank the spectra an earlier run stored, run nothing
  --pass COV, --fail COV spectra given directly: a coverage file or a directory
                         of them (one test; files are added up); repeatable

running:
  -j, --jobs N           tests run in parallel (default: number of processors)
  --timeout SECONDS      per test (default 60); a timeout counts as a failure
  --store DIR            where spectra are kept (default: .sleuth-localize)
  --incremental          rerun only tests whose command, oracle or named files
                         changed since the stored run
  -v, --verbose          one line per test (failures are always shown)

ranking:
  --formula NAME         op2 (default), ochiai, tarantula, jaccard, dstar,
                         barinel, kulczynski2, naish1, ... or blockrank
  --list-formulas        print the formulas and exit
  --tie-break HOW        importance (default): order lines of equal score by
                         their most important predicate (x < 0, x == y, a
                         condition true or false); none: keep the ties
  --events KINDS         what is ranked: line (default), branch, edge,
                         dependence, value, or all; comma-separated
  --specification        rank lines by SAT-TAR: the trace formula of each failing
                         test's recorded path (a build with SLEUTH_PATH=1) and its
                         expected output name the statements that explain the
                         failure; they lift --formula's scores
  --specification-budget S  seconds for the trace formulas (default 60; checked
                         before each failing test, at most 5 s each)
  --mutants MANIFEST     rank lines by Metallaxis-FL: rerun tests against the
                         mutants of `sleuth mutate --schemata OUT FILE` (MANIFEST
                         is OUT.json; the suite's program is built from OUT)
  --mutation-score NAME  metallaxis (default) or muse
  --mutation-budget S    seconds for the mutant runs (default 300)
  --mutation-passing N   passing tests run per mutant, a sample (default 20)

views:
  --view VIEWS           list (default), table, source, or none;
                         comma-separated, printed in that order
  --top N                list only the N most suspicious (default 10; 0: all)
  --color WHEN           auto (default), always or never
  --html FILE            the HTML report
  --json FILE, --csv FILE, --sarif FILE
                         exports ('-' writes to standard output)
  --sarif-top N          results in the SARIF file (default 10; 0: all)
  -h, --help             show this help
)";

struct UsageError {
  std::string Message;
};

struct Arguments {
  std::string TestsFile, CtestDir, CtestRegex, From;
  std::vector<std::string> Pass, Fail;
  unsigned Jobs = 0;
  double Timeout = 60;
  std::string Store = ".sleuth-localize";
  bool Incremental = false, Verbose = false;
  // The default ranking is the one that measures best on bench/localize's small subjects
  // (bench/RESULTS.md): Op2, its ties ordered by predicate Importance.
  std::string Formula = "op2";
  std::vector<EventKind> Kinds = {EventKind::Line};
  std::string TieBreak = "importance";
  bool TieBreakGiven = false;
  std::vector<std::string> Views = {"list"};
  std::optional<std::size_t> Top;
  std::string Color = "auto";
  std::string Html, Json, Csv, Sarif;
  std::size_t SarifTop = 10;
  bool Help = false, ListFormulas = false;
  std::string Mutants;
  bool Specification = false;
  double SpecificationBudget = 60;
  double MutationBudget = 300;
  std::size_t MutationPassing = 20;
  MutationTechnique MutationScore = MutationTechnique::Metallaxis;
};

std::vector<std::string> splitList(std::string_view Text) {
  std::vector<std::string> Out;
  std::size_t Start = 0;
  while (Start <= Text.size()) {
    std::size_t Comma = Text.find(',', Start);
    if (Comma == std::string_view::npos)
      Comma = Text.size();
    if (Comma > Start)
      Out.emplace_back(Text.substr(Start, Comma - Start));
    Start = Comma + 1;
  }
  return Out;
}

double parseSeconds(std::string_view Option, const std::string &Text) {
  char *End = nullptr;
  double Seconds = std::strtod(Text.c_str(), &End);
  if (Text.empty() || *End || !(Seconds > 0))
    throw UsageError{fmt::format("{} needs a positive number of seconds, not '{}'", Option, Text)};
  return Seconds;
}

std::size_t parseCount(std::string_view Option, std::string_view Text) {
  std::size_t Value = 0;
  auto [Ptr, Ec] = std::from_chars(Text.data(), Text.data() + Text.size(), Value);
  if (Text.empty() || Ec != std::errc() || Ptr != Text.data() + Text.size())
    throw UsageError{fmt::format("{} needs a non-negative number, not '{}'", Option, Text)};
  return Value;
}

Arguments parseArguments(int Argc, const char **Argv) {
  Arguments Args;
  for (int I = 1; I < Argc; ++I) {
    std::string_view Arg = Argv[I];
    std::optional<std::string_view> Inline;
    std::string_view Name = Arg;
    if (Arg.starts_with("--"))
      if (std::size_t Eq = Arg.find('='); Eq != std::string_view::npos) {
        Name = Arg.substr(0, Eq);
        Inline = Arg.substr(Eq + 1);
      }
    auto Value = [&]() -> std::string {
      if (Inline)
        return std::string(*Inline);
      if (I + 1 >= Argc)
        throw UsageError{fmt::format("option '{}' needs a value", Name)};
      return Argv[++I];
    };
    auto NoValue = [&] {
      if (Inline)
        throw UsageError{fmt::format("option '{}' takes no value", Name)};
    };
    if (Name == "-h" || Name == "--help") {
      NoValue();
      Args.Help = true;
    } else if (Name == "--list-formulas") {
      NoValue();
      Args.ListFormulas = true;
    } else if (Name == "--tests") {
      Args.TestsFile = Value();
    } else if (Name == "--ctest") {
      Args.CtestDir = Value();
    } else if (Name == "--ctest-regex") {
      Args.CtestRegex = Value();
    } else if (Name == "--from") {
      Args.From = Value();
    } else if (Name == "--pass") {
      Args.Pass.push_back(Value());
    } else if (Name == "--fail") {
      Args.Fail.push_back(Value());
    } else if (Name == "-j" || Name == "--jobs") {
      std::size_t Jobs = parseCount(Name, Value());
      if (Jobs == 0 || Jobs > 1024)
        throw UsageError{fmt::format("{} needs a number from 1 to 1024", Name)};
      Args.Jobs = static_cast<unsigned>(Jobs);
    } else if (Arg.starts_with("-j") && Arg.size() > 2 && !Arg.starts_with("--")) {
      std::size_t Jobs = parseCount("-j", Arg.substr(2));
      if (Jobs == 0 || Jobs > 1024)
        throw UsageError{"-j needs a number from 1 to 1024"};
      Args.Jobs = static_cast<unsigned>(Jobs);
    } else if (Name == "--timeout") {
      std::string V = Value();
      char *End = nullptr;
      Args.Timeout = std::strtod(V.c_str(), &End);
      if (V.empty() || *End || !(Args.Timeout > 0))
        throw UsageError{fmt::format("--timeout needs a positive number of seconds, not '{}'", V)};
    } else if (Name == "--store") {
      Args.Store = Value();
      if (Args.Store.empty())
        throw UsageError{"--store needs a directory"};
    } else if (Name == "--incremental") {
      NoValue();
      Args.Incremental = true;
    } else if (Name == "-v" || Name == "--verbose") {
      NoValue();
      Args.Verbose = true;
    } else if (Name == "--mutants") {
      Args.Mutants = Value();
    } else if (Name == "--specification") {
      NoValue();
      Args.Specification = true;
    } else if (Name == "--specification-budget") {
      Args.SpecificationBudget = parseSeconds(Name, Value());
    } else if (Name == "--mutation-budget") {
      Args.MutationBudget = parseSeconds(Name, Value());
    } else if (Name == "--mutation-score") {
      std::string V = Value();
      if (V == "metallaxis")
        Args.MutationScore = MutationTechnique::Metallaxis;
      else if (V == "muse")
        Args.MutationScore = MutationTechnique::Muse;
      else
        throw UsageError{fmt::format("--mutation-score needs metallaxis or muse, not '{}'", V)};
    } else if (Name == "--mutation-passing") {
      Args.MutationPassing = parseCount(Name, Value());
    } else if (Name == "--formula") {
      Args.Formula = Value();
      if (Args.Formula != "blockrank" && !findFormula(Args.Formula))
        throw UsageError{
            fmt::format("unknown formula '{}' (--list-formulas lists them)", Args.Formula)};
      if (const Formula *F = findFormula(Args.Formula))
        Args.Formula = std::string(F->Name);
    } else if (Name == "--events") {
      Args.Kinds.clear();
      for (const std::string &K : splitList(Value())) {
        if (K == "all")
          Args.Kinds = {EventKind::Line, EventKind::Branch, EventKind::Edge, EventKind::Dependence,
                        EventKind::Value};
        else if (K == "line" || K == "lines")
          Args.Kinds.push_back(EventKind::Line);
        else if (K == "branch" || K == "branches")
          Args.Kinds.push_back(EventKind::Branch);
        else if (K == "edge" || K == "edges")
          Args.Kinds.push_back(EventKind::Edge);
        else if (K == "dependence" || K == "dependences" || K == "deps")
          Args.Kinds.push_back(EventKind::Dependence);
        else if (K == "value" || K == "values")
          Args.Kinds.push_back(EventKind::Value);
        else
          throw UsageError{fmt::format(
              "unknown event kind '{}' (expected line, branch, edge, dependence, value or all)",
              K)};
      }
      if (Args.Kinds.empty())
        throw UsageError{"--events needs at least one kind"};
    } else if (Name == "--tie-break") {
      Args.TieBreak = Value();
      if (Args.TieBreak != "importance" && Args.TieBreak != "none")
        throw UsageError{
            fmt::format("--tie-break needs importance or none, not '{}'", Args.TieBreak)};
      Args.TieBreakGiven = true;
    } else if (Name == "--view") {
      Args.Views = splitList(Value());
      for (const std::string &V : Args.Views)
        if (V != "list" && V != "table" && V != "source" && V != "none")
          throw UsageError{
              fmt::format("unknown view '{}' (expected list, table, source or none)", V)};
    } else if (Name == "--top") {
      Args.Top = parseCount(Name, Value());
    } else if (Name == "--color") {
      Args.Color = Value();
      if (Args.Color != "auto" && Args.Color != "always" && Args.Color != "never")
        throw UsageError{fmt::format("--color needs auto, always or never, not '{}'", Args.Color)};
    } else if (Name == "--html") {
      Args.Html = Value();
    } else if (Name == "--json") {
      Args.Json = Value();
    } else if (Name == "--csv") {
      Args.Csv = Value();
    } else if (Name == "--sarif") {
      Args.Sarif = Value();
    } else if (Name == "--sarif-top") {
      Args.SarifTop = parseCount(Name, Value());
    } else {
      throw UsageError{Arg.starts_with("-")
                           ? fmt::format("unknown option '{}' (see --help)", Arg)
                           : fmt::format("unexpected argument '{}' (the suite is given by "
                                         "--tests, --ctest, --from or --pass/--fail)",
                                         Arg)};
    }
  }
  if (Args.Help || Args.ListFormulas)
    return Args;
  int Suites = !Args.TestsFile.empty() + !Args.CtestDir.empty() + !Args.From.empty() +
               (!Args.Pass.empty() || !Args.Fail.empty());
  if (Suites == 0)
    throw UsageError{"no suite: give --tests FILE, --ctest BUILD_DIR, --from STORE or "
                     "--pass/--fail spectra"};
  if (Suites > 1)
    throw UsageError{"give only one of --tests, --ctest, --from and --pass/--fail"};
  if (!Args.CtestRegex.empty() && Args.CtestDir.empty())
    throw UsageError{"--ctest-regex needs --ctest"};
  if (!Args.Mutants.empty()) {
    if (!Args.Pass.empty() || !Args.Fail.empty())
      throw UsageError{"--mutants reruns the tests: give --tests, --ctest or --from"};
    if (Args.Formula == "blockrank")
      throw UsageError{"--mutants ranks by Metallaxis-FL; --formula orders its budget and must "
                       "be a spectrum formula"};
    if (Args.Kinds.size() != 1 || Args.Kinds[0] != EventKind::Line)
      throw UsageError{"--mutants ranks lines only (drop --events)"};
  }
  if (Args.Formula == "blockrank" && (Args.Kinds.size() != 1 || Args.Kinds[0] != EventKind::Line))
    throw UsageError{"--formula blockrank ranks lines only (drop --events)"};
  if (Args.Specification) {
    if (!Args.Mutants.empty())
      throw UsageError{"give --specification or --mutants, not both"};
    if (Args.Formula == "blockrank")
      throw UsageError{"--specification lifts a spectrum formula's scores: not blockrank"};
    if (Args.Kinds.size() != 1 || Args.Kinds[0] != EventKind::Line)
      throw UsageError{"--specification ranks lines only (drop --events)"};
    if (!Args.Pass.empty() || !Args.Fail.empty())
      throw UsageError{"--specification needs the tests' expected output: give --tests, "
                       "--ctest or --from"};
  }
  return Args;
}

/// The trace-formula diagnoses of the failing tests that recorded a path and check their output,
/// each reported on stderr in one line.
std::vector<RunDiagnosis> diagnoseFailingRuns(const std::vector<TestCase> &Tests,
                                              const std::vector<TestResult> &Results,
                                              const SuiteSpectra &Suite, double Budget) {
  std::vector<RunDiagnosis> Out;
  unsigned Failing = 0, WithPath = 0, Skipped = 0;
  auto Start = std::chrono::steady_clock::now();
  for (std::size_t I = 0; I < Tests.size() && I < Results.size(); ++I) {
    if (!Results[I].failed())
      continue;
    ++Failing;
    if (Results[I].RecordedPath.empty())
      continue;
    ++WithPath;
    // The budget is checked before each test: the first failing tests are diagnosed.
    if (std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count() >= Budget) {
      ++Skipped;
      continue;
    }
    std::string Note, Error;
    std::optional<std::string> Expected;
    if (!Tests[I].ExpectedStdout.empty())
      if (std::ifstream In(Tests[I].ExpectedStdout, std::ios::binary); In)
        Expected = std::string(std::istreambuf_iterator<char>(In), {});
    if (!Expected) {
      Note = "no expected output (stdout=FILE) to check the run against";
    } else if (std::optional<PathTranslation> P =
                   translatePath(Results[I].RecordedPath, *Expected, Error)) {
      if (std::optional<RunDiagnosis> D = diagnoseRecordedPath(Suite, I, *P, Note))
        Out.push_back(std::move(*D));
      if (P->Concretized)
        Note += fmt::format(" ({} statement{} taken as recorded: outside what the trace "
                            "formula encodes)",
                            P->Concretized, P->Concretized == 1 ? "" : "s");
    } else {
      Note = Error;
    }
    std::fprintf(stderr, "sleuth localize: specification of %s: %s\n", Tests[I].Name.c_str(),
                 Note.c_str());
  }
  if (Skipped)
    std::fprintf(stderr,
                 "sleuth localize: --specification: the budget of %g s diagnosed %u of the %u "
                 "failing tests that recorded a path; the other %u count as undiagnosed\n",
                 Budget, WithPath - Skipped, WithPath, Skipped);
  if (Failing && !WithPath)
    std::fprintf(stderr, "sleuth localize: warning: --specification: no failing test recorded "
                         "its path; build the program with SLEUTH_PATH=1 (as well as "
                         "SLEUTH_MODE=coverage) and run the suite again\n");
  return Out;
}

/// Prints `sleuth localize: MESSAGE`; returns Code (1: the suite, an input or an output is at
/// fault, 2: the command line).
int fail(const std::string &Message, int Code = 1) {
  std::fprintf(stderr, "sleuth localize: %s\n", Message.c_str());
  return Code;
}

/// What the mutant runs covered: the user judges the ranking by it.
std::string describeMutationRuns(const MutationSummary &S, const MutationOptions &O) {
  return fmt::format(
      "sleuth localize: {}: ran {} of {} mutants on the lines failing tests executed "
      "({} of {} lines have a mutant run), {} test runs ({} passing: at most {} per mutant, "
      "{:.1f} on average), {:.1f} s{}",
      O.Technique == MutationTechnique::Muse ? "MUSE" : "Metallaxis-FL", S.Run, S.Available,
      S.LinesScored, S.Lines, S.TestRuns, S.PassingRuns, O.PassingPerMutant,
      S.Run ? double(S.PassingRuns) / double(S.Run) : 0.0, S.Seconds,
      S.BudgetSpent ? fmt::format("; the budget of {:g} s ran out", O.Budget) : "");
}

bool emit(const std::string &Path, const std::string &Text, std::string &Error) {
  if (Path == "-") {
    std::fwrite(Text.data(), 1, Text.size(), stdout);
    return true;
  }
  return writeFileAtomically(Path, Text, Error);
}

} // namespace
} // namespace localizer

int localizeMain(int Argc, const char **Argv) {
  using namespace localizer;
  Arguments Args;
  try {
    Args = parseArguments(Argc, Argv);
  } catch (const UsageError &E) {
    return fail(E.Message, 2);
  }
  if (Args.Help) {
    std::fputs(Usage, stdout);
    return 0;
  }
  if (Args.ListFormulas) {
    for (const Formula &F : formulas())
      std::printf("%-14s %-14s %s\n", std::string(F.Name).c_str(), std::string(F.Title).c_str(),
                  std::string(F.Definition).c_str());
    std::printf("%-14s %-14s %s\n", "blockrank", "BlockRank",
                "fault relevance propagated over the CFG from mean edge profiles (lines only)");
    return 0;
  }

  // 1. The tests and their results.
  std::string Error;
  SchemataManifest Manifest;
  if (!Args.Mutants.empty() && !readSchemataManifest(Args.Mutants, Manifest, Error))
    return fail(Error);
  RunOptions Options;
  Options.Jobs = Args.Jobs ? Args.Jobs : std::max(1u, std::thread::hardware_concurrency());
  Options.Timeout = Args.Timeout;
  Options.Store = Args.From.empty() ? Args.Store : Args.From;
  Options.Incremental = Args.Incremental;
  Options.Verbose = Args.Verbose;
  std::vector<TestCase> Tests;
  std::vector<TestResult> Results;
  if (!Args.From.empty()) {
    if (!readStore(Args.From, Tests, Results, Error))
      return fail(Error);
  } else if (!Args.Pass.empty() || !Args.Fail.empty()) {
    for (bool Failed : {false, true})
      for (const std::string &Path : Failed ? Args.Fail : Args.Pass) {
        TestCase T;
        T.Name = fs::path(Path).filename().string();
        T.Shell = Path;
        TestResult R;
        R.Outcome = Failed ? Verdict::Failed : Verdict::Passed;
        if (fs::is_directory(Path)) {
          std::vector<std::string> Files = coverageFilesIn(Path);
          if (Files.empty())
            return fail(fmt::format("'{}' holds no coverage file (*.cov)", Path));
          std::optional<CoverageFile> Merged = mergeCoverageFiles(Files, Error);
          if (!Merged)
            return fail(Error);
          std::string Temp =
              fmt::format("{}/sleuth-localize-{}-{}.cov", fs::temp_directory_path().string(),
                          ::getpid(), Tests.size());
          if (!writeFileAtomically(Temp, Merged->write(), Error))
            return fail(Error);
          R.Spectrum = Temp;
        } else {
          if (!fs::exists(Path))
            return fail(fmt::format("cannot read coverage file '{}': no such file", Path));
          R.Spectrum = Path;
          if (std::string Deps = fs::path(Path).replace_extension(".deps").string();
              fs::exists(Deps))
            R.Dependences = Deps;
        }
        Tests.push_back(std::move(T));
        Results.push_back(std::move(R));
      }
  } else {
    if (!Args.TestsFile.empty() ? !readTestsFile(Args.TestsFile, Tests, Error)
                                : !listCtestTests(Args.CtestDir, Args.CtestRegex, Tests, Error))
      return fail(Error);
    if (!runSuite(Tests, Options, Results, Error))
      return fail(Error);
  }

  // 2. Spectra.
  Program Model;
  SuiteSpectra Suite;
  Suite.Model = &Model;
  std::size_t WithCoverage = 0, WithDependences = 0, FromSchemata = 0;
  std::vector<std::string> Uncovered;
  for (std::size_t I = 0; I < Tests.size(); ++I) {
    Spectrum S;
    if (!Results[I].Spectrum.empty()) {
      std::optional<CoverageFile> Cov = CoverageFile::load(Results[I].Spectrum, Error);
      if (!Cov)
        return fail(Error);
      if (!Args.Mutants.empty()) {
        SchemataMatch Match = mapSchemataCoverage(*Cov, Manifest);
        if (Match == SchemataMatch::OtherVersion)
          return fail(fmt::format("{}: the program was built from another version of {} than {} "
                                  "describes; rebuild it from the schemata",
                                  Results[I].Spectrum, Manifest.Schemata, Args.Mutants));
        FromSchemata += Match == SchemataMatch::Mapped;
      }
      if (!Model.merge(*Cov, Results[I].Spectrum, S, Error))
        return fail(Error);
      ++WithCoverage;
    } else {
      Uncovered.push_back(Tests[I].Name);
    }
    if (!Results[I].Dependences.empty()) {
      std::optional<DependenceGraph> G = DependenceGraph::load(Results[I].Dependences, Error);
      if (!G)
        return fail(Error);
      Model.mergeDependences(*G, S);
      ++WithDependences;
    }
    Suite.Spectra.push_back(std::move(S));
    Suite.Failed.push_back(Results[I].failed());
  }
  std::size_t Failures = Suite.failures();
  if (Failures == 0)
    return fail(fmt::format("nothing to localize: all {} test{} passed", Tests.size(),
                            Tests.size() == 1 ? "" : "s"));
  if (Failures == Tests.size())
    return fail(fmt::format("no passing test: all {} test{} failed; localization compares "
                            "failing runs with passing ones",
                            Tests.size(), Tests.size() == 1 ? "" : "s"));
  bool WantsCoverage = std::any_of(Args.Kinds.begin(), Args.Kinds.end(),
                                   [](EventKind K) { return K != EventKind::Dependence; });
  if (WantsCoverage && WithCoverage == 0)
    return fail("no test left a coverage file: are the programs built in coverage mode "
                "(SLEUTH_MODE=coverage sleuth c++ ..., or sleuth instrument --mode coverage)?");
  if (!WantsCoverage && WithDependences == 0)
    return fail("no test left a dependence file: --events dependence needs programs built in "
                "dependence mode (sleuth c++ ...)");
  if (WantsCoverage && !Uncovered.empty())
    std::fprintf(stderr,
                 "sleuth localize: warning: %zu test%s left no coverage (counted as executing "
                 "nothing): %s%s\n",
                 Uncovered.size(), Uncovered.size() == 1 ? "" : "s", Uncovered[0].c_str(),
                 Uncovered.size() > 1 ? ", ..." : "");

  if (!Args.Mutants.empty() && FromSchemata == 0)
    return fail(fmt::format("no coverage file names the schemata '{}': build the suite's program "
                            "from it (SLEUTH_MODE=coverage sleuth cc {} ...)",
                            Manifest.Schemata, Manifest.Schemata));

  // 3. Ranking.
  Report Rep;
  Rep.Suite = &Suite;
  if (!Args.Mutants.empty()) {
    const EventKind LineKind[] = {EventKind::Line};
    Ranking Order =
        rankByFormula(Suite, observedEvents(Suite, LineKind), *findFormula(Args.Formula));
    MutationOptions Mutation;
    Mutation.Budget = Args.MutationBudget;
    Mutation.PassingPerMutant = Args.MutationPassing;
    Mutation.Run = Options;
    Mutation.Order = &Order;
    Mutation.Technique = Args.MutationScore;
    MutationSummary Summary;
    if (!rankByMutants(Tests, Results, Suite, Manifest, Mutation, Rep.Result, Summary, Error))
      return fail(Error);
    std::fprintf(stderr, "%s\n", describeMutationRuns(Summary, Mutation).c_str());
  } else if (Args.Specification) {
    Rep.Result = rankBySpecification(
        Suite, diagnoseFailingRuns(Tests, Results, Suite, Args.SpecificationBudget),
        *findFormula(Args.Formula));
  } else if (Args.Formula == "blockrank") {
    Rep.Result = rankByBlockRank(Suite);
  } else {
    std::vector<Event> Events = observedEvents(Suite, Args.Kinds);
    Rep.Result = rankByFormula(Suite, Events, *findFormula(Args.Formula));
  }
  if (Args.TieBreak == "importance") {
    // Only lines are ordered by predicates; a ranking of predicates or other events keeps its
    // ties.
    bool Lines = Args.Kinds.size() == 1 && Args.Kinds[0] == EventKind::Line;
    if (Lines)
      breakTiesByPredicates(Suite, Rep.Result);
    if (Args.TieBreakGiven && !Lines)
      std::fprintf(stderr, "sleuth localize: warning: --tie-break importance orders lines only; "
                           "the ties of --events are kept\n");
    else if (Args.TieBreakGiven && Model.values().empty())
      std::fprintf(stderr, "sleuth localize: warning: --tie-break importance: the spectra have "
                           "no value predicates (built by an older sleuth?); only conditions "
                           "order the ties\n");
  }
  for (std::size_t I = 0; I < Tests.size(); ++I)
    Rep.Tests.push_back({Tests[I].Name, Tests[I].commandLine(), Results[I].Outcome,
                         Results[I].Detail, Results[I].Seconds});
  std::vector<std::string> Warnings;
  Rep.SourceLines = readSources(Model, &Warnings);
  for (const std::string &W : Warnings)
    std::fprintf(stderr, "sleuth localize: warning: %s\n", W.c_str());

  // 4. Views and exports.
  bool Color = Args.Color == "always" ||
               (Args.Color == "auto" && ::isatty(1) && !std::getenv("NO_COLOR") &&
                std::string_view(std::getenv("TERM") ? std::getenv("TERM") : "dumb") != "dumb");
  for (const auto &[Path, Text] :
       {std::pair{Args.Html, std::function<std::string()>([&] { return htmlReport(Rep); })},
        std::pair{Args.Json, std::function<std::string()>([&] { return jsonExport(Rep); })},
        std::pair{Args.Csv, std::function<std::string()>([&] { return csvExport(Rep); })},
        std::pair{Args.Sarif,
                  std::function<std::string()>([&] { return sarifExport(Rep, Args.SarifTop); })}})
    if (!Path.empty() && !emit(Path, Text(), Error))
      return fail(Error);
  bool First = true;
  for (const std::string &V : Args.Views) {
    std::string Text;
    ViewOptions Options;
    Options.Color = Color;
    if (V == "list") {
      Options.Top = Args.Top.value_or(10);
      Text = rankedListView(Rep, Options);
    } else if (V == "table") {
      Options.Top = Args.Top.value_or(0);
      Text = eventTableView(Rep, Options);
    } else if (V == "source") {
      Text = sourceView(Rep, Options);
    } else {
      continue;
    }
    if (!First)
      std::fputs("\n", stdout);
    First = false;
    std::fwrite(Text.data(), 1, Text.size(), stdout);
  }
  return 0;
}

} // namespace sleuth
