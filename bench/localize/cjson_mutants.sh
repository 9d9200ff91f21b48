#!/usr/bin/env bash
# Mutants of cJSON.c (Debian's `cjson` source package) that its own test suite reveals: the
# faulty versions, with known fault locations, on which `sleuth localize` is scored.
#
# usage: cjson_mutants.sh SLEUTH WORKDIR [SAMPLE [SEED]]
#   SLEUTH   the sleuth binary (or anything that runs `sleuth mutate`, e.g. sleuth_mutate_cli
#            with SLEUTH_MUTATE_DIRECT=1)
#   WORKDIR  everything goes here; a second run with the same arguments resumes
#   SAMPLE   how many of cJSON.c's mutants to try (default 300; 0 = all), chosen by
#            `sleuth mutate --sample SAMPLE --seed SEED` (default seed 1)
#
# Steps: download and unpack the source package (apt-get source, through scripts/apt.sh as
# the real-world tests do); configure and build it once natively with gcc, $CJSON_CFLAGS (default -O0) and the
# package's own flags (-std=c89 -pedantic -Werror -Wconversion ...), its tests on; check that every test passes; write the
# mutants (`sleuth mutate -o`); then for each mutant copy it over cJSON.c, rebuild (ninja -j1)
# and run ctest ($CJSON_TEST_TIMEOUT seconds per test, default 5). A mutant is
#   uncompilable  the build fails (e.g. -Werror=conversion)
#   survived      every test passes
#   all-failed    every test fails (nothing to localize: no passing run)
#   revealed      at least one test fails, not all
# Results:
#   WORKDIR/results/mNNNN.txt   one line per mutant: ID STATUS SECONDS FAILED_TESTS
#   WORKDIR/revealed.tsv        id, file:line:column, operator, function, original,
#                               replacement, failing tests (comma-separated), passing count
#   WORKDIR/summary.txt         counts and wall times
# cJSON.c is restored (and rebuilt) at the end and on interruption.
set -euo pipefail

if [ $# -lt 2 ] || [ $# -gt 4 ]; then
  echo "usage: $0 SLEUTH WORKDIR [SAMPLE [SEED]]" >&2
  exit 2
fi
sleuth=$(realpath "$1")
mkdir -p "$2"
work=$(realpath "$2")
sample=${3:-300}
seed=${4:-1}
mutate=("$sleuth" mutate)
[ "${SLEUTH_MUTATE_DIRECT:-0}" = 1 ] && mutate=("$sleuth")
test_timeout=${CJSON_TEST_TIMEOUT:-5}

trap 'echo "cjson-mutants: FAIL: unexpected error (line $LINENO: $BASH_COMMAND)" >&2' ERR
note() { echo "cjson-mutants: $*"; }
fail() {
  echo "cjson-mutants: FAIL: $*" >&2
  exit 1
}
for tool in gcc cmake ninja ctest; do
  command -v $tool >/dev/null 2>&1 || fail "'$tool' is required"
done

# --- source package (scripts/apt.sh, as the real-world tests fetch it) ------------------------
# Unpacked into this work directory's own cache: the mutants are written over its cJSON.c.
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/apt.sh"
sleuth_fetch_source cjson "$work/cache" "$work"
[ -f "$src/cJSON.c.orig-sleuth" ] || cp "$src/cJSON.c" "$src/cJSON.c.orig-sleuth"
[ -f "$src/cJSON.c.orig-sleuth" ] || fail "$src has no pristine cJSON.c.orig-sleuth"

# --- one native build -----------------------------------------------------------------------
build=$work/build
restore() {
  if ! cmp -s "$src/cJSON.c.orig-sleuth" "$src/cJSON.c"; then
    cp "$src/cJSON.c.orig-sleuth" "$src/cJSON.c"
    [ -f "$build/build.ninja" ] && ninja -C "$build" -j1 >/dev/null 2>&1 || true
  fi
}
trap restore EXIT
trap 'exit 130' INT TERM
restore
t0=$SECONDS
# Every unity test #includes cJSON.c (to reach its static functions): a mutant recompiles it
# 23 times. At -O0 that takes a fifth of the time it takes at -O2 (Debian's flags, whose
# _FORTIFY_SOURCE also needs optimization); the package's own warning flags stay.
cflags=${CJSON_CFLAGS:--O0}
if [ "$(cat "$build/.sleuth-built" 2>/dev/null)" != "$cflags" ]; then
  note "building cjson natively (gcc $cflags, -j1)"
  rm -rf "$build"
  (
    export CFLAGS="$cflags" CC=gcc
    # cJSON_test and the cJSON_Utils tests only link libcjson.so: no need to relink them.
    cmake -S "$src" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=None -DENABLE_CJSON_TEST=ON \
      -DENABLE_CJSON_UTILS=ON -DCMAKE_EXPORT_COMPILE_COMMANDS=ON \
      -DCMAKE_LINK_DEPENDS_NO_SHARED=ON
    ninja -C "$build" -j1
  ) >"$work/build.log" 2>&1 || fail "native build failed (see $work/build.log)"
  (cd "$build" && ctest -j1 --timeout 60 >"$work/baseline.log" 2>&1) ||
    fail "the unmutated tests do not all pass (see $work/baseline.log)"
  echo "$cflags" >"$build/.sleuth-built"
fi
build_seconds=$((SECONDS - t0))
mapfile -t all_tests < <(cd "$build" && ctest -N | sed -n 's/^ *Test *#[0-9]*: *//p')
[ "${#all_tests[@]}" -gt 0 ] || fail "no tests in $build"

# --- mutants --------------------------------------------------------------------------------
mutants=$work/mutants
t0=$SECONDS
if [ ! -f "$mutants/mutants.json" ]; then
  note "writing mutants of cJSON.c (sample $sample, seed $seed)"
  args=(-p "$build" --root "$src" -o "$mutants")
  [ "$sample" != 0 ] && args+=(--sample "$sample" --seed "$seed")
  "${mutate[@]}" --list "${args[@]}" "$src/cJSON.c" >"$work/mutants.txt" ||
    fail "sleuth mutate failed"
  "${mutate[@]}" -p "$build" "$src/cJSON.c" | wc -l >"$work/mutants-total.txt"
fi
generate_seconds=$((SECONDS - t0))
total=$(cat "$work/mutants-total.txt")
# `ID DIR OPERATOR` per mutant, from the manifest
mapfile -t listing < <(jq -r '.mutants[] | "\(.id) \(.dir) \(.operator)"' "$mutants/mutants.json")
note "${#listing[@]} of $total mutants of cJSON.c to try; ${#all_tests[@]} tests"

# --- build and test each mutant -------------------------------------------------------------
mkdir -p "$work/results"
t0=$SECONDS
done_now=0
for line in "${listing[@]}"; do
  read -r id dir _ <<<"$line"
  result=$work/results/$dir.txt
  [ -f "$result" ] && continue
  started=$SECONDS
  cp "$mutants/$dir/cJSON.c" "$src/cJSON.c"
  if ! ninja -C "$build" -j1 >"$work/results/$dir.build.log" 2>&1; then
    status=uncompilable failed=-
  else
    rm -f "$build/Testing/Temporary/LastTestsFailed.log"
    (cd "$build" && ctest -j1 --timeout "$test_timeout" >"$work/results/$dir.ctest.log" 2>&1) ||
      true
    # No LastTestsFailed.log when every test passed.
    failed=$(sed -n 's/^[0-9]*://p' "$build/Testing/Temporary/LastTestsFailed.log" 2>/dev/null |
      sort | paste -sd, - || true)
    nfailed=$(printf '%s' "$failed" | awk -F, '{print NF}')
    if [ -z "$failed" ]; then
      status=survived failed=-
    elif [ "$nfailed" -ge "${#all_tests[@]}" ]; then
      status=all-failed
    else
      status=revealed
    fi
    rm -f "$work/results/$dir.build.log"
  fi
  echo "$id $status $((SECONDS - started)) $failed" >"$result.tmp"
  mv "$result.tmp" "$result"
  done_now=$((done_now + 1))
  if [ $((done_now % 10)) = 0 ]; then
    note "$(ls "$work/results" | grep -c '\.txt$') of ${#listing[@]} mutants done"
  fi
done
restore
mutant_seconds=$((SECONDS - t0))

# --- summary --------------------------------------------------------------------------------
{
  printf 'id\tlocation\toperator\tfunction\toriginal\treplacement\tfailing_tests\tpassing\n'
  for line in "${listing[@]}"; do
    read -r id dir _ <<<"$line"
    read -r _ status _ failed <"$work/results/$dir.txt"
    [ "$status" = revealed ] || continue
    nfailed=$(printf '%s' "$failed" | awk -F, '{print NF}')
    jq -r --argjson id "$id" --arg failed "$failed" --argjson pass "$((${#all_tests[@]} - nfailed))" \
      '.mutants[] | select(.id == $id) |
       [.id, "\(.file):\(.line):\(.column)", .operator, .function, .original, .replacement,
        $failed, $pass] | map(tostring | gsub("\t"; " ") | gsub("\n"; "\\n")) | @tsv' \
      "$mutants/mutants.json"
  done
} >"$work/revealed.tsv.tmp"
mv "$work/revealed.tsv.tmp" "$work/revealed.tsv"
count() { cat "$work"/results/m*.txt | awk -v s="$1" '$2 == s' | wc -l; }
{
  echo "cjson $(cat "$src/.sleuth-unpacked"): $total mutants of cJSON.c, ${#listing[@]} tried (sample $sample, seed $seed), ${#all_tests[@]} tests"
  echo "revealed $(count revealed), all-failed $(count all-failed), survived $(count survived), uncompilable $(count uncompilable)"
  echo "by operator (revealed/tried):"
  for op in ror aor lcr obo neg sdl; do
    tried=0 rev=0
    for line in "${listing[@]}"; do
      read -r id dir operator <<<"$line"
      [ "$operator" = "$op" ] || continue
      tried=$((tried + 1))
      grep -q '^[0-9]* revealed ' "$work/results/$dir.txt" && rev=$((rev + 1))
    done
    echo "  $op $rev/$tried"
  done
  echo "seconds: native build $build_seconds (this run), mutant generation $generate_seconds (this run), mutants $mutant_seconds (this run)"
  echo "seconds per mutant (all runs): $(cat "$work"/results/m*.txt | awk '{s += $3} END {if (NR) printf "%.1f", s / NR}')"
} >"$work/summary.txt"
cat "$work/summary.txt"
