#!/usr/bin/env bash
# `cmake --install BUILD --prefix P`, then P/bin/sleuth alone: the wrapper compiles an example
# against P's runtime header and links P's shared runtime (ldd), the program runs, writes its
# dependence file, and the installed sleuth slices it.
# usage: install.sh BUILD_DIR EXAMPLE WORKDIR
set -u
build=$1 example=$2 work=$3
fail() { echo "FAIL [install] $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
cmake --install "$build" --prefix "$work/prefix" >install.log 2>&1 || { cat install.log; fail "cmake --install"; }
sleuth=$work/prefix/bin/sleuth
for f in bin/sleuth lib/libsleuth_rt.so lib/libsleuth_rt.a include/sleuth/runtime.h include/sleuth/coverage.h; do
  [ -e "$work/prefix/$f" ] || fail "not installed: $f"
done
SLEUTH_CXX=g++ "$sleuth" c++ -o middle "$example" 2>build.err || { cat build.err; fail "sleuth c++ with the installed copy"; }
ldd middle | grep -q "$work/prefix/lib/libsleuth_rt.so" || { ldd middle; fail "not linked with the installed runtime"; }
./middle >out.txt 2>&1 || true
SLEUTH_OUT=$work/middle.deps ./middle >/dev/null 2>&1 || true
[ "$(tail -n 1 middle.deps 2>/dev/null)" = end ] || fail "no complete dependence file"
"$sleuth" slice middle.deps middle:return >slice.txt 2>slice.err || { cat slice.err; fail "installed sleuth slice"; }
grep -q '^\*' slice.txt || { cat slice.txt; fail "empty slice"; }
echo "ok [install] installed copy builds with its own runtime, runs and slices"
