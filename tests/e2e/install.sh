#!/usr/bin/env bash
# `cmake --install BUILD --prefix P`, then P/bin/sleuth alone: the wrapper compiles an example
# against P's runtime header and links P's shared runtime (ldd), the program runs, writes its
# dependence file, and the installed sleuth slices it. An object instrumented against another
# version of the runtime's interface (sleuth/abi.h) does not link with it.
# usage: install.sh BUILD_DIR EXAMPLE WORKDIR
set -u
build=$1 example=$2 work=$3
fail() { echo "FAIL [install] $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
cmake --install "$build" --prefix "$work/prefix" >install.log 2>&1 || { cat install.log; fail "cmake --install"; }
sleuth=$work/prefix/bin/sleuth
for f in bin/sleuth lib/libsleuth_rt.so lib/libsleuth_rt.a include/sleuth/runtime.h include/sleuth/coverage.h include/sleuth/abi.h; do
  [ -e "$work/prefix/$f" ] || fail "not installed: $f"
done
SLEUTH_CXX=g++ "$sleuth" c++ -o middle "$example" 2>build.err || { cat build.err; fail "sleuth c++ with the installed copy"; }
ldd middle | grep -q "$work/prefix/lib/libsleuth_rt.so" || { ldd middle; fail "not linked with the installed runtime"; }
./middle >out.txt 2>&1 || true
SLEUTH_OUT=$work/middle.deps ./middle >/dev/null 2>&1 || true
[ "$(tail -n 1 middle.deps 2>/dev/null)" = end ] || fail "no complete dependence file"
"$sleuth" slice middle.deps middle:return >slice.txt 2>slice.err || { cat slice.err; fail "installed sleuth slice"; }
grep -q '^\*' slice.txt || { cat slice.txt; fail "empty slice"; }

# The same source against a copy of the headers whose interface version differs: as an object
# left by another sleuth would be. The link fails and names the version the object needs.
"$sleuth" instrument -o middle.inst.cpp "$example" -- -std=c++17 2>inst.err || { cat inst.err; fail "instrument"; }
link() { g++ -std=c++17 -I "$1" -o other.exe middle.inst.cpp "$work/prefix/lib/libsleuth_rt.a" -lpthread 2>link.err; }
link "$work/prefix/include" || { cat link.err; fail "an object of the runtime's own interface did not link"; }
current=$(sed -n 's/^#define SLEUTH_ABI_SYMBOL sleuth_runtime_abi_\([0-9]*\)$/\1/p' "$work/prefix/include/sleuth/abi.h")
[ -n "$current" ] || fail "no SLEUTH_ABI_SYMBOL sleuth_runtime_abi_N in abi.h"
rm -rf other && cp -r "$work/prefix/include" other
sed -i "s/sleuth_runtime_abi_$current\$/sleuth_runtime_abi_9999/" other/sleuth/abi.h
if link other; then fail "an object of interface 9999 linked with a runtime of $current"; fi
grep -q "undefined reference to .sleuth_runtime_abi_9999'" link.err ||
  { cat link.err; fail "the link error does not name the interface version"; }
echo "ok [install] installed copy builds with its own runtime, runs and slices; another interface version does not link"
