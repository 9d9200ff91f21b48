// Merging coverage and dependence files into one program model and per-test
// counts; events and where they are.
#include "sleuth/localizer/spectrum.h"

#include "sleuth/slicer/dependences.h"

#include <fmt/format.h>

#include <filesystem>

namespace sleuth::localizer {

std::optional<unsigned> Program::lineId(unsigned Source, unsigned Number) const {
  auto It = LineByPlace.find({Source, Number});
  if (It == LineByPlace.end())
    return std::nullopt;
  return It->second;
}

std::optional<unsigned> Program::sourceId(std::string_view Path) const {
  auto It = SourceByPath.find(Path);
  if (It == SourceByPath.end())
    return std::nullopt;
  return It->second;
}

unsigned Program::addSource(const std::string &Path, const std::string &Hash,
                            std::string_view Origin) {
  unsigned Id = static_cast<unsigned>(Sources.size());
  Sources.push_back({Path, Hash, std::string(Origin), {}, false});
  SourceByPath.emplace(Path, Id);
  return Id;
}

bool Program::merge(const CoverageFile &Cov, std::string_view CovName, Spectrum &Into,
                    std::string &Error) {
  // Ordinals of functions within their file and of blocks within their
  // function: ids in a coverage file are offset by whatever else the process
  // linked, ordinals are properties of the source's build alone.
  std::vector<std::vector<unsigned>> FunctionsOfFile(Cov.Files.size());
  for (unsigned G = 0; G < Cov.Functions.size(); ++G)
    FunctionsOfFile[Cov.Functions[G].File].push_back(G);
  std::vector<std::vector<unsigned>> BlocksOfFunction(Cov.Functions.size());
  for (unsigned B = 0; B < Cov.Blocks.size(); ++B)
    BlocksOfFunction[Cov.Blocks[B].Function].push_back(B);
  auto FileOfBlock = [&](unsigned B) { return Cov.Functions[Cov.Blocks[B].Function].File; };

  std::vector<unsigned> GlobalBlock(Cov.Blocks.size(), 0);
  // The structure of each file's functions, with blocks numbered from 0 in the file: equal
  // signatures mean the same CFGs, whatever else the process linked.
  std::vector<std::string> Signature(Cov.Files.size());
  std::vector<unsigned> LocalBlock(Cov.Blocks.size(), 0);
  for (unsigned F = 0; F < Cov.Files.size(); ++F) {
    unsigned Next = 0;
    for (unsigned G : FunctionsOfFile[F]) {
      Signature[F] +=
          fmt::format("f{}:{}:{}:{}|", Cov.Functions[G].Name, BlocksOfFunction[G].size(),
                      Cov.Functions[G].Begin, Cov.Functions[G].End);
      for (unsigned B : BlocksOfFunction[G]) {
        LocalBlock[B] = Next++;
        Signature[F] += "b";
        for (unsigned L : Cov.Blocks[B].Lines)
          Signature[F] += fmt::format("{},", L);
      }
    }
  }
  for (const CoverageFile::Edge &E : Cov.Edges)
    Signature[FileOfBlock(E.From)] +=
        fmt::format("e{}:{}:{}", LocalBlock[E.From], LocalBlock[E.To], int(E.Kind));
  for (const CoverageFile::Condition &C : Cov.Conditions)
    Signature[FileOfBlock(C.Block)] +=
        fmt::format("c{}:{}:{}", LocalBlock[C.Block], C.Line, C.Column);

  for (unsigned F = 0; F < Cov.Files.size(); ++F) {
    const CoverageFile::Source &File = Cov.Files[F];
    auto Mismatch = [&](const std::string &What) {
      Error = fmt::format("{}: '{}' does not match the build seen in '{}' ({}); was the "
                          "coverage file written by another build?",
                          CovName, File.Path, Sources[SourceByPath.at(File.Path)].Origin, What);
      return false;
    };
    unsigned S;
    bool Known = false;
    if (std::optional<unsigned> Existing = sourceId(File.Path)) {
      S = *Existing;
      Source &Src = Sources[S];
      if (Src.Hash == "-") { // known from a dependence file only
        Src.Hash = File.Hash;
        Src.ContentHash = File.ContentHash;
        Src.Origin = std::string(CovName);
      } else if (Src.Hash != File.Hash) {
        Error = fmt::format("{}: '{}' comes from another build (hash {}) than in '{}' (hash "
                            "{}); rebuild and rerun the whole suite",
                            CovName, File.Path, File.Hash, Src.Origin, Src.Hash);
        return false;
      }
    } else {
      S = addSource(File.Path, File.Hash, CovName);
      Sources[S].ContentHash = File.ContentHash;
    }

    Sources[S].Covered = true;
    const std::vector<unsigned> *Variant = nullptr;
    for (const auto &[Sig, Functions] : Sources[S].Variants)
      if (Sig == Signature[F])
        Variant = &Functions;
    Known = Variant != nullptr;
    if (Known) {
      const std::vector<unsigned> &Mine = *Variant;
      if (Mine.size() != FunctionsOfFile[F].size())
        return Mismatch(
            fmt::format("{} functions instead of {}", FunctionsOfFile[F].size(), Mine.size()));
      for (std::size_t K = 0; K < Mine.size(); ++K) {
        const Function &Fn = Functions[Mine[K]];
        unsigned G = FunctionsOfFile[F][K];
        if (Fn.Name != Cov.Functions[G].Name || Fn.Blocks.size() != BlocksOfFunction[G].size())
          return Mismatch(fmt::format("function '{}'", Cov.Functions[G].Name));
        for (std::size_t B = 0; B < Fn.Blocks.size(); ++B)
          GlobalBlock[BlocksOfFunction[G][B]] = Fn.Blocks[B];
      }
    } else {
      std::vector<unsigned> Mine;
      for (unsigned G : FunctionsOfFile[F]) {
        const CoverageFile::Function &CF = Cov.Functions[G];
        unsigned Id = static_cast<unsigned>(Functions.size());
        Function Fn;
        Fn.Source = S;
        Fn.Begin = CF.Begin;
        Fn.End = CF.End;
        Fn.Name = CF.Name;
        for (unsigned B : BlocksOfFunction[G]) {
          GlobalBlock[B] = static_cast<unsigned>(Blocks.size());
          Fn.Blocks.push_back(GlobalBlock[B]);
          Blocks.push_back({Id, Cov.Blocks[B].Lines, {}, {}});
        }
        Fn.Entry = GlobalBlock[CF.Entry];
        Fn.Exit = GlobalBlock[CF.Exit];
        Functions.push_back(std::move(Fn));
        Sources[S].Functions.push_back(Id);
        Mine.push_back(Id);
      }
      Sources[S].Variants.emplace_back(Signature[F], std::move(Mine));
    }

    for (unsigned B : [&] {
           std::vector<unsigned> Mine;
           for (unsigned G : FunctionsOfFile[F])
             Mine.insert(Mine.end(), BlocksOfFunction[G].begin(), BlocksOfFunction[G].end());
           return Mine;
         }())
      Spectrum::add(Into.Blocks, GlobalBlock[B], Cov.Blocks[B].Count);

    for (const CoverageFile::Edge &E : Cov.Edges) {
      if (FileOfBlock(E.From) != F)
        continue;
      auto Key = std::make_tuple(GlobalBlock[E.From], GlobalBlock[E.To], E.Kind);
      auto It = EdgeByBlocks.find(Key);
      unsigned Id;
      if (It != EdgeByBlocks.end()) {
        Id = It->second;
      } else {
        if (Known)
          return Mismatch(fmt::format("edge {} -> {}", E.From, E.To));
        Id = static_cast<unsigned>(Edges.size());
        Edges.push_back({GlobalBlock[E.From], GlobalBlock[E.To], E.Kind});
        Blocks[GlobalBlock[E.From]].Out.push_back(Id);
        Blocks[GlobalBlock[E.To]].In.push_back(Id);
        EdgeByBlocks.emplace(Key, Id);
      }
      Spectrum::add(Into.Edges, Id, E.Count);
    }
    for (const CoverageFile::Condition &C : Cov.Conditions) {
      if (FileOfBlock(C.Block) != F)
        continue;
      auto Key = std::make_tuple(GlobalBlock[C.Block], C.Line, C.Column);
      auto It = ConditionByPlace.find(Key);
      unsigned Id;
      if (It != ConditionByPlace.end()) {
        Id = It->second;
      } else {
        if (Known)
          return Mismatch(fmt::format("condition at line {}", C.Line));
        Id = static_cast<unsigned>(Conditions.size());
        Conditions.push_back({GlobalBlock[C.Block], C.Line, C.Column, C.EndLine, C.EndColumn});
        ConditionByPlace.emplace(Key, Id);
      }
      Spectrum::add(Into.True, Id, C.True);
      Spectrum::add(Into.False, Id, C.False);
    }
    for (const CoverageFile::Line &L : Cov.Lines) {
      if (L.File != F)
        continue;
      auto It = LineByPlace.find({S, L.Number});
      unsigned Id;
      if (It != LineByPlace.end()) {
        Id = It->second;
      } else {
        if (Known)
          return Mismatch(fmt::format("line {}", L.Number));
        Id = static_cast<unsigned>(Lines.size());
        Lines.push_back({S, L.Number});
        LineByPlace.emplace(std::make_pair(S, L.Number), Id);
      }
      Spectrum::add(Into.Lines, Id, L.Count);
    }
    for (const CoverageFile::Value &V : Cov.Values) {
      if (V.File != F)
        continue;
      // Keyed by place and names, not by order: a variant of the file built under other macros
      // shares the sites it has in common.
      auto Key = std::make_tuple(S, V.Line, V.Column, V.Left, V.Right);
      auto [It, New] = ValueByPlace.try_emplace(Key, unsigned(Values.size()));
      if (New)
        Values.push_back({S, V.Line, V.Column, V.Left, V.Right});
      for (unsigned K = 0; K < 3; ++K)
        Spectrum::add(Into.Values, 3 * It->second + K, V.Counts[K]);
    }
  }
  Into.Processes.push_back(Cov.Status);
  return true;
}

void Program::mergeDependences(const DependenceGraph &G, Spectrum &Into) {
  const DependenceGraph::Graph &Graph = G.graph();
  for (auto [It, End] = boost::edges(Graph); It != End; ++It) {
    DependenceGraph::Node From = boost::source(*It, Graph), To = boost::target(*It, Graph);
    bool Control = Graph[*It].Kind == DependenceKind::Control;
    const std::string &Path = G.fileOf(To).Path;
    const std::string &FromPath = G.fileOf(From).Path;
    const Site &ToSite = G.site(To), &FromSite = G.site(From);
    std::string Key =
        fmt::format("{}|{}|{}|{}|{}|{}|{}|{}", Control ? 'c' : 'd', Path, ToSite.Line, ToSite.Name,
                    FromPath, FromSite.Line, FromSite.Name, G.functionOf(To).Name);
    auto Found = DependenceByKey.find(Key);
    unsigned Id;
    if (Found != DependenceByKey.end()) {
      Id = Found->second;
    } else {
      std::optional<unsigned> S = sourceId(Path);
      if (!S)
        S = addSource(Path, "-", "a dependence file");
      Id = static_cast<unsigned>(Dependences.size());
      Dependences.push_back({Control, *S, ToSite.Line, ToSite.Name, FromPath, FromSite.Line,
                             FromSite.Name, G.functionOf(To).Name});
      DependenceByKey.emplace(std::move(Key), Id);
    }
    if (Spectrum::at(Into.Dependences, Id) == 0)
      Spectrum::add(Into.Dependences, Id, 1);
  }
}

std::string_view eventKindName(EventKind Kind) {
  switch (Kind) {
  case EventKind::Line:
    return "line";
  case EventKind::Branch:
    return "branch";
  case EventKind::Edge:
    return "edge";
  case EventKind::Dependence:
    return "dependence";
  case EventKind::Value:
    return "value";
  }
  return "line";
}

uint64_t eventCount(const Spectrum &S, Event E) {
  switch (E.Kind) {
  case EventKind::Line:
    return Spectrum::at(S.Lines, E.Id);
  case EventKind::Branch:
    return Spectrum::at(E.Id % 2 ? S.False : S.True, E.Id / 2);
  case EventKind::Edge:
    return Spectrum::at(S.Edges, E.Id);
  case EventKind::Dependence:
    return Spectrum::at(S.Dependences, E.Id);
  case EventKind::Value:
    return Spectrum::at(S.Values, E.Id);
  }
  return 0;
}

uint64_t observationCount(const Spectrum &S, Event E) {
  if (E.Kind == EventKind::Branch)
    return Spectrum::at(S.True, E.Id / 2) + Spectrum::at(S.False, E.Id / 2);
  if (E.Kind != EventKind::Value)
    return eventCount(S, E);
  unsigned First = E.Id - E.Id % 3;
  return Spectrum::at(S.Values, First) + Spectrum::at(S.Values, First + 1) +
         Spectrum::at(S.Values, First + 2);
}

std::vector<Event> allEvents(const Program &P, EventKind Kind) {
  std::size_t N = 0;
  switch (Kind) {
  case EventKind::Line:
    N = P.lines().size();
    break;
  case EventKind::Branch:
    N = 2 * P.conditions().size();
    break;
  case EventKind::Edge:
    N = P.edges().size();
    break;
  case EventKind::Dependence:
    N = P.dependences().size();
    break;
  case EventKind::Value:
    N = 3 * P.values().size();
    break;
  }
  std::vector<Event> Out;
  Out.reserve(N);
  for (unsigned I = 0; I < N; ++I)
    Out.push_back({Kind, I});
  return Out;
}

namespace {

/// The line a block is shown at: its last statement (where it branches), or
/// for blocks without statements, none.
std::optional<unsigned> lastLine(const Program::Block &B) {
  if (B.Lines.empty())
    return std::nullopt;
  return B.Lines.back();
}

std::string blockName(const Program &P, unsigned B) {
  const Program::Function &F = P.functions()[P.blocks()[B].Function];
  if (B == F.Entry)
    return fmt::format("entry of {}", F.Name);
  if (B == F.Exit)
    return fmt::format("exit of {}", F.Name);
  if (P.blocks()[B].Lines.empty())
    return fmt::format("a join in {}", F.Name);
  return fmt::format("line {}", P.blocks()[B].Lines.front());
}

} // namespace

Place placeOf(const Program &P, Event E) {
  switch (E.Kind) {
  case EventKind::Line: {
    const Program::Line &L = P.lines()[E.Id];
    return {L.Source, L.Number, 0};
  }
  case EventKind::Branch: {
    const Program::Condition &C = P.conditions()[E.Id / 2];
    return {P.sourceOfBlock(C.Block), C.Line, C.Column};
  }
  case EventKind::Edge: {
    const Program::Edge &Ed = P.edges()[E.Id];
    unsigned S = P.sourceOfBlock(Ed.From);
    if (std::optional<unsigned> L = lastLine(P.blocks()[Ed.From]))
      return {S, *L, 0};
    if (!P.blocks()[Ed.To].Lines.empty())
      return {S, P.blocks()[Ed.To].Lines.front(), 0};
    return {S, P.functions()[P.blocks()[Ed.From].Function].Begin, 0};
  }
  case EventKind::Dependence: {
    const Program::Dependence &D = P.dependences()[E.Id];
    return {D.Source, D.Line, 0};
  }
  case EventKind::Value: {
    const Program::Value &V = P.values()[E.Id / 3];
    return {V.Source, V.Line, V.Column};
  }
  }
  return {};
}

std::string describeEvent(const Program &P, Event E,
                          const std::vector<std::vector<std::string>> *SourceLines) {
  switch (E.Kind) {
  case EventKind::Line:
    return "";
  case EventKind::Branch: {
    const Program::Condition &C = P.conditions()[E.Id / 2];
    const char *Outcome = E.Id % 2 ? "false" : "true";
    unsigned S = P.sourceOfBlock(C.Block);
    if (SourceLines && S < SourceLines->size() && C.Line == C.EndLine && C.Line >= 1 &&
        C.Line <= (*SourceLines)[S].size() && C.Column >= 1 && C.EndColumn >= C.Column) {
      const std::string &Text = (*SourceLines)[S][C.Line - 1];
      if (C.EndColumn <= Text.size())
        return fmt::format("`{}` is {}", Text.substr(C.Column - 1, C.EndColumn - C.Column + 1),
                           Outcome);
    }
    return fmt::format("condition at {}:{} is {}", C.Line, C.Column, Outcome);
  }
  case EventKind::Edge: {
    const Program::Edge &Ed = P.edges()[E.Id];
    return fmt::format("{} -> {} ({})", blockName(P, Ed.From), blockName(P, Ed.To),
                       edgeKindName(Ed.Kind));
  }
  case EventKind::Dependence: {
    const Program::Dependence &D = P.dependences()[E.Id];
    std::string Where = std::to_string(D.FromLine);
    if (D.FromPath != P.sources()[D.Source].Path)
      Where =
          fmt::format("{}:{}", std::filesystem::path(D.FromPath).filename().string(), D.FromLine);
    return fmt::format("{} {} {} ({})", D.Name, D.Control ? "<-" : "<=", D.FromName, Where);
  }
  case EventKind::Value: {
    const Program::Value &V = P.values()[E.Id / 3];
    static const char *const Relations[] = {"<", "==", ">"};
    return fmt::format("{} {} {}", V.Left == "return" ? "return value" : V.Left,
                       Relations[E.Id % 3], V.Right);
  }
  }
  return "";
}

} // namespace sleuth::localizer
