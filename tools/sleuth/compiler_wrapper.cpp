// `sleuth cc` / `sleuth c++`: compiler wrappers. Each C/C++ source on the command line is
// instrumented into a scratch directory and compiled from there with the real compiler; a link
// step also links the runtime. A source Clang cannot parse is compiled as it was, with a warning:
// the build never fails because of sleuth.
#include "commands.h"
#include "sleuth/instrumenter/instrumenter.h"

#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/Program.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdlib>
#include <string>
#include <vector>

namespace sleuth {
namespace {

bool isSource(llvm::StringRef Arg) {
  llvm::StringRef Ext = llvm::sys::path::extension(Arg);
  return Ext == ".c" || Ext == ".cc" || Ext == ".cpp" || Ext == ".cxx" || Ext == ".C" ||
         Ext == ".c++";
}

// Options whose value is the next argument.
bool takesValue(llvm::StringRef A) {
  return A == "-o" || A == "-I" || A == "-D" || A == "-U" || A == "-include" || A == "-x" ||
         A == "-MF" || A == "-MT" || A == "-MQ" || A == "-isystem" || A == "-iquote" ||
         A == "-idirafter" || A == "-L" || A == "-l" || A == "-Xlinker" || A == "-imacros" ||
         A == "--param" || A == "-arch" || A == "-target";
}

std::string runtimeLibrary() {
  // Next to an installed binary first, then the build tree this binary came from.
  std::string Self = llvm::sys::fs::getMainExecutable(nullptr, (void *)&runtimeLibrary);
  llvm::SmallString<256> Installed(llvm::sys::path::parent_path(Self));
  llvm::sys::path::append(Installed, "..", "lib", "libsleuth_rt.a");
  if (llvm::sys::fs::exists(Installed))
    return std::string(Installed);
  return SLEUTH_BUILD_RUNTIME_DIR "/libsleuth_rt.a";
}

std::string runtimeIncludeDirectory() {
  std::string Self = llvm::sys::fs::getMainExecutable(nullptr, (void *)&runtimeLibrary);
  llvm::SmallString<256> Installed(llvm::sys::path::parent_path(Self));
  llvm::sys::path::append(Installed, "..", "include", "sleuth", "runtime.h");
  if (llvm::sys::fs::exists(Installed))
    return std::string(llvm::sys::path::parent_path(llvm::sys::path::parent_path(Installed)));
  return SLEUTH_BUILD_INCLUDE_DIR;
}

int runCompiler(const std::vector<std::string> &Args) {
  auto Program = llvm::sys::findProgramByName(Args[0]);
  if (!Program) {
    llvm::errs() << "sleuth: compiler '" << Args[0] << "' not found\n";
    return 127;
  }
  std::vector<llvm::StringRef> Refs(Args.begin(), Args.end());
  std::string Error;
  int Status = llvm::sys::ExecuteAndWait(*Program, Refs, std::nullopt, {}, 0, 0, &Error);
  if (Status < 0) {
    llvm::errs() << "sleuth: cannot run " << Args[0] << ": " << Error << "\n";
    return 1;
  }
  return Status;
}

int wrap(int Argc, const char **Argv, bool Cxx) {
  const char *FromEnv = std::getenv(Cxx ? "SLEUTH_CXX" : "SLEUTH_CC");
  std::string Compiler = FromEnv && *FromEnv ? FromEnv : (Cxx ? "c++" : "cc");
  std::vector<std::string> In(Argv + 1, Argv + Argc);
  if (In.size() == 1 && (In[0] == "--help" || In[0] == "-h")) {
    llvm::outs() << "usage: sleuth " << (Cxx ? "c++" : "cc")
                 << " COMPILER_ARGS...\n\nInstruments each C/C++ source, compiles it with the "
                    "real compiler ($"
                 << (Cxx ? "SLEUTH_CXX" : "SLEUTH_CC") << ", default " << Compiler
                 << ") and links the sleuth runtime.\n";
    return 0;
  }
  // What the compile does: only a link step gets the runtime.
  bool Links = true;
  std::vector<std::string> ParseArgs; // for Clang: everything but inputs and outputs
  std::vector<size_t> Sources;
  for (size_t I = 0; I < In.size(); ++I) {
    const std::string &A = In[I];
    if (A == "-c" || A == "-S" || A == "-E" || A == "-fsyntax-only" || A == "-M" || A == "-MM")
      Links = false;
    if (takesValue(A) && I + 1 < In.size()) {
      if (A != "-o" && A != "-MF" && A != "-MT" && A != "-MQ" && A != "-L" && A != "-l" &&
          A != "-Xlinker") {
        ParseArgs.push_back(A);
        ParseArgs.push_back(In[I + 1]);
      }
      ++I;
      continue;
    }
    if (!A.empty() && A[0] != '-' && isSource(A)) {
      Sources.push_back(I);
      continue;
    }
    if (A == "-c" || A == "-MD" || A == "-MMD" || A.rfind("-o", 0) == 0 ||
        A.rfind("-Wl,", 0) == 0 || A.rfind("-l", 0) == 0 || A.rfind("-L", 0) == 0)
      continue;
    if (!A.empty() && A[0] == '-')
      ParseArgs.push_back(A);
  }
  std::vector<std::string> Out;
  Out.push_back(Compiler);
  llvm::SmallString<128> Scratch;
  if (!Sources.empty()) {
    if (std::error_code EC = llvm::sys::fs::createUniqueDirectory("sleuth-cc", Scratch)) {
      llvm::errs() << "sleuth: warning: cannot create a scratch directory (" << EC.message()
                   << "); compiling without instrumentation\n";
      Sources.clear();
    }
  }
  std::vector<std::string> Instrumented(In.size());
  for (size_t Index : Sources) {
    InstrumentRequest Request;
    Request.File = In[Index];
    Request.Arguments = ParseArgs;
    Request.ShowDiagnostics = false; // the real compiler reports problems in its own words
    InstrumentResult Result = instrument(Request);
    if (!Result.Ok) {
      llvm::errs() << "sleuth: warning: " << Result.Error << "; compiling it uninstrumented\n";
      continue;
    }
    llvm::SmallString<256> Target(Scratch);
    llvm::sys::path::append(Target, llvm::sys::path::filename(In[Index]));
    std::error_code EC;
    llvm::raw_fd_ostream OS(Target, EC);
    if (!EC) {
      OS << Result.Text;
      OS.close();
    }
    if (EC || OS.has_error()) {
      llvm::errs() << "sleuth: warning: cannot write " << Target
                   << "; compiling it uninstrumented\n";
      continue;
    }
    Instrumented[Index] = std::string(Target);
  }
  bool AnyInstrumented = false;
  for (size_t I = 0; I < In.size(); ++I) {
    if (!Instrumented[I].empty()) {
      // Quote includes of the original directory still resolve, in the same order.
      llvm::SmallString<256> Dir(llvm::sys::path::parent_path(In[I]));
      if (Dir.empty())
        Dir = ".";
      Out.push_back("-iquote");
      Out.push_back(std::string(Dir));
      Out.push_back(Instrumented[I]);
      AnyInstrumented = true;
    } else {
      Out.push_back(In[I]);
    }
  }
  if (AnyInstrumented) {
    Out.push_back("-I");
    Out.push_back(runtimeIncludeDirectory());
  }
  if (Links) {
    Out.push_back(runtimeLibrary());
    if (!Cxx)
      Out.push_back("-lstdc++");
    Out.push_back("-lpthread");
  }
  int Status = runCompiler(Out);
  if (!Scratch.empty())
    llvm::sys::fs::remove_directories(Scratch);
  return Status;
}

} // namespace

int ccMain(int Argc, const char **Argv) { return wrap(Argc, Argv, false); }
int cxxMain(int Argc, const char **Argv) { return wrap(Argc, Argv, true); }

} // namespace sleuth
