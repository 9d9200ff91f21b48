#!/usr/bin/env bash
# Bad input gets a one-line error naming the file, line or option at fault, a non-zero exit,
# and leaves no partial output. usage: bad_input.sh SLEUTH WORKDIR
set -u
sleuth=$(realpath "$1") work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
failures=0
# expect NAME STATUS(nonzero|zero) PATTERN -- COMMAND...
expect() {
  local name=$1 want=$2 pattern=$3
  shift 4
  "$@" >out.txt 2>err.txt
  local status=$?
  if { [ "$want" = nonzero ] && [ $status -eq 0 ]; } || { [ "$want" = zero ] && [ $status -ne 0 ]; }; then
    echo "FAIL $name: exit status $status"; cat err.txt; failures=$((failures + 1)); return
  fi
  if ! grep -q -- "$pattern" err.txt; then
    echo "FAIL $name: stderr lacks '$pattern':"; cat err.txt; failures=$((failures + 1)); return
  fi
  echo "ok $name"
}

printf 'int f(void) {\n  return 1 +;\n}\n' >syntax.c
printf 'int main(void) { return 0; }\n' >plain.c
# GCC accepts nested functions, Clang does not: the wrapper must fall back, not fail the build.
printf 'int main(void) {\n  int inner(void) { return 0; }\n  return inner();\n}\n' >gcc_only.c
printf 'int g;\nint main(void) { g = 1; return 0; }\n' >tiny.c

expect missing-file nonzero "nope.c: no such file" -- "$sleuth" instrument nope.c
expect syntax-error nonzero "syntax.c:2:13: expected expression" -- "$sleuth" instrument syntax.c
expect unknown-option nonzero "unknown option '--bogus'" -- "$sleuth" instrument --bogus plain.c
printf 'notes\n' >notes.txt
expect not-c-source nonzero "sleuth instrument: notes.txt: not a C or C++ source" -- "$sleuth" instrument notes.txt
[ "$(wc -l <err.txt)" = 1 ] || { echo "FAIL not-c-source: more than one line:"; cat err.txt; failures=$((failures + 1)); }
expect unwritable-output nonzero "no/such/dir/out.c: cannot write" -- "$sleuth" instrument plain.c -o no/such/dir/out.c
[ -e no/such/dir/out.c ] && { echo "FAIL unwritable-output left a file"; failures=$((failures + 1)); }
expect wrapper-fallback zero "gcc_only.c.*compiling it uninstrumented" -- env SLEUTH_CC=gcc "$sleuth" cc -o gcc_only gcc_only.c
./gcc_only || { echo "FAIL wrapper-fallback: program does not run"; failures=$((failures + 1)); }
[ "$(wc -l <err.txt)" = 1 ] || { echo "FAIL wrapper-fallback: more than one line:"; cat err.txt; failures=$((failures + 1)); }
# Old C that GCC 12 accepts with warnings and Clang rejects by default (an implicit declaration,
# an integer converted to a pointer): instrumented all the same, not compiled as it was.
printf 'int main(void) {\n  long a = 0;\n  int *p = a;\n  return twice(1) - 2 + (p != 0);\n}\nint twice(int x) { return 2 * x; }\n' >legacy.c
env SLEUTH_CC=gcc "$sleuth" cc -w -o legacy legacy.c 2>err.txt
if [ -s err.txt ] || ! "$sleuth" run -o legacy.deps -- ./legacy 2>/dev/null; then
  echo "FAIL legacy-c: not instrumented:"; cat err.txt; failures=$((failures + 1))
else
  echo "ok legacy-c"
fi
gcc -o plain plain.c
expect uninstrumented-run nonzero "wrote no dependence file" -- "$sleuth" run -o plain.deps -- ./plain
expect run-missing-program nonzero "cannot run ./nothing-here" -- "$sleuth" run -- ./nothing-here
env SLEUTH_CC=gcc "$sleuth" cc -o tiny tiny.c && "$sleuth" run -o tiny.deps -- ./tiny 2>/dev/null
expect unknown-criterion nonzero "criterion 'nosuch:return'" -- "$sleuth" slice tiny.deps nosuch:return
expect bad-criterion-line nonzero "criterion 'tiny.c:99'" -- "$sleuth" slice tiny.deps tiny.c:99
head -c 100 tiny.deps >truncated.deps
expect truncated-deps nonzero "truncated.deps: truncated dependence file" -- "$sleuth" slice truncated.deps
printf 'sleuth-deps 1\nprogram x\nstatus exit 0\nfile zero /x.c\nend\n' >corrupt.deps
expect corrupt-deps nonzero "corrupt.deps:4:" -- "$sleuth" slice corrupt.deps
expect missing-deps nonzero "absent.deps" -- "$sleuth" slice absent.deps
expect slice-unwritable nonzero "no/dir/x.dot" -- "$sleuth" slice tiny.deps --format dot -o no/dir/x.dot
expect slice-unknown-format nonzero "format" -- "$sleuth" slice tiny.deps --format pdf
expect unknown-command nonzero "unknown command 'slize'" -- "$sleuth" slize tiny.deps

# One line each: no stack traces, no multi-line dumps.
if [ $failures -eq 0 ]; then echo "bad input: all cases handled"; exit 0; fi
echo "bad input: $failures case(s) failed"; exit 1
