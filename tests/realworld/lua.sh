#!/usr/bin/env bash
# Real-program test: Debian's `lua5.4` source package (longjmp for errors and coroutines,
# computed goto in the VM), built with Lua's own Makefile (`make linux`: liblua.a, lua, luac)
# and Debian's flags, natively and through `sleuth cc` (each mode in SLEUTH_REALWORLD_MODES).
# The source package has no test suite (upstream's `make test` only runs `lua -v`), so besides
# that the interpreter runs the scripts in tests/realworld/lua/ (errors, pcall, coroutines,
# goto, closures, metatables, string library, GC, integer/float arithmetic, and the benchmark
# script of bench/runtime) and luac compiles them; both builds must give the same output and
# exit status. Debian's build-system patches (libtool) are not applied, its source patches are.
PKG=lua5.4
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
rw_init "$@"
scripts=$(realpath "$(dirname "${BASH_SOURCE[0]}")/lua")
rw_fetch lua5.4 --skip-patches
if [ ! -f "$src/.sleuth-patched" ]; then
  for p in 0003-extern_C 0004-cve-2022-28805 0005-cve-2022-33099; do
    patch -d "$src" -p1 <"$src/debian/patches/$p.patch" >/dev/null || fail "cannot apply $p"
  done
  touch "$src/.sleuth-patched"
fi
[ -f "$src/src/lvm.c" ] || fail "$src is not a lua source tree"

build_lua() { # DIR CC CXX
  local dir=$1 cc=$2
  cp -a "$src/." "$dir/"
  eval "$(debian_flags)"
  make -C "$dir/src" -j1 linux CC="$cc -std=gnu99" MYCFLAGS="$CFLAGS $CPPFLAGS" MYLDFLAGS="$LDFLAGS"
}

run_lua_tests() { # DIR OUT
  local dir=$1 out=$2 s name
  rm -rf "$out" && mkdir -p "$out"
  rw_run "$out" make-test "$dir" make -s test
  for s in "$scripts"/*.lua; do
    name=$(basename "$s" .lua)
    rw_run "$out" "$name" "$scripts" "$dir/src/lua" "$s"
    rw_run "$out" "luac-$name" "$out" "$dir/src/luac" -o "$out/$name.luac" "$s"
    rw_run "$out" "bytecode-$name" "$scripts" "$dir/src/lua" "$out/$name.luac"
  done
  rw_run "$out" stdin-error "$dir/src" sh -c "echo 'local t = nil; print(t.x)' | ./lua -"
}

for family in "${families[@]}"; do
  rw_build native "$family" build_lua
  native=$work/build/native-$family
  run_lua_tests "$native" "$native.run"
  for mode in "${modes[@]}"; do
    rw_build "$mode" "$family" build_lua
    inst=$work/build/$mode-$family
    run_lua_tests "$inst" "$inst.run"
    rw_compare_dirs "$native.run" "$inst.run" "$mode/$family"
    for f in "$native.run"/*.luac; do
      cmp -s "$f" "$inst.run/$(basename "$f")" || fail "$mode/$family: luac wrote other bytecode for $(basename "$f")"
    done
    [ -s "$inst.run/suite.sleuth" ] || fail "$mode/$family: lua wrote no $mode file"
    n=$(ls "$native.run"/*.status | wc -l)
    summary+=("$mode/$family: $n runs (make test, $(ls "$scripts"/*.lua | wc -l) scripts through lua and luac) same output, status and bytecode; $(rw_stats "$mode" "$family")")
    rw_compiled_all "$mode" "$family"
  done
done
rw_report
