// Slicing criteria: how a user names the nodes a slice starts from. When a
// criterion matches nothing, the message lists what does exist nearby, since
// the user usually got a name or line slightly wrong.
#include "sleuth/slicer/dependences.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <fstream>
#include <iterator>
#include <map>
#include <regex>
#include <set>

namespace sleuth {

namespace {

using Node = DependenceGraph::Node;
using NodeList = std::vector<Node>;

bool allDigits(std::string_view S) {
  return !S.empty() && std::all_of(S.begin(), S.end(), [](char C) { return C >= '0' && C <= '9'; });
}

std::optional<unsigned> parseLine(std::string_view S) {
  unsigned V = 0;
  if (!allDigits(S))
    return std::nullopt;
  auto [Ptr, Ec] = std::from_chars(S.data(), S.data() + S.size(), V);
  if (Ec != std::errc() || V == 0)
    return std::nullopt;
  return V;
}

std::string_view baseName(std::string_view Path) {
  std::size_t Slash = Path.rfind('/');
  return Slash == std::string_view::npos ? Path : Path.substr(Slash + 1);
}

/// `ns::Cls::f` is matched by itself, `Cls::f` and `f`; `f()` is accepted too.
bool functionMatches(std::string_view Name, std::string_view Query) {
  if (Query.ends_with("()"))
    Query.remove_suffix(2);
  if (Name == Query)
    return true;
  return Name.size() > Query.size() + 2 && Name.ends_with(Query) &&
         Name.substr(Name.size() - Query.size() - 2, 2) == "::";
}

/// For a line without sites that calls functions of the program (`report(total);`, whose call
/// is no node of its own): its arguments flowed into those functions' parameters, which a
/// criterion can name. Empty if the source is not there or the line calls none.
std::string callHint(const DependenceGraph &G, const std::string &Path, unsigned Line) {
  std::ifstream In(Path);
  std::string Text;
  for (unsigned I = 0; I < Line; ++I)
    if (!std::getline(In, Text))
      return "";
  static const std::regex Call(R"(([A-Za-z_]\w*)\s*\()");
  std::vector<std::string> Hints;
  for (auto It = std::sregex_iterator(Text.begin(), Text.end(), Call); It != std::sregex_iterator();
       ++It) {
    std::string Name = (*It)[1];
    for (unsigned F = 0; F < G.functions().size(); ++F) {
      if (!functionMatches(G.functions()[F].Name, Name))
        continue;
      std::vector<std::string> Params;
      for (DependenceGraph::Node N = 0; N < G.size(); ++N)
        if (G.site(N).Function == F && G.site(N).Kind == SiteKind::Param)
          Params.push_back(G.site(N).Name + "@" + Name);
      if (!Params.empty())
        Hints.push_back(
            fmt::format("{}(), whose parameters are {}", Name, fmt::join(Params, ", ")));
      break;
    }
  }
  if (Hints.empty())
    return "";
  return fmt::format("; the line calls {}", fmt::join(Hints, "; "));
}

/// A file is named by its full path or by any suffix made of whole path
/// components (`middle.cpp`, `src/middle.cpp`).
bool fileMatches(std::string_view Path, std::string_view Query) {
  while (Query.starts_with("./"))
    Query.remove_prefix(2);
  if (Path == Query)
    return true;
  return Path.size() > Query.size() && Path.ends_with(Query) &&
         Path[Path.size() - Query.size() - 1] == '/';
}

std::size_t editDistance(std::string_view A, std::string_view B) {
  std::vector<std::size_t> Row(B.size() + 1);
  for (std::size_t J = 0; J <= B.size(); ++J)
    Row[J] = J;
  for (std::size_t I = 1; I <= A.size(); ++I) {
    std::size_t Diagonal = Row[0];
    Row[0] = I;
    for (std::size_t J = 1; J <= B.size(); ++J) {
      std::size_t Up = Row[J];
      Row[J] = std::min({Row[J] + 1, Row[J - 1] + 1, Diagonal + (A[I - 1] == B[J - 1] ? 0 : 1)});
      Diagonal = Up;
    }
  }
  return Row[B.size()];
}

/// Up to Max candidates, the closest to Query first.
std::vector<std::string> closest(std::set<std::string> Candidates, std::string_view Query,
                                 std::size_t Max = 6) {
  std::vector<std::string> Sorted(Candidates.begin(), Candidates.end());
  std::stable_sort(Sorted.begin(), Sorted.end(), [&](const std::string &A, const std::string &B) {
    return editDistance(A, Query) < editDistance(B, Query);
  });
  if (Sorted.size() > Max)
    Sorted.resize(Max);
  return Sorted;
}

class CriterionResolver {
public:
  CriterionResolver(const DependenceGraph &G, std::string_view Criterion, std::string &Error)
      : G(G), Criterion(Criterion), Error(Error) {}

  std::optional<NodeList> resolve() {
    std::string_view C = Criterion;
    if (C.empty())
      return fail("empty criterion");
    if (C == "last")
      return lastNode();
    if (C == "crash")
      return crashNodes();
    if (std::size_t At = C.find('@'); At != std::string_view::npos)
      return variableInFunction(C.substr(0, At), C.substr(At + 1));
    if (C.ends_with(":return"))
      return returnOf(C.substr(0, C.size() - 7));
    // FILE:LINE[:VAR]: the first `:DIGITS` that ends the text or is followed
    // by `:` separates the file; the variable may contain `::` itself.
    for (std::size_t Colon = C.find(':'); Colon != std::string_view::npos;
         Colon = C.find(':', Colon + 1)) {
      std::size_t End = C.find(':', Colon + 1);
      std::string_view Digits = C.substr(Colon + 1, End - Colon - 1);
      if (Colon == 0 || !allDigits(Digits))
        continue;
      std::optional<std::string_view> Var;
      if (End != std::string_view::npos)
        Var = C.substr(End + 1);
      return fileLine(C.substr(0, Colon), Digits, Var);
    }
    std::string Hint;
    if (anyFunctionMatches(C))
      Hint = fmt::format(" (did you mean '{}:return'?)", C);
    return fail(fmt::format("not understood{}; expected FILE:LINE[:VAR], FUNCTION:return, "
                            "VAR@FUNCTION[:LINE], crash or last",
                            Hint));
  }

private:
  const DependenceGraph &G;
  std::string_view Criterion;
  std::string &Error;

  std::nullopt_t fail(const std::string &Why) {
    Error = fmt::format("criterion '{}': {}", Criterion, Why);
    return std::nullopt;
  }

  bool anyFunctionMatches(std::string_view Query) const {
    return std::any_of(G.functions().begin(), G.functions().end(),
                       [&](const Function &F) { return functionMatches(F.Name, Query); });
  }

  std::nullopt_t failNoFunction(std::string_view Query) {
    std::set<std::string> Names;
    for (const Function &F : G.functions())
      Names.insert(F.Name);
    if (Names.empty())
      return fail(fmt::format("no function '{}' (the file declares none)", Query));
    return fail(fmt::format("no function '{}' (functions: {})", Query,
                            fmt::join(closest(Names, Query), ", ")));
  }

  std::optional<NodeList> lastNode() {
    std::optional<Node> N = G.last(0);
    if (!N)
      return fail("the dependence file records no last node for thread 0 "
                  "(nothing executed?)");
    return NodeList{*N};
  }

  /// The last node, and after a fatal signal also the nodes that were being evaluated when the
  /// program died: reads that a node checks as they happen record their edges at once, so a
  /// node with in-edges that never completed (no hit) is an expression the signal cut short,
  /// such as a loop test that dereferenced a null pointer.
  std::optional<NodeList> crashNodes() {
    std::optional<NodeList> Nodes = lastNode();
    if (!Nodes || !G.status().Signaled)
      return Nodes;
    for (Node N = 0; N < G.size(); ++N)
      if (!G.site(N).executed() && boost::in_degree(N, G.graph()) > 0 && N != Nodes->front())
        Nodes->push_back(N);
    std::sort(Nodes->begin(), Nodes->end());
    return Nodes;
  }

  std::optional<NodeList> returnOf(std::string_view FunctionName) {
    if (!anyFunctionMatches(FunctionName))
      return failNoFunction(FunctionName);
    NodeList Nodes;
    for (Node N = 0; N < G.size(); ++N)
      if (G.site(N).Kind == SiteKind::Ret && functionMatches(G.functionOf(N).Name, FunctionName))
        Nodes.push_back(N);
    if (Nodes.empty())
      return fail(fmt::format("function '{}' has no return value site", FunctionName));
    return Nodes;
  }

  std::optional<NodeList> variableInFunction(std::string_view Var, std::string_view FunctionName) {
    std::optional<unsigned> Line;
    // `x@f:12`; but `x@ns::f` has no line.
    if (std::size_t Colon = FunctionName.rfind(':');
        Colon != std::string_view::npos && Colon > 0 && FunctionName[Colon - 1] != ':') {
      Line = parseLine(FunctionName.substr(Colon + 1));
      if (!Line)
        return fail(fmt::format("'{}' is not a line number", FunctionName.substr(Colon + 1)));
      FunctionName = FunctionName.substr(0, Colon);
    }
    if (Var.empty())
      return fail("no variable before '@'");
    if (!anyFunctionMatches(FunctionName))
      return failNoFunction(FunctionName);
    NodeList Nodes;
    std::set<std::string> Written;
    std::set<unsigned> Lines;
    for (Node N = 0; N < G.size(); ++N) {
      const Site &S = G.site(N);
      if ((S.Kind != SiteKind::Var && S.Kind != SiteKind::Param) ||
          !functionMatches(G.functionOf(N).Name, FunctionName))
        continue;
      Written.insert(S.Name);
      if (S.Name != Var)
        continue;
      Lines.insert(S.Line);
      if (!Line || S.Line == *Line)
        Nodes.push_back(N);
    }
    if (!Nodes.empty())
      return Nodes;
    if (!Lines.empty())
      return fail(fmt::format("'{}' is not written at line {} of {} (it is "
                              "at line{} {})",
                              Var, *Line, FunctionName, Lines.size() == 1 ? "" : "s",
                              fmt::join(Lines, ", ")));
    if (Written.empty())
      return fail(fmt::format("{} writes no variables", FunctionName));
    return fail(fmt::format("no write of '{}' in {} (written there: {})", Var, FunctionName,
                            fmt::join(closest(Written, Var), ", ")));
  }

  std::optional<NodeList> fileLine(std::string_view FileName, std::string_view LineText,
                                   std::optional<std::string_view> Var) {
    std::optional<unsigned> Line = parseLine(LineText);
    if (!Line)
      return fail(fmt::format("'{}' is not a line number", LineText));
    std::vector<unsigned> Files;
    for (unsigned F = 0; F < G.files().size(); ++F)
      if (fileMatches(G.files()[F].Path, FileName))
        Files.push_back(F);
    if (Files.empty()) {
      std::set<std::string> Names;
      for (const SourceFile &F : G.files())
        Names.insert(std::string(baseName(F.Path)));
      if (anyFunctionMatches(FileName) && Var)
        return fail(fmt::format("no file '{}'; for a variable in a function "
                                "write {}@{}:{}",
                                FileName, *Var, FileName, *Line));
      return fail(fmt::format("no file '{}' (files: {})", FileName,
                              fmt::join(closest(Names, baseName(FileName)), ", ")));
    }
    if (Files.size() > 1) {
      std::vector<std::string> Paths;
      for (unsigned F : Files)
        Paths.push_back(G.files()[F].Path);
      return fail(fmt::format("'{}' matches several files ({}); give more of "
                              "its path",
                              FileName, fmt::join(Paths, ", ")));
    }
    unsigned File = Files.front();
    NodeList AtLine;
    std::set<unsigned> Lines;
    for (Node N = 0; N < G.size(); ++N) {
      if (G.functionOf(N).File != File)
        continue;
      Lines.insert(G.site(N).Line);
      if (G.site(N).Line == *Line)
        AtLine.push_back(N);
    }
    const std::string &Path = G.files()[File].Path;
    if (AtLine.empty()) {
      if (Lines.empty())
        return fail(fmt::format("{} has no sites", Path));
      // The lines with sites nearest to the one asked for.
      std::vector<unsigned> Near(Lines.begin(), Lines.end());
      std::stable_sort(Near.begin(), Near.end(), [&](unsigned A, unsigned B) {
        auto Distance = [&](unsigned L) { return L > *Line ? L - *Line : *Line - L; };
        return Distance(A) < Distance(B);
      });
      Near.resize(std::min<std::size_t>(Near.size(), 6));
      std::sort(Near.begin(), Near.end());
      return fail(fmt::format("no site at line {} of {} (nearest lines with "
                              "sites: {}){}",
                              *Line, Path, fmt::join(Near, ", "), callHint(G, Path, *Line)));
    }
    if (!Var)
      return AtLine;
    NodeList Named;
    std::set<std::string> Names;
    for (Node N : AtLine) {
      Names.insert(G.site(N).Name);
      if (G.site(N).Name == *Var)
        Named.push_back(N);
    }
    if (Named.empty())
      return fail(fmt::format("no site named '{}' at line {} of {} (there: "
                              "{})",
                              *Var, *Line, Path, fmt::join(Names, ", ")));
    return Named;
  }
};

} // namespace

std::optional<std::vector<Node>> resolveCriterion(const DependenceGraph &G,
                                                  std::string_view Criterion, std::string &Error) {
  std::optional<NodeList> Nodes = CriterionResolver(G, Criterion, Error).resolve();
  if (!Nodes)
    return Nodes;
  // `f:return` names every return statement of f, but the run took only
  // some; slice from those. A criterion that never ran is still kept, so the
  // user sees it was not reached rather than an error. (`crash` names the
  // nodes a signal cut short on purpose.)
  if (Criterion == "crash")
    return Nodes;
  NodeList Executed;
  std::copy_if(Nodes->begin(), Nodes->end(), std::back_inserter(Executed),
               [&](Node N) { return G.site(N).executed(); });
  if (!Executed.empty())
    Nodes = std::move(Executed);
  std::sort(Nodes->begin(), Nodes->end());
  return Nodes;
}

} // namespace sleuth
