#pragma once
namespace sleuth {
/// `sleuth slice`: Argv[0] is "slice".
int sliceMain(int Argc, const char **Argv);
} // namespace sleuth
