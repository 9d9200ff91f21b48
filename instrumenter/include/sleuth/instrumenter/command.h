#pragma once
namespace sleuth {
/// `sleuth instrument`: Argv[0] is "instrument".
int instrumentMain(int Argc, const char **Argv);
} // namespace sleuth
