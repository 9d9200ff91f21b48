#!/usr/bin/env bash
# The part of fmtlib's test programs that every one of them links, for the soundness oracle's
# packages part (bench/soundness/run.sh): GoogleTest and GoogleMock, the {fmt} library
# (format.cc, os.cc) and fmt's test harness (test-main.cc, gtest-extra.cc, util.cc), compiled
# with $CXX, which in an oracle's recipe is the perturbable dependency-mode wrapper. GoogleTest
# must be a copy outside /usr: files under /usr are system files, which the wrappers do not
# instrument, and what GoogleTest prints would then lie outside every slice.
#
# usage: fmt-harness.sh FMT_SOURCE GOOGLETEST_COPY DIR
# Builds once into DIR (DIR/objects lists the objects to link); later calls only replay the
# build's log on stderr, so that each recipe that links the harness sees the wrappers' warnings.
set -euo pipefail
if [ $# -ne 3 ]; then
  echo "usage: $0 FMT_SOURCE GOOGLETEST_COPY DIR" >&2
  exit 2
fi
fmt=$1 gtest=$2 dir=$3
if [ -f "$dir/objects" ]; then
  cat "$dir/build.log" >&2
  exit 0
fi
case $(realpath "$gtest") in
  /usr/*) echo "$0: $gtest: a copy outside /usr is needed (files under /usr are not instrumented)" >&2
          exit 2 ;;
esac
: "${CXX:?CXX (the wrapper) is not set}"
rm -rf "$dir" && mkdir -p "$dir"
includes=(-I"$fmt/include" -I"$gtest/googletest/include" -I"$gtest/googletest"
          -I"$gtest/googlemock/include" -I"$gtest/googlemock")
sources=("$gtest/googletest/src/gtest-all.cc" "$gtest/googlemock/src/gmock-all.cc"
         "$fmt/src/format.cc" "$fmt/src/os.cc"
         "$fmt/test/test-main.cc" "$fmt/test/gtest-extra.cc" "$fmt/test/util.cc")
objects=()
for source in "${sources[@]}"; do
  object=$dir/$(basename "$source" .cc).o
  # shellcheck disable=SC2086 # CXX is a command with arguments ("sleuth c++")
  $CXX -O0 -w -pthread "${includes[@]}" -c "$source" -o "$object" 2>>"$dir/build.log" ||
    { cat "$dir/build.log" >&2; exit 1; }
  objects+=("$object")
done
cat "$dir/build.log" >&2
printf '%s\n' "${objects[@]}" >"$dir/objects.tmp" && mv "$dir/objects.tmp" "$dir/objects"
