#!/usr/bin/env bash
# The dependence and coverage files record each source's content hash: `sleuth slice` (every
# format) and `sleuth localize` warn, one line per file, when a source changed after the run,
# and say nothing when it did not (a touched file keeps its content).
# usage: changed_source.sh SLEUTH WORKDIR
set -u
sleuth=$(realpath "$1") work=$2
rm -rf "$work" && mkdir -p "$work/src" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

cat >src/calc.c <<'PROGRAM'
#include <stdio.h>
#include "twice.h"

int main(void) {
  int a = 20;
  int b = twice(a) + 2;
  printf("%d\n", b);
  return 0;
}
PROGRAM
cat >src/twice.h <<'PROGRAM'
static int twice(int v) { return 2 * v; }
PROGRAM
"$sleuth" cc -O0 -o calc src/calc.c || fail "dependence build"
SLEUTH_MODE=coverage "$sleuth" cc -O0 -o calc-cov src/calc.c || fail "coverage build"
SLEUTH_OUT=run.deps ./calc >/dev/null || fail "run"
SLEUTH_COV_OUT=run.cov ./calc-cov >/dev/null || fail "coverage run"
grep -q '^file 0 [0-9a-f]\{16\} .*/src/calc\.c$' run.deps || { grep '^file' run.deps; fail "no content hash in run.deps"; }

formats="code deps dot json"
command -v dot >/dev/null && formats="$formats svg"
slice() { "$sleuth" slice run.deps calc.c:7 --format "$1" >/dev/null 2>"$2" || { cat "$2"; fail "sleuth slice --format $1"; }; }
localize() {
  "$sleuth" localize --pass run.cov --fail run.cov --store store --view list >/dev/null 2>"$1" ||
    { cat "$1"; fail "sleuth localize"; }
}

touch src/calc.c src/twice.h
for format in $formats; do
  slice "$format" err
  [ ! -s err ] || { cat err; fail "--format $format warns though no source changed"; }
done
localize err
[ ! -s err ] || { cat err; fail "localize warns though no source changed"; }

# A comment above the code shifts every line of calc.c.
sed -i '1i /* a comment added after the run */' src/calc.c
expected='sleuth slice: warning: src/calc.c changed since the run; lines may not match'
for format in $formats; do
  slice "$format" err
  [ "$(cat err)" = "$expected" ] || { cat err; fail "--format $format: expected '$expected'"; }
done
localize err
grep -qx 'sleuth localize: warning: src/calc.c changed since the run; lines may not match' err ||
  { cat err; fail "localize did not warn about src/calc.c"; }
[ "$(wc -l <err)" = 1 ] || { cat err; fail "localize warned about more than calc.c"; }

# Both files changed: one line each; from another directory, the absolute path.
echo '/* changed too */' >>src/twice.h
mkdir elsewhere && cd elsewhere || exit 1
"$sleuth" slice ../run.deps calc.c:7 >/dev/null 2>err || { cat err; fail "sleuth slice from elsewhere"; }
[ "$(cat err)" = "sleuth slice: warning: $work/src/calc.c changed since the run; lines may not match
sleuth slice: warning: $work/src/twice.h changed since the run; lines may not match" ] ||
  { cat err; fail "two changed files from another directory"; }
echo "ok: changed sources are reported by name, unchanged ones are not"
