//===- FileSet.cpp - Bundles, includes and changes of several files -------===//
#include "FileSet.h"

#include <algorithm>
#include <cctype>
#include <filesystem>

namespace sleuth::reducer {

namespace fs = std::filesystem;

std::string encodeFiles(const std::vector<std::string> &Texts) {
  std::string Out;
  std::size_t Total = 0;
  for (const std::string &T : Texts)
    Total += T.size() + 21;
  Out.reserve(Total);
  for (const std::string &T : Texts) {
    Out += std::to_string(T.size());
    Out += '\n';
    Out += T;
  }
  return Out;
}

bool decodeFiles(const std::string &Bundle, std::vector<std::string> &Texts) {
  Texts.clear();
  for (std::size_t At = 0; At < Bundle.size();) {
    std::size_t NewLine = Bundle.find('\n', At);
    if (NewLine == std::string::npos || NewLine == At || NewLine - At > 19)
      return false;
    std::size_t Length = 0;
    for (std::size_t I = At; I < NewLine; ++I) {
      if (!std::isdigit(static_cast<unsigned char>(Bundle[I])))
        return false;
      Length = Length * 10 + (Bundle[I] - '0');
    }
    if (Length > Bundle.size() - NewLine - 1)
      return false;
    Texts.push_back(Bundle.substr(NewLine + 1, Length));
    At = NewLine + 1 + Length;
  }
  return true;
}

std::vector<QuotedInclude> quotedIncludes(const std::string &Text) {
  std::vector<QuotedInclude> Out;
  for (std::size_t Begin = 0; Begin < Text.size();) {
    std::size_t End = Text.find('\n', Begin);
    End = End == std::string::npos ? Text.size() : End + 1;
    std::string_view Line(Text.data() + Begin, End - Begin);
    std::size_t I = 0;
    auto SkipBlanks = [&] {
      while (I < Line.size() && (Line[I] == ' ' || Line[I] == '\t'))
        ++I;
    };
    SkipBlanks();
    if (I < Line.size() && Line[I] == '#') {
      ++I;
      SkipBlanks();
      if (Line.substr(I, 7) == "include") {
        I += 7;
        SkipBlanks();
        std::size_t Close =
            I < Line.size() && Line[I] == '"' ? Line.find('"', I + 1) : std::string_view::npos;
        if (Close != std::string_view::npos && Close > I + 1)
          Out.push_back({Begin, End, std::string(Line.substr(I + 1, Close - I - 1))});
      }
    }
    Begin = End;
  }
  return Out;
}

std::size_t resolveInclude(const FileSet &Set, std::size_t From, std::string_view Name) {
  std::vector<fs::path> Dirs = {fs::path(Set.Paths[From]).parent_path(), fs::path()};
  for (const std::string &D : Set.IncludeDirs)
    Dirs.push_back(D);
  for (const fs::path &Dir : Dirs) {
    std::string Candidate = (Dir / std::string(Name)).lexically_normal().generic_string();
    auto It = std::find(Set.Paths.begin(), Set.Paths.end(), Candidate);
    if (It != Set.Paths.end())
      return It - Set.Paths.begin();
  }
  return Set.Paths.size();
}

std::vector<Inclusion> inclusions(const FileSet &Set) {
  std::vector<Inclusion> Out;
  for (std::size_t F = 0; F < Set.Texts.size(); ++F)
    for (QuotedInclude &I : quotedIncludes(Set.Texts[F])) {
      std::size_t H = resolveInclude(Set, F, I.Name);
      if (H < Set.Texts.size())
        Out.push_back({F, H, std::move(I)});
    }
  return Out;
}

std::vector<std::size_t> includersFirst(const FileSet &Set) {
  const std::size_t N = Set.Paths.size();
  // Depth of a file: the longest chain of includes from a file that no file
  // of the set includes. Relaxed at most N times, so a cycle of includes
  // cannot loop; the files of a cycle keep whatever depth they reached.
  std::vector<Inclusion> Edges = inclusions(Set);
  std::vector<std::size_t> Depth(N, 0);
  for (std::size_t Round = 0; Round < N; ++Round) {
    bool Changed = false;
    for (const Inclusion &E : Edges)
      if (E.Header != E.Includer && Depth[E.Header] < Depth[E.Includer] + 1 &&
          Depth[E.Includer] + 1 < N) {
        Depth[E.Header] = Depth[E.Includer] + 1;
        Changed = true;
      }
    if (!Changed)
      break;
  }
  std::vector<std::size_t> Order(N);
  for (std::size_t F = 0; F < N; ++F)
    Order[F] = F;
  std::stable_sort(Order.begin(), Order.end(),
                   [&](std::size_t A, std::size_t B) { return Depth[A] < Depth[B]; });
  return Order;
}

std::vector<std::string> applySetChanges(const std::vector<std::string> &Texts,
                                         const std::vector<const SetChange *> &Changes) {
  // Per file, the byte ranges claimed by the parts applied so far.
  std::vector<std::vector<std::pair<std::size_t, std::size_t>>> Claimed(Texts.size());
  std::vector<std::vector<const Change *>> PerFile(Texts.size());
  auto Overlaps = [](const auto &Ranges, std::size_t B, std::size_t E) {
    return std::any_of(Ranges.begin(), Ranges.end(), [&](const auto &R) {
      return B == E ? R.first < B && B < R.second : B < R.second && R.first < E;
    });
  };
  for (const SetChange *C : Changes) {
    std::vector<std::vector<std::pair<std::size_t, std::size_t>>> Own(Texts.size());
    bool Ok = !C->Parts.empty();
    for (const FileEdit &P : C->Parts) {
      if (P.File >= Texts.size()) {
        Ok = false;
        break;
      }
      for (const Edit &E : P.Edit.Edits) {
        std::size_t End = E.Offset + E.Length;
        if (End > Texts[P.File].size() || Overlaps(Claimed[P.File], E.Offset, End) ||
            Overlaps(Own[P.File], E.Offset, End)) {
          Ok = false;
          break;
        }
        if (E.Length)
          Own[P.File].emplace_back(E.Offset, End);
      }
      if (!Ok)
        break;
    }
    if (!Ok)
      continue;
    for (const FileEdit &P : C->Parts)
      PerFile[P.File].push_back(&P.Edit);
    for (std::size_t F = 0; F < Texts.size(); ++F)
      Claimed[F].insert(Claimed[F].end(), Own[F].begin(), Own[F].end());
  }
  std::vector<std::string> Out(Texts.size());
  for (std::size_t F = 0; F < Texts.size(); ++F)
    Out[F] = PerFile[F].empty() ? Texts[F] : applyChanges(Texts[F], PerFile[F]);
  return Out;
}

} // namespace sleuth::reducer
