#!/usr/bin/env bash
# ./demo.sh as README.md tells a newcomer to run it, against this build (SLEUTH_BUILD_DIR): what
# it prints from its first sleuth command on must be the block README.md shows under
# `<!-- output: demo -->`, the build directory's path aside.
#
# usage: demo.sh SOURCE_DIR BUILD_DIR WORK_DIR
set -euo pipefail
root=$1
build=$2
work=$3

fail() {
  echo "demo: $*" >&2
  exit 1
}

rm -rf "$work"
mkdir -p "$work"
awk '/^<!-- output: demo -->$/ { marked = 1; next }
     marked && /^```/ { if (inside) exit; inside = 1; next }
     inside { print }' "$root/README.md" >"$work/expected"
[ -s "$work/expected" ] || fail "README.md has no block marked <!-- output: demo -->"

SLEUTH_BUILD_DIR=$build "$root/demo.sh" </dev/null >"$work/log" 2>&1 ||
  { cat "$work/log" >&2; fail "./demo.sh failed"; }
sed -n '/^+ sleuth c++ /,$p' "$work/log" | sed "s|$build/|build/|g" >"$work/actual"
diff -u "$work/expected" "$work/actual" || fail "./demo.sh prints something else than README.md shows (diff above)"
echo "demo: ./demo.sh printed what README.md shows"
