#!/usr/bin/env bash
# Real-program test: Debian's `zlib` source package, configured and built with its own
# configure script and Makefile (static and shared library, example, minigzip, their shared and
# 64-bit variants) with Debian's build flags, natively and through `sleuth cc` (each mode in
# SLEUTH_REALWORLD_MODES). Its own tests (`make test`: teststatic, testshared, test64) must give
# the same results, and each test program the same output and exit status; minigzip must
# compress a multi-megabyte file to the same bytes. In dependency mode, minigzip built without
# optimization must also record the same dependence graph as the -O2 build: at -O2 the
# compiler inlines instrumented functions into one another, which must not change what the
# runtime sees. See common.sh for the arguments.
PKG=zlib
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
rw_init "$@"
rw_fetch zlib
[ -f "$src/zlib.h" ] && [ -x "$src/configure" ] || fail "$src is not a zlib source tree"

build_zlib() { # DIR CC CXX (with zlib_cflags added, zlib_targets made: default all)
  local dir=$1 cc=$2
  cp -a "$src/." "$dir/"
  eval "$(debian_flags)"
  cd "$dir"
  CC=$cc CFLAGS="$CFLAGS $CPPFLAGS ${zlib_cflags:-}" LDFLAGS="$LDFLAGS" ./configure
  make -j1 "${zlib_targets:-all}"
}
# The same at -O0 (the later -O wins), minigzip only.
build_zlib_unoptimized() { zlib_cflags=-O0 zlib_targets=minigzip build_zlib "$@"; }

# Input for minigzip: about 1 MB of text (zlib's own sources); dependency mode costs far
# more than 5x on deflate (bench/RESULTS.md), so the bigger inputs are bench/runtime's.
input=$work/input-1.txt
if [ ! -s "$input" ]; then
  cat "$src"/*.c "$src"/*.h "$src/ChangeLog" >"$input"
fi

run_zlib_tests() { # DIR OUT
  local dir=$1 out=$2
  rm -rf "$out" && mkdir -p "$out"
  (cd "$dir" && make test >"$out/make-test.log" 2>&1) && echo pass >"$out/make-test.result" ||
    echo fail >"$out/make-test.result"
  grep -c '\*\*\* zlib.*test OK \*\*\*' "$out/make-test.log" >"$out/make-test.ok" || true
  rw_run "$out" example "$dir" ./example "$out/example.gz"
  rw_run "$out" examplesh "$dir" env LD_LIBRARY_PATH="$dir" ./examplesh "$out/examplesh.gz"
  rw_run "$out" example64 "$dir" ./example64 "$out/example64.gz"
  rw_run "$out" minigzip-9 "$dir" sh -c "./minigzip -9 -c <'$input' | md5sum"
  rw_run "$out" minigzip-1 "$dir" sh -c "./minigzip -1 -c <'$input' | md5sum"
  rw_run "$out" roundtrip "$dir" sh -c "./minigzip -c <'$input' | ./minigzip -d -c | cmp - '$input' && echo same"
  rw_run "$out" minigzipsh "$dir" sh -c "echo hello world | LD_LIBRARY_PATH=. ./minigzipsh | LD_LIBRARY_PATH=. ./minigzipsh -d"
}

for family in "${families[@]}"; do
  rw_build native "$family" build_zlib
  native=$work/build/native-$family
  run_zlib_tests "$native" "$native.run"
  [ "$(cat "$native.run/make-test.result")" = pass ] || note "$family: native make test fails"
  for mode in "${modes[@]}"; do
    rw_build "$mode" "$family" build_zlib
    inst=$work/build/$mode-$family
    run_zlib_tests "$inst" "$inst.run"
    for f in make-test.result make-test.ok; do
      cmp -s "$native.run/$f" "$inst.run/$f" || fail "$mode/$family: make test: $(cat "$native.run/$f") native, $(cat "$inst.run/$f") instrumented"
    done
    rw_compare_dirs "$native.run" "$inst.run" "$mode/$family"
    [ -s "$inst.run/example.sleuth" ] || fail "$mode/$family: example wrote no $mode file"
    summary+=("$mode/$family: make test $(cat "$native.run/make-test.result") both ways ($(cat "$native.run/make-test.ok") test OK lines), 7 test programs same output and status; $(rw_stats "$mode" "$family")")
    rw_compiled_all "$mode" "$family"
    if [ "$mode" = deps ]; then
      rw_build deps-O0 "$family" build_zlib_unoptimized deps
      o0=$work/build/deps-O0-$family
      rw_run "$inst.run" graph "$inst" sh -c "head -c 100000 '$input' | ./minigzip -9 -c | md5sum"
      rw_run "$o0.run" graph "$o0" sh -c "head -c 100000 '$input' | ./minigzip -9 -c | md5sum"
      for run in "$inst.run" "$o0.run"; do
        "$sleuth" slice "$run/graph.sleuth" --format deps >"$run/graph.txt" 2>&1 ||
          fail "deps/$family: $(cat "$run/graph.txt")"
      done
      if ! cmp -s "$o0.run/graph.txt" "$inst.run/graph.txt"; then
        diff "$o0.run/graph.txt" "$inst.run/graph.txt" | head -n 20 || true
        fail "deps/$family: minigzip -9 recorded another dependence graph at -O2 than at -O0"
      fi
      summary+=("deps/$family: minigzip -9 records the same dependence graph at -O0 and at -O2 ($(grep -c ' <[=-] ' "$inst.run/graph.txt") nodes with dependences)")
    fi
  done
done
rw_report
