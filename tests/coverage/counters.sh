#!/usr/bin/env bash
# Counter placement. A count is derived from a block's out-edges only where nothing can leave
# the block otherwise: with the exact placement, where nothing in it can crash, call or throw;
# with --counters minimal, where nothing can throw or longjmp. check_coverage.sh checks that
# both give the very same counts where a run does not die, and the goldens what they are.
# usage: counters.sh SLEUTH SOURCE_DIR
set -u
sleuth=$1 src=$2
fail() { echo "FAIL: $*"; exit 1; }
# instrument PLACEMENT FILE ARGS...: the rewritten text on stdout, statistics in stats.txt.
instrument() {
  local placement=$1 file=$2
  shift 2
  "$sleuth" instrument --mode coverage --counters "$placement" --stats "$file" -- "$@" \
    2>stats.txt || { cat stats.txt; fail "instrument --counters $placement $file"; }
}
counters() { grep -o '[0-9]* counters,' stats.txt | cut -d' ' -f1; }

# remove_html_markup's loop reads and compares locals only: nothing there can crash, so even
# the exact placement counts one outcome of a condition and derives the other (14 counters,
# as many as the minimal placement). Two of them count the range-for, whose test and increment
# have no text: where it is entered, and where its body begins (the body's assert may end the
# run before the first condition).
out=$(instrument exact "$src/examples/remove_html_markup.cpp" -std=c++20)
false_only=$(printf '%s\n' "$out" | grep -o '? 1 : (static_cast<void>(++__sleuth_cov\[[0-9]*\]), 0))' | wc -l)
[ "$false_only" -ge 3 ] || fail "expected at least 3 conditions counted by their false outcome only, got $false_only"
[ "$(counters)" = 14 ] || { cat stats.txt; fail "expected 14 counters"; }
echo "ok: remove_html_markup: $false_only conditions counted by one outcome, 14 counters"

# A loop test that may crash (`start->next`) is counted as it runs, `(void)++k, test`, as well
# as by its outcomes: a run that dies in it still shows the test as run. The minimal placement
# derives it from the outcomes, as gcov would.
crash=$src/tests/runtime/crash/null_loop_condition.c
out=$(instrument exact "$crash")
printf '%s\n' "$out" | grep -Fq 'while ((((void)++__sleuth_cov[' ||
  fail "exact: no evaluation counter in the loop test of $crash"
exact=$(counters)
out=$(instrument minimal "$crash")
printf '%s\n' "$out" | grep -Fq 'while ((((void)++__sleuth_cov[' &&
  fail "minimal: an evaluation counter in $crash, where the outcomes give the count"
minimal=$(counters)
[ "$minimal" -lt "$exact" ] || fail "minimal placed $minimal counters, exact $exact"
echo "ok: null_loop_condition: the loop test counted as it runs (exact $exact, minimal $minimal counters)"

# A `for` loop without init whose body may crash: its increment is counted as it runs,
# `((void)++k, i++)`, since neither the body's end nor the loop's entry gives its count.
out=$(instrument exact "$src/tests/runtime/crash/null_in_loop_body.c")
printf '%s\n' "$out" | grep -Eq '\(\(void\)\+\+__sleuth_cov\[[0-9]+\], i\+\+\)\)' ||
  fail "exact: the increment of null_in_loop_body.c is not counted as it runs"
echo "ok: null_in_loop_body: the increment counted as it runs"

# A call that may throw ends a block early: neither placement derives that block's count from
# its out-edges, and a handler is counted where it begins. With the exact placement the loop's
# entry is counted too, `++k; for (int i = 0; ...)`, once per loop: the body may throw, so the
# increment's count comes from the test's less the entry's, and the block before the loop
# (`Tally tally;`, a constructor call that might crash) gives no exact entry count. The minimal
# placement trusts that block (its constructor cannot throw) and needs no such counter.
exceptions=$src/tests/instrumenter/cases/cxx_exceptions.cpp
entry='\+\+__sleuth_cov\[[0-9]+\]; for \(int i = 0;'
for placement in exact minimal; do
  out=$(instrument "$placement" "$exceptions" -std=c++20)
  printf '%s\n' "$out" | grep -Eq 'catch \(const std::out_of_range &\) \{ \+\+__sleuth_cov\[[0-9]+\];' ||
    fail "$placement: the handler of $exceptions is not counted"
  if [ "$placement" = exact ]; then
    printf '%s\n' "$out" | grep -Eq "$entry" || fail "exact: the loop entry of $exceptions is not counted"
  else
    printf '%s\n' "$out" | grep -Eq "$entry" && fail "minimal: the loop entry of $exceptions is counted"
  fi
done
echo "ok: cxx_exceptions: handlers counted; the loop entry before a throwing body too (exact only)"

"$sleuth" instrument --mode coverage --counters fast "$src/examples/remove_html_markup.cpp" \
  -- -std=c++20 >/dev/null 2>err.txt
[ $? = 2 ] || fail "--counters fast: not a usage error (exit 2)"
[ "$(cat err.txt)" = "sleuth instrument: --counters: unknown counter placement 'fast' (accepted: exact, minimal)" ] ||
  { cat err.txt; fail "no clear error for --counters fast"; }
echo "ok: --counters fast rejected"
