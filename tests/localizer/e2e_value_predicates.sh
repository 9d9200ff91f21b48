#!/bin/bash
# Value predicates end to end: a straight-line fare computation whose fault (a negative extra
# distance for rides under 2 km) every line formula ties with its neighbours. Built in coverage
# mode, its value sites say `extra_km < 0` held in exactly the failing runs, and
# `--tie-break importance` must put the faulty line at the top, ahead of the lines it ties with.
# usage: e2e_value_predicates.sh SLEUTH TESTS_DIR WORKDIR
set -u
SLEUTH=$1 WORK=$3
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
cat > fare.c <<'SRC'
#include <stdio.h>
#include <stdlib.h>

/* A taxi fare in cents: a base fee, a rate per km beyond the first 2, a night surcharge. */
static long fare(int km, int night) {
  int base = 300;
  int extra_km = km - 2; /* the fault: a ride under 2 km has no extra distance */
  int per_km = 150;
  long distance_part = (long)extra_km * per_km;
  long surcharge = night ? 200 : 0;
  long total = base + distance_part + surcharge;
  return total;
}

int main(int argc, char **argv) {
  int km = argc > 1 ? atoi(argv[1]) : 0;
  int night = argc > 2 ? atoi(argv[2]) : 0;
  printf("%ld\n", fare(km, night));
  return 0;
}
SRC
SLEUTH_MODE=coverage "$SLEUTH" cc -std=c99 -O0 -Wall -Werror -o fare fare.c || fail "coverage build"
SLEUTH_COV_OUT=one.cov ./fare 1 > /dev/null || fail "fare 1"
grep -Eq '^value [0-9]+ 0 7 [0-9]+ extra_km 0 1 0 0$' one.cov ||
  fail "no value record of extra_km < 0 in one.cov: $(grep '^value' one.cov)"
: > tests.txt
# km night -> expected fare (the correct program's)
for case in 0:0:300 1:0:300 1:1:500 2:0:300 3:0:450 5:0:750 5:1:950 10:1:1700; do
  IFS=: read -r km night cents <<<"$case"
  echo "$cents" > "expected-$km-$night.txt"
  echo "name=k$km-n$night stdout=expected-$km-$night.txt ./fare $km $night" >> tests.txt
done

plain=$("$SLEUTH" localize --tests tests.txt --tie-break none --color never --top 0 2>err.txt) ||
  fail "localize: $(cat err.txt)"
echo "$plain"
grep -q "FAIL    k0-n0" err.txt || fail "k0-n0 does not fail"
# Without predicates the fault shares its rank with the other lines every failing run executed.
echo "$plain" | grep -Eq '^ *1-([4-9]|[1-9][0-9]) .*fare.c:7 ' || fail "Ochiai alone does not tie the fault:
$plain"

broken=$("$SLEUTH" localize --from .sleuth-localize --tie-break importance --color never \
  --top 0 --json ranking.json) || fail "localize --tie-break importance"
echo "$broken"
top=$(echo "$broken" | grep -E '^ *1(-[0-9]+)? ')
echo "$top" | grep -q 'fare.c:7 ' || fail "the fault is not at the top: $top"
echo "$top" | grep -Fq '[extra_km < 0 (importance ' || fail "the list does not name the predicate: $top"
# What is left tied with it are its consequences (distance_part < 0, and surcharge compared
# with it), which hold in exactly the same runs.
[ "$(echo "$top" | wc -l)" -le 3 ] || fail "the tie at the top is not broken: $top"
python3 - ranking.json <<'PY' || fail "ranking.json"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["tie_break"] == "importance", r.get("tie_break")
fault = [e for e in r["events"] if e["line"] == 7][0]
assert fault["predicate"] == "extra_km < 0" and fault["second"] > 0, fault
assert fault["rank"]["best"] == 1, fault
PY

# The predicates themselves, ranked by Importance: `extra_km < 0` (or its consequence
# `distance_part < 0`) first.
preds=$("$SLEUTH" localize --from .sleuth-localize --events value --formula importance \
  --color never --top 3) || fail "localize --events value"
echo "$preds"
echo "$preds" | grep -E '^ *1(-[0-9]+)? ' | grep -Eq 'extra_km < 0' ||
  fail "extra_km < 0 is not the most important predicate"
exit 0
