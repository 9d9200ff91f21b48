#!/usr/bin/env bash
# End-to-end check of coverage mode on one example program:
#   native build -> run;  `sleuth instrument --mode coverage` + real compiler -> run;
#   same output and exit status; the coverage file is complete and consistent (every block of a
#   normally ending run is left as often as it is entered; conditions add up to their block's
#   count); and, where a golden file exists (tests/coverage/golden/NAME.txt), its `line`
#   and `cond` records match. Then the same with `--counters minimal`: same output and status,
#   and for a normally ending run the very same counts (blocks, edges, lines, conditions) from
#   fewer counter increments.
# usage: check_coverage.sh SLEUTH RUNTIME_LIB EXAMPLE GOLDEN_DIR|- gcc|clang WORKDIR [ARGS...]
set -u
sleuth=$(realpath "$1") runtime_lib=$(realpath "$2") example=$3 golden_dir=$4 family=$5 work=$6
shift 6
name=$(basename "${example%.*}")
include_dir=$(dirname "$(dirname "$(dirname "$(realpath "$0")")")")/runtime/include
rm -rf "$work" && mkdir -p "$work/src" || exit 1

if [ -d "$example" ]; then
  sources=$(ls "$example"/*.c "$example"/*.cpp 2>/dev/null)
  source_dir=$example
else
  sources=$example
  source_dir=$(dirname "$example")
fi
case "$sources" in
  *.cpp*) lang=c++ ;;
  *) lang=c ;;
esac
if [ "$lang" = c ]; then
  std=c89
  case "$name" in c99*) std=c99 ;; esac
  flags="-std=$std -pedantic -Wall -Wextra -Werror"
  if [ "$family" = gcc ]; then compiler=gcc; else compiler=clang-19; flags="$flags -Wcomma -Wused-but-marked-unused"; fi
  libs="-lstdc++ -lpthread"
else
  flags="-std=c++20 -Wall -Wextra -Werror -Wzero-as-null-pointer-constant"
  if [ "$family" = gcc ]; then compiler=g++; else compiler=clang++-19; flags="$flags -Wcomma -Wused-but-marked-unused"; fi
  libs="-lpthread"
fi

# The language standard a source asks for in its flags line (`/* check_example flags: ... */`,
# tests/e2e/check_example.sh); its other flags (-O2, fortified glibc) are the e2e test's.
# shellcheck disable=SC2086
for f in $(cat $sources | sed -n 's|^/\* check_example flags: \(.*\) \*/$|\1|p' | head -n 1); do
  case "$f" in -std=*) flags="$flags $f" ;; esac
done

fail() { echo "FAIL [coverage $name/$family]: $*"; exit 1; }

# shellcheck disable=SC2086
$compiler $flags -o "$work/native" $sources 2>"$work/native.err" ||
  { cat "$work/native.err"; fail "native build failed"; }
(cd "$work" && ./native "$@" >native.out 2>native.stderr)
native_status=$?

# build_and_run PLACEMENT: instrument with --counters PLACEMENT into src.PLACEMENT/, build
# instrumented.PLACEMENT, run it (coverage in run.PLACEMENT.cov) and compare with the native run.
build_and_run() {
  local placement=$1 src out status
  shift
  local dir="$work/src.$placement" instrumented=()
  mkdir -p "$dir"
  for src in $sources; do
    out="$dir/$(basename "$src")"
    # shellcheck disable=SC2086
    "$sleuth" instrument --mode coverage --counters "$placement" -o "$out" "$src" -- $flags \
      2>"$work/instrument.err" ||
      { cat "$work/instrument.err"; fail "sleuth instrument --counters $placement failed on $src"; }
    instrumented+=("$out")
  done
  # shellcheck disable=SC2086
  $compiler $flags -I "$include_dir" -iquote "$source_dir" -o "$work/instrumented.$placement" \
    "${instrumented[@]}" "$runtime_lib" $libs 2>"$work/instrumented.err" ||
    { cat "$work/instrumented.err"; fail "instrumented build ($placement) failed"; }
  [ -s "$work/instrumented.err" ] &&
    { cat "$work/instrumented.err"; fail "instrumented build ($placement) printed diagnostics"; }
  (cd "$work" && SLEUTH_COV_OUT=run.$placement.cov "./instrumented.$placement" "$@" \
    >"instrumented.$placement.out" 2>"instrumented.$placement.stderr")
  status=$?
  [ "$native_status" = "$status" ] ||
    fail "exit status differs: native $native_status, instrumented ($placement) $status"
  cmp -s "$work/native.out" "$work/instrumented.$placement.out" ||
    { diff "$work/native.out" "$work/instrumented.$placement.out"; fail "output differs ($placement)"; }
  [ -f "$work/run.$placement.cov" ] || fail "no coverage file ($placement)"
}
build_and_run exact "$@"
cp "$work/run.exact.cov" "$work/run.cov"

[ "$(tail -n 1 "$work/run.cov")" = end ] || fail "the coverage file is incomplete (no 'end' record)"
if [ "$native_status" -gt 128 ]; then
  status="status signal $((native_status - 128))"
else
  status="status exit $native_status"
fi
grep -qx "$status" "$work/run.cov" ||
  fail "expected '$status' in the coverage file, found '$(grep '^status' "$work/run.cov")'"
ls "$work" | grep -q '\.tmp\.' && fail "a temporary coverage file was left behind"

# Consistency. In a run that ended normally (exit status) and never left a block half-way,
# flow is conserved. An exception leaves the blocks it unwinds without their out-edges, and
# longjmp (c89_rules.c) also re-enters a block in the middle: there only incoming edges are
# checked.
normal=1
[ "$native_status" -ge 128 ] && normal=0
conserved=$normal
# shellcheck disable=SC2086
grep -Eq 'longjmp|throw' $sources && conserved=0
awk -v normal="$conserved" '
  NR == 1 && $0 != "sleuth-cov 3" { print "bad first line: " $0; bad = 1 }
  $1 == "func" { entry[$6] = 1; exit_[$7] = 1 }
  $1 == "block" { count[$2] = $4 }
  $1 == "edge" { out[$2] += $5; in_[$3] += $5; haveout[$2] = 1; havein[$3] = 1 }
  $1 == "cond" { c[$3] += $8 + $9; condblock[$3] = 1 }
  $1 == "line" { linecount[$2 " " $3] = $4 }
  $1 == "value" { nvalue++; site[nvalue] = $3 " " $4; sum[nvalue] = $8 + $9 + $10; what[nvalue] = $0 }
  { last = $0 }
  END {
    if (last != "end") { print "missing end record"; bad = 1 }
    for (b in count) {
      if (!(b in entry) && (b in havein) && in_[b] != count[b]) {
        print "block " b ": count " count[b] " but incoming edges add up to " in_[b]; bad = 1
      }
      if (normal && !(b in exit_) && (b in haveout) && out[b] != count[b]) {
        print "block " b ": count " count[b] " but outgoing edges add up to " out[b]; bad = 1
      }
    }
    for (b in condblock)
      if (normal && c[b] != count[b]) {
        print "block " b ": count " count[b] " but its condition ran " c[b] " times"; bad = 1
      }
    # A value is counted after its statement ran, so at most as often as the line it is on.
    for (v = 1; v <= nvalue; v++)
      if (!(site[v] in linecount) || sum[v] > linecount[site[v]]) {
        print "value record on no line or counted more often than its line: " what[v]; bad = 1
      }
    exit bad
  }' "$work/run.cov" || fail "inconsistent coverage file $work/run.cov"

# Minimal placement: fewer increments, and where the run ended normally the same counts, also
# where exceptions or longjmp left blocks half-way (gcov's placement counts those too).
build_and_run minimal "$@"
increments() { cat "$work/src.$1"/* | grep -o '++__sleuth_cov[_0-9a-f]*\[' | wc -l; }
[ "$(increments minimal)" -le "$(increments exact)" ] ||
  fail "--counters minimal placed more increments ($(increments minimal)) than exact ($(increments exact))"
if [ "$normal" = 1 ]; then
  diff -u <(grep -Ev '^(program|status) ' "$work/run.exact.cov") \
    <(grep -Ev '^(program|status) ' "$work/run.minimal.cov") >"$work/placement.diff" ||
    { head -40 "$work/placement.diff"; fail "--counters minimal counted otherwise than exact"; }
fi

golden=$golden_dir/$name.txt
if [ "$golden_dir" != - ] && [ -f "$golden" ]; then
  grep -E '^(line|cond|value) ' "$work/run.cov" >"$work/actual.txt"
  diff -u <(grep -v '^#' "$golden") "$work/actual.txt" || fail "line/cond/value records differ from $golden"
  echo "ok [coverage $name/$family]: same output and status ($native_status), consistent, golden matches"
else
  echo "ok [coverage $name/$family]: same output and status ($native_status), consistent"
fi
