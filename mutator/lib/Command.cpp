//===- Command.cpp - sleuth mutate ---------------------------------------===//
#include "sleuth/mutator/command.h"
#include "sleuth/mutator/mutator.h"
#include "sleuth/slicer/source_hash.h"

#include "clang/Tooling/CompilationDatabase.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdint>
#include <map>
#include <random>
#include <set>
#include <string>
#include <unistd.h>
#include <vector>

namespace sleuth {
namespace {

using mutator::Mutant;

const char Usage[] =
    R"(usage: sleuth mutate [options] FILE... [-- COMPILER_ARGS...]

Lists the mutants of C and C++ sources: each is one small edit (an operator replaced, a
constant off by one, a condition negated, a statement deleted) at a known FILE:LINE, to build
faulty versions with known fault locations. Only code written in FILE itself is mutated: not
headers, not macro expansions, not constexpr functions or constant expressions. Ids are
numbered in source order over all FILEs, and do not depend on --operators or --sample.

options:
  --list                  print one mutant per line (the default):
                          ID FILE:LINE:COL OPERATOR 'before' -> 'after'
  -o, --output DIR        write mutant ID as DIR/mID/<FILE relative to --root> and the
                          manifest DIR/mutants.json; DIR must not exist or be empty
  --apply ID              print FILE's text with mutant ID applied
  --schemata OUT          write one source OUT holding every mutant of FILE, mutant N
                          chosen at run time by SLEUTH_MUTANT=N (unset or 0: the original),
                          and its manifest OUT.json; mutants it cannot hold are counted
  --operators A,B,...     only these operators (default: all)
  --list-operators        list the operators with a one-line description
  --sample K              keep K mutants, chosen at random (repeatable with --seed)
  --seed N                seed of --sample (default: 1)
  --check-compile CMD     keep only mutants for which the shell command CMD succeeds; "$1"
                          (or {}) is the mutated file, written beside FILE under another name
  --root DIR              base of the relative paths under -o (default: .)
  -p BUILD_DIR            take compiler arguments from BUILD_DIR/compile_commands.json
  -v, --verbose           print Clang's diagnostics
  -h, --help              this text
)";

/// Prints `sleuth mutate: MESSAGE`; returns Code (1: an input or the output is at fault,
/// 2: the command line).
int fail(const std::string &Message, int Code = 1) {
  llvm::errs() << "sleuth mutate: " << Message << "\n";
  return Code;
}

int usageError(const std::string &Message) { return fail(Message, 2); }

/// The arguments of a compile command, without the compiler, the input, -c and -o.
std::vector<std::string> argumentsOf(const clang::tooling::CompileCommand &Command) {
  std::vector<std::string> Out;
  const auto &Line = Command.CommandLine;
  for (std::size_t I = 1; I < Line.size(); ++I) {
    const std::string &A = Line[I];
    if (A == "-o" || A == "-MF" || A == "-MT" || A == "-MQ") {
      ++I;
      continue;
    }
    if (A == "-c" || A == Command.Filename || A == "-MD" || A == "-MMD" || A == "--")
      continue;
    if (A.rfind("-o", 0) == 0 && A.size() > 2)
      continue;
    Out.push_back(A);
  }
  return Out;
}

/// Runs of white space as one space, so that a mutant fits on one line.
std::string oneLine(const std::string &S) {
  std::string Out;
  bool Space = false;
  for (char C : S) {
    if (C == ' ' || C == '\t' || C == '\n' || C == '\r') {
      Space = true;
      continue;
    }
    if (Space && !Out.empty())
      Out += ' ';
    Space = false;
    Out += C;
  }
  return Out;
}

bool parseNumber(const std::string &S, uint64_t &Out) {
  if (S.empty() || S.size() > 19 || S.find_first_not_of("0123456789") != std::string::npos)
    return false;
  Out = std::stoull(S);
  return true;
}

std::string padded(unsigned Id, std::size_t Width) {
  std::string S = std::to_string(Id);
  return std::string(S.size() < Width ? Width - S.size() : 0, '0') + S;
}

/// FILE relative to Root when it lies under Root, else its file name.
std::string relativePath(const std::string &File, const std::string &Root) {
  llvm::SmallString<256> F(File), R(Root);
  llvm::sys::fs::make_absolute(F);
  llvm::sys::fs::make_absolute(R);
  llvm::sys::path::remove_dots(F, true);
  llvm::sys::path::remove_dots(R, true);
  std::string FS(F), RS(R);
  if (!RS.empty() && RS.back() != '/')
    RS += '/';
  if (FS.rfind(RS, 0) == 0)
    return FS.substr(RS.size());
  return std::string(llvm::sys::path::filename(F));
}

bool writeFile(const std::string &Path, const std::string &Text, std::string &Error) {
  std::error_code EC;
  if (llvm::StringRef Parent = llvm::sys::path::parent_path(Path); !Parent.empty())
    EC = llvm::sys::fs::create_directories(Parent);
  if (!EC) {
    llvm::raw_fd_ostream OS(Path, EC);
    if (!EC) {
      OS << Text;
      OS.close();
      EC = OS.error();
    }
  }
  if (EC)
    Error = Path + ": cannot write: " + EC.message();
  return !EC;
}

struct Options {
  std::vector<std::string> Files, CompilerArgs;
  std::string Output, BuildDir, CheckCommand, Root = ".", Schemata;
  std::set<std::string> Operators;
  bool HaveCompilerArgs = false, List = false, Verbose = false;
  uint64_t Sample = 0, Seed = 1, Apply = 0;
  bool HaveSample = false, HaveApply = false;
};

/// A parsed file with its mutants.
struct Unit {
  std::string File;
  std::string Text;
};

/// Keeps the mutants for which CMD, run on the mutated file, succeeds.
std::vector<Mutant> checkCompile(const std::vector<Mutant> &Mutants, const std::vector<Unit> &Units,
                                 const std::string &Command) {
  // `{}` means the file, as in find -exec.
  std::string Script = Command;
  for (std::size_t At; (At = Script.find("{}")) != std::string::npos;)
    Script.replace(At, 2, "\"$1\"");
  std::vector<Mutant> Kept;
  std::size_t Done = 0;
  for (const Mutant &M : Mutants) {
    const Unit *U = nullptr;
    for (const Unit &Each : Units)
      if (Each.File == M.File)
        U = &Each;
    // Beside the original, so that `#include "x.h"` finds the same headers.
    llvm::SmallString<256> Path(llvm::sys::path::parent_path(M.File));
    llvm::sys::path::append(Path, "." + llvm::sys::path::stem(M.File).str() + ".sleuth-mutant-" +
                                      std::to_string(::getpid()) +
                                      llvm::sys::path::extension(M.File).str());
    std::string Error;
    if (!U || !writeFile(std::string(Path), mutator::applyMutant(U->Text, M), Error)) {
      llvm::errs() << "sleuth mutate: " << Error << "\n";
      continue;
    }
    std::optional<llvm::StringRef> Null("/dev/null");
    std::optional<llvm::StringRef> Redirects[] = {Null, Null, Null};
    llvm::StringRef Args[] = {"/bin/sh", "-c", Script, "sh", Path};
    int Status = llvm::sys::ExecuteAndWait("/bin/sh", Args, std::nullopt, Redirects);
    llvm::sys::fs::remove(Path);
    if (Status == 0)
      Kept.push_back(M);
    if (++Done % 50 == 0 || Done == Mutants.size())
      llvm::errs() << "sleuth mutate: checked " << Done << "/" << Mutants.size() << ", "
                   << Kept.size() << " compile\n";
  }
  return Kept;
}

nlohmann::ordered_json manifestEntry(const Mutant &M, const std::string &Relative,
                                     std::size_t Width) {
  return {{"id", M.Id},
          {"dir", "m" + padded(M.Id, Width)},
          {"file", Relative},
          {"line", M.Line},
          {"column", M.Column},
          {"end_line", M.EndLine},
          {"operator", M.Operator},
          {"function", M.Function},
          {"offset", M.Offset},
          {"length", M.Length},
          {"original", M.Original},
          {"replacement", M.Replacement}};
}

/// Writes everything into a scratch directory beside DIR and renames it: DIR appears complete
/// or not at all.
int writeOutput(const Options &O, const std::vector<Mutant> &Mutants,
                const std::vector<Unit> &Units) {
  std::string Dir = O.Output;
  while (Dir.size() > 1 && Dir.back() == '/')
    Dir.pop_back();
  if (llvm::sys::fs::exists(Dir)) {
    std::error_code EC;
    llvm::sys::fs::directory_iterator It(Dir, EC);
    if (!llvm::sys::fs::is_directory(Dir) || EC || It != llvm::sys::fs::directory_iterator())
      return fail(Dir + ": exists and is not an empty directory");
  }
  std::string Scratch = Dir + ".partial-" + std::to_string(::getpid());
  llvm::sys::fs::remove_directories(Scratch);
  unsigned MaxId = 0;
  for (const Mutant &M : Mutants)
    MaxId = std::max(MaxId, M.Id);
  std::size_t Width = std::max<std::size_t>(4, std::to_string(MaxId).size());
  nlohmann::ordered_json List = nlohmann::ordered_json::array();
  std::string Error;
  for (const Mutant &M : Mutants) {
    const Unit *U = nullptr;
    for (const Unit &Each : Units)
      if (Each.File == M.File)
        U = &Each;
    std::string Relative = relativePath(M.File, O.Root);
    std::string Path = Scratch + "/m" + padded(M.Id, Width) + "/" + Relative;
    if (!U || !writeFile(Path, mutator::applyMutant(U->Text, M), Error)) {
      llvm::sys::fs::remove_directories(Scratch);
      return fail(Error);
    }
    List.push_back(manifestEntry(M, Relative, Width));
  }
  nlohmann::ordered_json Manifest = {{"version", 1}, {"mutants", List}};
  if (!writeFile(Scratch + "/mutants.json", Manifest.dump(1) + "\n", Error)) {
    llvm::sys::fs::remove_directories(Scratch);
    return fail(Error);
  }
  if (llvm::sys::fs::exists(Dir))
    llvm::sys::fs::remove(Dir); // empty, checked above
  if (std::error_code EC = llvm::sys::fs::rename(Scratch, Dir)) {
    llvm::sys::fs::remove_directories(Scratch);
    return fail(Dir + ": cannot create: " + EC.message());
  }
  return 0;
}

std::string absolutePath(const std::string &File) {
  llvm::SmallString<256> Absolute(File);
  llvm::sys::fs::make_absolute(Absolute);
  llvm::sys::path::remove_dots(Absolute, true);
  return std::string(Absolute);
}

/// Path through a temporary file beside it and a rename.
bool writeAtomically(const std::string &Path, const std::string &Text, std::string &Error) {
  std::string Temporary = Path + ".partial-" + std::to_string(::getpid());
  if (!writeFile(Temporary, Text, Error)) {
    llvm::sys::fs::remove(Temporary);
    return false;
  }
  if (std::error_code EC = llvm::sys::fs::rename(Temporary, Path)) {
    llvm::sys::fs::remove(Temporary);
    Error = Path + ": cannot write: " + EC.message();
    return false;
  }
  return true;
}

/// --schemata OUT: the schemata source and OUT.json, which lists the mutants it holds (as
/// mutants.json does) and those left out with the reason.
int writeSchemata(const Options &O, std::vector<Mutant> &Mutants, const Unit &U) {
  mutator::Schemata S = mutator::buildSchemata(U.Text, U.File, Mutants);
  std::set<unsigned> Held(S.Included.begin(), S.Included.end());
  nlohmann::ordered_json Included = nlohmann::ordered_json::array();
  for (const Mutant &M : Mutants)
    if (Held.count(M.Id)) {
      nlohmann::ordered_json E = manifestEntry(M, M.File, 4);
      E.erase("dir");
      E["file"] = M.File;
      Included.push_back(std::move(E));
    }
  nlohmann::ordered_json Excluded = nlohmann::ordered_json::array();
  std::map<std::string, unsigned> Reasons;
  for (const mutator::Schemata::LeftOut &L : S.Excluded) {
    Excluded.push_back({{"id", L.Id}, {"reason", L.Reason}});
    ++Reasons[L.Reason];
  }
  nlohmann::ordered_json Manifest = {{"version", 1},
                                     {"file", U.File},
                                     {"schemata", O.Schemata},
                                     {"variable", std::string(mutator::SchemataVariable)},
                                     {"prelude_lines", S.PreludeLines},
                                     // OUT and OUT.json are renamed into place one after the
                                     // other; the hash lets a reader see a mismatched pair.
                                     {"schemata_hash", sourceHash(S.Text)},
                                     {"path", absolutePath(U.File)},
                                     {"mutants", Included},
                                     {"left_out", Excluded}};
  std::string Error;
  if (!writeAtomically(O.Schemata, S.Text, Error) ||
      !writeAtomically(O.Schemata + ".json", Manifest.dump(1) + "\n", Error)) {
    llvm::sys::fs::remove(O.Schemata);
    return fail(Error);
  }
  llvm::errs() << "sleuth mutate: " << O.Schemata << ": " << S.Included.size() << " of "
               << Mutants.size() << " mutants";
  if (S.Excluded.empty())
    llvm::errs() << "\n";
  else {
    llvm::errs() << "; left out:";
    for (const auto &[Reason, Count] : Reasons)
      llvm::errs() << " " << Count << " " << Reason << ";";
    llvm::errs() << " (see " << O.Schemata << ".json)\n";
  }
  Mutants.erase(std::remove_if(Mutants.begin(), Mutants.end(),
                               [&](const Mutant &M) { return !Held.count(M.Id); }),
                Mutants.end());
  return 0;
}

int parseOptions(int Argc, const char **Argv, Options &O, bool &Done) {
  Done = false;
  for (int I = 1; I < Argc; ++I) {
    std::string A = Argv[I];
    if (A == "--") {
      O.HaveCompilerArgs = true;
      for (++I; I < Argc; ++I)
        O.CompilerArgs.push_back(Argv[I]);
      break;
    }
    if (A == "-h" || A == "--help") {
      llvm::outs() << Usage;
      Done = true;
      return 0;
    }
    if (A == "--list-operators") {
      for (const mutator::OperatorInfo &Info : mutator::mutationOperators())
        llvm::outs() << Info.Name << "  " << Info.Description << "\n";
      Done = true;
      return 0;
    }
    if (A == "--list") {
      O.List = true;
      continue;
    }
    if (A == "-v" || A == "--verbose") {
      O.Verbose = true;
      continue;
    }
    std::string Value;
    bool Inline = false;
    if (A.rfind("--", 0) == 0 && A.find('=') != std::string::npos) {
      Value = A.substr(A.find('=') + 1);
      A = A.substr(0, A.find('='));
      Inline = true;
    }
    static const std::set<std::string> WithValue = {
        "-o",     "--output",        "-p",     "--apply",   "--operators", "--sample",
        "--seed", "--check-compile", "--root", "--schemata"};
    if (WithValue.count(A)) {
      if (!Inline) {
        if (I + 1 >= Argc)
          return usageError("option '" + A + "' needs a value");
        Value = Argv[++I];
      }
      uint64_t N = 0;
      bool Numeric = A == "--apply" || A == "--sample" || A == "--seed";
      if (Numeric && !parseNumber(Value, N))
        return usageError("invalid value '" + Value + "' for '" + A + "'");
      if (A == "-o" || A == "--output")
        O.Output = Value;
      else if (A == "-p")
        O.BuildDir = Value;
      else if (A == "--check-compile")
        O.CheckCommand = Value;
      else if (A == "--root")
        O.Root = Value;
      else if (A == "--schemata")
        O.Schemata = Value;
      else if (A == "--apply")
        O.Apply = N, O.HaveApply = true;
      else if (A == "--sample")
        O.Sample = N, O.HaveSample = true;
      else if (A == "--seed")
        O.Seed = N;
      else {
        for (std::size_t B = 0; B <= Value.size();) {
          std::size_t E = std::min(Value.find(',', B), Value.size());
          std::string Name = Value.substr(B, E - B);
          if (!Name.empty() && !mutator::isMutationOperator(Name)) {
            std::string Known;
            for (const mutator::OperatorInfo &Info : mutator::mutationOperators())
              Known += (Known.empty() ? "" : ", ") + std::string(Info.Name);
            return usageError("unknown operator '" + Name + "' (known: " + Known + ")");
          }
          if (!Name.empty())
            O.Operators.insert(Name);
          B = E + 1;
        }
        if (O.Operators.empty())
          return usageError("--operators needs at least one operator");
      }
      continue;
    }
    if (A.size() > 1 && A[0] == '-')
      return usageError("unknown option '" + A + "' (see --help)");
    O.Files.push_back(A);
  }
  if (O.Files.empty())
    return usageError("no input file (see --help)");
  if (O.HaveApply && !O.Output.empty())
    return usageError("--apply prints to standard output: it does not go with -o");
  if (!O.Schemata.empty() && (O.HaveApply || !O.Output.empty()))
    return usageError("--schemata does not go with --apply or -o");
  if (!O.Schemata.empty() && O.Files.size() != 1)
    return usageError("--schemata takes one FILE (its guards read one switch)");
  return 0;
}

} // namespace

int mutateMain(int Argc, const char **Argv) {
  Options O;
  bool Done = false;
  if (int Status = parseOptions(Argc, Argv, O, Done); Status != 0 || Done)
    return Status;

  std::unique_ptr<clang::tooling::CompilationDatabase> Database;
  if (!O.BuildDir.empty()) {
    std::string Error;
    Database = clang::tooling::CompilationDatabase::loadFromDirectory(O.BuildDir, Error);
    if (!Database)
      return fail(O.BuildDir + ": " + Error);
  }

  // Parse every file before writing anything: one bad file, no output.
  std::vector<Unit> Units;
  std::vector<Mutant> Mutants;
  for (const std::string &File : O.Files) {
    mutator::MutateRequest Request;
    Request.File = File;
    Request.ShowDiagnostics = O.Verbose;
    if (Database) {
      llvm::SmallString<256> Absolute(File);
      llvm::sys::fs::make_absolute(Absolute);
      auto Commands = Database->getCompileCommands(Absolute);
      if (Commands.empty())
        return fail(File + ": not in " + O.BuildDir + "/compile_commands.json");
      Request.Arguments = argumentsOf(Commands.front());
      Request.Directory = Commands.front().Directory;
      // The compile command's directory applies to its arguments, not to our file name.
      Request.File = std::string(Absolute);
    } else if (O.HaveCompilerArgs) {
      Request.Arguments = O.CompilerArgs;
    } else {
      std::string Error;
      if (auto Detected = clang::tooling::CompilationDatabase::autoDetectFromSource(File, Error)) {
        auto Commands = Detected->getCompileCommands(File);
        if (!Commands.empty()) {
          Request.Arguments = argumentsOf(Commands.front());
          Request.Directory = Commands.front().Directory;
        }
      }
    }
    mutator::MutateResult Result = mutator::findMutants(Request);
    if (!Result.Ok)
      return fail(Result.Error);
    for (Mutant &M : Result.Mutants) {
      M.File = File; // as the user wrote it
      M.Id += unsigned(Mutants.size());
    }
    for (Mutant &M : Result.Mutants)
      Mutants.push_back(std::move(M));
    Units.push_back({File, std::move(Result.Text)});
  }
  // Renumbering above is per file; make ids global.
  for (std::size_t I = 0; I < Mutants.size(); ++I)
    Mutants[I].Id = unsigned(I + 1);

  if (O.HaveApply) {
    if (O.Apply < 1 || O.Apply > Mutants.size())
      return usageError("--apply: no mutant " + std::to_string(O.Apply) + " (there are " +
                        std::to_string(Mutants.size()) + ")");
    const Mutant &M = Mutants[O.Apply - 1];
    for (const Unit &U : Units)
      if (U.File == M.File)
        llvm::outs() << mutator::applyMutant(U.Text, M);
    return 0;
  }

  if (!O.Operators.empty())
    Mutants.erase(std::remove_if(Mutants.begin(), Mutants.end(),
                                 [&](const Mutant &M) { return !O.Operators.count(M.Operator); }),
                  Mutants.end());
  if (O.HaveSample && O.Sample < Mutants.size()) {
    // A partial Fisher-Yates shuffle on mt19937_64, whose output the standard fixes: the same
    // seed picks the same mutants everywhere (std::shuffle's result is implementation-defined).
    std::mt19937_64 Random(O.Seed);
    for (std::size_t I = 0; I < O.Sample; ++I) {
      std::size_t J = I + std::size_t(Random() % (Mutants.size() - I));
      std::swap(Mutants[I], Mutants[J]);
    }
    Mutants.resize(O.Sample);
    std::sort(Mutants.begin(), Mutants.end(),
              [](const Mutant &A, const Mutant &B) { return A.Id < B.Id; });
  }
  if (!O.CheckCommand.empty()) {
    std::size_t Before = Mutants.size();
    Mutants = checkCompile(Mutants, Units, O.CheckCommand);
    llvm::errs() << "sleuth mutate: " << Before - Mutants.size() << " of " << Before
                 << " mutants dropped: --check-compile failed\n";
  }

  if (!O.Schemata.empty()) {
    if (absolutePath(O.Schemata) == absolutePath(Units.front().File))
      return usageError("--schemata " + O.Schemata + ": would overwrite the input");
    if (int Status = writeSchemata(O, Mutants, Units.front()))
      return Status;
    if (!O.List)
      return 0;
  }
  if (!O.Output.empty()) {
    if (int Status = writeOutput(O, Mutants, Units))
      return Status;
    if (!O.List)
      return 0;
  }
  for (const Mutant &M : Mutants)
    llvm::outs() << M.Id << " " << M.File << ":" << M.Line << ":" << M.Column << " " << M.Operator
                 << " '" << oneLine(M.Original) << "' -> '" << oneLine(M.Replacement) << "'\n";
  return 0;
}

} // namespace sleuth
