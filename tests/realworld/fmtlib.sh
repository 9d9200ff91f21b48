#!/usr/bin/env bash
# Real-program test: Debian's `fmtlib` source package (constexpr-heavy C++20 templates), built
# with its own CMake build as Debian builds it (shared library, FMT_PEDANTIC) with Debian's
# flags, natively and through `sleuth c++` (each mode in SLEUTH_REALWORLD_MODES), with its
# GoogleTest suite (Debian builds it against the system googletest). Each selected test program
# must give the same ctest result and the same output (--gtest_print_time=0) and exit status.
# The library (format.cc, os.cc) and the test harness are always instrumented; which test
# programs are built is SLEUTH_FMT_TESTS ("all", or a list; the default subset keeps the test
# within CI's budget: the largest programs, format-test and chrono-test, take minutes each to
# build instrumented). See common.sh for the other arguments.
PKG=fmtlib
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
rw_init "$@"
rw_fetch fmtlib
[ -f "$src/src/format.cc" ] && [ -f "$src/test/CMakeLists.txt" ] || fail "$src is not a fmtlib source tree"
rw_apt_install libgtest-dev libgmock-dev
read -r -a tests <<<"${SLEUTH_FMT_TESTS:-args-test assert-test ostream-test printf-test}"

build_fmtlib() { # DIR CC CXX
  local dir=$1 cxx=$3 targets=()
  eval "$(debian_flags)"
  CXX=$cxx CXXFLAGS="$CXXFLAGS $CPPFLAGS" LDFLAGS="$LDFLAGS" cmake -S "$src" -B "$dir" \
    -DCMAKE_BUILD_TYPE=None -DFMT_DOC=OFF -DFMT_PEDANTIC=ON -DCMAKE_POSITION_INDEPENDENT_CODE=ON \
    -DBUILD_SHARED_LIBS=ON -DFMT_TEST=ON
  if [ "${tests[0]}" != all ]; then targets=(--target fmt "${tests[@]}"); fi
  cmake --build "$dir" -j 1 "${targets[@]}"
}

run_fmtlib_tests() { # DIR OUT
  local dir=$1 out=$2 name
  rm -rf "$out" && mkdir -p "$out"
  (cd "$dir" && ctest -N) | sed -n 's/^ *Test *#[0-9]*: *//p' >"$out/all-tests"
  while read -r name; do
    [ -x "$dir/bin/$name" ] || continue
    rw_run "$out" "$name" "$out" "$dir/bin/$name" --gtest_print_time=0 --gtest_color=no
  done <"$out/all-tests"
}

for family in "${families[@]}"; do
  rw_build native "$family" build_fmtlib
  native=$work/build/native-$family
  run_fmtlib_tests "$native" "$native.run"
  for mode in "${modes[@]}"; do
    rw_build "$mode" "$family" build_fmtlib
    inst=$work/build/$mode-$family
    run_fmtlib_tests "$inst" "$inst.run"
    rw_compare_dirs "$native.run" "$inst.run" "$mode/$family"
    n=$(ls "$native.run"/*.status | wc -l)
    failed=$(grep -lv '^0$' "$native.run"/*.status | wc -l || true)
    passed=$(cat "$native.run"/*.out | grep -c '^\[       OK \]' || true)
    first=${tests[0]}; [ "$first" = all ] && first=core-test
    [ -s "$inst.run/$first.sleuth" ] || fail "$mode/$family: $first wrote no $mode file"
    summary+=("$mode/$family: $n test programs ($failed failing natively), $passed gtest cases passed, same output and status both ways; $(rw_stats "$mode" "$family")")
    rw_compiled_all "$mode" "$family"
  done
done
rw_report
