#!/usr/bin/env bash
# The soundness oracle in CI (tests/soundness/oracle.py): every program of the corpus and one of
# Csmith's, a few perturbations of each write outside the slice of what it printed, chosen
# deterministically. Fails on a missed dependence that tests/soundness/expected-misses.txt does
# not list (a known gap of the tracker, tied to its issue), and on a listed one that is gone.
# usage: ci.sh SLEUTH WORKDIR
set -uo pipefail
sleuth=$(realpath "$1") work=$2
here=$(cd "$(dirname "$0")" && pwd)
oracle=(python3 "$here/oracle.py" --sleuth "$sleuth" --expected "$here/expected-misses.txt")
rm -rf "$work" && mkdir -p "$work"
failed=0

# The driver's own usage errors: a one-line message and status 2.
"${oracle[@]}" "$work/missing.c" >"$work/usage.out" 2>&1
status=$?
if [ $status != 2 ] || ! grep -q '^oracle: .*missing.c: no such file$' "$work/usage.out"; then
  echo "FAIL: a missing source gave status $status:"; cat "$work/usage.out"; failed=1
fi

# A miss that the list does not hold fails the run, and so does a listed one that is gone.
plain=(python3 "$here/oracle.py" --sleuth "$sleuth" --max-trials 4)
printf 'c_unions.c:25:w.whole 8 written in the slice, so never a miss\n' >"$work/gone.txt"
"${plain[@]}" --work "$work/gone" --expected "$work/gone.txt" "$here/corpus/c_unions.c" \
  >"$work/gone.out" 2>&1
status=$?
if [ $status != 1 ] || ! grep -q '^EXPECTED MISS GONE c_unions.c:25:w.whole' "$work/gone.out"; then
  echo "FAIL: a listed miss that is gone gave status $status:"; cat "$work/gone.out"; failed=1
fi
"${plain[@]}" --work "$work/new" "$here/fixtures/asm_copy.c" >"$work/new.out" 2>&1
status=$?
if [ $status != 1 ] || ! grep -q '^MISS asm_copy.c:' "$work/new.out"; then
  echo "FAIL: a miss without a list gave status $status:"; cat "$work/new.out"; failed=1
fi

"${oracle[@]}" --work "$work/corpus" --max-trials 8 "$here"/corpus/*.c "$here"/corpus/*.cpp ||
  failed=1

# The oracle's build (SLEUTH_PERTURBABLE=1, kept locals' addresses passed) records the graph of
# the default build: the slices it tests are the users'.
mkdir -p "$work/graphs"
for source in "$here"/corpus/*.c "$here"/corpus/*.cpp; do
  name=$(basename "$source")
  case $name in
    *.c) wrapper=cc flags="-O0 -w" ;;
    *) wrapper=c++ flags="-O0 -w -std=c++20" ;;
  esac
  for kind in default oracle; do
    perturbable=0
    [ $kind = oracle ] && perturbable=1
    (cd "$work/graphs" && SLEUTH_CC=gcc SLEUTH_CXX=g++ SLEUTH_PERTURBABLE=$perturbable \
      "$sleuth" $wrapper $flags -o "$kind" \
      "$source" && SLEUTH_OUT=$kind.deps ./$kind >/dev/null 2>&1) ||
      { echo "FAIL [$name]: the $kind build or run failed"; failed=1; }
  done
  cmp -s <(grep -v '^program ' "$work/graphs/default.deps") \
    <(grep -v '^program ' "$work/graphs/oracle.deps") ||
    { echo "FAIL [$name]: the oracle's build records another graph"; failed=1; }
done

# Csmith's programs print a checksum of their globals through csmith.h's transparent_crc: read
# as a system header, whose calls are effect nodes (the criterion).
if command -v csmith >/dev/null && [ -f /usr/include/csmith/csmith.h ]; then
  csmith --seed 106 -o "$work/csmith_106.c" >/dev/null 2>&1 || { echo "FAIL: csmith"; exit 1; }
  "${oracle[@]}" --work "$work/csmith" --max-trials 12 --cflags "-O1 -w -isystem /usr/include/csmith" \
    "$work/csmith_106.c" || failed=1
else
  echo "FAIL: csmith and libcsmith-dev are needed (scripts/bootstrap.sh --tests installs them)"
  failed=1
fi
exit $failed
