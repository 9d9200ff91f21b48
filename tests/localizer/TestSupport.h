// Building coverage files and spectra by hand for the localizer's tests.
#pragma once

#include "sleuth/localizer/coverage.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <set>
#include <string>

namespace sleuth::localizer::test {

/// A coverage file of one source with one function whose only recorded
/// structure is its lines: each executed line gets count 1.
inline CoverageFile linesOnly(const std::string &Path, unsigned LastLine,
                              std::set<unsigned> Executed, std::string Hash = "00112233aabbccdd") {
  CoverageFile Cov;
  Cov.Program = "./prog";
  Cov.Files.push_back({Hash, Path});
  Cov.Functions.push_back({0, 1, LastLine, 0, 1, "f"});
  Cov.Blocks.push_back({0, 1, {}});
  Cov.Blocks.push_back({0, 1, {}});
  Cov.Edges.push_back({0, 1, EdgeKind::Seq, 1});
  for (unsigned L = 1; L <= LastLine; ++L)
    Cov.Lines.push_back({0, L, Executed.count(L) ? 1u : 0u});
  return Cov;
}

/// A fixture with a scratch directory of its own per test (named after the process and the
/// test), removed after it.
class ScratchDirTest : public ::testing::Test {
protected:
  void SetUp() override {
    Dir = std::filesystem::temp_directory_path() /
          ("sleuth-localizer-test-" + std::to_string(::getpid()) + "-" +
           ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(Dir);
    std::filesystem::create_directories(Dir);
  }
  void TearDown() override { std::filesystem::remove_all(Dir); }
  /// Writes Text to Dir/Name; its path.
  std::string write(const std::string &Name, const std::string &Text) {
    std::ofstream(Dir / Name) << Text;
    return (Dir / Name).string();
  }
  std::filesystem::path Dir;
};

} // namespace sleuth::localizer::test
