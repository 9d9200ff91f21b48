#include "compile_command.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/ADT/StringSwitch.h"
#include "llvm/Support/Path.h"

#include <algorithm>
#include <initializer_list>

namespace sleuth::wrapper {
namespace {

bool startsWithAny(llvm::StringRef A, std::initializer_list<llvm::StringRef> Prefixes) {
  return std::any_of(Prefixes.begin(), Prefixes.end(),
                     [&](llvm::StringRef P) { return A.starts_with(P); });
}

bool isAnyOf(llvm::StringRef A, std::initializer_list<llvm::StringRef> Options) {
  return std::find(Options.begin(), Options.end(), A) != Options.end();
}

// Single-token options of GCC and Clang the wrappers know; every other option is "unknown"
// and the command is given to the real compiler as it is.
bool isKnownOption(llvm::StringRef A) {
  if (isAnyOf(A, {"-c",
                  "-S",
                  "-E",
                  "-v",
                  "-w",
                  "-s",
                  "-P",
                  "-C",
                  "-CC",
                  "-H",
                  "-M",
                  "-MM",
                  "-MD",
                  "-MMD",
                  "-MP",
                  "-MG",
                  "-ansi",
                  "-pipe",
                  "-pthread",
                  "-pthreads",
                  "-shared",
                  "-static",
                  "-rdynamic",
                  "-pie",
                  "-no-pie",
                  "-r",
                  "-p",
                  "-pg",
                  "-undef",
                  "-trigraphs",
                  "-traditional",
                  "-traditional-cpp",
                  "-symbolic",
                  "-nostdlib",
                  "-nodefaultlibs",
                  "-nostartfiles",
                  "-nolibc",
                  "-nostdinc",
                  "-nostdinc++",
                  "-nostdlib++",
                  "-coverage",
                  "--coverage",
                  "-###",
                  "-time",
                  "--version",
                  "--help",
                  "-h",
                  "-integrated-as",
                  "-no-integrated-as",
                  "-X",
                  "-Q",
                  "-dumpversion",
                  "-dumpmachine",
                  "-dumpspecs",
                  "-dumpfullversion",
                  "--verbose",
                  "-mno-",
                  "-fsyntax-only",
                  "-save-temps",
                  "-"}))
    return true;
  return startsWithAny(A, {"-f",
                           "-W",
                           "-m",
                           "-O",
                           "-g",
                           "-std=",
                           "--std=",
                           "-D",
                           "-U",
                           "-I",
                           "-L",
                           "-l",
                           "-o",
                           "-x",
                           "-pedantic",
                           "-static-",
                           "-shared-",
                           "-print-",
                           "--print-",
                           "-save-temps=",
                           "-isystem",
                           "-iquote",
                           "-idirafter",
                           "-include",
                           "-imacros",
                           "-iprefix",
                           "-iwithprefix",
                           "-isysroot",
                           "--sysroot",
                           "-B",
                           "-specs=",
                           "--specs=",
                           "-stdlib=",
                           "--stdlib=",
                           "-rtlib=",
                           "--rtlib=",
                           "-unwindlib=",
                           "--target=",
                           "-target",
                           "-march=",
                           "-mcpu=",
                           "-mtune=",
                           "-d",
                           "-T",
                           "-u",
                           "-z",
                           "-e",
                           "--param",
                           "-Xlinker",
                           "-Xassembler",
                           "-Xpreprocessor",
                           "-Xclang",
                           "-mllvm",
                           "-MF",
                           "-MT",
                           "-MQ",
                           "-MJ",
                           "-aux-info",
                           "-dumpdir",
                           "-dumpbase",
                           "-resource-dir",
                           "--gcc-toolchain",
                           "-gcc-toolchain",
                           "-no-canonical-prefixes",
                           "-flto",
                           "-Xarch_",
                           "-cxx-isystem",
                           "-ivfsoverlay",
                           "-include-pch",
                           "-working-directory",
                           "-F",
                           "-imultilib",
                           "-imultiarch",
                           "-iplugindir",
                           "--ld-path=",
                           "-fuse-ld=",
                           "-Ofast",
                           "-nogpu",
                           "-Xopenmp"});
}

// -f and -m options that change how a source parses (predefined macros, the language); Clang
// knows them all. Other GCC flags may be unknown to Clang and would make the parse fail.
bool matters(llvm::StringRef A) {
  if (isAnyOf(A, {"-ansi",
                  "-pthread",
                  "-undef",
                  "-trigraphs",
                  "-nostdinc",
                  "-nostdinc++",
                  "-m32",
                  "-m64",
                  "-mx32",
                  "-fsigned-char",
                  "-funsigned-char",
                  "-fno-signed-char",
                  "-fno-unsigned-char",
                  "-fexceptions",
                  "-fno-exceptions",
                  "-fcxx-exceptions",
                  "-fno-cxx-exceptions",
                  "-frtti",
                  "-fno-rtti",
                  "-fopenmp",
                  "-fno-openmp",
                  "-fms-extensions",
                  "-fgnu89-inline",
                  "-fno-gnu89-inline",
                  "-fno-builtin",
                  "-fshort-enums",
                  "-fshort-wchar",
                  "-fchar8_t",
                  "-fno-char8_t",
                  "-fcoroutines",
                  "-fgnu-keywords",
                  "-fno-gnu-keywords",
                  "-fno-operator-names",
                  "-fasm",
                  "-fno-asm",
                  "-fPIC",
                  "-fpic",
                  "-fPIE",
                  "-fpie",
                  "-fno-PIC",
                  "-fno-pic",
                  "-fno-PIE",
                  "-fno-pie",
                  "-ffast-math",
                  "-fno-fast-math",
                  "-ffinite-math-only",
                  "-fno-finite-math-only",
                  "-fsized-deallocation",
                  "-fno-sized-deallocation",
                  "-faligned-new",
                  "-fno-aligned-new",
                  "-fdollars-in-identifiers",
                  "-fno-dollars-in-identifiers",
                  "-fopenmp-simd",
                  "-fgnu-runtime",
                  "-fstack-protector",
                  "-fstack-protector-strong",
                  "-fstack-protector-all",
                  "-fno-stack-protector",
                  "-fwrapv",
                  "-fno-wrapv",
                  "-fno-threadsafe-statics"}))
    return true;
  return startsWithAny(A, {"-D",
                           "-U",
                           "-I",
                           "-std=",
                           "--std=",
                           "-O",
                           "-isystem",
                           "-iquote",
                           "-idirafter",
                           "-include",
                           "-imacros",
                           "-iprefix",
                           "-iwithprefix",
                           "-isysroot",
                           "--sysroot",
                           "-Wp,",
                           "-stdlib=",
                           "--target=",
                           "-march=",
                           "-mcpu=",
                           "-msse",
                           "-mno-sse",
                           "-mavx",
                           "-mno-avx",
                           "-mfma",
                           "-mbmi",
                           "-mpclmul",
                           "-mcrc32",
                           "-mpopcnt",
                           "-mlzcnt",
                           "-maes",
                           "-fno-builtin-",
                           "-finput-charset=",
                           "-fexec-charset=",
                           "-fmacro-prefix-map=",
                           "-ffile-prefix-map=",
                           "-fvisibility="});
}

// -Wall, -Wno-return-type, -Werror=implicit-int, ...: not -Wl,... -Wa,... or -Wp,... (the
// preprocessor options, which matters() keeps).
bool isWarningOption(llvm::StringRef A) {
  return A.starts_with("-W") && A.size() > 2 && !startsWithAny(A, {"-Wl,", "-Wa,", "-Wp,"});
}

Language languageOf(llvm::StringRef Path, llvm::StringRef X, bool CxxDriver) {
  if (!X.empty() && X != "none")
    return llvm::StringSwitch<Language>(X)
        .Case("c", Language::C)
        .Case("c++", Language::Cxx)
        .Default(Language::Other);
  llvm::StringRef Ext = llvm::sys::path::extension(Path);
  if (Ext == ".c")
    return CxxDriver ? Language::Cxx : Language::C;
  if (isAnyOf(Ext, {".cc", ".cp", ".cxx", ".cpp", ".CPP", ".c++", ".C"}))
    return Language::Cxx;
  return Language::Other;
}

} // namespace

bool takesSeparateValue(const std::string &Option) {
  return isAnyOf(Option, {"-o",
                          "-x",
                          "-I",
                          "-D",
                          "-U",
                          "-L",
                          "-l",
                          "-include",
                          "-imacros",
                          "-isystem",
                          "-iquote",
                          "-idirafter",
                          "-iprefix",
                          "-iwithprefix",
                          "-iwithprefixbefore",
                          "-isysroot",
                          "-imultilib",
                          "-imultiarch",
                          "-MF",
                          "-MT",
                          "-MQ",
                          "-MJ",
                          "-Xlinker",
                          "-Xassembler",
                          "-Xpreprocessor",
                          "-Xclang",
                          "-mllvm",
                          "-u",
                          "-T",
                          "-z",
                          "-e",
                          "--param",
                          "-arch",
                          "-target",
                          "--sysroot",
                          "-aux-info",
                          "-dumpdir",
                          "-dumpbase",
                          "-dumpbase-ext",
                          "-gcc-toolchain",
                          "-working-directory",
                          "-ivfsoverlay",
                          "-include-pch",
                          "-F",
                          "-cxx-isystem",
                          "-resource-dir",
                          "-specs",
                          "--include",
                          "--include-directory",
                          "--define-macro",
                          "--undefine-macro",
                          "--output",
                          "--language",
                          "-Xopenmp-target"});
}

CompileCommand parseCompileCommand(std::vector<std::string> Args, bool CxxDriver) {
  CompileCommand C;
  C.Args = std::move(Args);
  std::string X;
  for (size_t I = 0; I < C.Args.size(); ++I) {
    llvm::StringRef A = C.Args[I];
    if (A == "-" || A.empty() || A[0] != '-') {
      C.Inputs.push_back({I, std::string(A), X, languageOf(A, X, CxxDriver)});
      continue;
    }
    if (!isKnownOption(A) && !takesSeparateValue(std::string(A))) {
      if (C.Unknown.empty())
        C.Unknown = std::string(A);
      continue;
    }
    if (A == "-E" || A == "-M" || A == "-MM")
      C.PreprocessOnly = true;
    else if (A == "-fsyntax-only")
      C.SyntaxOnly = true;
    else if (A == "-c" || A == "-S")
      C.CompileOnly = true;
    else if (A == "-shared")
      C.Shared = true;
    else if (A == "-nostdlib" || A == "-nodefaultlibs")
      C.NoStdLib = true;
    else if (A == "-static" || A == "-static-pie")
      C.Static = true;
    else if (A == "-MD" || A == "-MMD")
      C.DepFile = true;
    if (takesSeparateValue(std::string(A))) {
      if (I + 1 >= C.Args.size()) {
        if (C.Unknown.empty())
          C.Unknown = std::string(A) + " without a value";
        break;
      }
      const std::string &Value = C.Args[++I];
      if (A == "-o" || A == "--output")
        C.Output = Value;
      else if (A == "-MF")
        C.DepFilePath = Value;
      else if (A == "-x" || A == "--language")
        X = Value;
      continue;
    }
    if (A.starts_with("-x"))
      X = std::string(A.drop_front(2));
    else if (A.starts_with("-o"))
      C.Output = std::string(A.drop_front(2));
    else if (A.starts_with("-MF"))
      C.DepFilePath = std::string(A.drop_front(3));
  }
  return C;
}

std::vector<std::string> parseArguments(const CompileCommand &Command, const CommandInput &Input) {
  std::vector<std::string> Out;
  for (size_t I = 0; I < Command.Args.size(); ++I) {
    const std::string &A = Command.Args[I];
    if (A.empty() || A[0] != '-' || A == "-")
      continue;
    bool Separate = takesSeparateValue(A);
    bool Keep = Separate
                    ? isAnyOf(A, {"-I", "-D", "-U", "-include", "-imacros", "-isystem", "-iquote",
                                  "-idirafter", "-iprefix", "-iwithprefix", "-iwithprefixbefore",
                                  "-isysroot", "--sysroot", "-target", "-cxx-isystem"})
                    : matters(A);
    // Pedantic diagnostics decide whether an inline function may be instrumented (Clang warns
    // of statics used in one with external linkage under -pedantic): passed on as -pedantic,
    // which the parse's -w keeps quiet (-pedantic-errors would make them errors).
    if (isAnyOf(A, {"-pedantic", "-pedantic-errors", "-Wpedantic"})) {
      if (std::find(Out.begin(), Out.end(), "-pedantic") == Out.end())
        Out.push_back("-pedantic");
      continue;
    }
    // The user's warning options: they decide what the real compiler rejects (-Werror=...)
    // and what it accepts (-Wno-return-type), and the parse must agree. Clang ignores the
    // GCC-only ones under the parse's -w. Not -Wl, and -Wa, (linker and assembler options).
    if (isWarningOption(A))
      Keep = true;
    if (Keep) {
      Out.push_back(A);
      if (Separate && I + 1 < Command.Args.size())
        Out.push_back(Command.Args[I + 1]);
    }
    if (Separate)
      ++I;
  }
  Out.push_back("-x");
  Out.push_back(Input.Lang == Language::Cxx ? "c++" : "c");
  return Out;
}

std::vector<std::string> argumentsWithoutInputs(const CompileCommand &Command) {
  std::vector<std::string> Out;
  size_t Next = 0;
  for (size_t I = 0; I < Command.Args.size(); ++I) {
    if (Next < Command.Inputs.size() && Command.Inputs[Next].Index == I) {
      ++Next;
      continue;
    }
    Out.push_back(Command.Args[I]);
  }
  return Out;
}

std::string depFilePath(const CompileCommand &Command, const CommandInput &Input) {
  if (!Command.DepFilePath.empty())
    return Command.DepFilePath;
  llvm::SmallString<256> Path(Command.Output.empty() ? llvm::sys::path::filename(Input.Path)
                                                     : llvm::StringRef(Command.Output));
  llvm::sys::path::replace_extension(Path, ".d");
  return std::string(Path);
}

std::string escapeForDepFile(const std::string &Path) {
  std::string Out;
  for (char C : Path) {
    if (C == ' ' || C == '#' || C == '\\')
      Out += '\\';
    else if (C == '$')
      Out += '$';
    Out += C;
  }
  return Out;
}

std::string responseFileText(const std::vector<std::string> &Args) {
  std::string Out;
  for (const std::string &A : Args) {
    for (char C : A) {
      if (C == ' ' || C == '\t' || C == '\n' || C == '\\' || C == '\'' || C == '"')
        Out += '\\';
      Out += C;
    }
    Out += '\n';
  }
  return Out;
}

} // namespace sleuth::wrapper
