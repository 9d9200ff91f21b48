#!/usr/bin/env bash
# Included project files are instrumented along with the source that includes them:
# `--headers` (project / none / DIR), #line directives that keep __FILE__, skipped
# re-inclusions, system headers left alone, the header cache, depfiles of `sleuth cc` naming the
# inlined headers, and the wrapper's retry without included files when their instrumented text does not compile.
# usage: headers.sh SLEUTH WORKDIR
set -u
sleuth=$(realpath "$1") work=$2
example=$(cd "$(dirname "$0")/../../examples/headers" && pwd)
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL [headers]: $*"; exit 1; }
cp -r "$example" src

# Default (project): both headers' functions, each with its own unit, named as the compiler
# would name them.
"$sleuth" instrument src/main.c -o all.c -- -std=c89 || fail "instrument failed"
grep -q '^#line 1 "src/lib/clamp.h"$' all.c || fail "no #line for src/lib/clamp.h"
grep -q '^#line 1 "src/lib/scale.h"$' all.c || fail "no #line for src/lib/scale.h"
[ "$(grep -c '^static struct sleuth_tu __sleuth_tu' all.c)" = 3 ] || fail "expected 3 units"
grep -q 'pragma once' all.c && fail "#pragma once left in the inlined text"
# main.c's third include of clamp.h was skipped by the compiler: it must not read it again.
grep -q '#include "lib/clamp.h"' all.c && fail "a skipped #include of an inlined file is left"
# Line numbers of main.c after the inlined headers are restored.
grep -q '^#line 4 "src/main.c"$' all.c || fail "no #line back to main.c line 4"

# A file compiled on its own and #included by another (cjson's tests include cJSON.c) has the
# same coverage build hash both ways, so the localizer can add up its counts.
printf '#include "other.c"\n' >src/includes_other.c
"$sleuth" instrument --mode coverage src/other.c -o alone.c -- -std=c89 || fail "instrument other.c"
"$sleuth" instrument --mode coverage src/includes_other.c -o included.c -- -std=c89 ||
  fail "instrument includes_other.c"
hash_of() { grep -o "\"$PWD/src/other.c\", \"[0-9a-f]*\"" "$1" | sed 's/.*, //'; }
[ -n "$(hash_of alone.c)" ] && [ "$(hash_of alone.c)" = "$(hash_of included.c)" ] ||
  fail "other.c hashes differently alone ($(hash_of alone.c)) and included ($(hash_of included.c))"

# none: the main file only.
"$sleuth" instrument --headers none src/main.c -o none.c -- -std=c89 || fail "--headers none"
[ "$(grep -c '^static struct sleuth_tu __sleuth_tu' none.c)" = 1 ] || fail "--headers none: 1 unit"
grep -q '#include "lib/scale.h"' none.c || fail "--headers none changed the includes"

# DIR: only files under it (an include directory given with -isystem is never instrumented).
"$sleuth" instrument --headers src/lib src/main.c -o dir.c -- -std=c89 || fail "--headers DIR"
[ "$(grep -c '^static struct sleuth_tu __sleuth_tu' dir.c)" = 3 ] || fail "--headers src/lib: 3 units"
mkdir -p other && cp src/lib/clamp.h other/
"$sleuth" instrument --headers other src/main.c -o other.c -- -std=c89 || fail "--headers other"
[ "$(grep -c '^static struct sleuth_tu __sleuth_tu' other.c)" = 1 ] || fail "--headers other: 1 unit"
cat >sys.c <<'C'
#include <clamp.h>
int main(void) { return clamp(5, 0, 3) - 3; }
C
"$sleuth" instrument sys.c -o sys_out.c -- -isystem src/lib || fail "instrument with -isystem"
grep -q '__sleuth_tu_[0-9a-f]\{8\}' sys_out.c && fail "a system header was instrumented"
if "$sleuth" instrument --headers nowhere src/main.c -o x.c 2>err.txt; then
  fail "--headers with a missing directory should fail"
fi
[ "$(wc -l <err.txt)" = 1 ] && grep -q "headers: 'nowhere' is not a directory" err.txt ||
  { cat err.txt; fail "--headers error message"; }

# The instrumented program behaves as the native one (both compilers, -pedantic -Werror).
for cc in gcc clang-19; do
  $cc -std=c89 -pedantic -Wall -Wextra -Werror -o native src/main.c src/other.c || fail "$cc native"
  SLEUTH_CC=$cc "$sleuth" cc -std=c89 -pedantic -Wall -Wextra -Werror -o inst src/main.c \
    src/other.c 2>inst.err || { cat inst.err; fail "$cc instrumented build"; }
  [ -s inst.err ] && { cat inst.err; fail "$cc: the instrumented build printed diagnostics"; }
  [ "$(./native)" = "$(SLEUTH_OUT=h.deps ./inst)" ] || fail "$cc: output differs"
  grep -q "^file [0-9]* .*/lib/clamp.h$" h.deps ||
    fail "$cc: no clamp.h unit in the dependence file"
done

# The header cache: the wrapper instruments clamp.h and scale.h with main.c and replays them
# for other.c, which includes both (stats column 10); the program is the same as without the
# cache. off: no cache.
rm -rf hcache stats-cache.tsv
SLEUTH_CC=gcc SLEUTH_HEADER_CACHE=$PWD/hcache SLEUTH_STATS=$PWD/stats-cache.tsv "$sleuth" cc \
  -std=c89 -o cached src/main.c src/other.c || fail "build with the header cache"
[ "$(find hcache -name '*.hdr' | wc -l)" = 2 ] || { find hcache; fail "expected 2 cached headers"; }
awk -F'\t' '$1 ~ /other.c$/ && $10 == 2 { ok = 1 } END { exit !ok }' stats-cache.tsv ||
  { cat stats-cache.tsv; fail "other.c did not take scale.h from the cache"; }
[ "$(SLEUTH_OUT=c.deps ./cached)" = "$(./native)" ] || fail "cached build: output differs"
(cd src && SLEUTH_HEADER_CACHE=$PWD/../hcache "$sleuth" instrument --header-cache ../hcache \
  other.c -o ../other-cached.c -- -std=c89 && "$sleuth" instrument other.c -o ../other-plain.c \
  -- -std=c89) || fail "instrument other.c"
cmp -s other-cached.c other-plain.c || fail "other.c instrumented differently with the cache"
rm -rf hcache-off
SLEUTH_CC=gcc SLEUTH_HEADER_CACHE=off XDG_CACHE_HOME=$PWD/hcache-off "$sleuth" cc -std=c89 \
  -o uncached src/main.c src/other.c || fail "build with SLEUTH_HEADER_CACHE=off"
[ -e hcache-off ] && fail "SLEUTH_HEADER_CACHE=off wrote a cache"
SLEUTH_CC=gcc XDG_CACHE_HOME=$PWD/hcache-default "$sleuth" cc -std=c89 -o uncached src/main.c \
  src/other.c || fail "build with the default cache"
[ "$(find hcache-default/sleuth/headers -name '*.hdr' | wc -l)" = 2 ] ||
  fail "the default cache is not under \$XDG_CACHE_HOME/sleuth/headers"
: >not-a-dir
SLEUTH_CC=gcc SLEUTH_HEADER_CACHE=$PWD/not-a-dir/cache "$sleuth" cc -std=c89 -o bad-cache \
  src/main.c src/other.c 2>bad-cache.err || fail "an unusable cache directory failed the build"
grep -q "SLEUTH_HEADER_CACHE: cannot create .*not-a-dir/cache" bad-cache.err ||
  { cat bad-cache.err; fail "no warning for an unusable cache directory"; }
[ "$(./bad-cache)" = "$(./native)" ] || fail "build without a usable cache: output differs"
if "$sleuth" instrument --header-cache not-a-dir/cache src/main.c -o x.c 2>err.txt; then
  fail "--header-cache with an unusable directory should fail"
fi
[ "$(wc -l <err.txt)" = 1 ] && grep -q "header-cache: cannot create 'not-a-dir/cache'" err.txt ||
  { cat err.txt; fail "--header-cache error message"; }

# Depfiles: the object still depends on the headers whose text was inlined.
(cd src && SLEUTH_CC=gcc "$sleuth" cc -std=c89 -MMD -c main.c -o ../main.o) || fail "-MMD compile"
for h in lib/clamp.h lib/scale.h; do
  grep -q "$h" src/main.d 2>/dev/null || grep -q "$h" main.d 2>/dev/null ||
    { cat src/main.d main.d 2>/dev/null; fail "depfile does not name $h"; }
done

# A compiler that rejects the inlined header text: the wrapper warns and instruments the main
# file alone, which still compiles instrumented.
cat >picky-cc <<'SH'
#!/bin/sh
for a in "$@"; do
  case "$a" in *.c) if grep -q '^#line 1 "lib/clamp.h"' "$a" 2>/dev/null; then
    echo "picky-cc: error: no headers, please" >&2; exit 1; fi ;; esac
done
exec gcc "$@"
SH
chmod +x picky-cc
(cd src && SLEUTH_CC=../picky-cc SLEUTH_STATS=../stats.tsv "$sleuth" cc -std=c89 -c main.c \
  -o ../picky.o 2>../picky.err) || fail "picky compile failed"
grep -q "instrumenting it without its included files" picky.err || { cat picky.err; fail "no retry warning"; }
awk -F'\t' '$3 == "instrumented-alone" && $9 == 0 && $8 ~ /no headers, please/ { ok = 1 }
  END { exit !ok }' stats.tsv ||
  { cat stats.tsv; fail "expected main.c recorded as instrumented without its included files"; }
echo "ok [headers]: project/none/DIR, #line, skipped includes, system headers, header cache," \
  "depfiles, retry"
