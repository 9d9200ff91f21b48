#!/usr/bin/env bash
# A program interrupted as a terminal interrupts it: SIGINT (Ctrl-C), SIGQUIT (Ctrl-\) and SIGHUP
# sent to its whole process group. It must leave its complete record (dependence file or
# coverage file) and still die of that signal; under `sleuth run` (in the same group, as in a
# terminal) too, which must then report the file and die the same way.
# usage: check_interrupt.sh SLEUTH SOURCE WORKDIR deps|cov
set -u
sleuth=$(realpath "$1") source=$(realpath "$2") work=$3 mode=$4
fail() { echo "FAIL [interrupt $mode]: $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

if [ "$mode" = cov ]; then
  SLEUTH_MODE=coverage "$sleuth" cc -g -O0 -o prog "$source" || fail "coverage build failed"
else
  "$sleuth" cc -g -O0 -o prog "$source" || fail "instrumented build failed"
fi
line=$(grep -n 'printf("ready' "$source" | cut -d: -f1)
summed=$(grep -n 'in-slice' "$source" | cut -d: -f1)

# Starts COMMAND... as the leader of a process group of its own (setsid) with SIGINT and
# SIGQUIT at their defaults (a script's background job ignores them), waits until the program
# has printed `ready`, sends SIGNAL to the whole group, and prints the status the shell sees.
interrupt() {
  local signal=$1 out=$2
  shift 2
  env --default-signal=INT,QUIT setsid "$@" >"$out" 2>"$out.err" &
  local pid=$! i
  for i in $(seq 200); do
    grep -q ready "$out" 2>/dev/null && break
    sleep 0.05
  done
  grep -q ready "$out" || { kill -KILL -- -"$pid"; fail "the program did not start: $(cat "$out.err")"; }
  kill -s "$signal" -- -"$pid"
  for i in $(seq 200); do
    kill -0 "$pid" 2>/dev/null || break
    sleep 0.05
  done
  if kill -0 "$pid" 2>/dev/null; then
    kill -KILL -- -"$pid"
    fail "SIG$signal did not end the program"
  fi
  wait "$pid" 2>/dev/null # (no "Quit" from the shell)
}

check_record() {
  local file=$1 signal=$2 number=$3 what=$4
  [ -f "$file" ] || { ls; fail "SIG$signal ($what): no file $file"; }
  [ "$(tail -n 1 "$file")" = end ] || fail "SIG$signal ($what): $file is incomplete (no 'end')"
  grep -qx "status signal $number" "$file" ||
    fail "SIG$signal ($what): expected 'status signal $number', found '$(grep '^status' "$file")'"
  ! ls | grep -q '\.tmp\.' || fail "SIG$signal ($what): a temporary file was left behind"
  if [ "$mode" = cov ]; then
    # The same spectrum as the passing and the failing test: only loading is checked.
    "$sleuth" localize --pass "$file" --fail "$file" --store "store.$signal" --view list --top 0 \
      >"localize.$signal" 2>&1 ||
      { cat "localize.$signal"; fail "SIG$signal ($what): the coverage file does not load"; }
    grep -q "$(basename "$source"):$summed" "localize.$signal" ||
      { cat "localize.$signal"; fail "SIG$signal ($what): line $summed is not in the ranking"; }
  else
    "$sleuth" slice "$file" "$(basename "$source"):$line" >"slice.$signal" 2>&1 ||
      { cat "slice.$signal"; fail "SIG$signal ($what): sleuth slice failed"; }
    grep -Eq "^\* +$summed( |$)" "slice.$signal" ||
      { cat "slice.$signal"; fail "SIG$signal ($what): line $summed is not in the slice"; }
  fi
}

ulimit -c 0
for signal in INT HUP QUIT; do
  number=$(kill -l "$signal")
  rm -f ./*.deps ./*.cov
  if [ "$mode" = cov ]; then
    SLEUTH_COV_OUT=run.cov interrupt "$signal" out.txt ./prog
  else
    SLEUTH_OUT=run.deps interrupt "$signal" out.txt ./prog
  fi
  status=$?
  [ "$status" = $((128 + number)) ] || fail "SIG$signal: the program ended with $status, not $((128 + number))"
  check_record "run.$mode" "$signal" "$number" "program alone"

  [ "$mode" = deps ] || continue
  # Under sleuth run, which is in the group too.
  rm -f ./*.deps
  interrupt "$signal" run.txt "$sleuth" run -o run.deps -- ./prog
  status=$?
  [ "$status" = $((128 + number)) ] || fail "SIG$signal: sleuth run ended with $status, not $((128 + number))"
  grep -q "^sleuth run: dependences of ./prog written to run.deps (killed by signal $number" run.txt.err ||
    { cat run.txt.err; fail "SIG$signal: sleuth run did not report the file"; }
  check_record run.deps "$signal" "$number" "under sleuth run"
done
echo "ok [interrupt $mode]: INT, HUP and QUIT leave complete records"
