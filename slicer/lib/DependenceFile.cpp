// Reading the dependence file. The format is specified in
// docs/dependence-format.md; this reader checks all of it, because a file that
// is half right would give slices that are silently wrong.
#include "sleuth/slicer/dependences.h"
#include "sleuth/slicer/source_hash.h"

#include <fmt/format.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>
#include <unordered_set>

namespace sleuth {

std::string_view siteKindName(SiteKind Kind) {
  switch (Kind) {
  case SiteKind::Var:
    return "var";
  case SiteKind::Param:
    return "param";
  case SiteKind::Test:
    return "test";
  case SiteKind::Ret:
    return "ret";
  case SiteKind::Assert:
    return "assert";
  case SiteKind::Effect:
    return "effect";
  }
  return "?";
}

std::optional<DependenceGraph::Node> DependenceGraph::last(unsigned Thread) const {
  for (const auto &[T, N] : Last)
    if (T == Thread)
      return N;
  return std::nullopt;
}

namespace {

constexpr std::string_view Magic = "sleuth-deps";
/// Version 2 added the content hash to `file` records; version 1 files are still read.
constexpr unsigned OldestVersion = 1, Version = 2;

/// Sections in the order the records must appear; `data` and `ctrl` share one.
enum Section {
  SecMagic,
  SecProgram,
  SecStatus,
  SecFile,
  SecFunc,
  SecSite,
  SecHit,
  SecEdge,
  SecLast,
  SecEnd
};

const char *sectionName(Section S) {
  static constexpr std::array<const char *, 10> Names = {
      "sleuth-deps", "program", "status",    "file", "func",
      "site",        "hit",     "data/ctrl", "last", "end"};
  return Names[S];
}

std::optional<Section> sectionOf(std::string_view Keyword) {
  static constexpr std::pair<std::string_view, Section> Keywords[] = {
      {"program", SecProgram}, {"status", SecStatus}, {"file", SecFile}, {"func", SecFunc},
      {"site", SecSite},       {"hit", SecHit},       {"data", SecEdge}, {"ctrl", SecEdge},
      {"last", SecLast},       {"end", SecEnd}};
  for (const auto &[K, S] : Keywords)
    if (K == Keyword)
      return S;
  return std::nullopt;
}

std::optional<SiteKind> siteKindOf(std::string_view Name) {
  for (SiteKind K : {SiteKind::Var, SiteKind::Param, SiteKind::Test, SiteKind::Ret,
                     SiteKind::Assert, SiteKind::Effect})
    if (siteKindName(K) == Name)
      return K;
  return std::nullopt;
}

int hexValue(char C) {
  if (C >= '0' && C <= '9')
    return C - '0';
  if (C >= 'a' && C <= 'f')
    return C - 'a' + 10;
  if (C >= 'A' && C <= 'F')
    return C - 'A' + 10;
  return -1;
}

/// Thrown inside the parser only; load()/parse() turn it into Error.
struct ParseError {
  std::string Message;
};

} // namespace

/// Parses one file record by record; friend of DependenceGraph.
class DependenceParser {
public:
  DependenceParser(std::string_view Text, std::string_view FileName)
      : Text(Text), FileName(FileName) {}

  std::optional<DependenceGraph> run(std::string &Error) {
    try {
      parseAll();
    } catch (const ParseError &E) {
      Error = E.Message;
      return std::nullopt;
    }
    return std::move(Result);
  }

private:
  std::string_view Text;
  std::string_view FileName;
  DependenceGraph Result;
  unsigned LineNo = 0;
  unsigned FileVersion = Version;
  Section Current = SecMagic;
  std::vector<std::string_view> Fields;
  std::unordered_set<std::uint64_t> DataEdges, ControlEdges;

  [[noreturn]] void fail(const std::string &Message) const {
    throw ParseError{fmt::format("{}:{}: {}", FileName, LineNo, Message)};
  }
  [[noreturn]] void failTruncated() const {
    throw ParseError{fmt::format("{}: truncated dependence file (no 'end' record)", FileName)};
  }

  void parseAll() {
    if (Text.empty())
      throw ParseError{fmt::format("{}: empty file, not a sleuth dependence file", FileName)};
    std::size_t Pos = 0;
    bool SawEnd = false;
    while (Pos < Text.size()) {
      std::size_t Eol = Text.find('\n', Pos);
      bool Terminated = Eol != std::string_view::npos;
      std::string_view Line = Text.substr(Pos, Terminated ? Eol - Pos : std::string_view::npos);
      Pos = Terminated ? Eol + 1 : Text.size();
      ++LineNo;
      if (SawEnd)
        fail("content after the 'end' record");
      // A writer that died mid-line leaves an unterminated last line; call
      // that truncation rather than complain about its fields. Only `end`
      // may lack its newline, since nothing is lost then.
      if (!Terminated && Line != "end") {
        if (LineNo == 1 && !Magic.starts_with(Line.substr(0, Magic.size())))
          fail("not a sleuth dependence file (expected 'sleuth-deps 2')");
        failTruncated();
      }
      SawEnd = parseLine(Line);
    }
    if (!SawEnd)
      failTruncated();
  }

  void split(std::string_view Line) {
    Fields.clear();
    std::size_t Start = 0;
    while (true) {
      std::size_t Space = Line.find(' ', Start);
      Fields.push_back(Line.substr(Start, Space - Start));
      if (Space == std::string_view::npos)
        break;
      Start = Space + 1;
    }
  }

  /// Returns true for the `end` record.
  bool parseLine(std::string_view Line) {
    if (!Line.empty() && Line.back() == '\r')
      fail("line ends with CR (DOS line endings are not allowed)");
    for (char C : Line) {
      if (C == '\t' || C == '\r' || C == '\0')
        fail(fmt::format("raw {} byte in record (must be %-escaped)", C == '\t'   ? "tab"
                                                                      : C == '\r' ? "CR"
                                                                                  : "NUL"));
    }
    split(Line);
    if (LineNo == 1) {
      if (Fields[0] != Magic)
        fail("not a sleuth dependence file (expected 'sleuth-deps 2')");
      if (Fields.size() != 2)
        fail("malformed header (expected 'sleuth-deps 2')");
      FileVersion = number(Fields[1], "version");
      if (FileVersion < OldestVersion || FileVersion > Version)
        fail(fmt::format("unsupported dependence file version {} (this sleuth "
                         "reads versions {} to {})",
                         FileVersion, OldestVersion, Version));
      Current = SecMagic;
      return false;
    }

    std::optional<Section> S = sectionOf(Fields[0]);
    if (!S)
      fail(fmt::format("unknown record '{}'", Fields[0]));
    checkOrder(*S);
    Current = *S;

    switch (*S) {
    case SecProgram:
      expectFields(1, "ARGV0");
      Result.Program = text(Fields[1], "ARGV0", /*MayBeEmpty=*/true);
      return false;
    case SecStatus:
      if (Fields.size() == 2 && Fields[1] == "running") {
        // Written by sleuth_flush() while the program was still running.
        Result.Status.Running = true;
        return false;
      }
      expectFields(2, "exit|signal N");
      if (Fields[1] != "exit" && Fields[1] != "signal")
        fail(fmt::format("status must be 'exit' or 'signal', not '{}'", Fields[1]));
      Result.Status.Signaled = Fields[1] == "signal";
      Result.Status.Code = number(Fields[2], "N");
      return false;
    case SecFile:
      parseFile();
      return false;
    case SecFunc:
      parseFunc();
      return false;
    case SecSite:
      parseSite();
      return false;
    case SecHit:
      parseHit();
      return false;
    case SecEdge:
      parseEdge();
      return false;
    case SecLast:
      parseLast();
      return false;
    case SecEnd:
      expectFields(0, "");
      return true;
    case SecMagic:
      break;
    }
    fail("'sleuth-deps' header repeated");
  }

  void checkOrder(Section S) {
    // program and status are mandatory, exactly once, right after the header.
    if (LineNo == 2 && S != SecProgram)
      fail(fmt::format("expected 'program' record, found '{}'", Fields[0]));
    if (LineNo == 3 && S != SecStatus)
      fail(fmt::format("expected 'status' record, found '{}'", Fields[0]));
    if (LineNo > 3 && (S == SecProgram || S == SecStatus))
      fail(fmt::format("duplicate '{}' record", Fields[0]));
    if (S < Current)
      fail(fmt::format("'{}' record out of order: it must come before the "
                       "'{}' records",
                       Fields[0], sectionName(Current)));
  }

  void expectFields(std::size_t N, std::string_view Syntax) {
    if (Fields.size() - 1 != N)
      fail(fmt::format("'{}' record expects {} field{}{}{}, found {}", Fields[0], N,
                       N == 1 ? "" : "s", Syntax.empty() ? "" : ": ", Syntax, Fields.size() - 1));
  }

  std::uint64_t number64(std::string_view F, std::string_view What) const {
    std::uint64_t V = 0;
    auto [Ptr, Ec] = std::from_chars(F.data(), F.data() + F.size(), V);
    if (F.empty() || Ec != std::errc() || Ptr != F.data() + F.size())
      fail(Ec == std::errc::result_out_of_range
               ? fmt::format("{} '{}' is too large", What, F)
               : fmt::format("{} must be an unsigned decimal number, not '{}'", What, F));
    return V;
  }

  unsigned number(std::string_view F, std::string_view What) const {
    std::uint64_t V = number64(F, What);
    if (V > std::numeric_limits<unsigned>::max())
      fail(fmt::format("{} '{}' is too large", What, F));
    return static_cast<unsigned>(V);
  }

  /// Decodes %XX escapes.
  std::string text(std::string_view F, std::string_view What, bool MayBeEmpty = false) const {
    if (F.empty() && !MayBeEmpty)
      fail(fmt::format("empty {} field", What));
    std::string Out;
    Out.reserve(F.size());
    for (std::size_t I = 0; I < F.size(); ++I) {
      if (F[I] != '%') {
        Out += F[I];
        continue;
      }
      int Hi = I + 2 < F.size() ? hexValue(F[I + 1]) : -1;
      int Lo = I + 2 < F.size() ? hexValue(F[I + 2]) : -1;
      if (Hi < 0 || Lo < 0)
        fail(fmt::format("bad %-escape in {} '{}'", What, F));
      Out += static_cast<char>(Hi * 16 + Lo);
      I += 2;
    }
    return Out;
  }

  unsigned site(std::string_view F, std::string_view What) const {
    unsigned S = number(F, What);
    if (S >= Result.size())
      fail(fmt::format("{} names undeclared site {}", What, S));
    return S;
  }

  void expectId(unsigned Id, std::size_t Expected, std::string_view Kind) {
    if (Id != Expected)
      fail(fmt::format("{} id {} out of sequence: expected {} (ids are dense "
                       "from 0)",
                       Kind, Id, Expected));
  }

  void parseFile() {
    if (FileVersion < 2) {
      expectFields(2, "F PATH");
      expectId(number(Fields[1], "file id"), Result.Files.size(), "file");
      Result.Files.push_back({text(Fields[2], "PATH"), ""});
      return;
    }
    expectFields(3, "F HASH PATH");
    expectId(number(Fields[1], "file id"), Result.Files.size(), "file");
    if (!isSourceHash(Fields[2]))
      fail(fmt::format("file hash must be 16 hex digits, not '{}'", Fields[2]));
    Result.Files.push_back({text(Fields[3], "PATH"), std::string(Fields[2])});
  }

  void parseFunc() {
    expectFields(5, "G F BEGIN END NAME");
    expectId(number(Fields[1], "function id"), Result.Functions.size(), "function");
    Function Fn;
    Fn.File = number(Fields[2], "file id");
    if (Fn.File >= Result.Files.size())
      fail(fmt::format("function names undeclared file {}", Fn.File));
    Fn.Begin = number(Fields[3], "BEGIN");
    Fn.End = number(Fields[4], "END");
    // Lines 0 (unknown location) and END < BEGIN (a body ending in a macro)
    // come from real compilers; the views cope with them.
    Fn.Name = text(Fields[5], "NAME");
    Result.Functions.push_back(std::move(Fn));
  }

  void parseSite() {
    expectFields(6, "S KIND G LINE COL NAME");
    expectId(number(Fields[1], "site id"), Result.size(), "site");
    Site S;
    std::optional<SiteKind> Kind = siteKindOf(Fields[2]);
    if (!Kind)
      fail(fmt::format("unknown site kind '{}' (expected var, param, test, "
                       "ret or assert)",
                       Fields[2]));
    S.Kind = *Kind;
    S.Function = number(Fields[3], "function id");
    if (S.Function >= Result.Functions.size())
      fail(fmt::format("site names undeclared function {}", S.Function));
    S.Line = number(Fields[4], "LINE");
    S.Column = number(Fields[5], "COL");
    S.Name = text(Fields[6], "NAME");
    boost::add_vertex(std::move(S), Result.G);
  }

  void parseHit() {
    expectFields(2, "S N");
    unsigned S = site(Fields[1], "hit");
    std::uint64_t N = number64(Fields[2], "hit count");
    if (N == 0)
      fail("hit count must be at least 1 (unexecuted sites have no 'hit')");
    if (Result.G[S].Hits != 0)
      fail(fmt::format("duplicate 'hit' for site {}", S));
    Result.G[S].Hits = N;
  }

  void parseEdge() {
    expectFields(2, "A B");
    bool IsData = Fields[0] == "data";
    unsigned A = site(Fields[1], "edge");
    unsigned B = site(Fields[2], "edge");
    std::uint64_t Key = (std::uint64_t(A) << 32) | B;
    if (!(IsData ? DataEdges : ControlEdges).insert(Key).second)
      fail(fmt::format("duplicate '{}' edge {} {}", Fields[0], A, B));
    // Stored in the direction of influence: B's value or outcome reaches A.
    boost::add_edge(B, A, Dependence{IsData ? DependenceKind::Data : DependenceKind::Control},
                    Result.G);
  }

  void parseLast() {
    expectFields(2, "T S");
    unsigned T = number(Fields[1], "thread");
    unsigned S = site(Fields[2], "last");
    if (Result.last(T))
      fail(fmt::format("duplicate 'last' for thread {}", T));
    Result.Last.emplace_back(T, S);
  }
};

std::optional<DependenceGraph>
DependenceGraph::parse(std::string_view Text, std::string_view FileName, std::string &Error) {
  return DependenceParser(Text, FileName).run(Error);
}

std::optional<DependenceGraph> DependenceGraph::load(const std::string &Path, std::string &Error) {
  std::error_code Ec;
  if (std::filesystem::is_directory(Path, Ec)) {
    Error = fmt::format("{}: is a directory, not a dependence file", Path);
    return std::nullopt;
  }
  std::ifstream In(Path, std::ios::binary);
  if (!In) {
    Error = fmt::format("{}: cannot open dependence file: {}", Path, std::strerror(errno));
    return std::nullopt;
  }
  std::ostringstream Buffer;
  Buffer << In.rdbuf();
  if (In.bad()) {
    Error = fmt::format("{}: cannot read dependence file", Path);
    return std::nullopt;
  }
  return parse(Buffer.str(), Path, Error);
}

} // namespace sleuth
