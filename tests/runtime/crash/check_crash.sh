#!/usr/bin/env bash
# Crash test of one program: the runtime must write a complete dependence file also when the
# program dies, without changing how it dies.
#   native build -> run;  `sleuth cc`/`sleuth c++` build -> `sleuth run -o out.deps`;
#   the exit status (or signal) must be EXPECTED for both; out.deps must be complete, record the
#   same status and load in `sleuth slice out.deps crash`, whose slice must contain every line
#   of the source marked `in-slice` (the statements that computed the crashing value).
# usage: check_crash.sh SLEUTH SOURCE EXPECTED_STATUS WORKDIR [COMPILER_FLAGS...]
#   EXPECTED_STATUS as the shell reports it: N for exit(N), 128+S for signal S.
set -u
sleuth=$(realpath "$1") source=$(realpath "$2") expected=$3 work=$4
shift 4
name=$(basename "${source%.*}")
fail() { echo "FAIL [$name]: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work/native" "$work/instrumented" || exit 1

case "$source" in
  *.cpp) compiler=c++ wrapper=c++ ;;
  *) compiler=cc wrapper=cc ;;
esac
flags="-g -O0 -Wall -Wextra $*"

# Both binaries are called `prog` so that messages naming the program (assert) are alike.
# shellcheck disable=SC2086
$compiler $flags -o "$work/native/prog" "$source" 2>"$work/native/build.err" ||
  { cat "$work/native/build.err"; fail "native build failed"; }
# shellcheck disable=SC2086
"$sleuth" "$wrapper" $flags -o "$work/instrumented/prog" "$source" \
  2>"$work/instrumented/build.err" || { cat "$work/instrumented/build.err"; fail "instrumented build failed"; }
[ -s "$work/instrumented/build.err" ] &&
  { cat "$work/instrumented/build.err"; fail "instrumented build printed diagnostics"; }

# `ulimit -c 0`: no core files from the crashes.
(cd "$work/native" && ulimit -c 0 && ./prog >out 2>err); native=$?
(cd "$work/instrumented" && ulimit -c 0 && "$sleuth" run -o out.deps -- ./prog >out 2>err.all)
instrumented=$?

[ "$native" = "$expected" ] || fail "the native program ended with $native, not $expected"
[ "$instrumented" = "$native" ] ||
  fail "status differs: native $native, instrumented $instrumented ($(cat "$work/instrumented/err.all"))"
# What the program itself printed must not change (sleuth run adds one line of its own).
grep -v '^sleuth run: ' "$work/instrumented/err.all" >"$work/instrumented/err"
cmp -s "$work/native/err" "$work/instrumented/err" ||
  { diff "$work/native/err" "$work/instrumented/err"; fail "standard error differs"; }
cmp -s "$work/native/out" "$work/instrumented/out" ||
  { diff "$work/native/out" "$work/instrumented/out"; fail "standard output differs"; }

deps=$work/instrumented/out.deps
[ -f "$deps" ] || fail "no dependence file"
[ "$(tail -n 1 "$deps")" = end ] || fail "the dependence file is incomplete (no 'end' record)"
if [ "$expected" -gt 128 ]; then
  status="status signal $((expected - 128))"
else
  status="status exit $expected"
fi
grep -qx "$status" "$deps" || fail "expected '$status' in the dependence file, found '$(grep '^status' "$deps")'"
ls "$work/instrumented" | grep -q '\.tmp\.' && fail "a temporary dependence file was left behind"

"$sleuth" slice "$deps" crash >"$work/slice.txt" 2>"$work/slice.err" ||
  { cat "$work/slice.err"; fail "sleuth slice DEPS crash failed"; }
# The code view marks the lines of the slice with `*` before the line number.
checked=0
for line in $(grep -n 'in-slice' "$source" | cut -d: -f1); do
  grep -Eq "^\* +$line( |$)" "$work/slice.txt" ||
    { cat "$work/slice.txt"; fail "line $line ($(sed -n "${line}p" "$source" | sed 's/^ *//')) is not in the slice"; }
  checked=$((checked + 1))
done
[ "$checked" -gt 0 ] || fail "no line of $source is marked in-slice"
echo "ok [$name]: status $native, $checked lines in the crash slice"
