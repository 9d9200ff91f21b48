#!/usr/bin/env bash
# Counter placement: a condition's false outcome is not counted where the exact flow rules give
# it (remove_html_markup: the right operand of each `&&` whose false edge leads, with the left
# operand's, into a counted `else`); its golden line and condition counts
# (tests/coverage/golden/remove_html_markup.txt) stay what they were with both counters.
# usage: counters.sh SLEUTH SOURCE_DIR
set -u
sleuth=$1 src=$2
out=$("$sleuth" instrument --mode coverage --stats "$src/examples/remove_html_markup.cpp" \
  -- -std=c++20 2>stats.txt) || { cat stats.txt; echo "FAIL: instrument"; exit 1; }
single=$(printf '%s\n' "$out" | grep -o '? ++__sleuth_cov\[[0-9]*\] != 0 : 0)' | wc -l)
[ "$single" -ge 3 ] || { echo "FAIL: expected at least 3 conditions with one counter, got $single"; exit 1; }
grep -q ", 19 counters," stats.txt || { cat stats.txt; echo "FAIL: expected 19 counters"; exit 1; }
echo "ok: $single conditions counted by their true outcome only, 19 counters"

# --counters minimal also drops counters that only "a block is left through its out-edges"
# gives (true outcomes, else-blocks): 12 counters instead of 19, and at least one condition
# counted by its false outcome alone. check_coverage.sh checks that the counts stay the same.
out=$("$sleuth" instrument --mode coverage --counters minimal --stats \
  "$src/examples/remove_html_markup.cpp" -- -std=c++20 2>stats.txt) ||
  { cat stats.txt; echo "FAIL: instrument --counters minimal"; exit 1; }
false_only=$(printf '%s\n' "$out" | grep -o '? 1 : ++__sleuth_cov\[[0-9]*\] == 0)' | wc -l)
[ "$false_only" -ge 1 ] || { echo "FAIL: expected a condition counted by its false outcome only"; exit 1; }
grep -q ", 12 counters," stats.txt || { cat stats.txt; echo "FAIL: expected 12 counters with --counters minimal"; exit 1; }
"$sleuth" instrument --mode coverage --counters fast "$src/examples/remove_html_markup.cpp" \
  -- -std=c++20 >/dev/null 2>err.txt && { echo "FAIL: --counters fast accepted"; exit 1; }
grep -q "unknown placement 'fast'" err.txt || { cat err.txt; echo "FAIL: no clear error for --counters fast"; exit 1; }
echo "ok: --counters minimal: 12 counters, $false_only conditions counted by their false outcome only"
