#!/bin/bash
# Mutation-based localization end to end: the mutant schemata of a small C program with a
# known fault, built once in coverage mode, a suite whose one failing test executes lines that
# passing tests also execute (Ochiai does not put the fault first), and
# `sleuth localize --mutants`, which must rank the faulty line alone at rank 1.
# usage: e2e_metallaxis.sh SLEUTH TESTS_DIR WORKDIR; exit 77 = skipped
set -u
SLEUTH=$1 WORK=$3
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
fail() { echo "FAIL: $*"; exit 1; }
cat > grade.c <<'SRC'
#include <stdio.h>
#include <stdlib.h>

static int letter(int score) {
  int bonus = score / 10;
  int grade;
  if (score > 90) /* the fault: 90 is an A too */
    grade = 4;
  else if (score >= 80)
    grade = 3;
  else if (score >= 70)
    grade = 2;
  else
    grade = 1;
  if (bonus > 9)
    grade = grade + 0;
  return grade;
}

int main(int argc, char **argv) {
  int score = argc > 1 ? atoi(argv[1]) : 0;
  printf("%d\n", letter(score));
  return 0;
}
SRC
"$SLEUTH" mutate --schemata grade.s.c grade.c -- -std=c99 2>mutate.txt ||
  fail "mutate --schemata: $(cat mutate.txt)"
SLEUTH_MODE=coverage "$SLEUTH" cc -std=c99 -O0 -w -o grade grade.s.c || fail "coverage build"
: > tests.txt
for case in 95:4 100:4 85:3 80:3 75:2 70:2 50:1 90:4; do
  score=${case%%:*} grade=${case##*:}
  echo "$grade" > "expected-$score.txt"
  echo "name=s$score stdout=expected-$score.txt ./grade $score" >> tests.txt
done

# Ochiai alone ranks the lines of `else if (score >= 80)` ahead of the fault.
ochiai=$("$SLEUTH" localize --tests tests.txt --formula ochiai --tie-break none --color never --top 0 \
  2>ochiai-err.txt) ||
  fail "localize: $(cat ochiai-err.txt)"
echo "$ochiai" | grep -Eq '^ *1[-0-9]* ' || fail "no line at Ochiai's rank 1:
$ochiai"
echo "$ochiai" | grep -Eq '^ *1 .*grade.c:7 ' && fail "Ochiai alone ranks the fault first:
$ochiai"

out=$("$SLEUTH" localize --tests tests.txt --mutants grade.s.c.json --color never --top 0 \
  --json ranking.json 2>err.txt) || fail "localize --mutants: $(cat err.txt)"
echo "$out"; cat err.txt
grep -q "FAIL    s90" err.txt || fail "the failing test is not s90"
grep -Eq "Metallaxis-FL: ran [1-9][0-9]* of [1-9][0-9]* mutants" err.txt ||
  fail "no summary of the mutant runs"
first=$(echo "$out" | grep -E '^ *1 ' | head -2)
[ "$(echo "$first" | wc -l)" = 1 ] || fail "rank 1 is shared: $first"
echo "$first" | grep -q 'grade.c:7 ' || fail "the fault (grade.c:7) is not at rank 1: $first"
python3 - ranking.json <<'PY' || fail "ranking.json"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["technique"] == "metallaxis", r["technique"]
top = r["events"][0]
assert top["line"] == 7 and top["file"].endswith("grade.c") and top["score"] == 1, top
PY
# MUSE on the same runs: the fault's mutants make the failing test pass and break no passing
# test, so it ranks first too.
muse=$("$SLEUTH" localize --tests tests.txt --mutants grade.s.c.json --mutation-score muse \
  --color never --top 3 2>muse-err.txt) || fail "localize --mutation-score muse: $(cat muse-err.txt)"
echo "$muse"
grep -q "MUSE: ran" muse-err.txt || fail "no MUSE summary: $(cat muse-err.txt)"
first=$(echo "$muse" | grep -E '^ *1 ' | head -2)
[ "$(echo "$first" | wc -l)" = 1 ] && echo "$first" | grep -q 'grade.c:7 ' ||
  fail "MUSE: the fault is not alone at rank 1: $first"

# Errors: a suite that does not rerun, a program not built from the schemata.
"$SLEUTH" localize --mutants grade.s.c.json --pass x.cov 2>usage.txt
[ $? = 2 ] || fail "--mutants with --pass: not a usage error"
grep -q "give --tests, --ctest or --from" usage.txt || fail "usage: $(cat usage.txt)"
SLEUTH_MODE=coverage "$SLEUTH" cc -std=c99 -O0 -o original grade.c || fail "coverage build"
sed 's|./grade |./original |' tests.txt > original-tests.txt
"$SLEUTH" localize --tests original-tests.txt --store original-store --mutants grade.s.c.json \
  2>original.txt >/dev/null && fail "a suite without the schemata was ranked"
grep -q "no coverage file names the schemata '.*grade.s.c'" original.txt ||
  fail "not built from the schemata: $(cat original.txt)"

# The mutant runs leave no scratch files behind.
[ ! -e .sleuth-localize/mutants ] || fail "mutant stores left behind"
echo "metallaxis e2e: grade.c:7 ranked first"
