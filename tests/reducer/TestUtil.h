// Helpers for reducer tests: temporary directories and scripts.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace sleuth::reducer::testing {

class TempDir {
public:
  TempDir() {
    std::string T = std::filesystem::temp_directory_path() / "sleuth-reducer-test-XXXXXX";
    Path = mkdtemp(T.data());
  }
  ~TempDir() {
    std::error_code EC;
    std::filesystem::remove_all(Path, EC);
  }
  std::string operator/(const std::string &Name) const { return Path + "/" + Name; }
  std::string Path;
};

inline void writeFile(const std::string &Path, const std::string &Text, bool Executable = false) {
  std::ofstream(Path, std::ios::binary) << Text;
  if (Executable)
    chmod(Path.c_str(), 0755);
}

inline std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::ostringstream SS;
  SS << In.rdbuf();
  return SS.str();
}

#ifdef SLEUTH_REDUCE_CLI
struct CliResult {
  int Exit;
  std::string Out, Err;
};

/// Runs sleuth_reduce_cli with Args (already shell-quoted) in directory D.
inline CliResult cli(const TempDir &D, const std::string &Args) {
  std::string Cmd = "cd '" + D.Path + "' && '" SLEUTH_REDUCE_CLI "' " + Args + " >'" +
                    (D / "stdout") + "' 2>'" + (D / "stderr") + "'";
  int Status = std::system(Cmd.c_str());
  return {WIFEXITED(Status) ? WEXITSTATUS(Status) : -1, readFile(D / "stdout"),
          readFile(D / "stderr")};
}

/// The command-line tests' scripted compiler: "crashes" (exit 0) while prog.c divides by a
/// member access and still declares a struct, a crash on valid code.
inline const char *const CrashScript = R"(#!/bin/sh
grep -q '/ *[a-z]*->[a-z.]*y' prog.c && grep -q 'struct' prog.c
)";
#endif

} // namespace sleuth::reducer::testing
