#!/usr/bin/env bash
# The main job, end to end: install what is missing, build sleuth, instrument and compile the
# Debugging Book's middle() example, run it, and print the backward slice of its wrong result.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=${SLEUTH_BUILD_DIR:-$root/build}
bash "$root/scripts/bootstrap.sh" >&2
sleuth=$build/tools/sleuth/sleuth
out=$build/demo
mkdir -p "$out"
set -x
"$sleuth" c++ -O1 -o "$out/middle" "$root/examples/middle.cpp"
"$sleuth" run -o "$out/middle.deps" -- "$out/middle"
"$sleuth" slice "$out/middle.deps" middle:return
