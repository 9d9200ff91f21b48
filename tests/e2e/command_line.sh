#!/usr/bin/env bash
# One command line (docs/*.md): every command's usage errors exit 2 and its runtime failures 1,
# each with one line starting `sleuth COMMAND: `; `-o`/`--output` wherever a command writes a
# file; `--version`; the wrappers' `--help`; `sleuth instrument` on what is not C or C++.
# usage: command_line.sh SLEUTH VERSION WORKDIR
set -u
sleuth=$(realpath "$1") version=$2 work=$3
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
failures=0
fail() { echo "FAIL $*"; failures=$((failures + 1)); }
ok() { echo "ok $*"; }

# expect STATUS PREFIX -- COMMAND...: exits STATUS with exactly one line on stderr, which starts
# with PREFIX, and nothing on stdout.
expect() {
  local want=$1 prefix=$2
  shift 3
  "$@" >out.txt 2>err.txt
  local status=$?
  if [ $status != "$want" ]; then
    fail "'$*': exit $status, expected $want"; cat err.txt; return
  fi
  if [ "$(wc -l <err.txt)" != 1 ] || [ "$(head -c ${#prefix} err.txt)" != "$prefix" ]; then
    fail "'$*': stderr is not one line starting '$prefix':"; cat err.txt; return
  fi
  [ -s out.txt ] && { fail "'$*': wrote to stdout"; return; }
  ok "$* -> $want: $(cat err.txt)"
}

printf 'int g;\nint main(void) { g = 1; return g - 1; }\n' >tiny.c
printf 'notes\n' >notes.txt
printf 'print(1)\n' >script.py
mkdir -p somedir
printf '#!/bin/sh\nexit 0\n' >t.sh && chmod +x t.sh
SLEUTH_CC=gcc "$sleuth" cc -o tiny tiny.c || fail "cannot build tiny"
"$sleuth" run -o tiny.deps -- ./tiny 2>/dev/null || fail "cannot run tiny"

# --- usage errors: exit 2, `sleuth COMMAND: ` ----------------------------------------------------
expect 2 "sleuth instrument: " -- "$sleuth" instrument --bogus tiny.c
expect 2 "sleuth instrument: " -- "$sleuth" instrument tiny.c -o
expect 2 "sleuth instrument: " -- "$sleuth" instrument --mode bogus tiny.c
expect 2 "sleuth instrument: " -- "$sleuth" instrument
expect 2 "sleuth run: " -- "$sleuth" run --bogus ./tiny
expect 2 "sleuth run: " -- "$sleuth" run --output
expect 2 "sleuth slice: " -- "$sleuth" slice tiny.deps --bogus
expect 2 "sleuth slice: " -- "$sleuth" slice
expect 2 "sleuth localize: " -- "$sleuth" localize --bogus
expect 2 "sleuth localize: " -- "$sleuth" localize --tests x --jobs 0
expect 2 "sleuth mutate: " -- "$sleuth" mutate --bogus tiny.c
expect 2 "sleuth mutate: " -- "$sleuth" mutate --sample x tiny.c
expect 2 "sleuth reduce: " -- "$sleuth" reduce --bogus ./t.sh tiny.c
expect 2 "sleuth reduce: " -- "$sleuth" reduce ./t.sh tiny.c --jobs 0
expect 2 "sleuth reduce: " -- "$sleuth" reduce ./t.sh somedir
expect 2 "sleuth reduce: --valid-with needs" -- "$sleuth" reduce ./t.sh tiny.c --valid-with ''
expect 2 "sleuth reduce: --original-runs needs" -- "$sleuth" reduce ./t.sh tiny.c --original-runs 0
expect 2 "sleuth ddmin: " -- "$sleuth" ddmin --bogus ./t.sh notes.txt
expect 2 "sleuth ddmin: " -- "$sleuth" ddmin ./t.sh somedir
expect 2 "sleuth dd: " -- "$sleuth" dd --bogus ./t.sh notes.txt notes.txt
expect 2 "sleuth cc: " -- "$sleuth" cc --sleuth-mode=bogus -c tiny.c -o bogus.o
expect 2 "sleuth c++: " -- env SLEUTH_MODE=bogus "$sleuth" c++ -x c++ -c tiny.c -o bogus.o
expect 2 "sleuth cc: " -- "$sleuth" cc --sleuth-counters=bogus -c tiny.c -o bogus.o
expect 2 "sleuth cc: " -- env SLEUTH_COUNTERS=bogus "$sleuth" cc -c tiny.c -o bogus.o
[ -e bogus.o ] && fail "an unknown mode compiled something"
expect 2 "sleuth: " -- "$sleuth" slize tiny.deps

# --- runtime failures: exit 1, `sleuth COMMAND: ` ------------------------------------------------
expect 1 "sleuth instrument: nope.c: no such file" -- "$sleuth" instrument nope.c
expect 1 "sleuth slice: " -- "$sleuth" slice nope.deps
expect 1 "sleuth localize: " -- "$sleuth" localize --from nowhere
expect 1 "sleuth mutate: nope.c: no such file" -- "$sleuth" mutate nope.c
expect 1 "sleuth reduce: " -- "$sleuth" reduce ./t.sh nope.c
expect 1 "sleuth ddmin: " -- "$sleuth" ddmin ./nope.sh notes.txt
expect 1 "sleuth dd: " -- "$sleuth" dd ./t.sh notes.txt nope.txt

# --- `sleuth instrument` on what is not C or C++: one line naming the file -----------------------
expect 1 "sleuth instrument: notes.txt: not a C or C++ source" -- "$sleuth" instrument notes.txt
expect 1 "sleuth instrument: script.py: not a C or C++ source" -- "$sleuth" instrument script.py
expect 1 "sleuth instrument: somedir: is a directory" -- "$sleuth" instrument somedir
cp tiny.c tiny.txt
"$sleuth" instrument tiny.txt -- -x c >forced.c 2>err.txt && grep -q 'sleuth::\|sleuth_' forced.c &&
  ok "instrument tiny.txt -- -x c: the language given, any name" || { fail "-x c"; cat err.txt; }

# --- -o and --output, wherever a command writes a file -------------------------------------------
for option in -o --output --output=; do
  case $option in --output=) o=(--output=out.$$) ;; *) o=("$option" out.$$) ;; esac
  rm -rf out.$$
  "$sleuth" instrument tiny.c "${o[@]}" 2>/dev/null && grep -q sleuth out.$$ &&
    ok "instrument $option" || fail "instrument $option"
  rm -rf out.$$
  "$sleuth" run "${o[@]}" -- ./tiny 2>/dev/null && head -1 out.$$ | grep -q '^sleuth-deps' &&
    ok "run $option" || fail "run $option"
  rm -rf out.$$
  "$sleuth" slice tiny.deps "${o[@]}" --format dot && grep -q '^digraph' out.$$ &&
    ok "slice $option" || fail "slice $option"
  rm -rf out.$$
  "$sleuth" mutate tiny.c "${o[@]}" && [ -f out.$$/mutants.json ] &&
    ok "mutate $option" || fail "mutate $option"
  rm -rf out.$$
done

# --- --jobs: the number of processors by default --------------------------------------------------
"$sleuth" reduce --help | grep -q -- "-j, --jobs N .*(default: number of processors)" &&
  "$sleuth" ddmin --help | grep -q -- "-j, --jobs N .*(default: number of processors)" &&
  "$sleuth" dd --help | grep -q -- "-j, --jobs N .*(default: number of processors)" &&
  "$sleuth" localize --help | grep -q -- "-j, --jobs N .*(default: number of processors)" &&
  ok "--jobs defaults to the number of processors (help)" || fail "--jobs default in --help"

# --- --version -------------------------------------------------------------------------------------
pattern="^sleuth ${version//./\\.} \(LLVM/Clang 19\.[0-9]+\.[0-9]+\)$"
for args in --version version; do
  out=$("$sleuth" $args 2>err.txt)
  [ $? = 0 ] && [[ $out =~ $pattern ]] && [ ! -s err.txt ] && ok "sleuth $args: $out" ||
    fail "sleuth $args: '$out'"
done
[ "$("$sleuth" cc --version 2>&1)" = "$(cc --version 2>&1)" ] &&
  ok "sleuth cc --version is the real compiler's" || fail "sleuth cc --version"

# --- the wrappers' --help: usage on stdout, exit 0 ----------------------------------------------------
for wrapper in "cc" "c++"; do
  for form in "$sleuth $wrapper" "$(dirname "$sleuth")/sleuth-$wrapper"; do
    $form --help >out.txt 2>err.txt
    status=$?
    [ $status = 0 ] && [ "$(head -1 out.txt | cut -d' ' -f1-3)" = "usage: sleuth $wrapper" ] &&
      [ ! -s err.txt ] && ok "$form --help" || { fail "$form --help: exit $status"; head -3 out.txt err.txt; }
  done
done
# With other arguments, --help is the real compiler's.
"$sleuth" cc -v --help >out.txt 2>&1
grep -q "usage: sleuth" out.txt && fail "sleuth cc -v --help is not the compiler's" ||
  ok "sleuth cc -v --help reaches the compiler"

if [ $failures -eq 0 ]; then echo "command line: all cases pass"; exit 0; fi
echo "command line: $failures case(s) failed"; exit 1
