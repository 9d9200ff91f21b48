#!/usr/bin/env bash
# Shared by ./demo.sh and ./test.sh: installs the Debian 12 packages sleuth needs (only those
# missing; with --tests also those the test suite needs), then configures and builds with CMake + Ninja. Re-running it rebuilds only what
# changed.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${SLEUTH_BUILD_DIR:-$root/build}

packages=(
  g++ cmake ninja-build
  clang-19 llvm-19-dev libclang-19-dev libclang-cpp19-dev
  libboost-graph-dev libfmt-dev nlohmann-json3-dev libgtest-dev libz3-dev
  graphviz
)
# --tests: also what only the test suite needs: Csmith's random programs (tests/e2e/csmith.sh);
# dpkg-dev and googletest's mocks for the real-world tests (tests/realworld), installed here
# once rather than by tests running in parallel (which would still take turns: scripts/apt.sh).
[ "${1:-}" = --tests ] && packages+=(csmith libcsmith-dev dpkg-dev libgmock-dev)
. "$root/scripts/apt.sh"
fail() {
  echo "sleuth: $*" >&2
  exit 1
}
apt_log=$(mktemp -t sleuth-apt.XXXXXX)
sleuth_apt_install "$apt_log" "${packages[@]}"
rm -f "$apt_log"

if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build" -j "$(nproc)"
