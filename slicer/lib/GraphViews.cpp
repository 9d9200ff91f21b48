// The graph-shaped views: Graphviz DOT (and SVG through `dot`) and JSON.
#include "ViewSupport.h"
#include "sleuth/slicer/views.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

namespace sleuth {

using detail::Node;

namespace {

/// Text for inside a DOT double-quoted string.
std::string dotEscape(std::string_view Text) {
  std::string Out;
  for (char C : detail::validUtf8(Text)) {
    if (C == '\n' || C == '\r') {
      Out += "\\n";
      continue;
    }
    if (C == '"' || C == '\\')
      Out += '\\';
    Out += C;
  }
  return Out;
}

const char *dotShape(SiteKind Kind) {
  switch (Kind) {
  case SiteKind::Test:
    return "diamond";
  case SiteKind::Assert:
    return "octagon";
  case SiteKind::Ret:
    return "box, peripheries=2";
  case SiteKind::Effect:
    return "parallelogram"; // input/output, as in flowcharts
  case SiteKind::Param:
  case SiteKind::Var:
    break;
  }
  return "box";
}

/// The `dot` program on PATH, if any.
std::optional<std::string> findDot() {
  const char *Path = std::getenv("PATH");
  std::string_view Dirs = Path ? Path : "/usr/bin:/bin";
  while (true) {
    std::size_t Colon = Dirs.find(':');
    std::string Dir(Dirs.substr(0, Colon));
    std::string Candidate = (Dir.empty() ? "." : Dir) + "/dot";
    if (::access(Candidate.c_str(), X_OK) == 0 && !std::filesystem::is_directory(Candidate))
      return Candidate;
    if (Colon == std::string_view::npos)
      return std::nullopt;
    Dirs.remove_prefix(Colon + 1);
  }
}

} // namespace

std::string dotView(const DependenceGraph &G, const Slice &S) {
  detail::NodeNamer Namer(G, S);
  std::string Out = "digraph slice {\n";
  Out += fmt::format("  // sleuth slice{} ({})\n",
                     S.Criterion.empty() ? std::string(" of the whole run")
                                         : " of " + dotEscape(S.Criterion),
                     S.Forward ? "forward" : "backward");
  Out += "  node [shape=box, style=rounded, fontname=\"Helvetica\", "
         "fontsize=10];\n"
         "  edge [arrowsize=0.7];\n";
  auto IsCriterion = [&](Node N) {
    return std::binary_search(S.Criteria.begin(), S.Criteria.end(), N);
  };
  auto NodeLine = [&](Node N) {
    const Site &Site = G.site(N);
    // The label names the function even within it, so a node reads alone.
    std::string Label =
        fmt::format("\"{}\\n{}:{}\"", dotEscape(Site.Name), dotEscape(G.functionOf(N).Name),
                    dotEscape(Namer.location(N, Site.Function)));
    std::string Attributes = fmt::format("label={}, shape={}", Label, dotShape(Site.Kind));
    if (IsCriterion(N))
      Attributes += ", penwidth=2";
    if (!Site.executed())
      Attributes += ", style=\"rounded,dashed\", fontcolor=grey40";
    return fmt::format("n{} [{}];\n", N, Attributes);
  };
  detail::FileLabels Files(G, S);
  if (!Files.several()) {
    for (Node N : S.Nodes)
      Out += "  " + NodeLine(N);
  } else {
    // A slice that spans several files draws each file's nodes in a box named after it.
    std::map<std::string, std::vector<Node>> ByFile;
    for (Node N : S.Nodes)
      ByFile[Files.of(G.functionOf(N).File)].push_back(N);
    unsigned Cluster = 0;
    for (const auto &[Label, Nodes] : ByFile) {
      Out += fmt::format("  subgraph cluster_{} {{\n    label=\"{}\"; style=rounded; "
                         "color=grey60; fontname=\"Helvetica\"; fontsize=10;\n",
                         Cluster++, dotEscape(Label));
      for (Node N : Nodes)
        Out += "    " + NodeLine(N);
      Out += "  }\n";
    }
  }
  for (const SliceEdge &E : S.Edges)
    Out += fmt::format("  n{} -> n{}{};\n", E.From, E.To,
                       E.Kind == DependenceKind::Data ? "" : " [style=dashed, color=grey50]");
  Out += "}\n";
  return Out;
}

std::optional<std::string> svgView(const DependenceGraph &G, const Slice &S, std::string &Error) {
  std::optional<std::string> Dot = findDot();
  if (!Dot) {
    Error = "--format svg needs Graphviz's 'dot', which is not on PATH; "
            "install graphviz (e.g. apt-get install graphviz)";
    return std::nullopt;
  }
  std::filesystem::path Dir = std::filesystem::temp_directory_path();
  std::string Input = (Dir / "sleuth-slice-XXXXXX.dot").string();
  int Fd = ::mkstemps(Input.data(), 4);
  if (Fd < 0) {
    Error =
        fmt::format("cannot create a temporary file in {}: {}", Dir.string(), std::strerror(errno));
    return std::nullopt;
  }
  std::string Output = Input.substr(0, Input.size() - 4) + ".svg";
  std::string Text = dotView(G, S);
  bool Written = ::write(Fd, Text.data(), Text.size()) == static_cast<ssize_t>(Text.size());
  ::close(Fd);

  std::optional<std::string> Svg;
  if (!Written) {
    Error = fmt::format("cannot write {}: {}", Input, std::strerror(errno));
  } else {
    const char *Argv[] = {Dot->c_str(), "-Tsvg", "-o", Output.c_str(), Input.c_str(), nullptr};
    pid_t Pid;
    int Status = 0;
    int Spawned =
        ::posix_spawn(&Pid, Dot->c_str(), nullptr, nullptr, const_cast<char **>(Argv), environ);
    if (Spawned != 0) {
      Error = fmt::format("cannot run {}: {}", *Dot, std::strerror(Spawned));
    } else if (::waitpid(Pid, &Status, 0) < 0 || !WIFEXITED(Status) || WEXITSTATUS(Status) != 0) {
      Error = fmt::format("{} -Tsvg failed on the slice's graph", *Dot);
    } else {
      std::ifstream In(Output, std::ios::binary);
      std::ostringstream Buffer;
      Buffer << In.rdbuf();
      if (In && !Buffer.str().empty())
        Svg = Buffer.str();
      else
        Error = fmt::format("{} -Tsvg produced no output", *Dot);
    }
  }
  std::error_code Ec;
  std::filesystem::remove(Input, Ec);
  std::filesystem::remove(Output, Ec);
  return Svg;
}

std::string jsonView(const DependenceGraph &G, const Slice &S) {
  using Json = nlohmann::ordered_json;
  // Names and paths are bytes from the program; never let them throw here.
  auto dump = [](const Json &J) { return J.dump(-1, ' ', false, Json::error_handler_t::replace); };
  // One node or edge per line: compact, yet easy to diff and grep.
  auto list = [](const std::vector<std::string> &Items) {
    if (Items.empty())
      return std::string("[]");
    std::string Out = "[\n";
    for (std::size_t I = 0; I < Items.size(); ++I)
      Out += fmt::format("    {}{}\n", Items[I], I + 1 < Items.size() ? "," : "");
    return Out + "  ]";
  };
  std::vector<std::string> Nodes;
  for (Node N : S.Nodes) {
    const Site &Site = G.site(N);
    Nodes.push_back(dump({{"id", N},
                          {"kind", siteKindName(Site.Kind)},
                          {"name", Site.Name},
                          {"file", G.fileOf(N).Path},
                          {"line", Site.Line},
                          {"column", Site.Column},
                          {"function", G.functionOf(N).Name},
                          {"executed", Site.executed()},
                          {"hits", Site.Hits}}));
  }
  std::vector<std::string> Edges;
  for (const SliceEdge &E : S.Edges)
    Edges.push_back(dump({{"from", E.From},
                          {"to", E.To},
                          {"kind", E.Kind == DependenceKind::Data ? "data" : "control"}}));
  return fmt::format("{{\n"
                     "  \"version\": 1,\n"
                     "  \"criterion\": {},\n"
                     "  \"direction\": \"{}\",\n"
                     "  \"nodes\": {},\n"
                     "  \"edges\": {}\n"
                     "}}\n",
                     S.Criterion.empty() ? "null" : dump(S.Criterion),
                     S.Forward ? "forward" : "backward", list(Nodes), list(Edges));
}

} // namespace sleuth
