#!/bin/bash
# A suite with a crashing and a hanging test still produces a ranking; the
# crash's and the timeout's spectra are kept.
# usage: e2e_crash_and_hang.sh SLEUTH TESTS_DIR WORKDIR; exit 77 = skipped
set -u
SLEUTH=$1 WORK=$3
rm -rf "$WORK" && mkdir -p "$WORK" && cd "$WORK" || exit 1
echo 'int main(void) { return 0; }' > probe.c
if ! "$SLEUTH" instrument --mode coverage probe.c -- > /dev/null 2>&1; then
  echo "skipped: 'sleuth instrument --mode coverage' does not work yet"; exit 77
fi
cat > prog.c <<'SRC'
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv) {
    int n = argc > 1 ? atoi(argv[1]) : 0;
    int *p = NULL;
    if (n < 0) {
        for (;;)
            n = n * 2;
    }
    if (n == 7)
        return *p;
    printf("%d\n", n);
    return 0;
}
SRC
SLEUTH_MODE=coverage "$SLEUTH" cc -O0 -o prog prog.c || exit 1
cat > tests.txt <<'T'
./prog 1
./prog 2
./prog 3
name=crash ./prog 7
name=hang timeout=1 ./prog -1
T
out=$("$SLEUTH" localize --tests tests.txt --color never --top 5 --view list,table 2>err.txt) ||
  { cat err.txt; echo "$out"; exit 1; }
echo "$out"; cat err.txt
failures=0
grep -q "CRASH   crash (killed by SIGSEGV)" err.txt || { echo "FAIL: no crash"; failures=1; }
grep -q "TIMEOUT hang" err.txt || { echo "FAIL: no timeout"; failures=1; }
[ -s .sleuth-localize/tests/crash/coverage.cov ] || { echo "FAIL: crash spectrum lost"; failures=1; }
[ -s .sleuth-localize/tests/hang/coverage.cov ] || { echo "FAIL: timeout spectrum lost"; failures=1; }
echo "$out" | grep -q "prog.c:12 " || { echo "FAIL: the crashing line is not ranked"; failures=1; }
exit $failures
