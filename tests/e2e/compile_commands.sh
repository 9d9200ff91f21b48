#!/usr/bin/env bash
# `sleuth instrument -p BUILD_DIR` takes the file's compiler arguments from
# compile_commands.json (here a define and an include directory the file cannot compile
# without), and `--` passes them by hand; line numbers are kept either way.
# usage: compile_commands.sh SLEUTH WORKDIR
set -eu
sleuth=$(realpath "$1") work=$2
rm -rf "$work" && mkdir -p "$work/src/include" "$work/build" "$work/out" && cd "$work"
cat >src/include/config.h <<'H'
#define FACTOR 3
H
cat >src/scale.c <<'C'
#include <stdio.h>
#include "config.h"
int main(void) {
  int x = GREETING_COUNT * FACTOR;
  printf("%d %d\n", x, __LINE__);
  return 0;
}
C
cat >build/compile_commands.json <<J
[{"directory": "$work/build", "file": "$work/src/scale.c",
  "command": "gcc -std=c99 -DGREETING_COUNT=2 -I$work/src/include -c $work/src/scale.c -o scale.o"}]
J
"$sleuth" instrument -p build src/scale.c -o out/scale_p.c
"$sleuth" instrument src/scale.c -o out/scale_args.c -- -std=c99 -DGREETING_COUNT=2 -Isrc/include
for variant in p args; do
  gcc -std=c99 -DGREETING_COUNT=2 -Isrc/include -I"$(dirname "$sleuth")/../../../runtime/include" \
    -o "out/scale_$variant" "out/scale_$variant.c" \
    "$(dirname "$sleuth")/../../runtime/libsleuth_rt.a" -lstdc++ -lpthread
  output=$(cd out && SLEUTH_OUT=$variant.deps "./scale_$variant")
  [ "$output" = "6 5" ] || { echo "FAIL: -$variant build printed '$output', expected '6 5' (value, line)"; exit 1; }
  grep -q "^site .* var 0 4 7 x$" "out/$variant.deps" ||
    { echo "FAIL: no write of x at 4:7 in out/$variant.deps"; exit 1; }
done
# Without the arguments the file does not compile: a one-line error, non-zero exit.
if "$sleuth" instrument src/scale.c -o out/none.c 2>err.txt; then
  echo "FAIL: instrumenting without arguments should fail"; exit 1
fi
grep -q "scale.c:2:10: 'config.h' file not found" err.txt || { cat err.txt; echo "FAIL: message"; exit 1; }
echo "ok: -p and -- arguments, line numbers kept"
