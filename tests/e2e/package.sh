#!/usr/bin/env bash
# The Debian package (cmake/Packaging.cmake), as `cmake --build BUILD --target package` makes
# it, here with CPack's configuration of the build into WORKDIR: its name, its control fields
# (Depends from dpkg-shlibdeps and what sleuth runs: Clang's builtin headers, the compilers),
# its files; then unpacked into a scratch root (dpkg -x: nothing is installed on this machine),
# the packaged sleuth-c++ builds an example against the packaged runtime and headers, the
# program runs and the packaged sleuth slices it as the golden slice says.
# usage: package.sh BUILD_DIR VERSION LLVM_MAJOR EXAMPLE GOLDEN WORKDIR
set -u
build=$1 version=$2 llvm=$3 example=$4 golden=$5 work=$6
fail() { echo "FAIL [package] $*"; exit 1; }
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1

cpack --config "$build/CPackConfig.cmake" -B "$work/out" >cpack.log 2>&1 || { cat cpack.log; fail "cpack"; }
deb=$work/out/sleuth_${version}_$(dpkg --print-architecture).deb
[ -f "$deb" ] || { ls "$work/out"; fail "no $(basename "$deb")"; }

# Control fields. Every package Depends names (one alternative of each) is installed here, in
# a version that satisfies it: `apt install ./sleuth_*.deb` needs nothing this machine lacks.
dpkg-deb -I "$deb" >info.txt || fail "dpkg-deb -I"
depends=$(dpkg-deb -f "$deb" Depends)
clauses=$(echo "$depends" | tr ',' '\n' | sed 's/^ *//; s/ *$//')
for needed in "libclang-cpp$llvm" "libllvm$llvm" "libfmt[0-9]+" "libclang-common-$llvm-dev" \
  "gcc \| c-compiler" "g\+\+ \| c\+\+-compiler" "libc6-dev \| libc-dev" "libstdc\+\+6" libc6; do
  echo "$clauses" | grep -qxE "$needed( \(.*\))?" || fail "Depends lacks $needed: $depends"
done
grep -qxF " Depends: $depends" info.txt || { cat info.txt; fail "dpkg-deb -I shows no Depends"; }
[ "$(dpkg-deb -f "$deb" Recommends)" = graphviz ] || fail "Recommends is not graphviz"
satisfied() { # one "name (op version)" of Depends
  local name=${1%% *} relation op wanted installed
  installed=$(dpkg-query -W -f='${Status} ${Version}\n' "$name" 2>/dev/null | grep '^install ok installed' | awk '{print $4}' | head -n 1)
  [ -n "$installed" ] || return 1
  case "$1" in
    *"("*")"*)
      relation=${1#*(}; relation=${relation%)}; op=${relation%% *}; wanted=${relation#* }
      case "$op" in ">=") op=ge ;; "<=") op=le ;; "=") op=eq ;; ">>") op=gt ;; "<<") op=lt ;; esac
      dpkg --compare-versions "$installed" "$op" "$wanted" ;;
  esac
}
while read -r clause; do
  ok=
  IFS='|' read -ra alternatives <<<"$clause"
  for alternative in "${alternatives[@]}"; do
    alternative=$(echo "$alternative" | sed 's/^ *//; s/ *$//')
    satisfied "$alternative" && { ok=1; break; }
  done
  [ -n "$ok" ] || fail "Depends clause '$clause' is not satisfied on this machine"
done <<<"$clauses"

# Files, under /usr.
dpkg-deb -c "$deb" >contents.txt || fail "dpkg-deb -c"
for f in ./usr/bin/sleuth ./usr/lib/libsleuth_rt.so ./usr/lib/libsleuth_rt.a ./usr/include/sleuth/runtime.h \
  ./usr/include/sleuth/abi.h "./usr/bin/sleuth-cc -> sleuth" "./usr/bin/sleuth-c++ -> sleuth"; do
  grep -qF " $f" contents.txt || { cat contents.txt; fail "not in the package: $f"; }
done
if grep -v ' \./usr/' contents.txt | grep -v ' \./$'; then fail "files outside /usr"; fi

root=$work/root
dpkg -x "$deb" "$root" || fail "dpkg -x"
sleuth=$root/usr/bin/sleuth
"$sleuth" --version >version.txt 2>&1 || { cat version.txt; fail "the packaged sleuth does not start"; }
grep -q "^sleuth $version " version.txt || { cat version.txt; fail "sleuth --version is not $version"; }
readelf -d "$sleuth" | grep -qE 'R(UN)?PATH' && fail "the packaged binary keeps a run path"

# -H lists the headers the instrumented compile read: the packaged runtime's, not the build's.
SLEUTH_CXX=g++ "$root/usr/bin/sleuth-c++" -H -o middle "$example" 2>build.err ||
  { cat build.err; fail "packaged sleuth-c++"; }
if grep "^sleuth" build.err; then fail "packaged sleuth-c++ warned"; fi
grep -q "^\. $root/usr/include/sleuth/runtime.h" build.err ||
  { grep 'sleuth/runtime.h' build.err; fail "the compile did not use the packaged runtime header"; }
ldd middle | grep -q "$root/usr/lib/libsleuth_rt.so" || { ldd middle; fail "not linked with the packaged runtime"; }
"$sleuth" run -o middle.deps -- ./middle >run.out 2>&1 || true
[ "$(tail -n 1 middle.deps 2>/dev/null)" = end ] || { cat run.out; fail "no complete dependence file"; }
header=$(head -n 1 "$golden")
args=${header#"# sleuth slice DEPS"}
grep -v '^#' "$golden" >expected.txt
# shellcheck disable=SC2086
"$sleuth" slice middle.deps $args >slice.txt 2>slice.err || { cat slice.err; fail "packaged sleuth slice"; }
diff -u expected.txt slice.txt || fail "slice differs from $(basename "$golden")"
echo "ok [package] $(basename "$deb"): Depends $depends; unpacked, builds, runs and slices $(basename "$example")"
