// Subcommands implemented in tools/sleuth itself (the driver side of the pipeline).
#pragma once

namespace sleuth {
int ccMain(int Argc, const char **Argv);
int cxxMain(int Argc, const char **Argv);
int runMain(int Argc, const char **Argv);
} // namespace sleuth
