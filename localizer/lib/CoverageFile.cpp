// Reading and writing coverage files (docs/coverage-format.md).
#include "sleuth/localizer/coverage.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <fstream>
#include <sstream>

namespace sleuth::localizer {

std::string_view edgeKindName(EdgeKind Kind) {
  switch (Kind) {
  case EdgeKind::Seq:
    return "seq";
  case EdgeKind::True:
    return "true";
  case EdgeKind::False:
    return "false";
  case EdgeKind::Case:
    return "case";
  }
  return "seq";
}

std::string escapeField(std::string_view Text) {
  std::string Out;
  Out.reserve(Text.size());
  for (char C : Text) {
    switch (C) {
    case ' ':
      Out += "%20";
      break;
    case '%':
      Out += "%25";
      break;
    case '\t':
      Out += "%09";
      break;
    case '\r':
      Out += "%0D";
      break;
    case '\n':
      Out += "%0A";
      break;
    default:
      Out += C;
    }
  }
  return Out;
}

namespace {

struct ParseError {
  std::string Message;
};

/// Record order of the format; a record may only follow records of its own or
/// an earlier rank.
enum Rank { Magic, Program, Status, File, Func, Block, Edge, Cond, Line, Value, End };

class Parser {
public:
  Parser(std::string_view Text, std::string_view FileName) : Text(Text), FileName(FileName) {}

  CoverageFile run() {
    CoverageFile Cov;
    bool SawEnd = false, SawProgram = false, SawStatus = false;
    Rank Last = Magic;
    std::size_t Pos = 0;
    while (Pos < Text.size()) {
      std::size_t Eol = Text.find('\n', Pos);
      ++LineNo;
      if (Eol == std::string_view::npos)
        fail("last line has no newline (file truncated?)");
      Fields = split(Text.substr(Pos, Eol - Pos));
      Pos = Eol + 1;
      if (SawEnd)
        fail("text after 'end'");
      if (LineNo == 1) {
        if (Fields.size() != 2 || Fields[0] != "sleuth-cov")
          fail("not a sleuth coverage file (expected 'sleuth-cov 3')");
        // Version 2's file hash is the content hash; version 1's hashed the path too. Version 3
        // adds `value` records.
        if (Fields[1] != "1" && Fields[1] != "2" && Fields[1] != "3")
          fail(fmt::format("unsupported coverage format version {} (this sleuth reads 1 to 3)",
                           Fields[1]));
        ContentHashes = Fields[1] != "1";
        Version = unsigned(Fields[1][0] - '0');
        continue;
      }
      if (Fields.empty())
        fail("empty line");
      std::string_view Kind = Fields[0];
      Rank R = rankOf(Kind);
      if (R < Last)
        fail(fmt::format("'{}' record out of order", Kind));
      Last = R;
      switch (R) {
      case Program:
        expect(2);
        if (SawProgram)
          fail("second 'program' record");
        SawProgram = true;
        Cov.Program = unescape(Fields[1]);
        break;
      case Status:
        expect(3);
        if (SawStatus)
          fail("second 'status' record");
        SawStatus = true;
        if (Fields[1] == "exit")
          Cov.Status = {RunStatus::Exit, number(2)};
        else if (Fields[1] == "signal")
          Cov.Status = {RunStatus::Signal, number(2)};
        else if (Fields[1] == "running")
          Cov.Status = {RunStatus::Running, 0};
        else
          fail(fmt::format("unknown status '{}'", Fields[1]));
        break;
      case File: {
        expect(4);
        dense(number(1), Cov.Files.size(), "file");
        std::string_view Hash = Fields[2];
        if (Hash.size() != 16 ||
            Hash.find_first_not_of("0123456789abcdefABCDEF") != std::string_view::npos)
          fail(fmt::format("file hash '{}' is not 16 hex digits", Hash));
        Cov.Files.push_back({std::string(Hash), unescape(Fields[3]), ContentHashes});
        break;
      }
      case Func: {
        expect(8);
        dense(number(1), Cov.Functions.size(), "func");
        CoverageFile::Function F;
        F.File = reference(2, Cov.Files.size(), "file");
        F.Begin = number(3);
        F.End = number(4);
        F.Entry = number(5);
        F.Exit = number(6);
        F.Name = unescape(Fields[7]);
        Cov.Functions.push_back(std::move(F));
        break;
      }
      case Block: {
        expect(5);
        dense(number(1), Cov.Blocks.size(), "block");
        CoverageFile::Block B;
        B.Function = reference(2, Cov.Functions.size(), "func");
        B.Count = count(3);
        if (Fields[4] != "-") {
          std::string_view List = Fields[4];
          while (true) {
            std::size_t Comma = List.find(',');
            B.Lines.push_back(toNumber(List.substr(0, Comma)));
            if (Comma == std::string_view::npos)
              break;
            List.remove_prefix(Comma + 1);
          }
        }
        Cov.Blocks.push_back(std::move(B));
        break;
      }
      case Edge: {
        expect(5);
        if (Last == Edge && Cov.Edges.empty())
          checkBlocks(Cov);
        CoverageFile::Edge E;
        E.From = reference(1, Cov.Blocks.size(), "block");
        E.To = reference(2, Cov.Blocks.size(), "block");
        if (Cov.Blocks[E.From].Function != Cov.Blocks[E.To].Function)
          fail(fmt::format("edge {} -> {} joins blocks of different functions", E.From, E.To));
        if (Fields[3] == "seq")
          E.Kind = EdgeKind::Seq;
        else if (Fields[3] == "true")
          E.Kind = EdgeKind::True;
        else if (Fields[3] == "false")
          E.Kind = EdgeKind::False;
        else if (Fields[3] == "case")
          E.Kind = EdgeKind::Case;
        else
          fail(fmt::format("unknown edge kind '{}'", Fields[3]));
        E.Count = count(4);
        Cov.Edges.push_back(E);
        break;
      }
      case Cond: {
        expect(9);
        dense(number(1), Cov.Conditions.size(), "cond");
        CoverageFile::Condition C;
        C.Block = reference(2, Cov.Blocks.size(), "block");
        C.Line = number(3);
        C.Column = number(4);
        C.EndLine = number(5);
        C.EndColumn = number(6);
        C.True = count(7);
        C.False = count(8);
        Cov.Conditions.push_back(C);
        break;
      }
      case Line: {
        expect(4);
        CoverageFile::Line L;
        L.File = reference(1, Cov.Files.size(), "file");
        L.Number = number(2);
        L.Count = count(3);
        Cov.Lines.push_back(L);
        break;
      }
      case Value: {
        if (Version < 3)
          fail("'value' record in a version 1 or 2 file");
        expect(10);
        dense(number(1), Cov.Values.size(), "value");
        CoverageFile::Value V;
        V.File = reference(2, Cov.Files.size(), "file");
        V.Line = number(3);
        V.Column = number(4);
        V.Left = unescape(Fields[5]);
        V.Right = unescape(Fields[6]);
        if (V.Left.empty() || V.Right.empty())
          fail("'value' record with an empty name");
        for (unsigned K = 0; K < 3; ++K)
          V.Counts[K] = count(7 + K);
        Cov.Values.push_back(std::move(V));
        break;
      }
      case End:
        expect(1);
        SawEnd = true;
        break;
      case Magic:
        fail(fmt::format("unknown record '{}'", Kind));
      }
    }
    if (LineNo == 0)
      fail("empty file");
    if (!SawEnd)
      fail("no 'end' record: the file is truncated");
    if (!SawProgram)
      fail("no 'program' record");
    if (!SawStatus)
      fail("no 'status' record");
    checkBlocks(Cov);
    return Cov;
  }

  [[noreturn]] void fail(const std::string &Message) const {
    throw ParseError{fmt::format("{}:{}: {}", FileName, LineNo, Message)};
  }

private:
  static Rank rankOf(std::string_view Kind) {
    if (Kind == "program")
      return Program;
    if (Kind == "status")
      return Status;
    if (Kind == "file")
      return File;
    if (Kind == "func")
      return Func;
    if (Kind == "block")
      return Block;
    if (Kind == "edge")
      return Edge;
    if (Kind == "cond")
      return Cond;
    if (Kind == "line")
      return Line;
    if (Kind == "value")
      return Value;
    if (Kind == "end")
      return End;
    return Magic;
  }

  static std::vector<std::string_view> split(std::string_view Line) {
    std::vector<std::string_view> Out;
    std::size_t Start = 0;
    while (Start <= Line.size()) {
      std::size_t Space = Line.find(' ', Start);
      if (Space == std::string_view::npos)
        Space = Line.size();
      Out.push_back(Line.substr(Start, Space - Start));
      Start = Space + 1;
    }
    if (Out.size() == 1 && Out[0].empty())
      Out.clear();
    return Out;
  }

  void expect(std::size_t N) const {
    if (Fields.size() != N)
      fail(fmt::format("'{}' record needs {} fields, has {}", Fields[0], N - 1, Fields.size() - 1));
  }

  uint64_t toCount(std::string_view Field) const {
    uint64_t Value = 0;
    auto [Ptr, Ec] = std::from_chars(Field.data(), Field.data() + Field.size(), Value);
    if (Field.empty() || Ec != std::errc() || Ptr != Field.data() + Field.size())
      fail(fmt::format("'{}' is not an unsigned number", Field));
    return Value;
  }
  unsigned toNumber(std::string_view Field) const {
    uint64_t Value = toCount(Field);
    if (Value > 0xffffffffu)
      fail(fmt::format("number '{}' is too large", Field));
    return static_cast<unsigned>(Value);
  }
  unsigned number(std::size_t I) const { return toNumber(Fields[I]); }
  uint64_t count(std::size_t I) const { return toCount(Fields[I]); }

  void dense(unsigned Id, std::size_t Expected, std::string_view Kind) const {
    if (Id != Expected)
      fail(fmt::format("{} id {} out of sequence (expected {})", Kind, Id, Expected));
  }
  unsigned reference(std::size_t I, std::size_t Size, std::string_view Kind) const {
    unsigned Id = number(I);
    if (Id >= Size)
      fail(fmt::format("undeclared {} {}", Kind, Id));
    return Id;
  }

  /// Entry and exit blocks of each function must be its own blocks.
  void checkBlocks(const CoverageFile &Cov) const {
    for (std::size_t G = 0; G < Cov.Functions.size(); ++G) {
      const CoverageFile::Function &F = Cov.Functions[G];
      for (unsigned B : {F.Entry, F.Exit})
        if (B >= Cov.Blocks.size() || Cov.Blocks[B].Function != G)
          fail(fmt::format("function {} ({}) names block {} that is not one of its blocks", G,
                           F.Name, B));
    }
  }

  std::string unescape(std::string_view Field) const {
    std::string Out;
    for (std::size_t I = 0; I < Field.size(); ++I) {
      if (Field[I] != '%') {
        Out += Field[I];
        continue;
      }
      std::string_view Code = Field.substr(I + 1, 2);
      if (Code == "20")
        Out += ' ';
      else if (Code == "25")
        Out += '%';
      else if (Code == "09")
        Out += '\t';
      else if (Code == "0D")
        Out += '\r';
      else if (Code == "0A")
        Out += '\n';
      else
        fail(fmt::format("bad escape '%{}'", Code));
      I += 2;
    }
    return Out;
  }

  std::string_view Text;
  std::string_view FileName;
  unsigned LineNo = 0;
  bool ContentHashes = true;
  unsigned Version = 3;
  std::vector<std::string_view> Fields;
};

} // namespace

std::optional<CoverageFile> CoverageFile::parse(std::string_view Text, std::string_view FileName,
                                                std::string &Error) {
  try {
    return Parser(Text, FileName).run();
  } catch (const ParseError &E) {
    Error = E.Message;
    return std::nullopt;
  }
}

std::optional<CoverageFile> CoverageFile::load(const std::string &Path, std::string &Error) {
  std::ifstream In(Path, std::ios::binary);
  if (!In) {
    Error = fmt::format("cannot read coverage file '{}': {}", Path, std::strerror(errno));
    return std::nullopt;
  }
  std::ostringstream Buffer;
  Buffer << In.rdbuf();
  return parse(Buffer.str(), Path, Error);
}

std::string CoverageFile::write() const {
  bool AllContentHashes =
      std::all_of(Files.begin(), Files.end(), [](const Source &S) { return S.ContentHash; });
  std::string Out = !AllContentHashes ? "sleuth-cov 1\n"
                    : Values.empty()  ? "sleuth-cov 2\n"
                                      : "sleuth-cov 3\n";
  Out += fmt::format("program {}\n", escapeField(Program));
  switch (Status.How) {
  case RunStatus::Exit:
    Out += fmt::format("status exit {}\n", Status.Code);
    break;
  case RunStatus::Signal:
    Out += fmt::format("status signal {}\n", Status.Code);
    break;
  case RunStatus::Running:
    Out += "status running\n";
    break;
  }
  for (std::size_t I = 0; I < Files.size(); ++I)
    Out += fmt::format("file {} {} {}\n", I, Files[I].Hash, escapeField(Files[I].Path));
  for (std::size_t I = 0; I < Functions.size(); ++I) {
    const Function &F = Functions[I];
    Out += fmt::format("func {} {} {} {} {} {} {}\n", I, F.File, F.Begin, F.End, F.Entry, F.Exit,
                       escapeField(F.Name));
  }
  for (std::size_t I = 0; I < Blocks.size(); ++I) {
    const Block &B = Blocks[I];
    Out += fmt::format("block {} {} {} {}\n", I, B.Function, B.Count,
                       B.Lines.empty() ? std::string("-")
                                       : fmt::format("{}", fmt::join(B.Lines, ",")));
  }
  for (const Edge &E : Edges)
    Out += fmt::format("edge {} {} {} {}\n", E.From, E.To, edgeKindName(E.Kind), E.Count);
  for (std::size_t I = 0; I < Conditions.size(); ++I) {
    const Condition &C = Conditions[I];
    Out += fmt::format("cond {} {} {} {} {} {} {} {}\n", I, C.Block, C.Line, C.Column, C.EndLine,
                       C.EndColumn, C.True, C.False);
  }
  for (const Line &L : Lines)
    Out += fmt::format("line {} {} {}\n", L.File, L.Number, L.Count);
  for (std::size_t I = 0; I < Values.size(); ++I) {
    const Value &V = Values[I];
    Out += fmt::format("value {} {} {} {} {} {} {} {} {}\n", I, V.File, V.Line, V.Column,
                       escapeField(V.Left), escapeField(V.Right), V.Counts[0], V.Counts[1],
                       V.Counts[2]);
  }
  Out += "end\n";
  return Out;
}

} // namespace sleuth::localizer
