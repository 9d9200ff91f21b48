// Helpers of the mutator tests: sources written to scratch files, mutants shown as the text
// they produce, so that a test reads as input and expected mutants side by side.
#pragma once

#include "sleuth/mutator/mutator.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

namespace sleuth::mutator::test {

using Lines = std::vector<std::string>;

/// A fresh scratch directory per test.
inline std::filesystem::path scratchDir() {
  const ::testing::TestInfo *T = ::testing::UnitTest::GetInstance()->current_test_info();
  std::filesystem::path P = std::filesystem::temp_directory_path() /
                            ("sleuth-mutator-" + std::to_string(::getpid())) /
                            (std::string(T->test_suite_name()) + "." + T->name());
  std::filesystem::remove_all(P);
  std::filesystem::create_directories(P);
  return P;
}

inline std::string writeFile(const std::filesystem::path &P, const std::string &Text) {
  std::filesystem::create_directories(P.parent_path());
  std::ofstream(P, std::ios::binary) << Text;
  return P.string();
}

inline std::string readFile(const std::filesystem::path &P) {
  std::ifstream In(P, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(In), {});
}

/// Parses Source (C++20 unless Name ends in .c) and returns its mutants.
inline MutateResult parse(const std::string &Source, const std::string &Name = "input.cpp",
                          std::vector<std::string> Args = {}) {
  MutateRequest R;
  R.File = writeFile(scratchDir() / Name, Source);
  if (Args.empty())
    Args = {Name.size() > 2 && Name.substr(Name.size() - 2) == ".c" ? "-std=c99" : "-std=c++20"};
  R.Arguments = Args;
  return findMutants(R);
}

/// The text of every mutant of Operator ("" for all), in id order.
inline Lines mutants(const std::string &Source, const std::string &Operator,
                     const std::string &Name = "input.cpp") {
  MutateResult R = parse(Source, Name);
  EXPECT_TRUE(R.Ok) << R.Error;
  Lines Out;
  for (const Mutant &M : R.Mutants)
    if (Operator.empty() || M.Operator == Operator)
      Out.push_back(applyMutant(R.Text, M));
  return Out;
}

} // namespace sleuth::mutator::test
