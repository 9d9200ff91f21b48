#!/usr/bin/env bash
# The main job, end to end: install what is missing, build sleuth, instrument and compile the
# Debugging Book's middle() example, run it, and print the backward slice of its wrong result.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
bash scripts/bootstrap.sh >&2
build=${SLEUTH_BUILD_DIR:-build}
case $build in
/*) PATH=$build/tools/sleuth:$PATH ;;
*) PATH=$PWD/$build/tools/sleuth:$PATH ;;
esac
mkdir -p "$build/demo"
set -x
sleuth c++ -O1 -o "$build/demo/middle" examples/middle.cpp
sleuth run -o "$build/demo/middle.deps" -- "$build/demo/middle"
sleuth slice "$build/demo/middle.deps" middle:return
