#include "ViewSupport.h"
#include "sleuth/slicer/source_hash.h"
#include "sleuth/slicer/views.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace sleuth {

std::vector<std::string> changedSourceWarnings(const DependenceGraph &G, const Slice &S) {
  std::set<unsigned> Files;
  for (DependenceGraph::Node N : S.Nodes)
    Files.insert(G.functionOf(N).File);
  std::vector<std::string> Warnings;
  for (unsigned F : Files) {
    const SourceFile &File = G.files()[F];
    std::string Changed = sourceChangedWarning(File.Path, File.Hash);
    if (!Changed.empty())
      Warnings.push_back("warning: " + Changed);
  }
  return Warnings;
}

} // namespace sleuth

namespace sleuth::detail {

namespace {

std::string_view baseName(std::string_view Path) {
  std::size_t Slash = Path.rfind('/');
  return Slash == std::string_view::npos ? Path : Path.substr(Slash + 1);
}

} // namespace

NodeNamer::NodeNamer(const DependenceGraph &G, const Slice &S)
    : G(G), NeedsColumn(G.size(), false) {
  // Two nodes that would print the same (`i (7)`) get their columns, and keep
  // them everywhere, so a node is always spelled the same way.
  std::map<std::tuple<unsigned, unsigned, std::string_view>, std::vector<Node>> Same;
  for (Node N : S.Nodes)
    Same[{G.functionOf(N).File, G.site(N).Line, G.site(N).Name}].push_back(N);
  for (const auto &[Key, Nodes] : Same)
    if (Nodes.size() > 1)
      for (Node N : Nodes)
        NeedsColumn[N] = true;
}

std::string NodeNamer::location(Node N, unsigned Context) const {
  const Site &Site = G.site(N);
  std::string Line =
      NeedsColumn[N] ? fmt::format("{}:{}", Site.Line, Site.Column) : fmt::format("{}", Site.Line);
  if (Site.Function == Context)
    return Line;
  const Function &Fn = G.functionOf(N);
  if (Context < G.functions().size() && G.functions()[Context].File == Fn.File)
    return fmt::format("{}:{}", Fn.Name, Line);
  return fmt::format("{}:{}", baseName(G.fileOf(N).Path), Line);
}

FileLabels::FileLabels(const DependenceGraph &G, const Slice &S) {
  std::set<unsigned> Files;
  for (Node N : S.Nodes)
    Files.insert(G.functionOf(N).File);
  std::set<std::string_view> Paths;
  for (unsigned F : Files)
    Paths.insert(G.files()[F].Path);
  Several = Paths.size() > 1;
  // The last Components components of Path (all of it if it has fewer).
  auto Suffix = [](std::string_view Path, unsigned Components) {
    std::size_t Start = Path.size();
    for (unsigned I = 0; I < Components && Start != std::string_view::npos && Start > 0; ++I)
      Start = Path.rfind('/', Start - 1);
    return Start == std::string_view::npos ? Path : Path.substr(Start + 1);
  };
  for (unsigned F : Files) {
    std::string_view Path = G.files()[F].Path;
    for (unsigned Components = 1;; ++Components) {
      std::string_view Label = Suffix(Path, Components);
      bool Unique = Label == Path || std::none_of(Paths.begin(), Paths.end(), [&](auto Other) {
                      return Other != Path && Suffix(Other, Components) == Label;
                    });
      if (Unique) {
        Labels[F] = std::string(Label);
        break;
      }
    }
  }
}

std::string NodeNamer::ref(Node N, unsigned Context) const {
  return fmt::format("{} ({})", G.site(N).Name, location(N, Context));
}

bool NodeNamer::before(Node A, Node B) const {
  const Site &SA = G.site(A), &SB = G.site(B);
  return std::forward_as_tuple(G.fileOf(A).Path, SA.Line, SA.Column, SA.Name, A) <
         std::forward_as_tuple(G.fileOf(B).Path, SB.Line, SB.Column, SB.Name, B);
}

SliceIndex::SliceIndex(const DependenceGraph &G, const Slice &S)
    : G(G), S(S), Namer(G, S), Adjacent(G.size()) {
  for (const SliceEdge &E : S.Edges) {
    if (S.Forward)
      Adjacent[E.From].emplace_back(E.To, E.Kind);
    else
      Adjacent[E.To].emplace_back(E.From, E.Kind);
  }
  for (Node N : S.Nodes)
    ByFunction[G.site(N).Function].push_back(N);
  for (auto &[F, Nodes] : ByFunction)
    std::sort(Nodes.begin(), Nodes.end(), [this](Node A, Node B) { return Namer.before(A, B); });
}

Related SliceIndex::relatedTo(const std::vector<Node> &Nodes) const {
  Related R;
  for (Node N : Nodes)
    for (const auto &[Other, Kind] : Adjacent[N])
      (Kind == DependenceKind::Data ? R.Data : R.Control).push_back(Other);
  auto Before = [this](Node A, Node B) { return Namer.before(A, B); };
  for (std::vector<Node> *List : {&R.Data, &R.Control}) {
    std::sort(List->begin(), List->end(), Before);
    List->erase(std::unique(List->begin(), List->end()), List->end());
  }
  return R;
}

std::string SliceIndex::annotation(const std::vector<Node> &Nodes, unsigned Context) const {
  Related R = relatedTo(Nodes);
  auto Join = [&](const std::vector<Node> &List) {
    std::string Out;
    for (Node N : List) {
      if (!Out.empty())
        Out += ", ";
      Out += Namer.ref(N, Context);
    }
    return Out;
  };
  std::string Out;
  if (!R.Data.empty())
    Out = fmt::format("{} {}", S.Forward ? "=>" : "<=", Join(R.Data));
  if (!R.Control.empty())
    Out +=
        fmt::format("{}{} {}", Out.empty() ? "" : "; ", S.Forward ? "->" : "<-", Join(R.Control));
  return Out;
}

std::vector<unsigned> SliceIndex::functions() const {
  std::vector<unsigned> Functions;
  for (const auto &[F, Nodes] : ByFunction)
    Functions.push_back(F);
  const std::vector<Function> &All = G.functions();
  auto Key = [&](unsigned F) {
    return std::tuple<const std::string &, unsigned, unsigned>(G.files()[All[F].File].Path,
                                                               All[F].Begin, F);
  };
  std::sort(Functions.begin(), Functions.end(),
            [&](unsigned A, unsigned B) { return Key(A) < Key(B); });
  return Functions;
}

std::vector<Node> SliceIndex::nodesOf(unsigned F) const {
  auto It = ByFunction.find(F);
  return It == ByFunction.end() ? std::vector<Node>{} : It->second;
}

std::string validUtf8(std::string_view Text) {
  std::string Out;
  Out.reserve(Text.size());
  std::size_t I = 0;
  while (I < Text.size()) {
    unsigned char C = Text[I];
    std::size_t Length = C < 0x80           ? 1
                         : (C >> 5) == 0x6  ? 2
                         : (C >> 4) == 0xE  ? 3
                         : (C >> 3) == 0x1E ? 4
                                            : 0;
    bool Valid = Length != 0 && I + Length <= Text.size();
    for (std::size_t K = 1; Valid && K < Length; ++K)
      Valid = (static_cast<unsigned char>(Text[I + K]) & 0xC0) == 0x80;
    if (Valid) {
      Out.append(Text.substr(I, Length));
      I += Length;
    } else {
      Out += "\xEF\xBF\xBD";
      ++I;
    }
  }
  return Out;
}

} // namespace sleuth::detail
