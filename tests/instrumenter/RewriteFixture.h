// The fixture of the instrumenter's rewrite tests: a source written to a scratch directory of
// the test's own, instrumented in dependence mode, its rewritten text returned.
#pragma once

#include "sleuth/instrumenter/instrumenter.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/Path.h"

#include <fstream>
#include <functional>
#include <gtest/gtest.h>
#include <sstream>
#include <string>

namespace sleuth {

class RewriteFixture : public ::testing::Test {
protected:
  void SetUp() override {
    ASSERT_FALSE(llvm::sys::fs::createUniqueDirectory("sleuth-rewrite-test", Root));
  }
  void TearDown() override { llvm::sys::fs::remove_directories(Root); }

  /// Source, written as file Name of the scratch directory, instrumented with Arguments (Adjust
  /// may change the rest of the request).
  InstrumentResult instrumentSource(const std::string &Name, const std::string &Source,
                                    std::vector<std::string> Arguments = {},
                                    const std::function<void(InstrumentRequest &)> &Adjust = {}) {
    llvm::SmallString<256> P(Root);
    llvm::sys::path::append(P, Name);
    std::ofstream(std::string(P), std::ios::binary) << Source;
    InstrumentRequest R;
    R.File = std::string(P);
    R.Arguments = std::move(Arguments);
    R.ShowDiagnostics = false;
    if (Adjust)
      Adjust(R);
    return instrument(R);
  }
  /// Its rewritten text; a failure to instrument fails the test.
  std::string rewrite(const std::string &Name, const std::string &Source,
                      std::vector<std::string> Arguments = {},
                      const std::function<void(InstrumentRequest &)> &Adjust = {}) {
    InstrumentResult Result = instrumentSource(Name, Source, std::move(Arguments), Adjust);
    EXPECT_TRUE(Result.Ok) << Result.Error;
    return Result.Text;
  }

  /// The first line of Text that contains Marker and Probe (a line the rewrite changed), or "".
  static std::string lineWith(const std::string &Text, const std::string &Marker,
                              const std::string &Probe = "sleuth_tu") {
    std::istringstream Lines(Text);
    std::string Line;
    while (std::getline(Lines, Line))
      if (Line.find(Marker) != std::string::npos && Line.find(Probe) != std::string::npos)
        return Line;
    return "";
  }

  llvm::SmallString<128> Root;
};

} // namespace sleuth
