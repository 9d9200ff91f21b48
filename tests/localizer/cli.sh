#!/bin/bash
# `sleuth localize` on fake programs that leave hand-written coverage files:
# the command line, its views and exports, and every bad-input message.
# usage: cli.sh SLEUTH FIXTURES WORKDIR
set -u
SLEUTH=$1 FIXTURES=$2 WORK=$3
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
expect_error() { # expect_error "message" command...
  local want=$1; shift
  local out; out=$("$@" 2>&1 >/dev/null); local rc=$?
  [ $rc -ne 0 ] || fail "'$*' exited 0"
  [ "$out" = "$want" ] || fail "'$*' said '$out', expected '$want'"
}

# A source and its coverage for three runs of middle(): lines 1-12.
cat > middle.c <<'SRC'
int middle(int x, int y, int z) {
    if (y < z) {
        if (x < y)
            return y;
        else if (x < z)
            return y;
    } else {
        if (x > y)
            return y;
        else if (x > z)
            return x;
    }
    return z;
}
SRC
cov() { # cov NAME HASH LINES...  (executed lines)
  local name=$1 hash=$2; shift 2
  {
    echo "sleuth-cov 1"; echo "program ./middle"; echo "status exit 0"
    echo "file 0 $hash $PWD/middle.c"
    echo "func 0 0 1 14 0 1 middle"
    echo "block 0 0 1 -"; echo "block 1 0 1 -"; echo "edge 0 1 seq 1"
    for l in 1 2 3 4 5 6 8 9 10 11 13; do
      n=0; for e in "$@"; do [ "$e" = "$l" ] && n=1; done
      echo "line 0 $l $n"
    done
    echo "end"
  } > "$name"
}
cov p1.cov 0123456789abcdef 1 2 3 5 6
cov p2.cov 0123456789abcdef 1 2 3 4
cov p3.cov 0123456789abcdef 1 2 8 9
cov f1.cov 0123456789abcdef 1 2 3 5 6
cov other.cov fedcba9876543210 1 2 3 5 6

# Ranking from spectra given directly.
out=$("$SLEUTH" localize --pass p1.cov --pass p2.cov --pass p3.cov --fail f1.cov --formula ochiai \
      --color never --top 1 --csv out.csv --json out.json --sarif out.sarif --html out.html) ||
  fail "localize --pass/--fail exited $?"
# Lines 5 and 6 have the same spectrum here: a tie, reported as the rank range 1-2.
echo "$out" | grep -q "^ 1-2  0.707     1/1     1/3  middle.c:5  else if (x < z)$" || fail "ranked list: $out"
for f in out.csv out.json out.sarif out.html; do [ -s $f ] || fail "$f not written"; done
grep -q '"startLine": 6' out.sarif || fail "SARIF lacks line 6"
ls *.tmp-* 2>/dev/null && fail "temporary files left"

# A suite file whose "programs" copy those files where a coverage build writes.
cat > tests.txt <<EOF2
name=p1 cp $PWD/p1.cov "\$SLEUTH_COV_DIR/a.cov"
name=p2 cp $PWD/p2.cov "\$SLEUTH_COV_DIR/a.cov"
name=p3 cp $PWD/p3.cov "\$SLEUTH_COV_DIR/a.cov"
name=crash cp $PWD/f1.cov "\$SLEUTH_COV_DIR/a.cov"; kill -SEGV \$\$
name=hang timeout=1 cp $PWD/f1.cov "\$SLEUTH_COV_DIR/a.cov"; sleep 60
EOF2
out=$("$SLEUTH" localize --tests tests.txt -j 2 --store store --view list,table,source --color never 2>err.txt) ||
  fail "localize --tests exited $?: $(cat err.txt)"
# The default ranking: Op2, ties ordered by predicates (these spectra have none, so they stay).
echo "$out" | grep -q "^Op2 ranking of 8 events (line) from 5 tests (2 failing), ties broken by predicate importance:$" ||
  fail "suite ranking's headline: $out"
echo "$out" | grep -q "^ 1-2   1.750     2/2     1/3  middle.c:6  return y;$" || fail "suite ranking: $out"
echo "$out" | grep -q "CRASH   crash" || fail "event table lacks the crash: $out"
echo "$out" | grep -q "TIMEOUT hang" || fail "event table lacks the timeout: $out"
grep -q "killed by SIGSEGV" err.txt || fail "no crash note: $(cat err.txt)"
[ -f store/suite.json ] || fail "no manifest"
out=$("$SLEUTH" localize --from store --formula blockrank --color never) || fail "--from store exited $?"
echo "$out" | grep -q "BlockRank ranking" || fail "blockrank from store: $out"

# Bad input: each a clear one-line message and a non-zero exit.
expect_error "sleuth localize: nothing to localize: all 2 tests passed" \
  "$SLEUTH" localize --pass p1.cov --pass p2.cov
expect_error "sleuth localize: no passing test: all 1 test failed; localization compares failing runs with passing ones" \
  "$SLEUTH" localize --fail f1.cov
expect_error "sleuth localize: other.cov: '$PWD/middle.c' comes from another build (hash fedcba9876543210) than in 'p1.cov' (hash 0123456789abcdef); rebuild and rerun the whole suite" \
  "$SLEUTH" localize --pass p1.cov --fail other.cov
echo "./no-such-program --x" > bad.txt
expect_error "sleuth localize: bad.txt:1: test 't1' cannot start: sh: 1: ./no-such-program: not found" \
  "$SLEUTH" localize --tests bad.txt --store store2
sed '$d' p1.cov > truncated.cov
expect_error "sleuth localize: truncated.cov:19: no 'end' record: the file is truncated" \
  "$SLEUTH" localize --pass truncated.cov --fail f1.cov
expect_error "sleuth localize: unknown formula 'foo' (--list-formulas lists them)" \
  "$SLEUTH" localize --pass p1.cov --fail f1.cov --formula foo
expect_error "sleuth localize: no suite: give --tests FILE, --ctest BUILD_DIR, --from STORE or --pass/--fail spectra" \
  "$SLEUTH" localize
expect_error "sleuth localize: '$PWD/nowhere' holds no stored suite (no suite.json; run the tests first)" \
  "$SLEUTH" localize --from "$PWD/nowhere"
"$SLEUTH" localize --help | grep -q "^usage: sleuth localize" || fail "--help"

[ $failures -eq 0 ] && echo "localizer cli: all checks passed"
exit $((failures != 0))
