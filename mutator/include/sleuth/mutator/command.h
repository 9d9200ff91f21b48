#pragma once
namespace sleuth {
/// `sleuth mutate [options] FILE... [-- COMPILER_ARGS]`: Argv[0] is "mutate".
int mutateMain(int Argc, const char **Argv);
} // namespace sleuth
