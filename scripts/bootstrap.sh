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
  libboost-graph-dev libfmt-dev nlohmann-json3-dev libgtest-dev
  graphviz
)
# --tests: also what only the test suite needs (Csmith's random programs, tests/e2e/csmith.sh).
[ "${1:-}" = --tests ] && packages+=(csmith libcsmith-dev)
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "sleuth: installing ${missing[*]}" >&2
  if [ "$(id -u)" = 0 ]; then
    sudo=()
  elif command -v sudo >/dev/null; then
    sudo=(sudo)
  else
    echo "sleuth: missing packages (${missing[*]}) and neither root nor sudo to install them" >&2
    exit 1
  fi
  "${sudo[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends \
    "${missing[@]}" >/dev/null
fi

if [ ! -f "$build/build.ninja" ]; then
  cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
fi
cmake --build "$build" -j "$(nproc)"
