// `sleuth slice DEPS [CRITERION] [options]`: load, slice, render, write.
#include "sleuth/slicer/command.h"
#include "sleuth/slicer/dependences.h"
#include "sleuth/slicer/views.h"

#include <fmt/format.h>

#include <cerrno>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <string>

#include <sys/stat.h>
#include <unistd.h>

namespace sleuth {

namespace {

constexpr const char *Usage =
    R"(usage: sleuth slice DEPS [CRITERION] [options]

Prints the slice of the run recorded in the dependence file DEPS.

CRITERION (without one: every executed node, the whole dependence graph):
  FILE:LINE[:VAR]      the nodes at LINE of FILE (full path, path suffix or
                       basename), only those named VAR if given
  FUNCTION:return      the return value of FUNCTION (`ns::C::f` or `f`)
  VAR@FUNCTION[:LINE]  the writes of VAR (or parameter VAR) in FUNCTION
  last                 the last node the main thread completed
  crash                the same, and after a fatal signal also the
                       expressions it cut short (their reads were recorded):
                       where a crashing run stopped

options:
  --forward            what the criterion influenced, instead of where it
                       came from
  --format FORMAT      code (default), deps, dot, svg or json
  --depth N            follow at most N dependences from the criterion
  --data-only          follow data dependences only
  --control-only       follow control dependences only
  -o, --output FILE    write to FILE (atomically) instead of stdout
  -h, --help           show this help
)";

enum class Format { Code, Deps, Dot, Svg, Json };

struct Arguments {
  std::string DepsFile;
  std::optional<std::string> Criterion;
  SliceOptions Options;
  Format Form = Format::Code;
  std::optional<std::string> Output;
  bool Help = false;
};

struct UsageError {
  std::string Message;
};

std::optional<Format> formatOf(std::string_view Name) {
  if (Name == "code")
    return Format::Code;
  if (Name == "deps")
    return Format::Deps;
  if (Name == "dot")
    return Format::Dot;
  if (Name == "svg")
    return Format::Svg;
  if (Name == "json")
    return Format::Json;
  return std::nullopt;
}

Arguments parseArguments(int Argc, const char **Argv) {
  Arguments Args;
  std::vector<std::string> Positional;
  bool DataOnly = false, ControlOnly = false, OptionsDone = false;
  for (int I = 1; I < Argc; ++I) {
    std::string_view Arg = Argv[I];
    if (OptionsDone || Arg.empty() || Arg[0] != '-' || Arg == "-") {
      Positional.emplace_back(Arg);
      continue;
    }
    // Options with a value accept `--opt VALUE` and `--opt=VALUE`.
    std::optional<std::string_view> Inline;
    std::string_view Name = Arg;
    if (Arg.starts_with("--"))
      if (std::size_t Eq = Arg.find('='); Eq != std::string_view::npos) {
        Name = Arg.substr(0, Eq);
        Inline = Arg.substr(Eq + 1);
      }
    auto Value = [&]() -> std::string_view {
      if (Inline)
        return *Inline;
      if (I + 1 >= Argc)
        throw UsageError{fmt::format("option '{}' needs a value", Name)};
      return Argv[++I];
    };
    auto NoValue = [&] {
      if (Inline)
        throw UsageError{fmt::format("option '{}' takes no value", Name)};
    };
    if (Name == "--") {
      NoValue();
      OptionsDone = true;
    } else if (Name == "-h" || Name == "--help") {
      NoValue();
      Args.Help = true;
    } else if (Name == "--forward") {
      NoValue();
      Args.Options.Forward = true;
    } else if (Name == "--data-only") {
      NoValue();
      DataOnly = true;
    } else if (Name == "--control-only") {
      NoValue();
      ControlOnly = true;
    } else if (Name == "--format") {
      std::string_view F = Value();
      std::optional<Format> Form = formatOf(F);
      if (!Form)
        throw UsageError{
            fmt::format("unknown format '{}' (expected code, deps, dot, svg or json)", F)};
      Args.Form = *Form;
    } else if (Name == "--depth") {
      std::string_view D = Value();
      unsigned Depth = 0;
      auto [Ptr, Ec] = std::from_chars(D.data(), D.data() + D.size(), Depth);
      if (D.empty() || Ec != std::errc() || Ptr != D.data() + D.size())
        throw UsageError{fmt::format("--depth needs a non-negative number, not '{}'", D)};
      Args.Options.Depth = Depth;
    } else if (Name == "-o" || Name == "--output") {
      Args.Output = std::string(Value());
      if (Args.Output->empty())
        throw UsageError{"-o needs a file name"};
    } else if (Arg.starts_with("-o") && !Arg.starts_with("--")) {
      Args.Output = std::string(Arg.substr(2));
    } else {
      throw UsageError{fmt::format("unknown option '{}' (see --help)", Arg)};
    }
  }
  if (Args.Help)
    return Args;
  if (DataOnly && ControlOnly)
    throw UsageError{"--data-only and --control-only exclude each other"};
  Args.Options.Data = !ControlOnly;
  Args.Options.Control = !DataOnly;
  if (Positional.empty())
    throw UsageError{"missing dependence file (usage: sleuth slice DEPS "
                     "[CRITERION] [options])"};
  if (Positional.size() > 2)
    throw UsageError{fmt::format("unexpected argument '{}'", Positional[2])};
  Args.DepsFile = Positional[0];
  if (Positional.size() == 2)
    Args.Criterion = Positional[1];
  else if (Args.Options.Depth)
    throw UsageError{"--depth needs a criterion to count from"};
  return Args;
}

/// Writes Text to Path through a temporary file in the same directory and a
/// rename, so Path is either the old file or the complete new one.
bool writeAtomically(const std::string &Path, const std::string &Text, std::string &Error) {
  std::string Temp = Path + ".tmp-XXXXXX";
  int Fd = ::mkstemp(Temp.data());
  if (Fd < 0) {
    Error = fmt::format("cannot write '{}': {}", Path, std::strerror(errno));
    return false;
  }
  // mkstemp creates 0600; give the result the permissions a plain
  // open(O_CREAT, 0666) would have.
  mode_t Mask = ::umask(0);
  ::umask(Mask);
  ::fchmod(Fd, 0666 & ~Mask);
  std::size_t Done = 0;
  while (Done < Text.size()) {
    ssize_t N = ::write(Fd, Text.data() + Done, Text.size() - Done);
    if (N < 0 && errno == EINTR)
      continue;
    if (N <= 0)
      break;
    Done += static_cast<std::size_t>(N);
  }
  int WriteErrno = errno;
  bool Ok = Done == Text.size();
  if (::close(Fd) != 0 && Ok) {
    Ok = false;
    WriteErrno = errno;
  }
  if (Ok && ::rename(Temp.c_str(), Path.c_str()) != 0) {
    Ok = false;
    WriteErrno = errno;
  }
  if (!Ok) {
    ::unlink(Temp.c_str());
    Error = fmt::format("cannot write '{}': {}", Path, std::strerror(WriteErrno));
  }
  return Ok;
}

/// Prints `sleuth slice: MESSAGE`; returns Code (1: an input or the output is at fault,
/// 2: the command line).
int fail(const std::string &Message, int Code = 1) {
  std::fprintf(stderr, "sleuth slice: %s\n", Message.c_str());
  return Code;
}

} // namespace

int sliceMain(int Argc, const char **Argv) {
  Arguments Args;
  try {
    Args = parseArguments(Argc, Argv);
  } catch (const UsageError &E) {
    return fail(E.Message, 2);
  }
  if (Args.Help) {
    std::fputs(Usage, stdout);
    return 0;
  }

  std::string Error;
  std::optional<DependenceGraph> G = DependenceGraph::load(Args.DepsFile, Error);
  if (!G)
    return fail(Error);

  Slice S;
  if (Args.Criterion) {
    std::optional<std::vector<DependenceGraph::Node>> Criteria =
        resolveCriterion(*G, *Args.Criterion, Error);
    if (!Criteria)
      return fail(Error);
    bool AnyExecuted = false;
    for (DependenceGraph::Node N : *Criteria)
      AnyExecuted |= G->site(N).executed();
    if (!AnyExecuted)
      std::fprintf(stderr, "sleuth slice: note: criterion '%s' never executed in this run\n",
                   Args.Criterion->c_str());
    S = computeSlice(*G, *Criteria, Args.Options);
    S.Criterion = *Args.Criterion;
  } else {
    S = wholeGraph(*G, Args.Options);
  }

  for (const std::string &W : changedSourceWarnings(*G, S))
    std::fprintf(stderr, "sleuth slice: %s\n", W.c_str());

  std::string Text;
  std::vector<std::string> Warnings;
  switch (Args.Form) {
  case Format::Code:
    Text = codeView(*G, S, &Warnings);
    break;
  case Format::Deps:
    Text = depsView(*G, S);
    break;
  case Format::Dot:
    Text = dotView(*G, S);
    break;
  case Format::Json:
    Text = jsonView(*G, S);
    break;
  case Format::Svg: {
    std::optional<std::string> Svg = svgView(*G, S, Error);
    if (!Svg)
      return fail(Error);
    Text = std::move(*Svg);
    break;
  }
  }
  for (const std::string &W : Warnings)
    std::fprintf(stderr, "sleuth slice: %s\n", W.c_str());

  if (Args.Output) {
    if (!writeAtomically(*Args.Output, Text, Error))
      return fail(Error);
    return 0;
  }
  if (std::fwrite(Text.data(), 1, Text.size(), stdout) != Text.size() || std::fflush(stdout) != 0)
    return fail(fmt::format("cannot write to standard output: {}", std::strerror(errno)));
  return 0;
}

} // namespace sleuth
