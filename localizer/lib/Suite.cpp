// Reading suites, running them with a process group and a timeout per test,
// storing one spectrum per test.
#include "sleuth/localizer/suite.h"
#include "sleuth/localizer/spectrum.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <thread>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace fs = std::filesystem;

namespace sleuth::localizer {

std::string_view verdictName(Verdict V) {
  switch (V) {
  case Verdict::Passed:
    return "PASS";
  case Verdict::Failed:
    return "FAIL";
  case Verdict::Crashed:
    return "CRASH";
  case Verdict::TimedOut:
    return "TIMEOUT";
  }
  return "FAIL";
}

std::string signalName(int Number) {
  if (const char *Abbrev = sigabbrev_np(Number))
    return fmt::format("SIG{}", Abbrev);
  return fmt::format("signal {}", Number);
}

std::string TestCase::commandLine() const {
  if (!Argv.empty()) {
    std::string Out;
    for (const std::string &A : Argv) {
      if (!Out.empty())
        Out += ' ';
      bool Plain = !A.empty() && A.find_first_of(" \t\n'\"\\$`*?[]#;&|<>()") == std::string::npos;
      if (Plain) {
        Out += A;
      } else {
        Out += '\'';
        for (char C : A)
          Out += C == '\'' ? std::string("'\\''") : std::string(1, C);
        Out += '\'';
      }
    }
    return Out;
  }
  return Shell;
}

bool writeFileAtomically(const std::string &Path, const std::string &Text, std::string &Error) {
  std::string Temp = Path + ".tmp-XXXXXX";
  int Fd = ::mkstemp(Temp.data());
  if (Fd < 0) {
    Error = fmt::format("cannot write '{}': {}", Path, std::strerror(errno));
    return false;
  }
  mode_t Mask = ::umask(0);
  ::umask(Mask);
  ::fchmod(Fd, 0666 & ~Mask);
  std::size_t Done = 0;
  int SavedErrno = 0;
  while (Done < Text.size()) {
    ssize_t N = ::write(Fd, Text.data() + Done, Text.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0) {
      SavedErrno = errno;
      break;
    }
    Done += static_cast<std::size_t>(N);
  }
  bool Ok = Done == Text.size();
  if (::close(Fd) != 0 && Ok) {
    Ok = false;
    SavedErrno = errno;
  }
  if (Ok && ::rename(Temp.c_str(), Path.c_str()) != 0) {
    Ok = false;
    SavedErrno = errno;
  }
  if (!Ok) {
    ::unlink(Temp.c_str());
    Error = fmt::format("cannot write '{}': {}", Path, std::strerror(SavedErrno));
  }
  return Ok;
}

namespace {

std::optional<std::string> readWhole(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  if (!In)
    return std::nullopt;
  std::ostringstream Buffer;
  Buffer << In.rdbuf();
  return Buffer.str();
}

bool parseNumber(std::string_view Text, double &Out) {
  if (Text.empty())
    return false;
  try {
    std::size_t Used = 0;
    Out = std::stod(std::string(Text), &Used);
    return Used == Text.size() && Out >= 0;
  } catch (...) {
    return false;
  }
}

bool parseInt(std::string_view Text, int &Out) {
  if (Text.empty() || Text.size() > 9 ||
      Text.find_first_not_of("0123456789") != std::string_view::npos)
    return false;
  Out = std::stoi(std::string(Text));
  return true;
}

std::string absolute(const std::string &Path) {
  std::error_code Ec;
  fs::path P = fs::absolute(Path, Ec);
  return (Ec ? fs::path(Path) : P).lexically_normal().string();
}

} // namespace

bool readTestsFile(const std::string &Path, std::vector<TestCase> &Tests, std::string &Error) {
  std::optional<std::string> Text = readWhole(Path);
  if (!Text) {
    Error = fmt::format("cannot read tests file '{}': {}", Path, std::strerror(errno));
    return false;
  }
  std::string Base = fs::path(absolute(Path)).parent_path().string();
  std::istringstream In(*Text);
  std::string Line;
  unsigned LineNo = 0;
  std::vector<std::string> Names;
  std::size_t Before = Tests.size();
  while (std::getline(In, Line)) {
    ++LineNo;
    if (!Line.empty() && Line.back() == '\r')
      Line.pop_back();
    std::size_t First = Line.find_first_not_of(" \t");
    if (First == std::string::npos || Line[First] == '#')
      continue;
    auto Fail = [&](const std::string &Message) {
      Error = fmt::format("{}:{}: {}", Path, LineNo, Message);
      return false;
    };
    TestCase T;
    T.Origin = fmt::format("{}:{}", Path, LineNo);
    T.Directory = Base;
    // Leading `key=value` words (and a bare exit status) describe the test;
    // the rest of the line is the command.
    std::size_t Pos = First;
    while (Pos < Line.size()) {
      std::size_t End = Line.find_first_of(" \t", Pos);
      if (End == std::string::npos)
        End = Line.size();
      std::string_view Word = std::string_view(Line).substr(Pos, End - Pos);
      std::size_t Next = Line.find_first_not_of(" \t", End);
      if (Next == std::string::npos)
        Next = Line.size();
      auto Value = [&](std::string_view Key) -> std::optional<std::string_view> {
        if (Word.starts_with(Key) && Word.size() > Key.size() && Word[Key.size()] == '=')
          return Word.substr(Key.size() + 1);
        return std::nullopt;
      };
      if (Word == "--") {
        Pos = Next;
        break;
      }
      if (std::optional<std::string_view> V = Value("exit")) {
        if (!parseInt(*V, T.ExpectedExit) || T.ExpectedExit > 255)
          return Fail(fmt::format("exit status '{}' is not a number from 0 to 255", *V));
      } else if (Word.find_first_not_of("0123456789") == std::string_view::npos) {
        if (!parseInt(Word, T.ExpectedExit) || T.ExpectedExit > 255)
          return Fail(fmt::format("exit status '{}' is not a number from 0 to 255", Word));
      } else if (std::optional<std::string_view> V = Value("stdout")) {
        fs::path File(*V);
        T.ExpectedStdout = (File.is_absolute() ? File : fs::path(Base) / File).string();
        if (!fs::is_regular_file(T.ExpectedStdout))
          return Fail(fmt::format("expected-output file '{}' does not exist", *V));
      } else if (std::optional<std::string_view> V = Value("name")) {
        T.Name = std::string(*V);
      } else if (std::optional<std::string_view> V = Value("timeout")) {
        if (!parseNumber(*V, T.Timeout) || T.Timeout <= 0)
          return Fail(fmt::format("timeout '{}' is not a positive number of seconds", *V));
      } else {
        break;
      }
      Pos = Next;
    }
    T.Shell = Line.substr(Pos);
    if (T.Shell.find_first_not_of(" \t") == std::string::npos)
      return Fail("no command (expected: [N] [stdout=FILE] [name=NAME] [timeout=S] COMMAND)");
    if (T.Name.empty())
      T.Name = fmt::format("t{}", Tests.size() - Before + 1);
    if (std::find(Names.begin(), Names.end(), T.Name) != Names.end())
      return Fail(fmt::format("a second test named '{}'", T.Name));
    Names.push_back(T.Name);
    Tests.push_back(std::move(T));
  }
  if (Tests.size() == Before) {
    Error = fmt::format("{}: no tests (one command per line expected)", Path);
    return false;
  }
  return true;
}

bool listCtestTests(const std::string &BuildDir, const std::string &Regex,
                    std::vector<TestCase> &Tests, std::string &Error) {
  if (!fs::is_regular_file(fs::path(BuildDir) / "CTestTestfile.cmake")) {
    Error = fmt::format("--ctest: '{}' is not a CMake build directory with tests (no "
                        "CTestTestfile.cmake)",
                        BuildDir);
    return false;
  }
  int Out[2];
  if (::pipe(Out) != 0) {
    Error = fmt::format("cannot run ctest: {}", std::strerror(errno));
    return false;
  }
  pid_t Pid = ::fork();
  if (Pid == 0) {
    ::dup2(Out[1], 1);
    ::close(Out[0]);
    ::close(Out[1]);
    int Null = ::open("/dev/null", O_RDWR);
    ::dup2(Null, 0);
    if (::chdir(BuildDir.c_str()) != 0)
      ::_exit(126);
    std::vector<const char *> Args = {"ctest", "--show-only=json-v1"};
    if (!Regex.empty()) {
      Args.push_back("-R");
      Args.push_back(Regex.c_str());
    }
    Args.push_back(nullptr);
    ::execvp("ctest", const_cast<char *const *>(Args.data()));
    ::_exit(127);
  }
  ::close(Out[1]);
  std::string Text;
  char Buffer[65536];
  ssize_t N;
  while ((N = ::read(Out[0], Buffer, sizeof Buffer)) != 0) {
    if (N < 0 && errno == EINTR)
      continue;
    if (N < 0)
      break;
    Text.append(Buffer, static_cast<std::size_t>(N));
  }
  ::close(Out[0]);
  int Status = 0;
  ::waitpid(Pid, &Status, 0);
  if (!WIFEXITED(Status) || WEXITSTATUS(Status) != 0) {
    Error = WIFEXITED(Status) && WEXITSTATUS(Status) == 127
                ? std::string("--ctest: cannot run 'ctest' (is CMake installed?)")
                : fmt::format("--ctest: 'ctest --show-only=json-v1' failed in '{}'", BuildDir);
    return false;
  }
  nlohmann::json Json;
  try {
    Json = nlohmann::json::parse(Text);
  } catch (const std::exception &E) {
    Error = fmt::format("--ctest: cannot read ctest's test list: {}", E.what());
    return false;
  }
  std::string Base = absolute(BuildDir);
  for (const nlohmann::json &J : Json.value("tests", nlohmann::json::array())) {
    TestCase T;
    T.Name = J.value("name", std::string("?"));
    T.Origin = fmt::format("ctest test '{}'", T.Name);
    T.Directory = Base;
    if (J.contains("command"))
      for (const nlohmann::json &A : J["command"])
        T.Argv.push_back(A.get<std::string>());
    bool Disabled = false;
    for (const nlohmann::json &P : J.value("properties", nlohmann::json::array())) {
      std::string Name = P.value("name", "");
      const nlohmann::json &V = P["value"];
      auto Strings = [&] {
        std::vector<std::string> Out;
        if (V.is_array())
          for (const nlohmann::json &S : V)
            Out.push_back(S.get<std::string>());
        else if (V.is_string())
          Out.push_back(V.get<std::string>());
        return Out;
      };
      if (Name == "WORKING_DIRECTORY" && V.is_string())
        T.Directory = V.get<std::string>();
      else if (Name == "ENVIRONMENT")
        for (const std::string &Assignment : Strings()) {
          std::size_t Eq = Assignment.find('=');
          if (Eq != std::string::npos)
            T.Environment.emplace_back(Assignment.substr(0, Eq), Assignment.substr(Eq + 1));
        }
      else if (Name == "TIMEOUT" && V.is_number())
        T.Timeout = V.get<double>();
      else if (Name == "WILL_FAIL" && V.is_boolean())
        T.WillFail = V.get<bool>();
      else if (Name == "PASS_REGULAR_EXPRESSION")
        T.PassRegex = Strings();
      else if (Name == "FAIL_REGULAR_EXPRESSION")
        T.FailRegex = Strings();
      else if (Name == "DISABLED" && V.is_boolean())
        Disabled = V.get<bool>();
    }
    if (Disabled)
      continue;
    if (T.Argv.empty()) {
      Error = fmt::format("--ctest: test '{}' has no command (NOT_AVAILABLE in this "
                          "configuration?)",
                          T.Name);
      return false;
    }
    Tests.push_back(std::move(T));
  }
  if (Tests.empty()) {
    Error = Regex.empty() ? fmt::format("--ctest: ctest lists no tests in '{}'", BuildDir)
                          : fmt::format("--ctest: no test in '{}' matches '{}'", BuildDir, Regex);
    return false;
  }
  return true;
}

std::vector<std::string> coverageFilesIn(const std::string &Directory) {
  std::vector<std::string> Out;
  std::error_code Ec;
  for (const fs::directory_entry &E : fs::directory_iterator(Directory, Ec))
    if (E.is_regular_file() && E.path().extension() == ".cov")
      Out.push_back(E.path().string());
  std::sort(Out.begin(), Out.end());
  return Out;
}

namespace {

/// The program model of one test as a coverage file (ids renumbered from 0).
CoverageFile toCoverageFile(const Program &P, const Spectrum &S) {
  CoverageFile Cov;
  // One file record per variant of a source (Program::Source::Variants), so that reading the
  // file back finds the same variants; the source's lines go with its first record.
  std::vector<unsigned> FileOfFunction(P.functions().size(), 0), FileOfSource;
  for (const Program::Source &Src : P.sources()) {
    FileOfSource.push_back(static_cast<unsigned>(Cov.Files.size()));
    if (Src.Variants.empty())
      Cov.Files.push_back({Src.Hash, Src.Path, Src.ContentHash});
    for (const auto &Variant : Src.Variants) {
      for (unsigned F : Variant.second)
        FileOfFunction[F] = static_cast<unsigned>(Cov.Files.size());
      Cov.Files.push_back({Src.Hash, Src.Path, Src.ContentHash});
    }
  }
  for (unsigned I = 0; I < P.functions().size(); ++I) {
    const Program::Function &F = P.functions()[I];
    Cov.Functions.push_back({FileOfFunction[I], F.Begin, F.End, F.Entry, F.Exit, F.Name});
  }
  for (unsigned B = 0; B < P.blocks().size(); ++B)
    Cov.Blocks.push_back({P.blocks()[B].Function, Spectrum::at(S.Blocks, B), P.blocks()[B].Lines});
  for (unsigned E = 0; E < P.edges().size(); ++E) {
    const Program::Edge &Ed = P.edges()[E];
    Cov.Edges.push_back({Ed.From, Ed.To, Ed.Kind, Spectrum::at(S.Edges, E)});
  }
  for (unsigned C = 0; C < P.conditions().size(); ++C) {
    const Program::Condition &Cd = P.conditions()[C];
    Cov.Conditions.push_back({Cd.Block, Cd.Line, Cd.Column, Cd.EndLine, Cd.EndColumn,
                              Spectrum::at(S.True, C), Spectrum::at(S.False, C)});
  }
  for (unsigned L = 0; L < P.lines().size(); ++L)
    Cov.Lines.push_back(
        {FileOfSource[P.lines()[L].Source], P.lines()[L].Number, Spectrum::at(S.Lines, L)});
  for (unsigned V = 0; V < P.values().size(); ++V) {
    const Program::Value &Site = P.values()[V];
    Cov.Values.push_back({FileOfSource[Site.Source],
                          Site.Line,
                          Site.Column,
                          Site.Left,
                          Site.Right,
                          {Spectrum::at(S.Values, 3 * V), Spectrum::at(S.Values, 3 * V + 1),
                           Spectrum::at(S.Values, 3 * V + 2)}});
  }
  return Cov;
}

/// Orders run endings by how bad they are, so a test's merged file keeps the
/// worst of its processes.
int severity(const RunStatus &S) {
  switch (S.How) {
  case RunStatus::Signal:
    return 3;
  case RunStatus::Exit:
    return S.Code != 0 ? 2 : 0;
  case RunStatus::Running:
    return 1;
  }
  return 0;
}

} // namespace

std::optional<CoverageFile> mergeCoverageFiles(const std::vector<std::string> &Paths,
                                               std::string &Error) {
  Program Model;
  Spectrum Sum;
  std::string ProgramName;
  RunStatus Worst;
  for (const std::string &Path : Paths) {
    std::optional<CoverageFile> Cov = CoverageFile::load(Path, Error);
    if (!Cov || !Model.merge(*Cov, Path, Sum, Error))
      return std::nullopt;
    if (ProgramName.empty())
      ProgramName = Cov->Program;
    if (severity(Cov->Status) > severity(Worst))
      Worst = Cov->Status;
  }
  CoverageFile Out = toCoverageFile(Model, Sum);
  Out.Program = ProgramName;
  Out.Status = Worst;
  return Out;
}

namespace {

double now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// 64-bit FNV-1a.
struct Hasher {
  uint64_t Value = 14695981039346656037ull;
  void add(std::string_view Text) {
    for (unsigned char C : Text) {
      Value ^= C;
      Value *= 1099511628211ull;
    }
    Value ^= 0xff; // field separator
    Value *= 1099511628211ull;
  }
};

/// Words of a shell command, roughly (quotes removed, no expansions).
std::vector<std::string> shellWords(const std::string &Command) {
  std::vector<std::string> Words;
  std::string Word;
  char Quote = 0;
  bool Any = false;
  for (char C : Command) {
    if (Quote) {
      if (C == Quote)
        Quote = 0;
      else
        Word += C;
    } else if (C == '\'' || C == '"') {
      Quote = C;
      Any = true;
    } else if (C == ' ' || C == '\t' || C == ';' || C == '|' || C == '&' || C == '<' || C == '>' ||
               C == '(' || C == ')') {
      if (Any || !Word.empty())
        Words.push_back(Word);
      Word.clear();
      Any = false;
    } else {
      Word += C;
    }
  }
  if (Any || !Word.empty())
    Words.push_back(Word);
  return Words;
}

/// What a test's result depends on, as far as can be seen without running it:
/// its command, oracle and environment, and the size and modification time of
/// every file its command names (the program, input files).
std::string fingerprint(const TestCase &T) {
  Hasher H;
  H.add(T.Name);
  H.add(T.commandLine());
  H.add(T.Directory);
  for (const auto &[Key, Value] : T.Environment)
    H.add(Key + "=" + Value);
  H.add(std::to_string(T.ExpectedExit));
  H.add(T.WillFail ? "will-fail" : "");
  for (const std::string &R : T.PassRegex)
    H.add("pass:" + R);
  for (const std::string &R : T.FailRegex)
    H.add("fail:" + R);
  if (!T.ExpectedStdout.empty())
    H.add(readWhole(T.ExpectedStdout).value_or("<missing>"));
  std::vector<std::string> Words = T.Argv.empty() ? shellWords(T.Shell) : T.Argv;
  for (const std::string &W : Words) {
    if (W.empty())
      continue;
    fs::path P(W);
    if (P.is_relative())
      P = fs::path(T.Directory) / P;
    struct stat St;
    if (::stat(P.c_str(), &St) == 0 && S_ISREG(St.st_mode))
      H.add(fmt::format("{}:{}:{}.{}", W, St.st_size, St.st_mtim.tv_sec, St.st_mtim.tv_nsec));
  }
  return fmt::format("{:016x}", H.Value);
}

/// A directory name for a test: its name with anything unusual replaced.
std::string slugOf(const std::string &Name, std::size_t Index) {
  std::string Slug;
  for (char C : Name)
    Slug +=
        (std::isalnum(static_cast<unsigned char>(C)) || C == '-' || C == '_' || C == '.') ? C : '_';
  if (Slug.empty() || Slug[0] == '.')
    Slug = fmt::format("test{}", Index + 1);
  if (Slug.size() > 60)
    Slug = fmt::format("{}-{:x}", Slug.substr(0, 40), [&] {
      Hasher H;
      H.add(Name);
      return H.Value;
    }());
  return Slug;
}

struct Job {
  std::size_t Index = 0;
  pid_t Pid = -1;
  int ExecPipe = -1; ///< Reports errno when exec fails.
  double Started = 0, Deadline = 0, KillAt = 0;
  bool TimedOut = false;
  std::string Dir;
};

/// Lines of text ending in the last non-empty line of a file (for messages).
std::string lastLineOf(const std::string &Path) {
  std::string Text = readWhole(Path).value_or("");
  while (!Text.empty() && (Text.back() == '\n' || Text.back() == '\r'))
    Text.pop_back();
  std::size_t Nl = Text.rfind('\n');
  return Nl == std::string::npos ? Text : Text.substr(Nl + 1);
}

/// The first line where A and B differ (1-based).
unsigned firstDifference(const std::string &A, const std::string &B) {
  unsigned Line = 1;
  for (std::size_t I = 0; I < std::min(A.size(), B.size()); ++I) {
    if (A[I] != B[I])
      return Line;
    if (A[I] == '\n')
      ++Line;
  }
  return Line;
}

} // namespace

bool runSuite(const std::vector<TestCase> &Tests, const RunOptions &Options,
              std::vector<TestResult> &Results, std::string &Error) {
  std::error_code Ec;
  fs::create_directories(fs::path(Options.Store) / "tests", Ec);
  if (Ec) {
    Error = fmt::format("cannot create spectra directory '{}': {}", Options.Store, Ec.message());
    return false;
  }
  std::string Store = absolute(Options.Store);
  Results.assign(Tests.size(), TestResult());

  // Earlier results that still hold.
  std::vector<bool> Reuse(Tests.size(), false);
  if (Options.Incremental && fs::exists(fs::path(Store) / "suite.json")) {
    std::vector<TestCase> OldTests;
    std::vector<TestResult> OldResults;
    std::string Ignored;
    if (readStore(Store, OldTests, OldResults, Ignored))
      for (std::size_t I = 0; I < Tests.size(); ++I) {
        std::string Print = fingerprint(Tests[I]);
        for (std::size_t J = 0; J < OldTests.size(); ++J)
          if (OldTests[J].Name == Tests[I].Name && OldResults[J].Fingerprint == Print &&
              (OldResults[J].Spectrum.empty() || fs::exists(OldResults[J].Spectrum))) {
            Results[I] = OldResults[J];
            Results[I].Reused = true;
            Reuse[I] = true;
          }
      }
  }

  std::vector<std::string> Slugs;
  for (std::size_t I = 0; I < Tests.size(); ++I) {
    std::string Slug = slugOf(Tests[I].Name, I);
    while (std::find(Slugs.begin(), Slugs.end(), Slug) != Slugs.end())
      Slug += "_";
    Slugs.push_back(Slug);
  }

  auto Launch = [&](std::size_t I, Job &J, std::string &Err) {
    const TestCase &T = Tests[I];
    J.Index = I;
    J.Dir = (fs::path(Store) / "tests" / Slugs[I]).string();
    fs::remove_all(J.Dir, Ec);
    fs::create_directories(fs::path(J.Dir) / "raw", Ec);
    if (Ec) {
      Err = fmt::format("cannot create '{}': {}", J.Dir, Ec.message());
      return false;
    }
    if (!fs::is_directory(T.Directory)) {
      Err = fmt::format("{}: test '{}' cannot start: working directory '{}' does not exist",
                        T.Origin, T.Name, T.Directory);
      return false;
    }
    int Pipe[2];
    if (::pipe2(Pipe, O_CLOEXEC) != 0) {
      Err = fmt::format("cannot start test '{}': {}", T.Name, std::strerror(errno));
      return false;
    }
    std::string Raw = J.Dir + "/raw", Deps = J.Dir + "/run.deps", Out = J.Dir + "/stdout",
                ErrFile = J.Dir + "/stderr";
    pid_t Pid = ::fork();
    if (Pid < 0) {
      Err = fmt::format("cannot start test '{}': {}", T.Name, std::strerror(errno));
      ::close(Pipe[0]);
      ::close(Pipe[1]);
      return false;
    }
    if (Pid == 0) {
      ::setpgid(0, 0);
      ::close(Pipe[0]);
      // No core files from crashing or timed-out tests.
      struct rlimit NoCore = {0, 0};
      ::setrlimit(RLIMIT_CORE, &NoCore);
      ::signal(SIGPIPE, SIG_DFL);
      int In = ::open("/dev/null", O_RDONLY);
      int O = ::open(Out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      int E = ::open(ErrFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (In < 0 || O < 0 || E < 0 || ::dup2(In, 0) < 0 || ::dup2(O, 1) < 0 || ::dup2(E, 2) < 0)
        ::_exit(126);
      ::setenv("SLEUTH_COV_DIR", Raw.c_str(), 1);
      ::unsetenv("SLEUTH_COV_OUT");
      ::setenv("SLEUTH_OUT", Deps.c_str(), 1);
      for (const auto &[Key, Value] : T.Environment)
        ::setenv(Key.c_str(), Value.c_str(), 1);
      int Saved = 0;
      if (::chdir(T.Directory.c_str()) != 0) {
        Saved = errno;
      } else if (!T.Argv.empty()) {
        std::vector<char *> Args;
        for (const std::string &A : T.Argv)
          Args.push_back(const_cast<char *>(A.c_str()));
        Args.push_back(nullptr);
        ::execvp(Args[0], Args.data());
        Saved = errno;
      } else {
        ::execl("/bin/sh", "sh", "-c", T.Shell.c_str(), static_cast<char *>(nullptr));
        Saved = errno;
      }
      ssize_t Ignored = ::write(Pipe[1], &Saved, sizeof Saved);
      (void)Ignored;
      ::_exit(127);
    }
    ::close(Pipe[1]);
    ::setpgid(Pid, Pid); // also in the parent: no race with the kill on timeout
    J.Pid = Pid;
    J.ExecPipe = Pipe[0];
    J.Started = now();
    double Limit = T.Timeout > 0 ? T.Timeout : Options.Timeout;
    J.Deadline = Limit > 0 ? J.Started + Limit : 0;
    J.KillAt = 0;
    J.TimedOut = false;
    return true;
  };

  // Decides the verdict of a finished test and stores its spectrum.
  auto Finish = [&](Job &J, int WaitStatus, std::string &Err) {
    const TestCase &T = Tests[J.Index];
    TestResult &R = Results[J.Index];
    R.Seconds = now() - J.Started;
    R.Fingerprint = fingerprint(T);
    int ExecErrno = 0;
    if (::read(J.ExecPipe, &ExecErrno, sizeof ExecErrno) != sizeof ExecErrno)
      ExecErrno = 0;
    ::close(J.ExecPipe);
    if (J.TimedOut) {
      // The processes that got SIGABRT may still be writing their coverage
      // files when the shell is gone; give them the grace period.
      double Until = now() + 2;
      while (::kill(-J.Pid, 0) == 0 && now() < Until)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
    }
    ::kill(-J.Pid, SIGKILL); // whatever the test left running in its group
    std::vector<std::string> Raw = coverageFilesIn(J.Dir + "/raw");
    if (ExecErrno != 0) {
      Err = fmt::format("{}: test '{}' cannot start: {}: {}", T.Origin, T.Name,
                        T.Argv.empty() ? std::string("/bin/sh") : T.Argv[0],
                        std::strerror(ExecErrno));
      return false;
    }
    bool Exited = WIFEXITED(WaitStatus);
    int Code = Exited ? WEXITSTATUS(WaitStatus) : -1;
    if (T.Argv.empty() && Exited && (Code == 127 || Code == 126) && Raw.empty() && !J.TimedOut) {
      std::string Why = lastLineOf(J.Dir + "/stderr");
      if (Why.find("not found") != std::string::npos ||
          Why.find("Permission denied") != std::string::npos ||
          Why.find("No such file") != std::string::npos || Why.empty()) {
        Err = fmt::format("{}: test '{}' cannot start: {}", T.Origin, T.Name,
                          Why.empty() ? fmt::format("the shell exited with {}", Code) : Why);
        return false;
      }
    }

    std::optional<CoverageFile> Merged;
    if (!Raw.empty()) {
      Merged = mergeCoverageFiles(Raw, Err);
      if (!Merged)
        return false;
      R.Spectrum = J.Dir + "/coverage.cov";
      if (!writeFileAtomically(R.Spectrum, Merged->write(), Err))
        return false;
    }
    // The recorded path (a build with SLEUTH_PATH=1) of the test's longest-running process.
    std::string Longest;
    std::uintmax_t LongestSize = 0;
    for (const fs::directory_entry &E : fs::directory_iterator(J.Dir + "/raw", Ec))
      if (E.path().extension() == ".path" && E.file_size(Ec) > LongestSize)
        Longest = E.path().string(), LongestSize = E.file_size(Ec);
    fs::remove(J.Dir + "/run.path", Ec);
    if (!Longest.empty()) {
      fs::rename(Longest, J.Dir + "/run.path", Ec);
      if (!Ec)
        R.RecordedPath = J.Dir + "/run.path";
    }
    fs::remove_all(J.Dir + "/raw", Ec);
    if (fs::exists(J.Dir + "/run.deps"))
      R.Dependences = J.Dir + "/run.deps";

    // The verdict: a timeout, then a crash (of the command or of any process
    // that left coverage), then the oracle.
    std::string Output = readWhole(J.Dir + "/stdout").value_or("");
    std::optional<int> CrashSignal;
    if (!Exited && WIFSIGNALED(WaitStatus))
      CrashSignal = WTERMSIG(WaitStatus);
    else if (Merged && Merged->Status.How == RunStatus::Signal)
      CrashSignal = static_cast<int>(Merged->Status.Code);
    if (J.TimedOut) {
      R.Outcome = Verdict::TimedOut;
      double Limit = T.Timeout > 0 ? T.Timeout : Options.Timeout;
      R.Detail = fmt::format("timed out after {:g} s", Limit);
    } else if (CrashSignal) {
      R.Outcome = Verdict::Crashed;
      R.Detail = fmt::format("killed by {}", signalName(*CrashSignal));
    } else {
      bool Pass = true;
      std::string Why;
      if (!T.PassRegex.empty() || !T.FailRegex.empty()) {
        // ctest: a pass expression replaces the exit status check.
        std::string All = Output + readWhole(J.Dir + "/stderr").value_or("");
        auto Matches = [&](const std::string &Pattern) {
          try {
            return std::regex_search(All, std::regex(Pattern, std::regex::extended));
          } catch (const std::regex_error &) {
            return All.find(Pattern) != std::string::npos;
          }
        };
        if (!T.PassRegex.empty() && std::none_of(T.PassRegex.begin(), T.PassRegex.end(), Matches)) {
          Pass = false;
          Why = "output matches no PASS_REGULAR_EXPRESSION";
        }
        for (const std::string &P : T.FailRegex)
          if (Pass && Matches(P)) {
            Pass = false;
            Why = fmt::format("output matches FAIL_REGULAR_EXPRESSION '{}'", P);
          }
        if (T.PassRegex.empty() && Pass && Code != T.ExpectedExit) {
          Pass = false;
          Why = fmt::format("exit {}, expected {}", Code, T.ExpectedExit);
        }
      } else if (Code != T.ExpectedExit) {
        Pass = false;
        Why = fmt::format("exit {}, expected {}", Code, T.ExpectedExit);
      }
      if (Pass && !T.ExpectedStdout.empty()) {
        std::string Expected = readWhole(T.ExpectedStdout).value_or("");
        if (Output != Expected) {
          Pass = false;
          Why = fmt::format("output differs from '{}' at line {}",
                            fs::path(T.ExpectedStdout).filename().string(),
                            firstDifference(Output, Expected));
        }
      }
      if (T.WillFail) {
        Pass = !Pass;
        Why = Pass ? "" : "passed, but WILL_FAIL is set";
      }
      R.Outcome = Pass ? Verdict::Passed : Verdict::Failed;
      R.Detail = Why;
    }
    return true;
  };

  std::vector<Job> Running;
  std::size_t Next = 0, Done = 0;
  unsigned Jobs = std::max(1u, Options.Jobs);
  std::string Err;
  bool Ok = true;
  auto Report = [&](std::size_t I) {
    const TestResult &R = Results[I];
    ++Done;
    if (Options.Quiet || (!Options.Verbose && !R.failed()))
      return;
    std::fprintf(stderr, "sleuth localize: [%zu/%zu] %-7s %s%s%s%s\n", Done, Tests.size(),
                 std::string(verdictName(R.Outcome)).c_str(), Tests[I].Name.c_str(),
                 R.Detail.empty() ? "" : " (", R.Detail.c_str(), R.Detail.empty() ? "" : ")");
  };
  while (Ok && (Next < Tests.size() || !Running.empty())) {
    while (Ok && Running.size() < Jobs && Next < Tests.size()) {
      std::size_t I = Next++;
      if (Reuse[I]) {
        Report(I);
        continue;
      }
      Job J;
      if (!Launch(I, J, Err)) {
        Ok = false;
        break;
      }
      Running.push_back(J);
    }
    bool Progress = false;
    for (std::size_t K = 0; K < Running.size();) {
      Job &J = Running[K];
      int Status = 0;
      pid_t Got = ::waitpid(J.Pid, &Status, WNOHANG);
      if (Got == J.Pid) {
        if (!Finish(J, Status, Err))
          Ok = false;
        else
          Report(J.Index);
        Running.erase(Running.begin() + static_cast<std::ptrdiff_t>(K));
        Progress = true;
        continue;
      }
      double T = now();
      if (J.Deadline > 0 && !J.TimedOut && T >= J.Deadline) {
        // SIGABRT first: the coverage runtime writes its file on fatal
        // signals, so a hanging test still leaves its spectrum.
        J.TimedOut = true;
        ::kill(-J.Pid, SIGABRT);
        J.KillAt = T + 2;
      } else if (J.TimedOut && J.KillAt > 0 && T >= J.KillAt) {
        ::kill(-J.Pid, SIGKILL);
        J.KillAt = 0;
      }
      ++K;
    }
    if (!Progress)
      std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  if (!Ok) {
    for (Job &J : Running) {
      ::kill(-J.Pid, SIGKILL);
      ::waitpid(J.Pid, nullptr, 0);
      ::close(J.ExecPipe);
    }
    Error = Err;
    return false;
  }

  // The manifest, written last: a store with a manifest is complete.
  nlohmann::json Manifest;
  Manifest["version"] = 1;
  nlohmann::json List = nlohmann::json::array();
  for (std::size_t I = 0; I < Tests.size(); ++I) {
    const TestCase &T = Tests[I];
    const TestResult &R = Results[I];
    nlohmann::json J;
    J["name"] = T.Name;
    J["origin"] = T.Origin;
    if (T.Argv.empty())
      J["shell"] = T.Shell;
    else
      J["argv"] = T.Argv;
    J["directory"] = T.Directory;
    J["expected_exit"] = T.ExpectedExit;
    if (!T.ExpectedStdout.empty())
      J["expected_stdout"] = T.ExpectedStdout;
    if (T.WillFail)
      J["will_fail"] = true;
    J["outcome"] = std::string(verdictName(R.Outcome));
    J["detail"] = R.Detail;
    J["seconds"] = R.Seconds;
    J["spectrum"] = R.Spectrum;
    J["dependences"] = R.Dependences;
    if (!R.RecordedPath.empty())
      J["path"] = R.RecordedPath;
    J["fingerprint"] = R.Fingerprint;
    List.push_back(std::move(J));
  }
  Manifest["tests"] = std::move(List);
  return writeFileAtomically((fs::path(Store) / "suite.json").string(), Manifest.dump(2) + "\n",
                             Error);
}

bool readStore(const std::string &Store, std::vector<TestCase> &Tests,
               std::vector<TestResult> &Results, std::string &Error) {
  std::string Path = (fs::path(Store) / "suite.json").string();
  std::optional<std::string> Text = readWhole(Path);
  if (!Text) {
    Error = fmt::format("'{}' holds no stored suite (no suite.json; run the tests first)", Store);
    return false;
  }
  try {
    nlohmann::json Manifest = nlohmann::json::parse(*Text);
    if (Manifest.value("version", 0) != 1) {
      Error = fmt::format("{}: unsupported version (this sleuth reads 1)", Path);
      return false;
    }
    for (const nlohmann::json &J : Manifest.at("tests")) {
      TestCase T;
      T.Name = J.at("name").get<std::string>();
      T.Origin = J.value("origin", "");
      T.Shell = J.value("shell", "");
      if (J.contains("argv"))
        T.Argv = J["argv"].get<std::vector<std::string>>();
      T.Directory = J.value("directory", "");
      T.ExpectedExit = J.value("expected_exit", 0);
      T.ExpectedStdout = J.value("expected_stdout", "");
      T.WillFail = J.value("will_fail", false);
      TestResult R;
      std::string Outcome = J.at("outcome").get<std::string>();
      if (Outcome == "PASS")
        R.Outcome = Verdict::Passed;
      else if (Outcome == "FAIL")
        R.Outcome = Verdict::Failed;
      else if (Outcome == "CRASH")
        R.Outcome = Verdict::Crashed;
      else if (Outcome == "TIMEOUT")
        R.Outcome = Verdict::TimedOut;
      else
        throw std::runtime_error(fmt::format("unknown outcome '{}'", Outcome));
      R.Detail = J.value("detail", "");
      R.Seconds = J.value("seconds", 0.0);
      R.Spectrum = J.value("spectrum", "");
      R.Dependences = J.value("dependences", "");
      R.RecordedPath = J.value("path", "");
      R.Fingerprint = J.value("fingerprint", "");
      Tests.push_back(std::move(T));
      Results.push_back(std::move(R));
    }
  } catch (const std::exception &E) {
    Error = fmt::format("{}: {}", Path, E.what());
    return false;
  }
  return true;
}

} // namespace sleuth::localizer
