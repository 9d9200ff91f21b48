#!/usr/bin/env bash
# Real-program test: Debian's `tinyxml2` source package (C++ classes), built with its own CMake
# build as Debian builds it (shared library) with Debian's flags, natively and through
# `sleuth c++` (each mode in SLEUTH_REALWORLD_MODES). Its own test suite (ctest: xmltest, about
# 400 checks) must give the same results, xmltest the same output and exit status, and the XML
# files it writes must be the same. See common.sh for the arguments.
PKG=tinyxml2
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
rw_init "$@"
rw_fetch tinyxml2
[ -f "$src/tinyxml2.cpp" ] && [ -f "$src/xmltest.cpp" ] || fail "$src is not a tinyxml2 source tree"
command -v cmake >/dev/null || fail "'cmake' is required"

build_tinyxml2() { # DIR CC CXX: xmltest writes into its source tree: build from a copy
  local dir=$1 cxx=$3
  cp -a "$src" "$dir/src"
  eval "$(debian_flags)"
  CXX=$cxx CXXFLAGS="$CXXFLAGS $CPPFLAGS" LDFLAGS="$LDFLAGS" cmake -S "$dir/src" -B "$dir" \
    -DCMAKE_BUILD_TYPE=None -DBUILD_SHARED_LIBS=ON -Dtinyxml2_BUILD_TESTING=ON
  cmake --build "$dir" -j 1
}

run_tinyxml2_tests() { # DIR OUT
  local dir=$1 out=$2
  rm -rf "$out" "$dir/src/resources/out" && mkdir -p "$out" "$dir/src/resources/out"
  (cd "$dir" && ctest --timeout 600 >"$out/ctest.log" 2>&1) && echo pass >"$out/ctest.result" ||
    echo fail >"$out/ctest.result"
  rm -rf "$dir/src/resources/out" && mkdir -p "$dir/src/resources/out"
  rw_run "$out" xmltest "$dir/src" "$dir/xmltest"
  # its last check times a parse: not part of the comparison
  sed -i 's/): [0-9.]* milli-seconds/): N milli-seconds/' "$out/xmltest.out"
  (cd "$dir/src/resources/out" && md5sum ./*) >"$out/written.md5"
}

for family in "${families[@]}"; do
  rw_build native "$family" build_tinyxml2
  native=$work/build/native-$family
  run_tinyxml2_tests "$native" "$native.run"
  for mode in "${modes[@]}"; do
    rw_build "$mode" "$family" build_tinyxml2
    inst=$work/build/$mode-$family
    run_tinyxml2_tests "$inst" "$inst.run"
    cmp -s "$native.run/ctest.result" "$inst.run/ctest.result" ||
      fail "$mode/$family: ctest $(cat "$native.run/ctest.result") native, $(cat "$inst.run/ctest.result") instrumented"
    rw_compare_dirs "$native.run" "$inst.run" "$mode/$family"
    cmp -s "$native.run/written.md5" "$inst.run/written.md5" ||
      fail "$mode/$family: xmltest wrote other files"
    [ -s "$inst.run/xmltest.sleuth" ] || fail "$mode/$family: xmltest wrote no $mode file"
    checks=$(grep -o 'Pass [0-9]*, Fail [0-9]*' "$native.run/xmltest.out" | tail -n 1)
    summary+=("$mode/$family: ctest $(cat "$native.run/ctest.result") both ways, xmltest same output ($checks), same files written; $(rw_stats "$mode" "$family")")
    rw_compiled_all "$mode" "$family"
  done
done
rw_report
