// What a compiler command line asks for, as far as the wrappers (`sleuth cc`, `sleuth c++`) need
// to know: which inputs are C/C++ sources to instrument, whether it preprocesses, compiles or
// links, where the output and the depfile go, and which options Clang needs to parse a source
// the way the real compiler will compile it. Plain data; no Clang.
#pragma once

#include <string>
#include <vector>

namespace sleuth::wrapper {

enum class Language { C, Cxx, Other };

struct CommandInput {
  size_t Index;          // position in CompileCommand::Args
  std::string Path;      // as written ("-" for stdin)
  std::string XLanguage; // the `-x` in force for it ("" = none: decided by the extension)
  Language Lang;         // what it is compiled as
};

struct CompileCommand {
  std::vector<std::string> Args; // the arguments, response files expanded
  bool HadResponseFile = false;
  std::vector<CommandInput> Inputs;
  bool PreprocessOnly = false; // -E, -M, -MM
  bool SyntaxOnly = false;     // -fsyntax-only
  bool CompileOnly = false;    // -c or -S: no link
  bool Shared = false;         // -shared
  bool NoStdLib = false;       // -nostdlib, -nodefaultlibs
  bool Static = false;         // -static, -static-pie: no shared libraries
  bool DepFile = false;        // -MD or -MMD
  std::string Output;          // -o ("" = none)
  std::string DepFilePath;     // -MF ("" = derived from -o or the input)
  std::string Unknown;         // the first option the wrapper does not know ("" = none)
  bool links() const { return !PreprocessOnly && !SyntaxOnly && !CompileOnly; }
};

/// Classifies Args (without the compiler, response files already expanded). CxxDriver: the
/// command was given to `sleuth c++`, which compiles `.c` files as C++ (as g++ and clang++ do).
CompileCommand parseCompileCommand(std::vector<std::string> Args, bool CxxDriver);

/// Whether Option (exactly as written) takes the next argument as its value.
bool takesSeparateValue(const std::string &Option);

/// The arguments Clang needs to parse Input as the real compiler will compile it: macros,
/// include paths, language standard, the few -f/-m options that change predefined macros or
/// the language, and the warning options (-Wno-..., -Werror=...: what the real compiler
/// accepts). Other options Clang may not know (GCC's -f and -m flags) stay out.
std::vector<std::string> parseArguments(const CompileCommand &Command, const CommandInput &Input);

/// Args with every input removed (the options of a one-source compile of any of them).
std::vector<std::string> argumentsWithoutInputs(const CompileCommand &Command);

/// The depfile a -MD/-MMD compile of Input writes: -MF, else -o with `.d`, else the input's
/// base name with `.d` in the working directory.
std::string depFilePath(const CompileCommand &Command, const CommandInput &Input);

/// Text escaped as Make rules (and Ninja's depfile parser) need a path in a depfile.
std::string escapeForDepFile(const std::string &Path);

/// Args as a GCC response file (one argument a line, quoted where needed).
std::string responseFileText(const std::vector<std::string> &Args);

} // namespace sleuth::wrapper
