#pragma once
namespace sleuth {
/// `sleuth reduce TEST_SCRIPT FILE`: Argv[0] is "reduce".
int reduceMain(int Argc, const char **Argv);
/// `sleuth ddmin TEST_SCRIPT FILE`: Argv[0] is "ddmin".
int ddminMain(int Argc, const char **Argv);
/// `sleuth dd TEST_SCRIPT PASSING FAILING`: Argv[0] is "dd".
int ddMain(int Argc, const char **Argv);
} // namespace sleuth
