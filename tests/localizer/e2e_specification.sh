#!/bin/bash
# Specification-guided localization (SAT-TAR) end to end: a mean over the command-line numbers
# divides by one too many. Every test runs the same lines, so the spectrum ties the fault with a
# computation whose value never reaches the output; the trace formulas of the failing runs
# (recorded paths, SLEUTH_PATH=1) blame only statements the printed value depends on.
# usage: e2e_specification.sh SLEUTH TESTS_DIR WORKDIR
set -u
SLEUTH=$1 WORK=$3
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
cat > mean.c <<'SRC'
#include <stdio.h>
#include <stdlib.h>

static int total(const int *v, int n) {
  int s = 0;
  for (int i = 0; i < n; i++)
    s += v[i];
  return s;
}

static int mean(int *v, int n) {
  int spread = v[n - 1] - v[0];
  int t = total(v, n);
  int m = t / (n + 1); /* the fault: t / n */
  spread = spread * 2;
  return m;
}

int main(int argc, char **argv) {
  int v[16], n = 0;
  for (int i = 1; i < argc && n < 16; i++)
    v[n++] = atoi(argv[i]);
  printf("%d\n", mean(v, n));
  return 0;
}
SRC
SLEUTH_PATH=bogus SLEUTH_MODE=coverage "$SLEUTH" cc -o mean mean.c 2>bogus.txt
[ $? = 2 ] && grep -qx "sleuth cc: SLEUTH_PATH: expected 1 or 0, not 'bogus'" bogus.txt ||
  fail "SLEUTH_PATH=bogus is no usage error: $(cat bogus.txt)"
SLEUTH_PATH=1 SLEUTH_MODE=coverage "$SLEUTH" cc -std=c99 -O0 -Wall -Werror -o mean mean.c ||
  fail "coverage build with path recording"
SLEUTH_COV_OUT=one.cov ./mean 4 4 > /dev/null || fail "mean 4 4"
[ -s one.path ] || fail "no path file beside one.cov"
grep -q '^site [0-9]* [0-9]* 14 .* assign ' one.path || fail "no site for line 14 in one.path"
: > tests.txt
k=0
# numbers -> the correct mean
for case in "0:0" "0 0:0" "0 0 0:0" "4 4:4" "1:1" "3 6 9:6" "10 20:15" "7 7 7 7:7"; do
  IFS=: read -r args want <<<"$case"
  k=$((k + 1))
  echo "$want" > "expected-$k.txt"
  echo "name=m$k stdout=expected-$k.txt ./mean $args" >> tests.txt
done

plain=$("$SLEUTH" localize --tests tests.txt --tie-break none --color never --top 0 2>err.txt) ||
  fail "localize: $(cat err.txt)"
echo "$plain"
# The spectrum ties the fault with the spread computation, whose value is never printed.
fault=$(echo "$plain" | grep 'mean.c:14 ' | awk '{print $1}')
spread=$(echo "$plain" | grep 'mean.c:12 ' | awk '{print $1}')
[ -n "$fault" ] && [ "$fault" = "$spread" ] || fail "the spectrum does not tie lines 14 and 12"

ranked=$("$SLEUTH" localize --from .sleuth-localize --specification --tie-break none \
  --color never --top 0 2>spec-err.txt) || fail "localize --specification: $(cat spec-err.txt)"
echo "$ranked"
cat spec-err.txt
grep -q 'specification of m4: line 23: printed 2, expected 4; [0-9]* correction set' spec-err.txt ||
  fail "no diagnosis of m4 on stderr"
rank_of() { echo "$ranked" | awk -v loc="mean.c:$1" '$0 ~ loc" " {split($1, r, "-"); print r[1]}'; }
f=$(rank_of 14) s=$(rank_of 12) u=$(rank_of 15)
[ -n "$f" ] && [ -n "$s" ] && [ "$f" -lt "$s" ] || fail "the fault (rank $f) is not above the spread (rank $s)"
[ -n "$u" ] && [ "$f" -lt "$u" ] || fail "the fault (rank $f) is not above line 15 (rank $u)"
echo "$ranked" | grep 'mean.c:14 ' | grep -q 'correction sets of failing tests' ||
  fail "the fault's reason does not name the correction sets"
# The budget is checked before each failing test; what it leaves out is said.
"$SLEUTH" localize --from .sleuth-localize --specification --specification-budget 0.000001 \
  --view none 2>budget.txt || fail "localize --specification-budget"
grep -q 'the budget of 1e-06 s diagnosed 1 of the 5 failing tests that recorded a path; the other 4 count as undiagnosed' budget.txt ||
  fail "no budget line: $(cat budget.txt)"
"$SLEUTH" localize --from .sleuth-localize --specification --specification-budget -1 \
  --view none 2>bad-budget.txt
[ $? = 2 ] && grep -q "specification-budget needs a positive number of seconds, not '-1'" bad-budget.txt ||
  fail "a negative budget is no usage error: $(cat bad-budget.txt)"
# Without a recorded path the option says what to do.
SLEUTH_MODE=coverage "$SLEUTH" cc -std=c99 -O0 -o mean mean.c || fail "coverage build"
"$SLEUTH" localize --tests tests.txt --store nopath --specification --color never >/dev/null \
  2>nopath-err.txt || fail "localize --specification without paths"
grep -q 'no failing test recorded its path; build the program with SLEUTH_PATH=1' nopath-err.txt ||
  fail "no hint about SLEUTH_PATH: $(cat nopath-err.txt)"
echo PASS
