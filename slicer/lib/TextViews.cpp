// The code view and the dependence listing (docs/slicer.md shows both).
#include "ViewSupport.h"
#include "sleuth/slicer/views.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

namespace sleuth {

using detail::Node;
using detail::SliceIndex;

namespace {

/// Columns a string takes on a terminal; UTF-8 continuation bytes take none.
std::size_t displayWidth(std::string_view Text) {
  std::size_t Width = 0;
  for (char C : Text)
    if ((static_cast<unsigned char>(C) & 0xC0) != 0x80)
      ++Width;
  return Width;
}

std::string expandTabs(std::string_view Line) {
  std::string Out;
  std::size_t Column = 0;
  for (char C : Line) {
    if (C == '\t') {
      std::size_t Spaces = 8 - Column % 8;
      Out.append(Spaces, ' ');
      Column += Spaces;
      continue;
    }
    Out += C;
    if ((static_cast<unsigned char>(C) & 0xC0) != 0x80)
      ++Column;
  }
  return Out;
}

void trimRight(std::string &Text) {
  while (!Text.empty() && std::strchr(" \t\r\f\v", Text.back()))
    Text.pop_back();
}

/// Source files, each read once; nullopt if it cannot be read.
class SourceCache {
public:
  explicit SourceCache(std::vector<std::string> *Warnings) : Warnings(Warnings) {}

  const std::optional<std::vector<std::string>> &lines(const std::string &Path) {
    auto [It, Inserted] = Files.try_emplace(Path);
    if (Inserted)
      It->second = read(Path);
    return It->second;
  }

  /// Says once per file that the source is shorter than the dependence file
  /// expects, which means it changed since the program was instrumented.
  void noteTooShort(const std::string &Path, std::size_t Have, unsigned Want) {
    if (Warnings && TooShort.insert(Path).second)
      Warnings->push_back(
          fmt::format("{} has {} lines but the dependence file refers to line {}; it may "
                      "have changed since it was instrumented",
                      Path, Have, Want));
  }

private:
  std::vector<std::string> *Warnings;
  std::map<std::string, std::optional<std::vector<std::string>>> Files;
  std::set<std::string> TooShort;

  std::optional<std::vector<std::string>> read(const std::string &Path) {
    auto Unreadable = [&](std::string_view Why) {
      if (Warnings)
        Warnings->push_back(
            fmt::format("cannot read source file {} ({}); showing annotations only", Path, Why));
      return std::nullopt;
    };
    std::error_code Ec;
    if (std::filesystem::is_directory(Path, Ec))
      return Unreadable("it is a directory");
    errno = 0;
    std::ifstream In(Path, std::ios::binary);
    if (!In)
      return Unreadable(errno ? std::strerror(errno) : "cannot open");
    std::vector<std::string> Lines;
    std::string Line;
    while (std::getline(In, Line)) {
      Line = expandTabs(Line);
      trimRight(Line);
      Lines.push_back(std::move(Line));
    }
    if (In.bad())
      return Unreadable("read error");
    return Lines;
  }
};

struct ListingLine {
  char Marker = ' ';
  unsigned Number = 0;
  std::string Text;
  std::string Annotation;
};

std::string formatListing(const std::vector<ListingLine> &Lines) {
  // Annotations start in one column per function: three spaces after the
  // longest annotated line.
  std::size_t Width = 0;
  for (const ListingLine &L : Lines)
    if (!L.Annotation.empty())
      Width = std::max(Width, displayWidth(L.Text));
  std::string Out;
  for (const ListingLine &L : Lines) {
    std::string Line = fmt::format("{}{:>5} {}", L.Marker, L.Number, L.Text);
    if (!L.Annotation.empty())
      Line += fmt::format("{:{}}// {}", "", Width + 3 - displayWidth(L.Text), L.Annotation);
    trimRight(Line);
    Out += Line;
    Out += '\n';
  }
  return Out;
}

} // namespace

std::string codeView(const DependenceGraph &G, const Slice &S, std::vector<std::string> *Warnings) {
  SliceIndex Index(G, S);
  SourceCache Sources(Warnings);
  detail::FileLabels Files(G, S);

  // A block lists lines of one source file: those of one function, or of several whose lines
  // overlap (one-line member functions of a struct, a lambda in a function), each line once.
  struct Block {
    const std::string *Path = nullptr;
    unsigned File = 0;
    unsigned First = 0, Last = 0; ///< The extent shown from the source; First 0: none.
    std::map<unsigned, std::vector<Node>> ByLine;
    std::map<unsigned, unsigned> ContextOfLine; ///< The function whose nodes a line shows.
  };
  std::vector<Block> Blocks;
  for (unsigned F : Index.functions()) {
    const Function &Fn = G.functions()[F];
    const std::string &Path = G.files()[Fn.File].Path;
    std::map<unsigned, std::vector<Node>> ByLine;
    for (Node N : Index.nodesOf(F))
      ByLine[G.site(N).Line].push_back(N);
    const auto &Source = Sources.lines(Path);
    std::size_t SourceLines = Source ? Source->size() : 0;
    unsigned First = 0, Last = 0;
    if (Source) {
      // Nodes outside the recorded extent (macros, default arguments) widen
      // it rather than vanish.
      First = std::max(1u, std::min(Fn.Begin, ByLine.begin()->first));
      Last = std::max(Fn.End, ByLine.rbegin()->first);
      if (Last > SourceLines)
        Sources.noteTooShort(Path, SourceLines, Last);
      Last = static_cast<unsigned>(std::min<std::size_t>(Last, SourceLines));
      if (Last < First)
        First = Last = 0;
    }
    bool Overlaps = !Blocks.empty() && *Blocks.back().Path == Path && First != 0 &&
                    Blocks.back().First != 0 && First <= Blocks.back().Last;
    if (!Overlaps) {
      Blocks.emplace_back();
      Blocks.back().Path = &Path;
      Blocks.back().File = Fn.File;
      Blocks.back().First = First;
    }
    Block &B = Blocks.back();
    B.Last = std::max(B.Last, Last);
    for (auto &[Line, Nodes] : ByLine) {
      B.ContextOfLine.try_emplace(Line, F);
      std::vector<Node> &Into = B.ByLine[Line];
      Into.insert(Into.end(), Nodes.begin(), Nodes.end());
    }
  }

  // Without its source line, a line shows the names of its nodes.
  auto placeholder = [&](const std::vector<Node> &Nodes) {
    std::vector<std::string_view> Names;
    for (Node N : Nodes)
      if (std::find(Names.begin(), Names.end(), G.site(N).Name) == Names.end())
        Names.push_back(G.site(N).Name);
    return fmt::format("[{}]", fmt::join(Names, ", "));
  };

  std::string Out;
  for (Block &B : Blocks) {
    const auto &Source = Sources.lines(*B.Path);
    std::size_t SourceLines = Source ? Source->size() : 0;
    std::vector<unsigned> Lines;
    for (unsigned Line = B.First; B.First != 0 && Line <= B.Last; ++Line)
      Lines.push_back(Line);
    // Lines the source does not have (it is missing or changed, or the
    // location was unknown: line 0) are listed only if they hold nodes.
    for (const auto &[Line, Nodes] : B.ByLine)
      if (Line == 0 || Line > SourceLines)
        Lines.push_back(Line);
    std::sort(Lines.begin(), Lines.end());
    Lines.erase(std::unique(Lines.begin(), Lines.end()), Lines.end());

    std::vector<ListingLine> Listing;
    for (unsigned Line : Lines) {
      ListingLine L;
      L.Number = Line;
      auto It = B.ByLine.find(Line);
      if (It != B.ByLine.end()) {
        std::vector<Node> &Nodes = It->second;
        std::sort(Nodes.begin(), Nodes.end(),
                  [&](Node X, Node Y) { return Index.namer().before(X, Y); });
        // A node without hits but with recorded reads was reached and cut short (the
        // expression a crash stopped): its line ran too.
        for (Node N : Nodes)
          if ((G.site(N).executed() || boost::in_degree(N, G.graph()) > 0) &&
              G.site(N).Kind != SiteKind::Param)
            L.Marker = '*';
        L.Annotation = Index.annotation(Nodes, B.ContextOfLine.at(Line));
      }
      if (Line >= 1 && Line <= SourceLines)
        L.Text = (*Source)[Line - 1];
      else if (It != B.ByLine.end())
        L.Text = placeholder(It->second);
      Listing.push_back(std::move(L));
    }
    if (!Out.empty())
      Out += '\n';
    // A slice that spans several files names the file above its first block (a file's blocks
    // follow one another).
    if (Files.several() && (&B == &Blocks.front() || *(&B - 1)->Path != *B.Path))
      Out += fmt::format("== {} ==\n", Files.of(B.File));
    Out += formatListing(Listing);
  }
  return Out;
}

std::string depsView(const DependenceGraph &G, const Slice &S) {
  SliceIndex Index(G, S);
  detail::FileLabels Files(G, S);
  std::string Out;
  for (unsigned F : Index.functions()) {
    std::string Entries;
    for (Node N : Index.nodesOf(F)) {
      std::string Annotation = Index.annotation({N}, F);
      if (!Annotation.empty())
        Entries += fmt::format("    {} {}\n", Index.namer().ref(N, F), Annotation);
    }
    if (Entries.empty())
      continue;
    if (!Out.empty())
      Out += '\n';
    // A slice that spans several files names the file of each function.
    const Function &Fn = G.functions()[F];
    if (Files.several())
      Out += fmt::format("{}() in {}:\n{}", Fn.Name, Files.of(Fn.File), Entries);
    else
      Out += fmt::format("{}():\n{}", Fn.Name, Entries);
  }
  return Out;
}

} // namespace sleuth
