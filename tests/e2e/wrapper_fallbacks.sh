#!/usr/bin/env bash
# Sources that the wrappers compile uninstrumented are reported at the end of the build
# (docs/wrappers.md): the compile step marks the object (a `.sleuth.uninstrumented` section, or
# a side file OBJECT.sleuth-uninstrumented for an LTO object), and every link that takes such an
# object, directly, from an archive or with --gc-sections, names its source and the first
# error; an object compiled again instrumented loses its mark; a Make build ends with the report.
# usage: wrapper_fallbacks.sh SLEUTH WORKDIR [gcc|clang...]  (default: gcc, and clang if clang-19)
set -u
# shellcheck source=wrapper_common.sh
. "$(dirname "$(realpath "$0")")/wrapper_common.sh"
# reported ERR OUTPUT COUNT SOURCE...: ERR holds the link's report for OUTPUT: COUNT sources,
# each SOURCE named on a line of its own with the first error the real compiler gave.
reported() {
  local err=$1 output=$2 count=$3 source
  shift 3
  grep -q "^sleuth cc: warning: $output: $count linked sources* w[ae][sr]e* compiled uninstrumented" "$err" ||
    return 1
  for source in "$@"; do
    grep -q "^sleuth cc: warning: $output:   $work/.*/$source (.*error: refused)" "$err" || return 1
  done
  [ "$(grep -c "^sleuth cc: warning: $output:   " "$err")" = "$count" ]
}

for family in "${families[@]}"; do
  d=$work/$family && mkdir -p "$d" && cd "$d" || exit 1
  if [ "$family" = gcc ]; then cc=gcc; else cc=clang-19; fi
  export SLEUTH_CC=$cc SLEUTH_HEADER_CACHE=off
  # A real compiler that rejects the instrumented (scratch) copy of parse.c and of lex.c: the
  # wrapper falls back for them, as it does where an instrumented text does not compile.
  printf '#!/bin/sh\nfor a in "$@"; do case "$a" in */sleuth-cc*/parse.c|*/sleuth-cc*/lex.c) echo "$a:1:1: error: refused" >&2; exit 1;; esac; done\nexec %s "$@"\n' "$cc" >picky-cc
  chmod +x picky-cc
  printf 'int parse(int x) { return x + 1; }\n' >parse.c
  printf 'int lex(int x) { return 2 * x; }\n' >lex.c
  printf 'int eval(int x) { return x - 3; }\n' >eval.c
  printf '#include <stdio.h>\nint parse(int);\nint lex(int);\nint eval(int);\nint main(void) {\n  printf("%%d\\n", eval(parse(lex(20))));\n  return 0;\n}\n' >main.c

  for f in parse lex eval main; do
    SLEUTH_CC=./picky-cc "$sleuth" cc -O2 -c $f.c -o $f.o 2>$f.err || fail "compile $f.c"
  done
  grep -q "parse.c: the instrumented source did not compile (.*error: refused); compiling it uninstrumented" parse.err &&
    [ "$(wc -l <parse.err)" = 1 ] && [ ! -s eval.err ] &&
    ok "a fallback prints one line with the file and the first error" || { fail "fallback line"; cat parse.err; }
  readelf -W -S parse.o | grep -q '\.sleuth\.uninstrumented' && ! readelf -W -S eval.o | grep -q '\.sleuth\.uninstrumented' &&
    ok "the object of a source compiled uninstrumented carries the mark" || fail "mark in the object"

  rm -f libfront.a && ar rcs libfront.a parse.o lex.o eval.o
  "$sleuth" cc main.o -L. -lfront -o prog 2>link.err && [ "$(./prog)" = 38 ] &&
    reported link.err prog 2 parse.c lex.c && instrumented prog &&
    ok "a link through an archive names the two sources compiled uninstrumented" || { fail "archive"; cat link.err; }
  "$sleuth" cc main.o parse.o eval.o lex.o -Wl,--gc-sections -o prog2 2>link2.err &&
    reported link2.err prog2 2 parse.c lex.c &&
    ok "a link of the objects with --gc-sections too" || { fail "objects"; cat link2.err; }
  "$sleuth" cc -shared -o libparse.so parse.o 2>shared.err && reported shared.err libparse.so 1 parse.c &&
    ok "a shared library's link too" || { fail "shared library"; cat shared.err; }
  SLEUTH_CC=./picky-cc "$sleuth" cc -O2 -o prog3 main.c parse.c eval.c lex.o 2>one.err && [ "$(./prog3)" = 38 ] &&
    grep -q "parse.c: the instrumented source did not compile" one.err && reported one.err prog3 2 parse.c lex.c &&
    ok "compile and link in one command: its own fallback and the linked object's" || { fail "one command"; cat one.err; }

  # Compiled again, instrumented: the mark is gone with the old object.
  "$sleuth" cc -O2 -c parse.c -o parse.o 2>/dev/null && "$sleuth" cc -O2 -c lex.c -o lex.o 2>/dev/null &&
    "$sleuth" cc main.o parse.o lex.o eval.o -o prog4 2>link4.err && [ ! -s link4.err ] &&
    ok "objects compiled again instrumented: the link reports nothing" || { fail "recompiled"; cat link4.err; }

  # An LTO object loses its sections to the linker plugin: the mark is a side file, which a
  # direct link reads and an instrumented compile of the same object removes.
  if [ "$family" = gcc ]; then
    SLEUTH_CC=./picky-cc "$sleuth" cc -flto -O2 -c parse.c -o parse-lto.o 2>/dev/null &&
      [ -f parse-lto.o.sleuth-uninstrumented ] &&
      "$sleuth" cc -flto -O2 main.o parse-lto.o lex.o eval.o -o prog5 2>lto.err && reported lto.err prog5 1 parse.c &&
      ok "an LTO object: a side file, reported by the link" || { fail "LTO"; cat lto.err; }
    "$sleuth" cc -flto -O2 -c parse.c -o parse-lto.o 2>/dev/null && [ ! -f parse-lto.o.sleuth-uninstrumented ] &&
      ok "an LTO object compiled again instrumented loses its side file" || fail "LTO side file kept"
  fi
  SLEUTH_CC=./picky-cc "$sleuth" cc -S parse.c -o parse.s 2>/dev/null && [ -s parse.s ] &&
    [ ! -f parse.s.sleuth-uninstrumented ] &&
    ok "-S: no mark" || fail "-S"

  # A Make build ends with the report.
  m=$d/make && mkdir -p "$m" && cp parse.c lex.c eval.c main.c "$m/"
  printf 'prog: main.o libfront.a\n\t$(CC) -o $@ main.o libfront.a\nlibfront.a: parse.o lex.o eval.o\n\tar rcs $@ $^\n%%.o: %%.c\n\t$(CC) -O2 -c $< -o $@\n' >"$m/Makefile"
  # (make's own "Leaving directory" line aside)
  SLEUTH_CC=$d/picky-cc make -C "$m" CC="$sleuth cc" >"$m/make.log" 2>&1 && [ "$("$m/prog")" = 38 ] &&
    grep -v '^make' "$m/make.log" | tail -n 3 >"$m/last.txt" && reported "$m/last.txt" prog 2 parse.c lex.c &&
    ok "make CC=\"sleuth cc\": the build's last lines name the sources compiled uninstrumented" ||
    { fail "Make build"; cat "$m/make.log"; }
  cd "$work" || exit 1
done

if [ $failures -eq 0 ]; then echo "wrapper_fallbacks: all cases passed"; exit 0; fi
echo "wrapper_fallbacks: $failures case(s) failed"
exit 1
