#!/usr/bin/env bash
# The whole test suite: install what is missing, build, run every test (unit, end-to-end,
# real-world) with CTest.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
build=${SLEUTH_BUILD_DIR:-$root/build}
bash "$root/scripts/bootstrap.sh" --tests
ctest --test-dir "$build" --output-on-failure -j "$(nproc)" "$@"
