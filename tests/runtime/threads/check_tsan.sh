#!/usr/bin/env bash
# The runtime under ThreadSanitizer: examples/threads.cpp instrumented in dependence mode and
# compiled together with the runtime's own sources, all with -fsanitize=thread (g++; Debian's
# clang-19 has no TSan runtime installed). Not heap_hooks.cpp: the shared runtime's free and
# realloc would take the place of TSan's own (as in a static link, which leaves them out too). The run must be free of TSan reports, end as the
# native program does, and leave a dependence file in which each thread's partial sum depends
# on its own loop only.
# usage: check_tsan.sh SLEUTH SOURCE_DIR WORKDIR
set -u
sleuth=$(realpath "$1") root=$(realpath "$2") work=$3
fail() { echo "FAIL [tsan]: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" || exit 1
example=$root/examples/threads.cpp

"$sleuth" instrument -o "$work/threads.cpp" "$example" -- -std=c++20 ||
  fail "sleuth instrument failed"
g++ -std=c++20 -g -O1 -fsanitize=thread -I "$root/runtime/include" -o "$work/prog" \
  "$work/threads.cpp" "$root"/runtime/src/{abi,runtime,output,coverage,path,perturb}.cpp -pthread 2>"$work/build.err" ||
  { cat "$work/build.err"; fail "build with -fsanitize=thread failed"; }
# Several runs: races show up under different interleavings.
for run in 1 2 3 4 5; do
  (cd "$work" && TSAN_OPTIONS="halt_on_error=1 exitcode=66" SLEUTH_OUT=run.deps ./prog \
    >out 2>err)
  status=$?
  grep -q "ThreadSanitizer" "$work/err" && { cat "$work/err"; fail "ThreadSanitizer report (run $run)"; }
  [ "$status" = 0 ] || { cat "$work/err"; fail "run $run ended with status $status"; }
  grep -qx "low = 10, high = 26, total = 36" "$work/out" || fail "wrong output: $(cat "$work/out")"
done
"$sleuth" slice "$work/run.deps" "threads.cpp:22:total" --format deps >"$work/slice.txt" \
  2>"$work/slice.err" || { cat "$work/slice.err"; fail "sleuth slice failed"; }
for needed in 'sum' '\*out'; do
  grep -q "$needed" "$work/slice.txt" || { cat "$work/slice.txt"; fail "slice of total lacks $needed"; }
done
echo "ok [tsan]: 5 runs without ThreadSanitizer reports, dependence file slices"
