#!/usr/bin/env bash
# Differential test on random programs: Csmith (Debian's csmith 2.3.0) writes a C or C++ program
# for each seed that prints a checksum of its globals. Each must print the same built natively
# and instrumented by the compiler wrapper, with no warning from the wrapper (a source it could
# not instrument is compiled as it was, which would hide a rewriting bug); in dependency mode
# the graph must also be the one that checking every read at run time gives, and load.
# usage: csmith.sh SLEUTH WORKDIR deps|coverage gcc|clang c|c++ SEED...
set -uo pipefail
sleuth=$(realpath "$1") work=$2 mode=$3 family=$4 lang=$5
shift 5
command -v csmith >/dev/null && [ -f /usr/include/csmith/csmith.h ] || {
  echo "FAIL: csmith and libcsmith-dev are needed (scripts/bootstrap.sh --tests installs them)"
  exit 1
}
case "$family/$lang" in
  gcc/c) compiler=gcc ;; gcc/c++) compiler=g++ ;;
  clang/c) compiler=clang-19 ;; clang/c++) compiler=clang++-19 ;;
  *) echo "FAIL: unknown compiler family or language $family/$lang"; exit 1 ;;
esac
wrapper=cc upper=CC generate=() source=p.c
if [ "$lang" = c++ ]; then
  wrapper=c++ upper=CXX generate=(--lang-cpp) source=p.cpp
fi
# -O1: each instrumented program is tens of thousands of lines, which GCC takes long to optimize
# harder; -w: Csmith's programs warn by design (unused values, casts).
flags=(-O1 -w -I/usr/include/csmith)
# Csmith's C++ is C++03, whose initializers may narrow constants. (Some of its C++ programs
# compare pointers with `0L`, which only GCC's -fpermissive accepts: their seeds are not used.)
[ "$lang" = c++ ] && flags+=(-Wno-narrowing)
edges() { grep -E '^(data|ctrl|hit) ' "$1" | sort; }
failed=0
fail() { echo "FAIL [seed $seed, $mode/$family/$lang]: $*"; failed=1; }

rm -rf "$work" && mkdir -p "$work"
for seed in "$@"; do
  dir=$work/$seed
  mkdir -p "$dir"
  cd "$dir" || exit 1
  csmith --seed "$seed" "${generate[@]}" -o "$source" >/dev/null 2>&1 || { fail "csmith failed"; continue; }
  $compiler "${flags[@]}" -o native "$source" 2>native.err || { fail "native build failed"; continue; }
  timeout 20 ./native >native.out 2>/dev/null
  native_status=$?
  # A seed whose program loops long natively is no test of sleuth's: pick another.
  [ $native_status = 124 ] && { fail "the native program runs over 20 s"; continue; }
  env "SLEUTH_$upper=$compiler" SLEUTH_MODE="$mode" "$sleuth" "$wrapper" "${flags[@]}" \
    -o instrumented "$source" 2>instrumented.err || { fail "instrumented build failed"; continue; }
  [ -s instrumented.err ] && { cat instrumented.err; fail "the wrapper warned"; continue; }
  SLEUTH_OUT=run.deps SLEUTH_COV_OUT=run.cov timeout 300 ./instrumented >instrumented.out 2>/dev/null
  status=$?
  [ "$status" = "$native_status" ] || { fail "exit status $status, native $native_status"; continue; }
  cmp -s native.out instrumented.out || {
    diff native.out instrumented.out | head -5
    fail "output differs"
    continue
  }
  if [ "$mode" = coverage ]; then
    [ -s run.cov ] || { fail "no coverage file"; continue; }
  else
    "$sleuth" slice run.deps --format deps >/dev/null 2>slice.err ||
      { cat slice.err; fail "the dependence file does not load"; continue; }
    env "SLEUTH_$upper=$compiler" SLEUTH_CHECKED_READS=1 "$sleuth" "$wrapper" "${flags[@]}" \
      -o checked "$source" 2>checked.err || { fail "checked build failed"; continue; }
    SLEUTH_OUT=checked.deps timeout 300 ./checked >/dev/null 2>&1
    cmp -s <(edges run.deps) <(edges checked.deps) || {
      diff <(edges checked.deps) <(edges run.deps) | head -10
      fail "static data edges give another graph than checked reads"
      continue
    }
  fi
  echo "ok [seed $seed, $mode/$family/$lang]: $(tail -n 1 native.out)"
done
exit $failed
