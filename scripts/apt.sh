# The project's one way to use apt and dpkg (sourced, not run): ./demo.sh and ./test.sh through
# scripts/bootstrap.sh, the real-world tests (tests/realworld/common.sh) and the benchmarks that
# build Debian source packages all install packages and fetch source packages through these
# functions.
#
# CTest runs the real-world tests in parallel, and each may install a tool or fetch a source
# package on a fresh machine: two `apt-get update`s, or an update beside an install, fail on
# apt's own locks (`E: Could not get lock /var/lib/apt/lists/lock`) instead of waiting. So every
# call here holds one lock file, the same for every caller whatever its work directory, and
# also asks apt to wait for dpkg's lock held by anything else on the machine.
#
# The caller may define `note MESSAGE` (progress) and must define `fail MESSAGE` (one line,
# exits); defaults are given for both.

sleuth_apt_lock_file=${SLEUTH_APT_LOCK:-/tmp/sleuth-apt.lock}
# Where apt keeps its configuration and its package lists (other places only in this project's
# own test of these functions, tests/e2e/apt_lock.sh).
sleuth_apt_etc=${SLEUTH_APT_ETC:-/etc/apt}
sleuth_apt_lists=${SLEUTH_APT_LISTS:-/var/lib/apt/lists}

# sleuth_apt_lock, sleuth_apt_unlock: take and give back the lock (its descriptor in $lock_fd).
# Opened for reading, which flock needs no more than, so that whoever created the file first
# (root, or a user through sudo) does not lock the others out.
sleuth_apt_lock() {
  [ -e "$sleuth_apt_lock_file" ] || { : >>"$sleuth_apt_lock_file" && chmod 666 "$sleuth_apt_lock_file"; } 2>/dev/null || true
  exec {lock_fd}<"$sleuth_apt_lock_file" || fail "cannot open the apt lock $sleuth_apt_lock_file"
  flock "$lock_fd"
}
sleuth_apt_unlock() {
  flock -u "$lock_fd"
  exec {lock_fd}<&-
}

declare -F note >/dev/null || note() { echo "sleuth: $*" >&2; }
declare -F fail >/dev/null || fail() {
  echo "sleuth: $*" >&2
  exit 1
}

sleuth_sudo() { # how to run a command as root: sets the array $sudo, or fails
  if [ "$(id -u)" = 0 ]; then
    sudo=()
  elif command -v sudo >/dev/null 2>&1; then
    sudo=(sudo)
  else
    fail "$1: neither root nor sudo to run apt-get"
  fi
}

# sleuth_apt_lists_empty: no package index was ever fetched (a fresh machine, or a container
# whose lists were cleaned): `apt-get install` would find nothing.
sleuth_apt_lists_empty() {
  ! compgen -G "$sleuth_apt_lists/*_Packages*" >/dev/null
}

# sleuth_packages_missing PACKAGE...: prints those of PACKAGE... that are not installed.
sleuth_packages_missing() {
  local p
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || echo "$p"
  done
}

# sleuth_apt_install LOG PACKAGE...: installs those of PACKAGE... that are missing (no
# recommends), updating the package lists first when they are empty or when the install fails
# on an outdated list. One lock is held from the check to the install, so two callers that
# need the same package install it once.
sleuth_apt_install() {
  local log=$1 sudo missing
  shift
  mapfile -t missing < <(sleuth_packages_missing "$@")
  [ ${#missing[@]} -gt 0 ] || return 0
  sleuth_sudo "installing ${missing[*]}"
  sleuth_apt_lock # released when the caller exits, also through fail
  mapfile -t missing < <(sleuth_packages_missing "${missing[@]}")
  if [ ${#missing[@]} -gt 0 ]; then
    note "installing ${missing[*]}"
    local install=("${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq
      --no-install-recommends -o DPkg::Lock::Timeout=600 "${missing[@]}")
    local update=("${sudo[@]}" apt-get update -qq -o DPkg::Lock::Timeout=600)
    if sleuth_apt_lists_empty; then
      "${update[@]}" >"$log" 2>&1 || { tail -n 20 "$log" >&2; fail "apt-get update failed"; }
    fi
    if ! "${install[@]}" >"$log" 2>&1; then
      # An index older than the archive names package versions it no longer has.
      "${update[@]}" >"$log" 2>&1 && "${install[@]}" >"$log" 2>&1 ||
        { tail -n 20 "$log" >&2; fail "apt-get install ${missing[*]} failed"; }
    fi
  fi
  sleuth_apt_unlock
}

sleuth_has_deb_src() {
  grep -qsE '^[[:space:]]*Types:.*deb-src' "$sleuth_apt_etc"/sources.list.d/*.sources ||
    grep -qsE '^[[:space:]]*deb-src[[:space:]]' "$sleuth_apt_etc"/sources.list "$sleuth_apt_etc"/sources.list.d/*.list
}

# sleuth_add_deb_src: source entries for the same archives, keys and suites as the binary ones.
sleuth_add_deb_src() {
  [ "$(id -u)" = 0 ] || fail "apt has no deb-src entry: add one for bookworm (or run as root)"
  if [ -f "$sleuth_apt_etc"/sources.list.d/debian.sources ]; then
    sed 's/^Types:.*/Types: deb-src/' "$sleuth_apt_etc"/sources.list.d/debian.sources \
      >"$sleuth_apt_etc"/sources.list.d/sleuth-deb-src.sources
  elif grep -qsE '^[[:space:]]*deb[[:space:]]' "$sleuth_apt_etc"/sources.list; then
    sed -n 's/^[[:space:]]*deb[[:space:]]/deb-src /p' "$sleuth_apt_etc"/sources.list \
      >"$sleuth_apt_etc"/sources.list.d/sleuth-deb-src.list
  else
    fail "cannot derive a deb-src entry: no debian.sources and no deb line in sources.list"
  fi
  note "added a deb-src entry to apt's sources"
}

# sleuth_download_source PACKAGE DIR LOG: `apt-get source --download-only PACKAGE` into DIR,
# adding a deb-src entry and updating the lists when needed. Called under the apt lock.
sleuth_download_source() {
  local package=$1 dir=$2 log=$3
  ls "$dir"/"$package"_*.dsc >/dev/null 2>&1 && return 0
  rm -rf "$dir" && mkdir -p "$dir"
  if ! sleuth_has_deb_src; then
    sleuth_add_deb_src
    apt-get update -qq >"$log" 2>&1 || { tail -n 20 "$log" >&2; fail "apt-get update failed"; }
  fi
  if ! (cd "$dir" && apt-get source --download-only "$package") >"$log" 2>&1; then
    # deb-src configured, but its index may never have been fetched
    [ "$(id -u)" = 0 ] ||
      { tail -n 5 "$log" >&2; fail "apt-get source $package failed (not root: cannot apt-get update)"; }
    apt-get update -qq >"$log" 2>&1 || { tail -n 20 "$log" >&2; fail "apt-get update failed"; }
    if ! (cd "$dir" && apt-get source --download-only "$package") >"$log" 2>&1; then
      # A mirror may list a version (a security update, say) whose files it does not serve:
      # take the newest other version the index knows.
      local known
      known=$(apt-cache showsrc "$package" 2>/dev/null | sed -n 's/^Version: //p' | sort -u -r -V)
      for v in $known; do
        rm -rf "$dir" && mkdir -p "$dir"
        (cd "$dir" && apt-get source --download-only "$package=$v") >>"$log" 2>&1 && return 0
      done
      tail -n 20 "$log" >&2
      fail "apt-get source --download-only $package failed (tried ${known//$'\n'/, })"
    fi
  fi
}

# sleuth_fetch_source PACKAGE CACHE LOGDIR [DPKG_SOURCE_OPTIONS...]: sets $src to Debian's source
# package PACKAGE unpacked in CACHE/src/PACKAGE (downloaded once into CACHE/download/PACKAGE,
# unpacked once: later calls reuse both) and $version to its version. Callers treat $src as
# read-only (they copy it or build out of tree); logs go to LOGDIR.
sleuth_fetch_source() {
  local package=$1 cache=$2 logdir=$3
  shift 3
  src=$cache/src/$package
  if [ ! -f "$src/.sleuth-unpacked" ]; then
    sleuth_apt_install "$logdir/apt-install.log" dpkg-dev
    note "downloading the $package source package (cached in $cache)"
    sleuth_apt_lock
    (sleuth_download_source "$package" "$cache/download/$package" "$logdir/apt-source.log") ||
      exit 1
    sleuth_apt_unlock
    local dscs=("$cache/download/$package/${package}"_*.dsc)
    mkdir -p "$cache/src"
    # Unpacked beside its final place and renamed: a caller never sees half a tree, and two
    # callers unpacking at once each rename a complete one.
    local tmp
    tmp=$(mktemp -d "$cache/src/.$package.XXXXXX")
    rmdir "$tmp"
    dpkg-source --no-check --no-copy "$@" -x "${dscs[0]}" "$tmp" >"$logdir/dpkg-source.log" 2>&1 ||
      { tail -n 20 "$logdir/dpkg-source.log" >&2; rm -rf "$tmp"; fail "dpkg-source -x ${dscs[0]} failed"; }
    basename "${dscs[0]}" >"$tmp/.sleuth-unpacked"
    if [ -f "$src/.sleuth-unpacked" ]; then
      rm -rf "$tmp"
    else
      rm -rf "$src"
      mv "$tmp" "$src"
    fi
  fi
  version=$(sed -n '1s/^[^(]*(\([^)]*\)).*/\1/p' "$src/debian/changelog" 2>/dev/null || true)
}
