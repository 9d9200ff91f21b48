// A stand-in for `sleuth mutate` that links only the mutator, so that its tests do not wait
// for every other component.
#include "sleuth/mutator/command.h"

int main(int Argc, const char **Argv) { return sleuth::mutateMain(Argc, Argv); }
