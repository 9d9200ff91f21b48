#!/usr/bin/env bash
# scripts/apt.sh lets the tests that install packages and fetch source packages run in parallel
# on a fresh machine (empty package lists, no deb-src entry): every apt call takes the same
# lock. apt itself is replaced here by a stand-in that fails as the real one does when another
# apt-get runs at the same time ("Could not get lock"), so the test needs no network and
# changes nothing on the machine. Three callers start together: two fetch a source package
# each, one installs two packages; all must succeed, each package installed once.
#
# usage: apt_lock.sh [--no-lock]   (--no-lock: shows the stand-in failing without the lock)
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
t=$(mktemp -d)
trap 'rm -rf "$t"' EXIT
fail() {
  echo "apt_lock: FAIL: $*"
  exit 1
}

mkdir -p "$t/bin" "$t/state" "$t/etc/sources.list.d" "$t/lists" "$t/cache" "$t/logs"
printf 'Types: deb\nURIs: http://deb.debian.org/debian\nSuites: bookworm\nComponents: main\n' \
  >"$t/etc/sources.list.d/debian.sources"

# The stand-ins. apt-get holds apt's lock for a while and refuses to run beside another.
cat >"$t/bin/apt-get" <<'EOF'
#!/usr/bin/env bash
state=$STUB_STATE
mkdir "$state/apt.running" 2>/dev/null ||
  { echo "E: Could not get lock /var/lib/apt/lists/lock. It is held by process 1 (apt-get)" >&2; exit 100; }
trap 'rmdir "$state/apt.running"' EXIT
sleep 0.3
args=()
for a in "$@"; do case $a in -*) ;; *) args+=("$a") ;; esac; done
set -- "${args[@]}"
case $1 in
  update)
    [ -n "$(ls "$STUB_ETC"/sources.list.d/)" ] || exit 100
    grep -qs deb-src "$STUB_ETC"/sources.list.d/* && touch "$state/src-lists"
    touch "$STUB_LISTS/deb.debian.org_bookworm_main_binary-amd64_Packages"
    ;;
  install)
    [ -n "$(ls "$STUB_LISTS")" ] || { echo "E: Unable to locate package $2" >&2; exit 100; }
    shift
    for p in "$@"; do echo "$p" >>"$state/installed"; done
    ;;
  source)
    [ -f "$state/src-lists" ] || { echo "E: You must put some 'deb-src' URIs in your sources.list" >&2; exit 100; }
    touch "$2_1.0-1.dsc" "$2_1.0.orig.tar.gz"
    ;;
  *) exit 100 ;;
esac
EOF
cat >"$t/bin/dpkg-query" <<'EOF'
#!/usr/bin/env bash
grep -qx "${!#}" "$STUB_STATE/installed" 2>/dev/null && printf 'install ok installed'
exit 0
EOF
cat >"$t/bin/dpkg-source" <<'EOF'
#!/usr/bin/env bash
dir=${!#}
dsc=$(basename "${@: -2:1}")
mkdir -p "$dir/debian"
echo "${dsc%%_*} (1.0-1) bookworm; urgency=medium" >"$dir/debian/changelog"
EOF
printf '#!/bin/sh\necho 0\n' >"$t/bin/id"
chmod +x "$t/bin/"*
export PATH=$t/bin:$PATH STUB_STATE=$t/state STUB_ETC=$t/etc STUB_LISTS=$t/lists
export SLEUTH_APT_ETC=$t/etc SLEUTH_APT_LISTS=$t/lists SLEUTH_APT_LOCK=$t/apt.lock

caller() { # NAME ACTION ARGS...
  local name=$1 action=$2
  shift 2
  (
    fail() {
      echo "$name: $*"
      exit 1
    }
    note() { :; }
    . "$root/scripts/apt.sh"
    if [ "${NO_LOCK:-0}" = 1 ]; then
      sleuth_apt_lock() { :; }
      sleuth_apt_unlock() { :; }
    fi
    mkdir -p "$t/logs/$name"
    case $action in
      fetch)
        sleuth_fetch_source "$1" "$t/cache" "$t/logs/$name"
        [ "$version" = 1.0-1 ] || fail "version '$version'"
        [ -f "$src/.sleuth-unpacked" ] || fail "$src not unpacked"
        ;;
      install) sleuth_apt_install "$t/logs/$name/install.log" "$@" ;;
    esac
  ) >"$t/logs/$name.out" 2>&1
}

[ "${1:-}" = --no-lock ] && export NO_LOCK=1
pids=()
caller a fetch cjson & pids+=($!)
caller b fetch zlib & pids+=($!)
caller c install libgmock-dev time & pids+=($!)
status=0
for p in "${pids[@]}"; do wait "$p" || status=1; done
if [ $status != 0 ]; then
  cat "$t/logs/"*.out "$t/logs"/*/*.log 2>/dev/null | head -n 20
  fail "a caller failed beside the others"
fi
for p in dpkg-dev libgmock-dev time; do
  [ "$(grep -cx "$p" "$t/state/installed")" = 1 ] || fail "$p installed $(grep -cx "$p" "$t/state/installed") times"
done
[ -f "$t/cache/src/cjson/.sleuth-unpacked" ] && [ -f "$t/cache/src/zlib/.sleuth-unpacked" ] ||
  fail "a source package was not unpacked"
[ -f "$t/etc/sources.list.d/sleuth-deb-src.sources" ] || fail "no deb-src entry was added"
# A second fetch reuses the cache: no apt call at all.
rm -f "$t/state/installed.before" && cp "$t/state/installed" "$t/state/installed.before"
chmod -x "$t/bin/apt-get"
caller d fetch cjson || { cat "$t/logs/d.out"; fail "a second fetch ran apt again"; }

# And it is the only way: no other script of the project runs apt-get or dpkg-source itself
# (each private copy of the fetching code was one more chance to forget the lock).
private=$(cd "$root" && grep -rnIE \
  '^[[:space:]]*([^#"]*[;&|(][[:space:]]*)?(sudo |flock [^ ]+ )?(apt-get|dpkg-source) [a-z-]|\["(apt-get|dpkg-source)"' \
  --exclude='*.md' --exclude='*.txt' --exclude='*.cpp' --exclude='*.c' --exclude='*.h' \
  scripts tests bench demo.sh test.sh .ci 2>/dev/null |
  grep -v '^scripts/apt.sh:' | grep -v '^tests/e2e/apt_lock.sh:' || true)
[ -z "$private" ] || fail "apt-get or dpkg-source run outside scripts/apt.sh:
$private"
echo "apt_lock: ok: 2 source packages fetched and 3 packages installed by 3 callers at once"
