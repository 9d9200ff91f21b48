#!/usr/bin/env bash
# Coverage mode on a generated function too large for counter placement to try every counter
# (3,000 conditions, past FunctionCoverage's budget): the counters it did not try stay, and
# check_coverage.sh still finds the same output, consistent counts, and the same counts with
# --counters minimal as with the default placement.
# usage: large_function.sh SLEUTH RUNTIME_LIB WORKDIR
set -u
sleuth=$1 runtime_lib=$2 work=$3
here=$(dirname "$(realpath "$0")")
mkdir -p "$work" || exit 1
src=$work/large_function.c
{
  echo '#include <stdio.h>'
  echo 'static int big(int n) {'
  echo '  int s = 0;'
  for i in $(seq 1 3000); do
    echo "  if (n % $((i % 17 + 2)) == $((i % 3))) s += $i; else s -= n;"
  done
  echo '  return s;'
  echo '}'
  echo 'int main(void) {'
  echo '  int n;'
  echo '  for (n = 0; n < 20; ++n)'
  echo '    printf("%d\n", big(n));'
  echo '  return 0;'
  echo '}'
} >"$src"
bash "$here/check_coverage.sh" "$sleuth" "$runtime_lib" "$src" - gcc "$work/run"
