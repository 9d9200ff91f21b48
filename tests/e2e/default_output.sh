#!/usr/bin/env bash
# Instrumented programs run without SLEUTH_OUT / SLEUTH_COV_OUT / SLEUTH_COV_DIR, several at once
# in one directory (as ctest runs a project's tests in parallel): each process leaves its own
# complete record, PROGRAM.PID.deps or PROGRAM.PID.cov; a file an earlier process of the same id
# left is kept (the new one is PROGRAM.PID-1.deps); `sleuth run` without -o names the file.
# usage: default_output.sh SLEUTH WORKDIR
set -u
sleuth=$(realpath "$1") work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
unset SLEUTH_OUT SLEUTH_COV_OUT SLEUTH_COV_DIR

cat >work.c <<'PROGRAM'
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

int main(int argc, char **argv) {
  int n = argc > 1 ? atoi(argv[1]) : 1;
  int sum = 0;
  int i;
  for (i = 0; i < n; ++i)
    sum += i;
  usleep(200000); /* the processes overlap */
  printf("%d\n", sum);
  return 0;
}
PROGRAM
"$sleuth" cc -O0 -o deps work.c || fail "dependence build"
SLEUTH_MODE=coverage "$sleuth" cc -O0 -o cov work.c || fail "coverage build"

runs=8
for mode in deps cov; do
  mkdir "$mode.run" && cd "$mode.run" || exit 1
  pids=()
  for i in $(seq $runs); do
    "../$mode" "$i" >"out.$i" &
    pids+=($!)
  done
  for pid in "${pids[@]}"; do
    wait "$pid" || fail "$mode: process $pid failed"
  done
  for pid in "${pids[@]}"; do
    file=$mode.$pid.$mode
    [ -f "$file" ] || { ls; fail "$mode: process $pid left no $file"; }
    [ "$(tail -n 1 "$file")" = end ] || fail "$mode: $file is incomplete"
    grep -qx 'status exit 0' "$file" || fail "$mode: $file has no 'status exit 0'"
  done
  count=$(ls | grep -c "\.$mode\$")
  [ "$count" = $runs ] || { ls; fail "$mode: $count files, not $runs"; }
  cd .. || exit 1
done

# Each dependence file is the record of its own process: its slice of the printf has the loop.
file=$(ls deps.run/*.deps | head -n 1)
"$sleuth" slice "$file" work.c:12 >slice.txt || fail "sleuth slice $file"
grep -Eq '^\* +10 ' slice.txt || { cat slice.txt; fail "the slice misses line 10"; }

# An earlier process of the same id left its file: it stays, the new one gets `-1`.
mkdir reuse && cd reuse || exit 1
bash -c 'echo earlier >deps.$$.deps; exec ../deps 3' >/dev/null &
pid=$!
wait $pid || fail "reuse: deps failed"
[ "$(cat "deps.$pid.deps")" = earlier ] || fail "the earlier deps.$pid.deps was replaced"
[ "$(tail -n 1 "deps.$pid-1.deps")" = end ] || { ls; fail "no complete deps.$pid-1.deps"; }
bash -c 'echo earlier >cov.$$.cov; exec ../cov 3' >/dev/null &
pid=$!
wait $pid || fail "reuse: cov failed"
[ "$(cat "cov.$pid.cov")" = earlier ] || fail "the earlier cov.$pid.cov was replaced"
[ "$(tail -n 1 "cov.$pid-1.cov")" = end ] || { ls; fail "no complete cov.$pid-1.cov"; }
cd .. || exit 1

# sleuth run without -o: the runtime's name, told on stderr; SLEUTH_OUT still names the file.
mkdir run && cd run || exit 1
"$sleuth" run ../deps 4 >/dev/null 2>err || { cat err; fail "sleuth run"; }
named=$(sed -n 's/^sleuth run: dependences of \.\.\/deps written to \(deps\.[0-9]*\.deps\)$/\1/p' err)
[ -n "$named" ] || { cat err; fail "sleuth run did not name the file"; }
[ "$(tail -n 1 "$named")" = end ] || fail "sleuth run named $named, which is not complete"
[ "$(ls | grep -c '\.deps$')" = 1 ] || { ls; fail "sleuth run left other files"; }
SLEUTH_OUT=env.deps "$sleuth" run ../deps 4 >/dev/null 2>err || { cat err; fail "sleuth run with SLEUTH_OUT"; }
grep -q 'written to env.deps$' err && [ "$(tail -n 1 env.deps)" = end ] ||
  { cat err; fail "sleuth run did not keep SLEUTH_OUT"; }
cd .. || exit 1
echo "ok: $runs processes at once left $runs records in each mode"
