#!/usr/bin/env bash
# The compiler wrappers behave as the real compiler does (docs/wrappers.md): preprocessing and
# queries pass through unchanged, depfiles name the original files, -c with several sources,
# -o, response files, link-only calls, -x, stdin, -S, -fsyntax-only, unknown options, sources
# Clang cannot parse or whose instrumented form does not compile, the mode option and variable,
# the statistics file; and a small CMake project and a small Make project built with
# CC="sleuth cc" CXX="sleuth c++" run as their native builds do, rebuild when a header changes.
# usage: wrapper.sh SLEUTH WORKDIR [gcc|clang...]   (default: gcc, and clang if clang-19 exists)
set -u
# shellcheck source=wrapper_common.sh
. "$(dirname "$(realpath "$0")")/wrapper_common.sh"

mkdir -p src
printf '#ifndef FOO_H\n#define FOO_H\nint twice(int x);\n#define BASE 20\n#endif\n' >src/foo.h
printf '#include "foo.h"\nint twice(int x) {\n  int y = x * 2;\n  return y;\n}\n' >src/foo.c
printf '#include <stdio.h>\n#include "foo.h"\nint main(void) {\n  int v = twice(BASE) + 2;\n  printf("%%d\\n", v);\n  return v == 42 ? 0 : 1;\n}\n' >src/main.c
# A header that shadows src/foo.h from another directory: quote includes must still find the
# one beside the source first.
mkdir -p shadow && printf '#error wrong foo.h\n' >shadow/foo.h

for family in "${families[@]}"; do
  if [ "$family" = gcc ]; then cc=gcc cxx=g++; else cc=clang-19 cxx=clang++-19; fi
  export SLEUTH_CC=$cc SLEUTH_CXX=$cxx
  d=$work/$family && mkdir -p "$d" && cd "$d" || exit 1
  src=../src

  # --- queries and preprocessing pass through unchanged --------------------------------------
  for args in "--version" "-dumpversion" "-dumpmachine" "-print-search-dirs"; do
    # shellcheck disable=SC2086
    if [ "$("$sleuth" cc $args 2>&1)" = "$($cc $args 2>&1)" ]; then ok "$args"; else fail "$args differs"; fi
  done
  for args in "-E" "-E -dM" "-M" "-MM" "-E -P -DBASE2=3"; do
    # shellcheck disable=SC2086
    "$sleuth" cc $args -I shadow $src/main.c >wrapped.txt 2>&1
    # shellcheck disable=SC2086
    $cc $args -I shadow $src/main.c >native.txt 2>&1
    if cmp -s wrapped.txt native.txt; then ok "$args output identical"; else fail "$args output differs"; fi
  done
  "$sleuth" cc -fsyntax-only $src/main.c 2>wrapped.txt && [ ! -s wrapped.txt ] &&
    ok "-fsyntax-only" || fail "-fsyntax-only"
  printf 'int f(void) { return x; }\n' >bad.c
  "$sleuth" cc -fsyntax-only bad.c >wrapped.txt 2>&1
  $cc -fsyntax-only bad.c >native.txt 2>&1
  cmp -s wrapped.txt native.txt && ok "-fsyntax-only errors identical" || fail "-fsyntax-only errors differ"

  # --- probes are called without the PLT stub where the compiler can (GCC's noplt on x86-64) ---
  if [ "$family" = gcc ] && [ "$(uname -m)" = x86_64 ]; then
    "$sleuth" cc -O2 -fPIC -c $src/foo.c -o noplt.o
    relocs=$(objdump -dr noplt.o | grep -E 'R_X86_64_[A-Z0-9]+[[:space:]]+sleuth_(set|decl|enter)')
    if [ -n "$relocs" ] && ! grep -q PLT32 <<<"$relocs"; then ok "probes called through the GOT"
    else fail "probes called through the PLT: $relocs"; fi
  fi

  # --- depfiles name the original source and headers -----------------------------------------
  for dep in "-MD" "-MMD" "-MMD -MP" "-MD -MT custom.o -MQ 'q\$x'"; do
    rm -f *.d *.o
    eval "$cc -c $dep -I shadow -MF native.d -o foo.o $src/foo.c"
    mv foo.o native.o
    eval "\"$sleuth\" cc -c $dep -I shadow -MF wrapped.d -o foo.o $src/foo.c"
    # -MD lists system headers, and sleuth/runtime.h, its parts and abi.h are more (real
    # prerequisites)
    tr ' \\' '\n\n' <wrapped.d | grep -v -e '^$' -e '/sleuth/runtime\.h$' -e '/sleuth/runtime/[a-z]*\.h$' -e '/sleuth/abi\.h$' >wrapped.words
    tr ' \\' '\n\n' <native.d | grep -v '^$' >native.words
    if cmp -s native.words wrapped.words && ! grep -q sleuth-cc wrapped.d; then
      ok "$dep depfile: the native one (plus sleuth's runtime headers under -MD)"
    else
      fail "$dep depfile differs"; diff native.d wrapped.d
    fi
    instrumented foo.o || fail "$dep: foo.o not instrumented"
  done
  rm -f foo.d foo.o
  "$sleuth" cc -c -MMD $src/foo.c && [ -f foo.d ] && [ -f foo.o ] && grep -q "^foo.o: $src/foo.c $src/foo.h" foo.d &&
    ok "-MMD without -MF or -o: foo.d names foo.o and the original files" || { fail "-MMD foo.d"; cat foo.d; }
  rm -f out/*; mkdir -p out
  "$sleuth" cc -c -MD -o out/x.o $src/foo.c && grep -q "^out/x.o: $src/foo.c" out/x.d && ! grep -q sleuth-cc out/x.d &&
    ok "-MD -o out/x.o writes out/x.d" || { fail "-MD -o out/x.d"; cat out/x.d; }

  # --- -c with several sources, -o, link-only ------------------------------------------------
  rm -f *.o
  "$sleuth" cc -c $src/foo.c $src/main.c && instrumented foo.o && instrumented main.o &&
    ok "-c with two sources" || fail "-c with two sources"
  "$sleuth" cc -o prog foo.o main.o && ./prog >out.txt && [ "$(cat out.txt)" = 42 ] &&
    SLEUTH_OUT=prog.deps ./prog >/dev/null && [ "$(tail -n 1 prog.deps)" = end ] &&
    ok "link-only call links the runtime" || fail "link-only"
  "$sleuth" cc -o prog2 $src/foo.c $src/main.c -lm && ./prog2 >/dev/null && instrumented prog2 &&
    ok "compile and link in one call" || fail "compile and link"
  "$sleuth" cc -S -o foo.s $src/foo.c && grep -q sleuth_ foo.s && ok "-S" || fail "-S"
  "$sleuth" cc -c $src/foo.c -o named.o && instrumented named.o && ok "-o after the source" || fail "-o after"

  # --- response files: expanded to decide, passed as given -----------------------------------
  printf -- '-c\n-I shadow\n-o rsp.o\n%s/foo.c\n' "$src" >args.rsp
  "$sleuth" cc @args.rsp && instrumented rsp.o && ok "@response file with the source" || fail "@response compile"
  printf -- 'foo.o\nmain.o\n' >objs.rsp
  "$sleuth" cc -o prog3 @objs.rsp && ./prog3 >/dev/null && ok "@response file in a link" || fail "@response link"
  "$sleuth" cc @missing.rsp >wrapped.txt 2>&1; s1=$?
  $cc @missing.rsp >native.txt 2>&1; s2=$?
  [ $s1 = $s2 ] && ok "missing response file: the compiler's answer ($s1)" || fail "missing response file"

  # --- languages: -x, .c through c++, stdin ---------------------------------------------------
  printf 'int twice(int x) { return x * 2; }\n' >code.txt
  "$sleuth" cc -c -x c code.txt -o code.o && instrumented code.o && ok "-x c on a .txt" || fail "-x c"
  printf 'template <class T> T id(T x) { return x; }\nint main() { return id(0); }\n' >cxx.c
  "$sleuth" c++ -o cxx cxx.c 2>/dev/null && ./cxx && instrumented cxx && ok "sleuth c++ compiles .c as C++" || fail "c++ .c"
  printf 'int main(void) { return 3; }\n' | "$sleuth" cc -x c -o fromstdin - 2>err.txt
  ./fromstdin; [ $? = 3 ] && ok "stdin source compiled" || fail "stdin"
  printf '\t.text\n\t.globl asmf\nasmf:\n\tret\n' >asm.s
  "$sleuth" cc -c asm.s $src/foo.c && [ -f asm.o ] && instrumented foo.o && ok "-c with an assembler file" || fail "asm"

  # --- bad input: never fails the build ------------------------------------------------------
  "$sleuth" cc --no-warnings -c $src/foo.c -o unk.o 2>err.txt
  [ -f unk.o ] && grep -q "unknown option '--no-warnings'" err.txt && [ "$(wc -l <err.txt)" = 1 ] &&
    ok "unknown option: one warning, passed unchanged" || { fail "unknown option"; cat err.txt; }
  printf 'int f(void) {\n  int inner(void) { return 1; }\n  return inner();\n}\n' >nested.c
  if [ "$family" = gcc ]; then
    "$sleuth" cc -c nested.c 2>err.txt && [ -f nested.o ] && grep -q "nested.c.*compiling it uninstrumented" err.txt &&
      ok "source Clang cannot parse: compiled uninstrumented, warning names it" || { fail "unparsable"; cat err.txt; }
  fi
  # A real compiler that rejects every instrumented (scratch) source: the wrapper falls back.
  printf '#!/bin/sh\nfor a in "$@"; do case "$a" in */sleuth-cc*.c) echo "$a:1:1: error: refused" >&2; exit 1;; esac; done\nexec %s "$@"\n' "$cc" >picky-cc
  chmod +x picky-cc
  rm -f foo.o
  SLEUTH_CC=./picky-cc SLEUTH_STATS=$d/picky.stats "$sleuth" cc -c -MD $src/foo.c 2>err.txt && [ -f foo.o ] &&
    ! instrumented foo.o && grep -q "foo.c: the instrumented source did not compile.*compiling it uninstrumented" err.txt &&
    grep -q "	compile-failed	" picky.stats && ! grep -q sleuth-cc foo.d &&
    ok "instrumented compile fails: fallback with a warning, counted" || { fail "fallback"; cat err.txt; }
  printf 'int f(void) { return x; }\n' >broken.c
  "$sleuth" cc -c broken.c 2>err.txt; s1=$?
  $cc -c broken.c 2>/dev/null; s2=$?
  [ $s1 = $s2 ] && grep -q "broken.c" err.txt && ok "a real error stays an error" || fail "real error"

  # --- mode and statistics -------------------------------------------------------------------
  rm -f stats.txt
  SLEUTH_STATS=$d/stats.txt "$sleuth" cc -c $src/foo.c -o m1.o && grep -q "/src/foo.c	deps	instrumented	1	" stats.txt &&
    ok "SLEUTH_STATS line" || { fail "stats"; cat stats.txt; }
  # Functions left as they were are counted by reason in the last column.
  printf '#define WHOLE(n) int n(void) { return 1; }\nWHOLE(one)\nWHOLE(two)\ninline int three(void) { return 3; }\nint four(void) { return one() + two(); }\n' >skips.c
  SLEUTH_STATS=$d/skips.txt "$sleuth" cc -std=c99 -c skips.c -o skips.o &&
    [ "$(cut -f3,4,6,11 skips.txt)" = "instrumented	1	3	macro-body=2,c-inline=1" ] &&
    ok "SLEUTH_STATS counts skipped functions by reason" || { fail "skip reasons"; cat skips.txt; }
  SLEUTH_STATS=$d/stats.txt "$sleuth" cc --sleuth-mode=coverage -c $src/foo.c -o m2.o 2>/dev/null && [ -f m2.o ] &&
    grep -q "foo.c	coverage	" stats.txt && ok "--sleuth-mode=coverage stripped, mode recorded" || fail "--sleuth-mode"
  SLEUTH_MODE=coverage SLEUTH_STATS=$d/stats.txt "$sleuth" cc -c $src/foo.c -o m3.o 2>/dev/null &&
    [ "$(grep -c '	coverage	' stats.txt)" = 2 ] && ok "SLEUTH_MODE=coverage" || fail "SLEUTH_MODE"
  # An unknown mode or counter placement is a usage error: one line, exit 2, nothing compiled.
  usage_error() { # NAME EXPECTED_LINE OUTPUT -- COMMAND...
    local name=$1 line=$2 out=$3
    shift 4
    rm -f "$out"
    "$@" >/dev/null 2>err.txt
    local status=$?
    [ $status = 2 ] && [ "$(cat err.txt)" = "$line" ] && [ ! -e "$out" ] && ok "$name: usage error" ||
      { fail "$name: exit $status"; cat err.txt; }
  }
  usage_error "SLEUTH_MODE=bogus" "sleuth cc: SLEUTH_MODE: unknown mode 'bogus' (accepted: deps, coverage)" \
    m4.o -- env SLEUTH_MODE=bogus "$sleuth" cc -c $src/foo.c -o m4.o
  usage_error "--sleuth-mode=bogus" "sleuth c++: --sleuth-mode: unknown mode 'bogus' (accepted: deps, coverage)" \
    m5.o -- "$sleuth" c++ --sleuth-mode=bogus -x c++ -c $src/foo.c -o m5.o
  usage_error "--sleuth-mode= (empty)" "sleuth cc: --sleuth-mode: unknown mode '' (accepted: deps, coverage)" \
    m6.o -- "$sleuth" cc --sleuth-mode= -c $src/foo.c -o m6.o
  SLEUTH_MODE= "$sleuth" cc -c $src/foo.c -o m7.o 2>err.txt && [ ! -s err.txt ] && instrumented m7.o &&
    ok "empty SLEUTH_MODE: deps" || { fail "empty SLEUTH_MODE"; cat err.txt; }
  # Counter placement: the size of the counter array tells exact from minimal.
  printf 'int f(int a, int b) {\n  int s = 0;\n  for (int i = 0; i < a; ++i)\n    if (i %% 2 && b) s += i; else s -= 1;\n  return s;\n}\n' >loop.c
  counters() { local h; h=$(nm -S "$1" | awk '$4 == "__sleuth_cov" { print $2 }'); echo $((16#${h:-0} / 8)); }
  "$sleuth" cc --sleuth-mode=coverage -c loop.c -o c1.o && exact=$(counters c1.o)
  "$sleuth" cc --sleuth-mode=coverage --sleuth-counters=minimal -c loop.c -o c2.o && minimal=$(counters c2.o)
  SLEUTH_COUNTERS=minimal "$sleuth" cc --sleuth-mode=coverage -c loop.c -o c3.o && from_env=$(counters c3.o)
  [ "${exact:-0}" -gt "${minimal:-0}" ] && [ "${minimal:-0}" -gt 0 ] && [ "$from_env" = "$minimal" ] &&
    ok "--sleuth-counters=minimal / SLEUTH_COUNTERS=minimal: $minimal counters instead of $exact" ||
    fail "counter placement ($exact, $minimal, $from_env)"
  usage_error "SLEUTH_COUNTERS=bogus" \
    "sleuth cc: SLEUTH_COUNTERS: unknown counter placement 'bogus' (accepted: exact, minimal)" \
    c4.o -- env SLEUTH_COUNTERS=bogus "$sleuth" cc --sleuth-mode=coverage -c loop.c -o c4.o
  usage_error "--sleuth-counters=bogus" \
    "sleuth cc: --sleuth-counters: unknown counter placement 'bogus' (accepted: exact, minimal)" \
    c5.o -- "$sleuth" cc --sleuth-mode=coverage --sleuth-counters=bogus -c loop.c -o c5.o

  # --- one runtime per process ---------------------------------------------------------------
  # An instrumented shared library whose version script hides all but its API, and a program
  # using it: both link the shared runtime, so one record holds both files' nodes and the slice
  # crosses into the library. A -static link takes the archive; a program without
  # instrumented code does not need the runtime at all.
  printf 'int api(int x) {\n  int y = x * 3;\n  return y;\n}\nint hidden(void) { return 1; }\n' >api.c
  printf '{ global: api; local: *; };\n' >api.map
  printf '#include <stdio.h>\nint api(int);\nint main(void) {\n  int a = 7;\n  int r = api(a);\n  printf("%%d\\n", r);\n  return 0;\n}\n' >useapi.c
  "$sleuth" cc -shared -fPIC -Wl,--version-script,api.map -o libapi.so api.c &&
    "$sleuth" cc -o useapi useapi.c -L. -lapi -Wl,-rpath,"$d" && SLEUTH_OUT=$d/useapi.deps ./useapi >useapi.out &&
    [ "$(cat useapi.out)" = 21 ] && [ "$(grep -c '^file ' useapi.deps)" = 2 ] &&
    "$sleuth" slice useapi.deps r@main | grep -q 'a (useapi.c:4)' &&
    [ "$(ldd useapi | grep -c libsleuth_rt.so)" = 1 ] && ldd libapi.so | grep -q libsleuth_rt.so &&
    ok "program and version-scripted shared library share one runtime and one record" ||
    { fail "shared runtime"; cat useapi.deps 2>/dev/null | head -5; }
  if [ -f /usr/lib/x86_64-linux-gnu/libc.a ]; then
    "$sleuth" cc -static -o static-useapi useapi.c api.c 2>err.txt && ! ldd static-useapi >/dev/null 2>&1 &&
      SLEUTH_OUT=$d/static.deps ./static-useapi >/dev/null && [ "$(grep -c '^file ' static.deps)" = 2 ] &&
      ok "-static links the runtime archive" || { fail "-static"; cat err.txt; }
    # The archive's hooks are __wrap_NAME: the link wraps each one (none left out, none extra),
    # and a static program's input has no origin, as with the shared runtime: bytes fgets and
    # read stored over fill()'s are input, a byte they did not reach is still fill()'s.
    printf '#!/bin/sh\nprintf "%%s\\n" "$@" >>%s/static-link.args\nexec %s "$@"\n' "$d" "$cc" >logcc &&
      chmod +x logcc && rm -f static-link.args
    printf '#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n#include <unistd.h>\nstatic void fill(char *b, int n) {\n  int i;\n  for (i = 0; i < n; i++)\n    b[i] = (char)(97 + i);\n}\nint main(void) {\n  char line[8], raw[8];\n  int p[2];\n  FILE *f = tmpfile();\n  char *block = malloc(16);\n  if (!f || !block || pipe(p) != 0)\n    return 1;\n  fill(line, 8);\n  fill(raw, 8);\n  fputs("xy", f);\n  rewind(f);\n  if (!fgets(line, 8, f) || write(p[1], "zw", 2) != 2 || read(p[0], raw, 8) != 2)\n    return 1;\n  free(block);\n  int got = line[1];\n  int kept = line[5];\n  int pulled = raw[0];\n  printf("%%d %%d %%d\\n", got, kept, pulled);\n  return 0;\n}\n' >static-input.c
    if SLEUTH_CC=$d/logcc "$sleuth" cc -static -o static-input static-input.c 2>err.txt &&
      SLEUTH_OUT=$d/static-input.deps ./static-input >static-input.out; then
      archive=$(grep 'libsleuth_rt\.a$' static-link.args | head -n 1)
      wrapped=$(sed -n 's/^-Wl,--wrap=//p' static-link.args | sort)
      hooks=$(nm -g --defined-only "$archive" | sed -n 's/.* T __wrap_//p' | sort)
      [ -n "$hooks" ] && [ "$wrapped" = "$hooks" ] && ok "-static wraps each of the archive's hooks" ||
        { fail "-static: wrapped and hooked differ"; diff <(echo "$wrapped") <(echo "$hooks") | head; }
      "$sleuth" slice static-input.deps got@main >got.txt && "$sleuth" slice static-input.deps pulled@main >pulled.txt &&
        "$sleuth" slice static-input.deps kept@main >kept.txt &&
        ! grep -q '^\*.*b\[i\]' got.txt && ! grep -q '^\*.*b\[i\]' pulled.txt && grep -q '^\*.*b\[i\]' kept.txt &&
        ok "-static: fgets and read store input without an origin" ||
        { fail "-static: input keeps fill()'s origins"; cat got.txt pulled.txt; }
    else
      fail "-static with the input hooks"; cat err.txt
    fi
  fi
  $cc -c useapi.c -o plain.o && "$sleuth" cc -o plain plain.o -L. -lapi -Wl,-rpath,"$d" &&
    ! readelf -d plain | grep -q 'libsleuth_rt' && ok "no instrumented code, no runtime dependency" ||
    fail "a program without instrumented code needs the runtime"
done
cd "$work" || exit 1
family=gcc
export SLEUTH_CC=gcc SLEUTH_CXX=g++
bindir=$work/bin && mkdir -p "$bindir" && ln -sf "$sleuth" "$bindir/sleuth"

# --- a small CMake project: C library, C++ shared library, program ---------------------------
p=$work/cmake-project && mkdir -p "$p/include" "$p/lib"
printf 'cmake_minimum_required(VERSION 3.16)\nproject(p C CXX)\nadd_library(core STATIC lib/core.c)\ntarget_include_directories(core PUBLIC include)\nadd_library(fmtx SHARED lib/fmtx.cpp)\ntarget_link_libraries(fmtx PRIVATE core)\ntarget_include_directories(fmtx PUBLIC include)\nadd_executable(app app.cpp)\ntarget_link_libraries(app fmtx core)\n' >"$p/CMakeLists.txt"
printf '#pragma once\n#define SCALE 3\nint scale(int);\n' >"$p/include/core.h"
printf '#include "core.h"\nint scale(int x) {\n  int r = x * SCALE;\n  return r;\n}\n' >"$p/lib/core.c"
printf '#pragma once\n#include <string>\nstd::string show(int);\n' >"$p/include/fmtx.h"
printf '#include "fmtx.h"\nextern "C" int scale(int);\nstd::string show(int x) {\n  int v = scale(x);\n  std::string s = "v=" + std::to_string(v);\n  return s;\n}\n' >"$p/lib/fmtx.cpp"
printf '#include <cstdio>\n#include "fmtx.h"\nint main() {\n  for (int i = 0; i < 3; ++i)\n    std::puts(show(i).c_str());\n}\n' >"$p/app.cpp"
sed -i 's/^int scale(int);/#ifdef __cplusplus\nextern "C"\n#endif\nint scale(int);/' "$p/include/core.h"
cmake -S "$p" -B "$p/native" -G Ninja >"$p/native.log" 2>&1 && cmake --build "$p/native" >>"$p/native.log" 2>&1 ||
  { fail "cmake native build"; tail "$p/native.log"; }
(PATH=$bindir:$PATH CC="sleuth cc" CXX="sleuth c++" cmake -S "$p" -B "$p/sleuth" -G Ninja &&
  PATH=$bindir:$PATH cmake --build "$p/sleuth") >"$p/sleuth.log" 2>&1 || { fail "cmake build with CC=\"sleuth cc\""; tail "$p/sleuth.log"; }
if cmp -s <("$p/native/app") <(SLEUTH_OUT=$p/app.deps "$p/sleuth/app") && instrumented "$p/sleuth/app" &&
  [ "$(tail -n 1 "$p/app.deps")" = end ] && grep -q 'core\.c$' "$p/app.deps" && grep -q 'fmtx\.cpp$' "$p/app.deps"; then
  ok "CMake project (static + shared library): same output, dependence file covers both libraries"
else fail "CMake project"; fi
! grep -q '^sleuth c.*: warning' "$p/sleuth.log" || fail "CMake project: warnings"; grep '^sleuth c.*: warning' "$p/sleuth.log"
touch "$p/include/core.h"
PATH=$bindir:$PATH ninja -C "$p/sleuth" -n | grep -q 'core.c.o' && ok "CMake: touching a header rebuilds its users" ||
  fail "CMake: depfile does not name the header"
PATH=$bindir:$PATH ninja -C "$p/sleuth" >/dev/null && PATH=$bindir:$PATH ninja -C "$p/sleuth" -n | grep -q 'no work to do' &&
  ok "CMake: nothing to do after a rebuild" || fail "CMake: rebuild not stable"

# --- a CMake project whose custom command runs ${CMAKE_C_COMPILER} alone, as libpng's does -----
# (CC="sleuth cc" puts `cc` in CMAKE_C_COMPILER_ARG1, which such rules leave out; sleuth-cc, a
# link to sleuth next to it, is the wrapper as one path.)
q=$work/cmake-preprocess && mkdir -p "$q"
printf 'cmake_minimum_required(VERSION 3.16)\nproject(q C)\nadd_custom_command(OUTPUT version.h COMMAND ${CMAKE_C_COMPILER} -E -P -x c ${CMAKE_SOURCE_DIR}/version.in -o version.h DEPENDS version.in)\nadd_executable(q q.c version.h)\ntarget_include_directories(q PRIVATE ${CMAKE_BINARY_DIR})\n' >"$q/CMakeLists.txt"
printf '#define MAJOR 1\n#define VERSION_NUMBER (MAJOR * 100 + 7)\nstatic const int version = VERSION_NUMBER;\n' >"$q/version.in"
printf '#include <stdio.h>\n#include "version.h"\nint main(void) {\n  int v = version;\n  printf("%%d\\n", v);\n  return 0;\n}\n' >"$q/q.c"
wrapper_dir=$(dirname "$sleuth")
(CC="$wrapper_dir/sleuth-cc" cmake -S "$q" -B "$q/build" -G Ninja && cmake --build "$q/build") >"$q/build.log" 2>&1 &&
  [ "$(SLEUTH_OUT=$q/q.deps "$q/build/q")" = 107 ] && instrumented "$q/build/q" &&
  ok "CMake project running \${CMAKE_C_COMPILER} -E itself, built with CC=sleuth-cc" ||
  { fail "CMake project with CC=sleuth-cc"; tail "$q/build.log"; }
"$sleuth" -E "$q/version.in" >/dev/null 2>"$q/err.txt"
grep -q "needs CC=sleuth-cc" "$q/err.txt" && ok "sleuth run as the compiler without 'cc': the error says what to use" ||
  { fail "no hint for sleuth -E"; cat "$q/err.txt"; }

# --- a small Make project, dependency files included -----------------------------------------
m=$work/make-project && mkdir -p "$m"
cp "$work/src/foo.h" "$work/src/foo.c" "$work/src/main.c" "$m/"
printf 'OBJS = foo.o main.o\nprog: $(OBJS)\n\t$(CC) $(LDFLAGS) -o $@ $(OBJS)\n%%.o: %%.c\n\t$(CC) $(CFLAGS) -MMD -MP -c $< -o $@\n-include $(OBJS:.o=.d)\n' >"$m/Makefile"
make -C "$m" CC="$sleuth cc" CFLAGS="-O2 -Wall -Werror" >"$m/make.log" 2>&1 && "$m/prog" >/dev/null && instrumented "$m/prog" &&
  ok "Make project built with make CC=\"sleuth cc\"" || { fail "Make project"; cat "$m/make.log"; }
sleep 1 && touch "$m/foo.h"
make -C "$m" -n CC="$sleuth cc" | grep -q 'foo.c' && ok "Make: touching a header rebuilds its users" || fail "Make: depfile"

if [ $failures -eq 0 ]; then echo "wrapper: all cases passed"; exit 0; fi
echo "wrapper: $failures case(s) failed"
exit 1
