// Shared fixtures for the slicer tests: a scratch directory, the middle()
// example of design brief §7 as source and dependence file, and a way to run
// `sleuth slice` in-process.
#pragma once

#include "sleuth/slicer/command.h"
#include "sleuth/slicer/dependences.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace sleuth::test {

class TempDir {
public:
  TempDir() {
    std::string Template = (std::filesystem::temp_directory_path() / "slicer-test-XXXXXX").string();
    if (!::mkdtemp(Template.data()))
      throw std::runtime_error("mkdtemp failed");
    Path = Template;
  }
  ~TempDir() {
    std::error_code Ec;
    std::filesystem::remove_all(Path, Ec);
  }
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;

  std::string file(const std::string &Name) const { return (Path / Name).string(); }
  std::string write(const std::string &Name, const std::string &Text) const {
    std::filesystem::create_directories((Path / Name).parent_path());
    std::ofstream(file(Name), std::ios::binary) << Text;
    return file(Name);
  }
  std::vector<std::string> entries() const {
    std::vector<std::string> Names;
    for (const auto &E : std::filesystem::directory_iterator(Path))
      Names.push_back(E.path().filename().string());
    std::sort(Names.begin(), Names.end());
    return Names;
  }

  std::filesystem::path Path;
};

inline std::string readFile(const std::string &Path) {
  std::ifstream In(Path, std::ios::binary);
  std::ostringstream Buffer;
  Buffer << In.rdbuf();
  return Buffer.str();
}

/// middle() from the Debugging Book in C++, called as middle(2, 1, 3): it
/// returns y = 1 where x = 2 is the middle value.
inline const char *MiddleSource = R"(int middle(int x, int y, int z) {
    if (y < z) {
        if (x < y)
            return y;
        else if (x < z)
            return y;
    } else {
        if (x > y)
            return y;
        else if (x > z)
            return x;
    }
    return z;
}

int main() {
    int m = middle(2, 1, 3);
    return m;
}
)";

/// What the runtime records for that run. Sites 5, 8 and 9 never execute.
inline std::string middleDeps(const std::string &SourcePath) {
  return "sleuth-deps 1\n"
         "program ./middle\n"
         "status exit 1\n"
         "file 0 " +
         SourcePath +
         "\n"
         "func 0 0 1 14 middle\n"
         "func 1 0 16 19 main\n"
         "site 0 param 0 1 16 x\n"
         "site 1 param 0 1 23 y\n"
         "site 2 param 0 1 30 z\n"
         "site 3 test 0 2 9 <test>\n"
         "site 4 test 0 3 13 <test>\n"
         "site 5 ret 0 4 13 <middle()%20return%20value>\n"
         "site 6 test 0 5 18 <test>\n"
         "site 7 ret 0 6 13 <middle()%20return%20value>\n"
         "site 8 test 0 8 13 <test>\n"
         "site 9 ret 0 13 5 <middle()%20return%20value>\n"
         "site 10 var 1 17 9 m\n"
         "site 11 ret 1 18 5 <main()%20return%20value>\n"
         "hit 0 1\nhit 1 1\nhit 2 1\nhit 3 1\nhit 4 1\nhit 6 1\nhit 7 1\n"
         "hit 10 1\nhit 11 1\n"
         "data 3 1\ndata 3 2\n"
         "data 4 0\ndata 4 1\nctrl 4 3\n"
         "data 6 0\ndata 6 2\nctrl 6 4\n"
         "data 7 1\nctrl 7 6\n"
         "data 10 7\n"
         "data 11 10\n"
         "last 0 11\n"
         "end\n";
}

/// The middle example on disk: source and dependence file.
struct MiddleRun {
  TempDir Dir;
  std::string Source = Dir.write("middle.cpp", MiddleSource);
  std::string Deps = Dir.write("run.deps", middleDeps(Source));

  DependenceGraph graph() const {
    std::string Error;
    std::optional<DependenceGraph> G = DependenceGraph::load(Deps, Error);
    if (!G)
      ADD_FAILURE() << Error;
    return G ? std::move(*G) : DependenceGraph();
  }
};

struct CommandResult {
  int Code = -1;
  std::string Out, Err;
};

/// Runs `sleuth slice ARGS...` in-process, capturing stdout and stderr.
inline CommandResult runSlice(std::vector<std::string> Args) {
  Args.insert(Args.begin(), "slice");
  std::vector<const char *> Argv;
  for (const std::string &A : Args)
    Argv.push_back(A.c_str());
  Argv.push_back(nullptr);
  CommandResult R;
  testing::internal::CaptureStdout();
  testing::internal::CaptureStderr();
  R.Code = sliceMain(static_cast<int>(Args.size()), Argv.data());
  R.Out = testing::internal::GetCapturedStdout();
  R.Err = testing::internal::GetCapturedStderr();
  return R;
}

/// The nodes of a slice, for comparisons.
inline std::vector<DependenceGraph::Node> nodes(const Slice &S) { return S.Nodes; }

} // namespace sleuth::test
