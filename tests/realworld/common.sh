# Shared by the real-world package tests (sourced, not run). A package script sets PKG, sources
# this file, calls rw_init "$@", rw_fetch, then for each compiler family and mode builds the
# package natively and through the wrappers, runs its own tests and compares (rw_compare_dirs),
# and ends with rw_report.
#
# usage of a package script: PKG.sh SLEUTH WORKDIR [CACHE]
#   WORKDIR  builds, logs and test outputs (WORKDIR/build/{native,MODE}-FAMILY)
#   CACHE    downloads and unpacked sources, shared by all packages (default WORKDIR/../cache);
#            `apt-get source` runs once per package and version, under a lock
# Environment:
#   SLEUTH_REALWORLD_FAMILIES  compiler families (default "gcc"; "gcc clang" adds clang-19)
#   SLEUTH_REALWORLD_MODES     instrumentation modes (default "deps coverage")
# Native builds are kept between runs while the compiler, the flags, the source and the build
# function are the same; instrumented builds are always redone (sleuth may have changed).
set -euo pipefail

rw_init() {
  if [ $# -lt 2 ] || [ $# -gt 3 ]; then
    echo "usage: $0 SLEUTH WORKDIR [CACHE]" >&2
    exit 2
  fi
  sleuth=$(realpath "$1")
  mkdir -p "$2"
  work=$(realpath "$2")
  cache=${3:-$work/../cache}
  mkdir -p "$cache"
  cache=$(realpath "$cache")
  started=$SECONDS
  trap 'echo "$PKG: FAIL: unexpected error (line $LINENO: $BASH_COMMAND)"' ERR
  [ -x "$sleuth" ] || fail "no sleuth binary at $sleuth"
  read -r -a families <<<"${SLEUTH_REALWORLD_FAMILIES:-gcc}"
  read -r -a modes <<<"${SLEUTH_REALWORLD_MODES:-deps coverage}"
  summary=()
}

fail() {
  echo "$PKG: FAIL: $*"
  exit 1
}
note() { echo "$PKG: $*"; }

. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/apt.sh"

# rw_apt_install PACKAGE...: installs what is missing of PACKAGE... (through scripts/apt.sh,
# under the lock every apt call of the project holds).
rw_apt_install() {
  if [ "$(id -u)" != 0 ] && [ -n "$(sleuth_packages_missing "$@")" ]; then
    fail "missing packages: $(sleuth_packages_missing "$@" | tr '\n' ' ')(apt-get install them, or run as root)"
  fi
  sleuth_apt_install "$work/apt-install.log" "$@"
}

# rw_fetch PACKAGE [DPKG_SOURCE_OPTIONS...]: sets $src to the unpacked source (read-only use:
# builds copy it or build out of tree) and $version.
rw_fetch() {
  sleuth_fetch_source "$1" "$cache" "$work" "${@:2}"
}

# Debian's build flags (dpkg-buildflags), as the package is built in the archive.
debian_flags() {
  if command -v dpkg-buildflags >/dev/null 2>&1; then
    (cd "$work" && DEB_BUILD_MAINT_OPTIONS=hardening=+all dpkg-buildflags --export=sh)
  fi
}

compiler_of() { # FAMILY LANG(c|c++)
  case $1/$2 in
    gcc/c) echo gcc ;; gcc/c++) echo g++ ;;
    clang/c) echo clang-19 ;; clang/c++) echo clang++-19 ;;
    *) fail "unknown compiler family '$1'" ;;
  esac
}

# rw_wrappers FAMILY MODE DIR: writes DIR/cc and DIR/c++, the wrappers for FAMILY in MODE,
# recording statistics into DIR/stats.tsv.
rw_wrappers() {
  local family=$1 mode=$2 dir=$3
  mkdir -p "$dir"
  : >"$dir/stats.tsv"
  # The header cache lives in the work directory, not in the home directory of whoever runs it.
  printf '#!/bin/sh\nSLEUTH_CC=%s SLEUTH_MODE=%s SLEUTH_STATS=%s SLEUTH_HEADER_CACHE=%s exec %s cc "$@"\n' \
    "$(compiler_of "$family" c)" "$mode" "$dir/stats.tsv" "$work/header-cache" "$sleuth" >"$dir/cc"
  printf '#!/bin/sh\nSLEUTH_CXX=%s SLEUTH_MODE=%s SLEUTH_STATS=%s SLEUTH_HEADER_CACHE=%s exec %s c++ "$@"\n' \
    "$(compiler_of "$family" c++)" "$mode" "$dir/stats.tsv" "$work/header-cache" "$sleuth" >"$dir/c++"
  chmod +x "$dir/cc" "$dir/c++"
}

# rw_build KIND FAMILY BUILD_FUNCTION [MODE]: runs BUILD_FUNCTION DIR CC CXX into
# $work/build/KIND-FAMILY (KIND: native or a mode; another name with MODE given: a variant
# built through the wrappers in that mode), log in DIR.log. A native build is kept while its
# key (compiler, flags, source, build function) is unchanged.
rw_build() {
  local kind=$1 family=$2 function=$3 mode=${4:-$1} dir=$work/build/$1-$2 cc cxx key t0=$SECONDS
  if [ "$kind" = native ]; then
    cc=$(compiler_of "$family" c) cxx=$(compiler_of "$family" c++)
    key="$($cc --version | head -n 1) $(debian_flags | tr '\n' ' ') $(cat "$src/.sleuth-unpacked")"
    key+=" $(declare -f "$function" | md5sum)"
    if [ -f "$dir.key" ] && [ "$(cat "$dir.key")" = "$key" ]; then
      note "$family: native build kept from an earlier run"
      return 0
    fi
  else
    rw_wrappers "$family" "$mode" "$work/wrappers-$kind-$family"
    cc=$work/wrappers-$kind-$family/cc cxx=$work/wrappers-$kind-$family/c++
  fi
  rm -rf "$dir" "$dir.key" && mkdir -p "$dir"
  ("$function" "$dir" "$cc" "$cxx") >"$dir.log" 2>&1 ||
    { tail -n 40 "$dir.log"; fail "$kind build with $family failed (log: $dir.log)"; }
  if [ "$kind" = native ]; then echo "$key" >"$dir.key"; fi
  note "$family: $kind build in $((SECONDS - t0)) s"
  if [ "$kind" != native ] && [ -f "$work/build/native-$family.log" ]; then
    rw_compare_warnings "$work/build/native-$family.log" "$dir.log" "$kind/$family"
  fi
}

# rw_warning_kinds LOG: "COUNT -Wflag" per kind of compiler warning in a build log (not the
# wrappers' own "sleuth cc: warning:" lines).
rw_warning_kinds() {
  grep -v -E '^sleuth( cc| c\+\+)?: ' "$1" | grep -o 'warning: .*\[-W[^]]*\]$' | sed 's/.*\[\(-W[^]]*\)\]$/\1/' |
    sort | uniq -c || true
}

# rw_compare_warnings NATIVE_LOG INSTRUMENTED_LOG LABEL: the instrumented build warns of no
# kind more often than the native one (the instrumented code must not bring warnings of its
# own into the project's build: under -Werror each would cost a file its instrumentation).
rw_compare_warnings() {
  local native=$1 instrumented=$2 label=$3 count flag had
  while read -r count flag; do
    had=$(rw_warning_kinds "$native" | awk -v f="$flag" '$2 == f { print $1 }')
    if [ "$count" -gt "${had:-0}" ]; then
      grep -v -E '^sleuth( cc| c\+\+)?: ' "$instrumented" | grep -F -- "[$flag]" | head -n 5
      fail "$label: $count $flag warnings in the instrumented build, ${had:-0} in the native one"
    fi
  done < <(rw_warning_kinds "$instrumented")
}

# rw_compare_dirs NATIVE_OUT INSTRUMENTED_OUT LABEL: every NAME.{status,out,err} must be equal.
rw_compare_dirs() {
  local a=$1 b=$2 label=$3 f n=0
  for f in "$a"/*.status; do
    local name
    name=$(basename "$f" .status)
    for part in status out err; do
      cmp -s "$a/$name.$part" "$b/$name.$part" || {
        diff "$a/$name.$part" "$b/$name.$part" | head -n 20
        fail "$label: $name: $part differs between the native and the instrumented build"
      }
    done
    n=$((n + 1))
  done
  [ $n -gt 0 ] || fail "$label: no test ran"
}

# rw_run OUT NAME DIR COMMAND...: runs COMMAND in DIR into OUT/NAME.{out,err,status}; the
# dependence (or coverage) file goes to OUT/NAME.sleuth.
rw_run() {
  local out=$1 name=$2 dir=$3 status=0
  shift 3
  mkdir -p "$out"
  (cd "$dir" && SLEUTH_OUT="$out/$name.sleuth" SLEUTH_COV_OUT="$out/$name.sleuth" timeout 600 "$@" >"$out/$name.out" 2>"$out/$name.err") ||
    status=$?
  echo "$status" >"$out/$name.status"
}

# rw_stats MODE FAMILY: one line on what the wrappers instrumented in that build, from the
# SLEUTH_STATS file (docs/wrappers.md): files, functions, probes, skipped functions by reason,
# and the
# files compiled uninstrumented with the reason. Each source is counted once (the last
# compile of it), so a file compiled twice (static and shared objects) is one file.
rw_stats() {
  local mode=$1 family=$2 stats=$work/wrappers-$1-$2/stats.tsv
  [ -s "$stats" ] || fail "$mode/$family: the wrappers recorded no compile"
  # Configure scripts' probe sources (deleted after the probe) are not the package's files.
  while IFS= read -r line; do
    if [ -e "${line%%$'\t'*}" ]; then printf '%s\n' "$line"; fi
  done <"$stats" | awk -F'\t' -v pkg="$PKG" -v label="$mode/$family" '
    { last[$1] = $0 }
    END {
      for (f in last) {
        split(last[f], c, "\t"); files++
        if (c[3] ~ /^instrumented/) {
          ok++; fn += c[4]; pr += c[5]; sk += c[6]; ms += c[7]; hc += c[10]
          nr = split(c[11], kinds, ",")
          for (i = 1; i <= nr; i++) { split(kinds[i], kv, "="); why[kv[1]] += kv[2] }
        }
        if (c[3] == "instrumented-alone") { alone++; n = f; sub(".*/", "", n); reasons = reasons "\n  " pkg ": " label ": " n " instrumented without its included files: " c[8] }
        else if (c[3] !~ /^instrumented/) { bad++; n = f; sub(".*/", "", n); reasons = reasons "\n  " pkg ": " label ": " n " not instrumented (" c[3] "): " c[8] }
      }
      for (k in why) skipped = skipped (skipped == "" ? "" : ", ") k " " why[k]
      if (skipped != "") skipped = " (" skipped ")"
      printf "%d files, %d instrumented (%d without their included files): %d functions, %d probes, %d functions skipped%s, %d included files replayed from the header cache; %d compiled uninstrumented; instrumenter %.1f s%s\n", files, ok, alone + 0, fn, pr, sk, skipped, hc + 0, bad + 0, ms / 1000, reasons
    }'
}

# rw_compiled_all MODE FAMILY: fails if the instrumented text of some source did not compile
# (`compile-failed`: the wrapper compiled the original instead; `instrumented-alone`: it
# compiled the source instrumented without its included files; either keeps the build going
# but is an instrumenter bug). Sources Clang cannot parse are left alone and only counted.
rw_compiled_all() {
  local stats=$work/wrappers-$1-$2/stats.tsv failed line
  # As rw_stats: configure scripts' probe sources (deleted after the probe) do not count.
  failed=$(while IFS= read -r line; do
    if [ -e "${line%%$'\t'*}" ]; then printf '%s\n' "$line"; fi
  done <"$stats" | awk -F'\t' '{ last[$1] = $0 } END { for (f in last) { split(last[f], c, "\t"); if (c[3] == "compile-failed" || c[3] == "instrumented-alone") print f ": " c[8] } }')
  [ -z "$failed" ] || fail "$1/$2: instrumented sources did not compile:
$failed"
}

rw_report() {
  local line
  for line in "${summary[@]}"; do echo "$PKG: $line"; done
  echo "$PKG: ok, $PKG ${version:-?}, $((SECONDS - started)) s"
}
