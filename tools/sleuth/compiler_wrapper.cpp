// `sleuth cc` / `sleuth c++`: compiler wrappers (see docs/wrappers.md). Each C/C++ source on the
// command line is instrumented into a scratch directory and compiled from there with the real
// compiler, one source per compile, with the original directory first on the quote-include path
// and the depfile rewritten to name the original source; a link step also links the runtime.
// Whatever sleuth cannot handle is compiled as it was, with a warning that names the file: the
// build never fails because of a source sleuth cannot instrument (an unknown --sleuth-mode is a
// usage error, though).
#include "commands.h"
#include "compile_command.h"
#include "sleuth/instrumenter/instrumenter.h"
#include "uninstrumented_objects.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Allocator.h"
#include "llvm/Support/CommandLine.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <optional>
#include <string>
#include <unistd.h>
#include <vector>

namespace sleuth {
namespace {

using wrapper::CommandInput;
using wrapper::CompileCommand;
using wrapper::Language;
using wrapper::UninstrumentedSource;

/// "cc" or "c++", as the wrapper was called: every message starts `sleuth cc: ` or
/// `sleuth c++: `, as every sleuth command's messages start with its name.
const char *CommandName = "cc";

llvm::raw_ostream &message() { return llvm::errs() << "sleuth " << CommandName << ": "; }

void warn(const llvm::Twine &Message) { message() << "warning: " << Message << "\n"; }

/// The C and C++ library functions the runtime archive has hooks of (runtime/src/heap_hooks.cpp,
/// input_hooks.cpp, exception_hooks.cpp: `__wrap_NAME`, calling `__real_NAME`); a static link
/// wraps each. One left
/// out would leave its `__real_` reference undefined; tests/e2e/wrapper.sh compares the list
/// with the archive's symbols.
constexpr const char *StaticHookSymbols[] = {"free",
                                             "realloc",
                                             "read",
                                             "pread",
                                             "pread64",
                                             "readv",
                                             "preadv",
                                             "preadv64",
                                             "fread",
                                             "fgets",
                                             "getline",
                                             "getdelim",
                                             "recv",
                                             "recvfrom",
                                             "recvmsg",
                                             "recvmmsg",
                                             "__read_chk",
                                             "__pread_chk",
                                             "__pread64_chk",
                                             "__fread_chk",
                                             "__fgets_chk",
                                             "__recv_chk",
                                             "__recvfrom_chk",
                                             "scanf",
                                             "fscanf",
                                             "sscanf",
                                             "vscanf",
                                             "vfscanf",
                                             "vsscanf",
                                             "__isoc99_scanf",
                                             "__isoc99_fscanf",
                                             "__isoc99_sscanf",
                                             "__isoc99_vscanf",
                                             "__isoc99_vfscanf",
                                             "__isoc99_vsscanf",
                                             "wscanf",
                                             "fwscanf",
                                             "swscanf",
                                             "vwscanf",
                                             "vfwscanf",
                                             "vswscanf",
                                             "__isoc99_wscanf",
                                             "__isoc99_fwscanf",
                                             "__isoc99_swscanf",
                                             "__isoc99_vwscanf",
                                             "__isoc99_vfwscanf",
                                             "__isoc99_vswscanf",
                                             "__cxa_throw"};

std::string runtimeIncludeDirectory();

/// Where the runtime libraries are: ../lib next to an installed binary when it has one of
/// them, else the build tree this binary came from.
std::string runtimeDirectory() {
  std::string Self = llvm::sys::fs::getMainExecutable(nullptr, (void *)&runtimeIncludeDirectory);
  llvm::SmallString<256> Installed(llvm::sys::path::parent_path(Self));
  llvm::sys::path::append(Installed, "..", "lib");
  llvm::sys::path::remove_dots(Installed, /*remove_dot_dot=*/true);
  for (const char *File : {"libsleuth_rt.so", "libsleuth_rt.a"})
    if (llvm::sys::fs::exists(Installed + "/" + File))
      return std::string(Installed);
  return SLEUTH_BUILD_RUNTIME_DIR;
}

/// The runtime library File of runtimeDirectory(), or "" if it is not there.
std::string runtimeLibrary(llvm::StringRef File) {
  llvm::SmallString<256> Path(runtimeDirectory());
  llvm::sys::path::append(Path, File);
  return llvm::sys::fs::exists(Path) ? std::string(Path) : "";
}

std::string runtimeIncludeDirectory() {
  std::string Self = llvm::sys::fs::getMainExecutable(nullptr, (void *)&runtimeIncludeDirectory);
  llvm::SmallString<256> Installed(llvm::sys::path::parent_path(Self));
  llvm::sys::path::append(Installed, "..", "include", "sleuth", "runtime.h");
  if (llvm::sys::fs::exists(Installed))
    return std::string(llvm::sys::path::parent_path(llvm::sys::path::parent_path(Installed)));
  return SLEUTH_BUILD_INCLUDE_DIR;
}

// Runs Compiler with Args; stderr into ErrorFile when given. Returns the exit status.
int run(const std::string &Compiler, const std::vector<std::string> &Args,
        std::optional<llvm::StringRef> ErrorFile = std::nullopt) {
  auto Program = llvm::sys::findProgramByName(Compiler);
  if (!Program) {
    message() << "compiler '" << Compiler << "' not found\n";
    return 127;
  }
  std::vector<llvm::StringRef> Refs;
  Refs.push_back(Compiler);
  Refs.insert(Refs.end(), Args.begin(), Args.end());
  std::optional<llvm::StringRef> Redirects[] = {std::nullopt, std::nullopt, ErrorFile};
  std::string Error;
  int Status = llvm::sys::ExecuteAndWait(*Program, Refs, std::nullopt, Redirects, 0, 0, &Error);
  if (Status < 0) {
    message() << "cannot run " << Compiler << ": " << Error << "\n";
    return 1;
  }
  return Status;
}

// Appends one line to $SLEUTH_STATS with a single write(2) (O_APPEND: parallel compiles do
// not interleave).
void recordStats(const std::string &Line) {
  const char *Path = std::getenv("SLEUTH_STATS");
  if (!Path || !*Path)
    return;
  int FD = ::open(Path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (FD < 0) {
    warn(llvm::Twine("cannot append to SLEUTH_STATS file ") + Path);
    return;
  }
  std::string Text = Line + "\n";
  if (::write(FD, Text.data(), Text.size()) != (ssize_t)Text.size())
    warn(llvm::Twine("cannot append to SLEUTH_STATS file ") + Path);
  ::close(FD);
}

std::string absolute(const std::string &Path) {
  llvm::SmallString<256> Abs(Path);
  llvm::sys::fs::make_absolute(Abs);
  llvm::sys::path::remove_dots(Abs, true);
  return std::string(Abs);
}

std::string oneLine(std::string Text) {
  for (char &C : Text)
    if (C == '\n' || C == '\t')
      C = ' ';
  return Text;
}

struct Wrapper {
  bool Cxx = false;
  std::string Compiler;
  bool IncludedFiles = true;
  std::vector<std::string> IncludedRoots;
  std::string HeaderCache; // "" = none
  InstrumentMode Mode = InstrumentMode::Dependences;
  std::string ModeName = "deps";
  CoverageCounters Counters = CoverageCounters::Exact;
  bool RecordPath = false;
  bool StaticReads = true;      // off with SLEUTH_CHECKED_READS=1
  bool AddressedLocals = false; // on with SLEUTH_PERTURBABLE=1
  llvm::SmallString<128> Scratch;
  bool KeepScratch = false;
  /// The sources of this command compiled uninstrumented, and why (finish() marks their objects
  /// or, in a link, reports them).
  std::vector<UninstrumentedSource> Fallbacks;

  ~Wrapper() {
    if (!Scratch.empty() && !KeepScratch)
      llvm::sys::fs::remove_directories(Scratch);
  }

  // Records how a source was compiled: a line of SLEUTH_STATS, and each source compiled
  // uninstrumented in Fallbacks.
  void stats(const CommandInput &In, llvm::StringRef Status, const InstrumentResult *R,
             double Seconds, const std::string &Reason) {
    if (Status != "instrumented" && Status != "instrumented-alone")
      Fallbacks.push_back({In.Path == "-" ? In.Path : absolute(In.Path),
                           oneLine(Reason.empty() ? Status.str() : Reason)});
    std::string Line = absolute(In.Path) + "\t" + ModeName + "\t" + std::string(Status);
    Line += "\t" + std::to_string(R ? R->Functions : 0) + "\t" + std::to_string(R ? R->Probes : 0);
    Line += "\t" + std::to_string(R ? R->Skipped : 0) + "\t" + std::to_string(int(Seconds * 1000));
    Line += "\t" + oneLine(Reason);
    Line += "\t" + std::to_string(R ? R->IncludedFiles.size() : 0);
    Line += "\t" + std::to_string(R ? R->HeadersFromCache : 0);
    Line += "\t" + (R ? describeSkipCounts(R->SkippedBy) : std::string());
    recordStats(Line);
  }

  bool makeScratch() {
    if (!Scratch.empty())
      return true;
    if (std::error_code EC = llvm::sys::fs::createUniqueDirectory("sleuth-cc", Scratch)) {
      warn("cannot create a scratch directory (" + EC.message() +
           "); compiling without instrumentation");
      Scratch.clear();
      return false;
    }
    return true;
  }

  // Writes Text to a new file SCRATCH/N/NAME; "" when it cannot.
  std::string scratchFile(size_t N, llvm::StringRef Name, llvm::StringRef Text) {
    llvm::SmallString<256> Path(Scratch);
    llvm::sys::path::append(Path, std::to_string(N));
    if (llvm::sys::fs::create_directories(Path))
      return "";
    llvm::sys::path::append(Path, Name);
    std::error_code EC;
    llvm::raw_fd_ostream OS(Path, EC);
    if (EC)
      return "";
    OS << Text;
    OS.close();
    return OS.has_error() ? "" : std::string(Path);
  }

  // The arguments of a command; through a response file in the scratch directory when the
  // original command used one (the expanded line may be too long).
  std::vector<std::string> maybeResponseFile(const CompileCommand &C, std::vector<std::string> A,
                                             size_t N) {
    if (!C.HadResponseFile)
      return A;
    std::string Path = scratchFile(N, "args.rsp", wrapper::responseFileText(A));
    if (Path.empty())
      return A;
    return {"@" + Path};
  }

  // Rewrites the depfile of an instrumented compile to name the original source.
  void fixDepFile(const std::string &DepFile, const std::string &ScratchSource,
                  const std::string &Original, const std::vector<std::string> &Included) {
    auto Buffer = llvm::MemoryBuffer::getFile(DepFile);
    if (!Buffer) {
      warn(DepFile + ": depfile not written by the compiler");
      return;
    }
    std::string Text((*Buffer)->getBuffer());
    std::string From = wrapper::escapeForDepFile(ScratchSource);
    std::string To = wrapper::escapeForDepFile(Original);
    for (size_t At = Text.find(From); At != std::string::npos; At = Text.find(From, At)) {
      Text.replace(At, From.size(), To);
      At += To.size();
    }
    // The compile no longer read the files whose instrumented text was inlined; the object
    // still depends on them. They go at the end of the first rule (before its newline).
    std::string Extra;
    for (const std::string &F : Included)
      if (Text.find(wrapper::escapeForDepFile(F)) == std::string::npos)
        Extra += " " + wrapper::escapeForDepFile(F);
    if (!Extra.empty()) {
      size_t End = 0;
      while ((End = Text.find('\n', End)) != std::string::npos && End > 0 && Text[End - 1] == '\\')
        ++End;
      if (End == std::string::npos)
        End = Text.size();
      Text.insert(End, Extra);
    }
    std::string Temporary = DepFile + ".sleuth-tmp";
    {
      std::error_code EC;
      llvm::raw_fd_ostream OS(Temporary, EC);
      if (!EC)
        OS << Text;
      OS.close();
      if (EC || OS.has_error()) {
        llvm::sys::fs::remove(Temporary);
        warn(DepFile + ": cannot rewrite the depfile");
        return;
      }
    }
    if (llvm::sys::fs::rename(Temporary, DepFile)) {
      llvm::sys::fs::remove(Temporary);
      warn(DepFile + ": cannot rewrite the depfile");
    }
  }

  // Instruments one source and compiles it to whatever the command asks (-c, -S, or an object
  // in the scratch directory for a link). Returns the compiler's status, or nullopt when the
  // source was not compiled instrumented (the caller compiles it as it was).
  std::optional<int> compileInstrumented(const CompileCommand &C, const CommandInput &In, size_t N,
                                         const std::string &ObjectForLink) {
    auto Start = std::chrono::steady_clock::now();
    InstrumentRequest Request;
    Request.File = In.Path;
    Request.Arguments = wrapper::parseArguments(C, In);
    Request.ShowDiagnostics = false; // the real compiler reports problems in its own words
    Request.Mode = Mode;
    Request.Counters = Counters;
    Request.RecordPath = RecordPath;
    Request.StaticReads = StaticReads;
    Request.AddressedLocals = AddressedLocals;
    Request.InstrumentIncludedFiles = IncludedFiles;
    Request.IncludedRoots = IncludedRoots;
    Request.HeaderCacheDirectory = HeaderCache;
    InstrumentResult Result = instrument(Request);
    double Seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - Start).count();
    if (!Result.Ok) {
      warn(Result.Error + "; compiling it uninstrumented");
      stats(In, "parse-failed", nullptr, Seconds, Result.Error);
      return std::nullopt;
    }
    return compileRewritten(C, In, N, ObjectForLink, Request, Result, Seconds);
  }

  // IncludedFailed: the first error of an earlier try with the included files, which did not
  // compile (this try has the main file alone).
  std::optional<int> compileRewritten(const CompileCommand &C, const CommandInput &In, size_t N,
                                      const std::string &ObjectForLink, InstrumentRequest &Request,
                                      InstrumentResult &Result, double Seconds,
                                      const std::optional<std::string> &IncludedFailed = {}) {
    std::string Source = scratchFile(N, llvm::sys::path::filename(In.Path), Result.Text);
    if (Source.empty()) {
      warn(In.Path + ": cannot write the instrumented source to " + Scratch +
           "; compiling it uninstrumented");
      stats(In, "write-failed", &Result, Seconds, "cannot write the scratch copy");
      return std::nullopt;
    }
    llvm::SmallString<256> Dir(llvm::sys::path::parent_path(In.Path));
    if (Dir.empty())
      Dir = ".";
    // The original directory first on the quote-include path: `#include "x.h"` finds what it
    // found next to the original source, in the same order.
    std::vector<std::string> Args = {"-iquote", std::string(Dir)};
    std::vector<std::string> Rest = wrapper::argumentsWithoutInputs(C);
    if (ObjectForLink.empty()) {
      Args.insert(Args.end(), Rest.begin(), Rest.end());
    } else {
      // Compile step of a compile-and-link command: no -o, no depfile.
      for (size_t I = 0; I < Rest.size(); ++I) {
        const std::string &A = Rest[I];
        // Linker inputs and options stay for the link (clang warns about them with -c).
        if (A == "-o" || A == "-MF" || A == "-MT" || A == "-MQ" || A == "-l" || A == "-L" ||
            A == "-Xlinker") {
          ++I;
          continue;
        }
        if (A == "-MD" || A == "-MMD" || A == "-MP" || A.rfind("-l", 0) == 0 ||
            A.rfind("-L", 0) == 0 || A.rfind("-Wl,", 0) == 0 || A == "-rdynamic" ||
            (A.size() > 2 && (A.rfind("-o", 0) == 0 || A.rfind("-MF", 0) == 0)))
          continue;
        Args.push_back(A);
      }
      Args.insert(Args.end(), {"-c", "-o", ObjectForLink});
    }
    Args.insert(Args.end(), {"-isystem", runtimeIncludeDirectory(), "-x",
                             In.Lang == Language::Cxx ? "c++" : "c", Source});
    std::string Errors = std::string(Scratch) + "/" + std::to_string(N) + "/stderr.txt";
    int Status = run(Compiler, maybeResponseFile(C, Args, N), llvm::StringRef(Errors));
    auto Diagnostics = llvm::MemoryBuffer::getFile(Errors);
    if (Status != 0) {
      std::string First;
      if (Diagnostics) {
        llvm::StringRef Text = (*Diagnostics)->getBuffer();
        size_t At = Text.find("error:");
        if (At == llvm::StringRef::npos)
          At = Text.find("error");
        llvm::StringRef Line = At == llvm::StringRef::npos ? Text : Text.substr(At);
        First = Line.substr(0, Line.find('\n')).str();
      }
      if (!Result.IncludedFiles.empty()) {
        // The included files' text may be what broke it: try the main file alone first.
        warn(In.Path + ": the instrumented source did not compile" +
             (First.empty() ? "" : " (" + First + ")") +
             "; instrumenting it without its included files");
        Request.InstrumentIncludedFiles = false;
        InstrumentResult Alone = instrument(Request);
        if (Alone.Ok) {
          Result = std::move(Alone);
          return compileRewritten(C, In, N, ObjectForLink, Request, Result, Seconds, First);
        }
      }
      warn(In.Path + ": the instrumented source did not compile" +
           (First.empty() ? "" : " (" + First + ")") + "; compiling it uninstrumented");
      stats(In, "compile-failed", &Result, Seconds, First);
      return std::nullopt;
    }
    if (Diagnostics)
      llvm::errs() << (*Diagnostics)->getBuffer();
    if (C.DepFile && ObjectForLink.empty())
      fixDepFile(wrapper::depFilePath(C, In), Source, In.Path, Result.IncludedFiles);
    if (IncludedFailed)
      stats(In, "instrumented-alone", &Result, Seconds,
            "its included files' instrumented text did not compile: " + *IncludedFailed);
    else
      stats(In, "instrumented", &Result, Seconds, "");
    return Status;
  }

  // The original arguments with only Input left among the inputs (explicit about its -x).
  std::vector<std::string> oneInput(const CompileCommand &C, const CommandInput &In) {
    std::vector<std::string> Args = wrapper::argumentsWithoutInputs(C);
    Args.insert(Args.end(), {"-x", In.XLanguage.empty() ? "none" : In.XLanguage, In.Path});
    return Args;
  }

  void linkRuntime(std::vector<std::string> &Args, const CompileCommand &C) {
    if (C.NoStdLib)
      return; // the program brings its own C library; it links the runtime itself if it wants
    // The shared runtime, so that the program and its instrumented shared libraries share one
    // (one registry, one record per process); the archive where nothing may be shared.
    std::string Shared = C.Static ? "" : runtimeLibrary("libsleuth_rt.so");
    std::string Library = Shared.empty() ? runtimeLibrary("libsleuth_rt.a") : Shared;
    if (Library.empty()) {
      warn("no sleuth runtime library in " + runtimeDirectory() + "; linking without it");
      return;
    }
    // `-x none`: a `-x c` in force must not make the library a C source. Only where the
    // runtime is needed: a program without instrumented code is unchanged (--as-needed keeps
    // the shared runtime out of it; the archive's members are pulled in only when used).
    if (!Shared.empty())
      Args.insert(Args.end(),
                  {"-Wl,--push-state,--as-needed", "-x", "none", Shared, "-Wl,--pop-state",
                   "-Wl,-rpath," + std::string(llvm::sys::path::parent_path(Shared))});
    else {
      // libstdc++.a comes after the archive, and its members that throw call __cxa_throw too:
      // the archive's hook of it must be in the link before they are seen.
      Args.insert(Args.end(), {"-Wl,--undefined=__wrap___cxa_throw", "-x", "none", Library});
      // The archive's hooks of C library functions are __wrap_free, __wrap_read, ...: with
      // --wrap, the program's calls of free and read (libstdc++'s operator delete's too) call
      // them, and they call libc.a's (runtime/src/hooks.h).
      for (const char *Symbol : StaticHookSymbols)
        Args.push_back(std::string("-Wl,--wrap=") + Symbol);
    }
    Args.insert(Args.end(),
                {"-Wl,--push-state,--as-needed", "-lstdc++", "-lpthread", "-Wl,--pop-state"});
  }

  // The object a compile of In writes: -o, else the source's stem with `.o` in the working
  // directory; none for -S (assembly) or standard input.
  static std::string objectOf(const CompileCommand &C, const CommandInput &In) {
    if (In.Lang == Language::Other || In.Path == "-" || llvm::is_contained(C.Args, "-S"))
      return "";
    if (!C.Output.empty())
      return C.Output;
    return (llvm::sys::path::stem(In.Path) + ".o").str();
  }

  // After a compile of In that succeeded: its object carries the mark of a source compiled
  // uninstrumented, which the link reports (uninstrumented_objects.h), or no mark at all.
  void markObject(const CompileCommand &C, const CommandInput &In) {
    std::string Object = objectOf(C, In);
    if (Object.empty())
      return;
    std::string Source = absolute(In.Path);
    auto Found = std::find_if(Fallbacks.begin(), Fallbacks.end(),
                              [&](const UninstrumentedSource &F) { return F.Source == Source; });
    if (Found == Fallbacks.end()) {
      wrapper::clearUninstrumentedMark(Object);
      return;
    }
    std::string Error = wrapper::markUninstrumented(Object, *Found);
    if (!Error.empty())
      warn(In.Path + ": " + Error + "; a link will not report it as compiled uninstrumented");
  }

  // After a link that succeeded: one line for every source compiled uninstrumented that it
  // linked (from the marks of its objects, also inside archives, and then this command's own
  // sources too), so that a build ends with them.
  void reportLinked(const CompileCommand &C) {
    std::string Output = C.Output.empty() ? "a.out" : C.Output;
    std::vector<std::string> Objects;
    for (const CommandInput &In : C.Inputs)
      if (In.Lang == Language::Other)
        Objects.push_back(In.Path);
    std::vector<UninstrumentedSource> Linked = wrapper::uninstrumentedSources(Output, Objects);
    // A command that compiles and links only its own sources has just said it of each of them
    // (`sleuth cc -o prog prog.c`: one line).
    if (Linked.empty())
      return;
    Linked.insert(Linked.end(), Fallbacks.begin(), Fallbacks.end());
    bool One = Linked.size() == 1;
    warn(Output + ": " + std::to_string(Linked.size()) +
         (One ? " linked source was compiled uninstrumented, its lines record"
              : " linked sources were compiled uninstrumented, their lines record") +
         " nothing at run time:");
    for (const UninstrumentedSource &S : Linked)
      warn(Output + ":   " + S.Source + (S.Reason.empty() ? "" : " (" + S.Reason + ")"));
  }

  // The end of a command that ran the real compiler with status Status: marks or reports.
  int finish(const CompileCommand &C, int Status) {
    if (Status != 0)
      return Status;
    if (C.links())
      reportLinked(C);
    else
      for (const CommandInput &In : C.Inputs)
        markObject(C, In);
    return Status;
  }

  int main(std::vector<std::string> Original) {
    CompileCommand C;
    {
      llvm::BumpPtrAllocator Allocator;
      llvm::cl::ExpansionContext Expansion(Allocator, llvm::cl::TokenizeGNUCommandLine);
      llvm::SmallVector<const char *, 64> Expanded;
      for (const std::string &A : Original)
        Expanded.push_back(A.c_str());
      bool HadResponseFile = false;
      for (const std::string &A : Original)
        HadResponseFile |= A.size() > 1 && A[0] == '@';
      if (llvm::Error E = Expansion.expandResponseFiles(Expanded)) {
        // The real compiler reports a missing response file in its own words.
        llvm::consumeError(std::move(E));
        return run(Compiler, Original);
      }
      C = wrapper::parseCompileCommand(std::vector<std::string>(Expanded.begin(), Expanded.end()),
                                       Cxx);
      C.HadResponseFile = HadResponseFile;
    }
    if (C.Inputs.empty() || C.PreprocessOnly || C.SyntaxOnly)
      return run(Compiler, Original); // --version, -E, -M, -MM, -fsyntax-only, -print-*...
    bool AnySource = false, Stdin = false;
    for (const CommandInput &In : C.Inputs) {
      AnySource |= In.Lang != Language::Other;
      Stdin |= In.Path == "-";
    }
    if (!C.Unknown.empty()) {
      warn("unknown option '" + C.Unknown + "': passing the command to " + Compiler + " unchanged" +
           (C.links() ? " (with the sleuth runtime)" : ""));
      for (const CommandInput &In : C.Inputs)
        if (In.Lang != Language::Other)
          stats(In, "unknown-option", nullptr, 0, "unknown option " + C.Unknown);
      std::vector<std::string> Args = Original;
      if (C.links())
        linkRuntime(Args, C);
      return finish(C, run(Compiler, Args));
    }
    if (Stdin || !AnySource || !makeScratch()) {
      for (const CommandInput &In : C.Inputs)
        if (In.Lang != Language::Other)
          stats(In, "not-instrumented", nullptr, 0, Stdin ? "standard input" : "no scratch");
      std::vector<std::string> Args = Original;
      if (C.links())
        linkRuntime(Args, C);
      return finish(C, run(Compiler, Args));
    }
    if (!C.links()) {
      // -c or -S: one compile per input, as the real compiler does them.
      int Status = 0;
      for (size_t N = 0; N < C.Inputs.size(); ++N) {
        const CommandInput &In = C.Inputs[N];
        std::optional<int> S;
        if (In.Lang != Language::Other)
          S = compileInstrumented(C, In, N, "");
        if (!S)
          S = C.Inputs.size() == 1 ? run(Compiler, Original)
                                   : run(Compiler, maybeResponseFile(C, oneInput(C, In), N));
        if (*S == 0)
          markObject(C, In);
        else if (Status == 0)
          Status = *S;
      }
      return Status;
    }
    // Compile and link: each source to an object in the scratch directory, then the original
    // command with those objects in place of the sources, and the runtime.
    std::vector<std::string> Args;
    size_t Next = 0;
    for (size_t I = 0; I < C.Args.size(); ++I) {
      if (Next < C.Inputs.size() && C.Inputs[Next].Index == I) {
        const CommandInput &In = C.Inputs[Next];
        size_t N = Next++;
        if (In.Lang != Language::Other) {
          std::string Object = std::string(Scratch) + "/" + std::to_string(N) + "/" +
                               std::string(llvm::sys::path::stem(In.Path)) + ".o";
          if (compileInstrumented(C, In, N, Object)) {
            Args.insert(Args.end(), {"-x", "none", Object});
            if (!In.XLanguage.empty())
              Args.insert(Args.end(), {"-x", In.XLanguage});
            continue;
          }
        }
      }
      Args.push_back(C.Args[I]);
    }
    linkRuntime(Args, C);
    return finish(C, run(Compiler, maybeResponseFile(C, Args, C.Inputs.size())));
  }
};

void printHelp(bool Cxx) {
  llvm::outs()
      << "usage: sleuth " << (Cxx ? "c++" : "cc") << " [--sleuth-mode=deps|coverage] "
      << "[--sleuth-counters=exact|minimal] COMPILER_ARGS...\n\n"
      << "Instruments each C/C++ source, compiles it with the real compiler and links the "
         "sleuth runtime;\nanything else is passed to the real compiler as it is. See "
         "docs/wrappers.md.\n\n"
      << "  --sleuth-mode=MODE  deps (dependences, the default) or coverage; overrides "
         "$SLEUTH_MODE\n"
      << "  --sleuth-counters=HOW  coverage mode's counter placement; overrides "
         "$SLEUTH_COUNTERS\n\n"
      << "environment:\n"
      << "  " << (Cxx ? "SLEUTH_CXX" : "SLEUTH_CC") << "   the real compiler (default "
      << (Cxx ? "c++" : "cc") << ")\n"
      << "  SLEUTH_MODE  deps or coverage\n"
      << "  SLEUTH_STATS FILE: append one line per source (file, mode, status, functions, "
         "probes,\n               functions skipped, milliseconds, reason, included files "
         "instrumented,\n               of those replayed from the header cache, functions "
         "skipped by\n               reason; tab-separated)\n"
      << "  SLEUTH_COUNTERS  coverage mode's counter placement: exact (the default) or "
         "minimal\n               (fewer counters, derived as gcov does; a run that "
         "ends inside a\n               block miscounts it); see sleuth instrument --help\n"
      << "  SLEUTH_PATH  1: coverage mode also records each run's path, for sleuth localize\n"
         "               --formula sat-tar (docs/localizer.md)\n"
      << "  SLEUTH_HEADERS  project (the default): also instrument the included files that are\n"
         "               not system headers nor under /usr, /opt; DIR[:DIR…]: only those under\n"
         "               these directories; none: the compiled sources only\n"
      << "  SLEUTH_HEADER_CACHE  where instrumented project headers are kept, so that each is\n"
         "               instrumented once, not with every source (default\n"
         "               $XDG_CACHE_HOME/sleuth/headers or ~/.cache/sleuth/headers); off: none\n"
      << "  SLEUTH_KEEP_SCRATCH=1  keep the instrumented sources (their directory is printed)\n"
      << "  SLEUTH_CHECKED_READS=1  deps mode: check every read of a local at run time (see\n"
         "               sleuth instrument --checked-reads)\n"
      << "  SLEUTH_PERTURBABLE=1  deps mode: a build for the soundness oracle, whose runs can\n"
         "               perturb any write (see sleuth instrument --perturbable)\n";
}

int wrap(int Argc, const char **Argv, bool Cxx) {
  CommandName = Cxx ? "c++" : "cc";
  Wrapper W;
  W.Cxx = Cxx;
  const char *FromEnv = std::getenv(Cxx ? "SLEUTH_CXX" : "SLEUTH_CC");
  W.Compiler = FromEnv && *FromEnv ? FromEnv : (Cxx ? "c++" : "cc");
  std::vector<std::string> Args;
  const char *ModeEnv = std::getenv("SLEUTH_MODE");
  std::string Mode = ModeEnv ? ModeEnv : "";
  std::string ModeFrom = "SLEUTH_MODE";
  if (const char *Checked = std::getenv("SLEUTH_CHECKED_READS");
      Checked && *Checked && std::string(Checked) != "0")
    W.StaticReads = false;
  if (const char *Perturbable = std::getenv("SLEUTH_PERTURBABLE");
      Perturbable && *Perturbable && std::string(Perturbable) != "0")
    W.AddressedLocals = true;
  const char *CountersEnv = std::getenv("SLEUTH_COUNTERS");
  std::string Counters = CountersEnv ? CountersEnv : "";
  std::string CountersFrom = "SLEUTH_COUNTERS";
  for (int I = 1; I < Argc; ++I) {
    llvm::StringRef A = Argv[I];
    if (A.consume_front("--sleuth-mode=")) {
      Mode = std::string(A);
      ModeFrom = "--sleuth-mode";
    } else if (A.consume_front("--sleuth-counters=")) {
      Counters = std::string(A);
      CountersFrom = "--sleuth-counters";
    } else {
      Args.push_back(Argv[I]);
    }
  }
  // `--help` alone is the wrapper's; with other arguments (`-v --help`, `--help=warnings`) it
  // is the real compiler's.
  if (Args.size() == 1 && (Args[0] == "--help" || Args[0] == "-h")) {
    printHelp(Cxx);
    return 0;
  }
  // A misspelt mode is a usage error, before anything is compiled: a build in another mode
  // than the one asked for would only show at run time, as missing records.
  if (Mode == "coverage" || Mode == "cov") {
    W.Mode = InstrumentMode::Coverage;
    W.ModeName = "coverage";
  } else if (!(Mode.empty() && ModeFrom == "SLEUTH_MODE") && Mode != "deps" &&
             Mode != "dependences") {
    message() << ModeFrom << ": unknown mode '" << Mode << "' (accepted: deps, coverage)\n";
    return 2;
  }
  if (Counters == "minimal") {
    W.Counters = CoverageCounters::Minimal;
  } else if (!(Counters.empty() && CountersFrom == "SLEUTH_COUNTERS") && Counters != "exact") {
    message() << CountersFrom << ": unknown counter placement '" << Counters
              << "' (accepted: exact, minimal)\n";
    return 2;
  }
  if (const char *Path = std::getenv("SLEUTH_PATH"); Path && *Path) {
    llvm::StringRef P(Path);
    if (P == "1" || P == "yes" || P == "on")
      W.RecordPath = true;
    else if (P != "0" && P != "no" && P != "off") {
      message() << "SLEUTH_PATH: expected 1 or 0, not '" << Path << "'\n";
      return 2;
    }
  }
  if (const char *Headers = std::getenv("SLEUTH_HEADERS"); Headers && *Headers) {
    llvm::StringRef H(Headers);
    if (H == "0" || H == "none" || H == "no") {
      W.IncludedFiles = false;
    } else if (H != "1" && H != "project" && H != "yes") {
      llvm::SmallVector<llvm::StringRef, 4> Roots;
      H.split(Roots, ':', -1, /*KeepEmpty=*/false);
      for (llvm::StringRef Root : Roots)
        W.IncludedRoots.push_back(absolute(std::string(Root)));
    }
  }
  if (const char *Cache = std::getenv("SLEUTH_HEADER_CACHE"); !Cache || !*Cache) {
    W.HeaderCache = defaultHeaderCacheDirectory();
  } else if (llvm::StringRef C(Cache); C != "0" && C != "off" && C != "none" && C != "no") {
    W.HeaderCache = absolute(Cache);
    if (std::error_code EC = llvm::sys::fs::create_directories(W.HeaderCache)) {
      warn("SLEUTH_HEADER_CACHE: cannot create " + W.HeaderCache + ": " + EC.message() +
           "; instrumenting headers with each source");
      W.HeaderCache.clear();
    }
  }
  const char *Keep = std::getenv("SLEUTH_KEEP_SCRATCH");
  W.KeepScratch = Keep && *Keep && std::string(Keep) != "0";
  int Status = W.main(std::move(Args));
  if (W.KeepScratch && !W.Scratch.empty())
    message() << "instrumented sources kept in " << W.Scratch << "\n";
  return Status;
}

} // namespace

int ccMain(int Argc, const char **Argv) { return wrap(Argc, Argv, false); }
int cxxMain(int Argc, const char **Argv) { return wrap(Argc, Argv, true); }

} // namespace sleuth
