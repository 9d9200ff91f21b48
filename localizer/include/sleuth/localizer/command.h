#pragma once
namespace sleuth {
/// `sleuth localize`: Argv[0] is "localize".
int localizeMain(int Argc, const char **Argv);
} // namespace sleuth
