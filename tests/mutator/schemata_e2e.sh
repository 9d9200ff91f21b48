#!/usr/bin/env bash
# End to end: write the mutant schemata of SOURCE, compile it once, and check for every mutant
# it holds that running it with SLEUTH_MUTANT=N behaves exactly as the separately built
# `--apply N` version (standard output and exit status), and that SLEUTH_MUTANT unset or 0
# behaves as the original. Both builds use the sanitizers, so that a mutant reading out of
# bounds stops the same way in both instead of printing whatever memory held. Every program runs
# as ./program from a directory of its own, so that a mutant reading argv[0] (argv[1] -> argv[0])
# sees the same name in both builds wherever the work directory is.
# usage: schemata_e2e.sh SLEUTH_MUTATE SOURCE WORKDIR COMPILER STD
set -euo pipefail
mutate=$1 source=$2 work=$3 compiler=$4 std=$5
rm -rf "$work" && mkdir -p "$work"
fail() { echo "schemata e2e: FAIL: $*"; exit 1; }
ext=${source##*.}
flags=(-std="$std" -O0 -g0 -w -fsanitize=address,undefined -fno-sanitize-recover=all)
export ASAN_OPTIONS=detect_leaks=0

"$mutate" --schemata "$work/schemata.$ext" "$source" -- -std="$std" 2>"$work/summary.txt" ||
  fail "mutate --schemata: $(cat "$work/summary.txt")"
mkdir -p "$work/schemata" "$work/original" "$work/mutant"
"$compiler" "${flags[@]}" -o "$work/schemata/program" "$work/schemata.$ext" ||
  fail "the schemata does not compile"
"$compiler" "${flags[@]}" -o "$work/original/program" "$source"
ids=$(python3 -c 'import json,sys; print(" ".join(str(m["id"]) for m in json.load(open(sys.argv[1]))["mutants"]))' \
  "$work/schemata.$ext.json")
[ -n "$ids" ] || fail "the schemata holds no mutant"

# Prints what running DIR/program (with the environment given after DIR) does, for two inputs.
behaviour() {
  local dir=$1 arg
  shift
  for arg in "" hello; do
    set +e
    out=$(cd "$dir" && timeout 5 env "$@" ./program $arg 2>/dev/null)
    status=$?
    set -e
    printf 'args=[%s] status=%s\n%s\n' "$arg" "$status" "$out"
  done
}

expected=$(behaviour "$work/original")
[ "$(behaviour "$work/schemata" -u SLEUTH_MUTANT)" = "$expected" ] ||
  fail "SLEUTH_MUTANT unset: not the original's behaviour"
[ "$(behaviour "$work/schemata" SLEUTH_MUTANT=0)" = "$expected" ] ||
  fail "SLEUTH_MUTANT=0: not the original's behaviour"

checked=0 differs=0
for id in $ids; do
  "$mutate" --apply "$id" "$source" -- -std="$std" >"$work/mutant.$ext"
  "$compiler" "${flags[@]}" -o "$work/mutant/program" "$work/mutant.$ext" 2>/dev/null ||
    fail "mutant $id does not compile on its own"
  want=$(behaviour "$work/mutant")
  got=$(behaviour "$work/schemata" SLEUTH_MUTANT="$id")
  [ "$got" = "$want" ] || fail "mutant $id: schemata gives
$got
--apply $id gives
$want"
  [ "$want" = "$expected" ] || differs=$((differs + 1))
  checked=$((checked + 1))
done
[ "$differs" -gt 0 ] || fail "no mutant changes the behaviour: the comparison shows nothing"
echo "schemata e2e: $(basename "$source"): $checked mutants behave as their --apply builds" \
  "($differs differ from the original); $(cat "$work/summary.txt")"
