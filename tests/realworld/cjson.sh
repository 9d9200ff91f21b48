#!/usr/bin/env bash
# Real-program test: Debian's `cjson` source package, built with its own CMake build system and
# its own strict flags (-std=c89 -pedantic -Werror -Wconversion -Wc++-compat ...; -Wcomma and
# more with clang) plus Debian's hardening flags, twice per compiler family: natively and with
# every .c file instrumented by `sleuth cc`. The package's own test suite (ctest: cJSON_test, the
# Unity tests, the cJSON_Utils tests) must give the same results in both builds, and each test
# binary the same output and exit status; every instrumented test binary must write a complete
# dependence file.
#
# usage: cjson.sh SLEUTH WORKDIR [CACHE] (see common.sh; builds go to
# WORKDIR/build/{native,sleuth}-FAMILY). SLEUTH_REALWORLD_FAMILIES (default "gcc clang")
# selects the compiler families; clang is skipped if clang-19 is not installed, gcc is required.
PKG=cjson
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
rw_init "$@"
for tool in gcc cmake; do
  command -v $tool >/dev/null 2>&1 || fail "'$tool' is required"
done
rw_fetch cjson
if [ ! -f "$src/CMakeLists.txt" ] || [ ! -f "$src/cJSON.c" ]; then
  fail "$src is not a cjson source tree"
fi
grep -q -- '-Wconversion' "$src/CMakeLists.txt" || fail "cjson's CMakeLists.txt has no strict flags?"

# --- builds ---------------------------------------------------------------------------------
generator=("-G" "Unix Makefiles")
command -v ninja >/dev/null 2>&1 && generator=("-G" "Ninja")

build() { # KIND FAMILY CC: configure, build, run ctest; KIND is native or sleuth
  local kind=$1 family=$2 cc=$3 dir=$work/build/$1-$2 key
  # A native build does not depend on sleuth: kept while compiler, flags and source are the same.
  key="$("$cc" --version | head -n 1) $(debian_flags | tr '\n' ' ') $(cat "$src/.sleuth-unpacked")"
  key+=" $(declare -f build_from_scratch | md5sum)"
  if [ "$kind" = native ] && [ -f "$dir.key" ] && [ "$(cat "$dir.key")" = "$key" ]; then
    note "$family: native build kept from an earlier run"
  else
    build_from_scratch "$kind" "$family" "$cc" "$dir"
    if [ "$kind" = native ]; then echo "$key" >"$dir.key"; fi
  fi
  (cd "$dir" && ctest -j1 --timeout 60 >"$dir.ctest.log" 2>&1) || true
}

build_from_scratch() { # KIND FAMILY CC DIR
  local kind=$1 family=$2 cc=$3 dir=$4
  rm -rf "$dir" "$dir.key" && mkdir -p "$dir"
  (
    eval "$(debian_flags)"
    export CFLAGS="${CFLAGS:-} ${CPPFLAGS:-}" LDFLAGS="${LDFLAGS:-}" CC="$cc"
    cmake -S "$src" -B "$dir" "${generator[@]}" -DCMAKE_BUILD_TYPE=None \
      -DENABLE_CJSON_TEST=ON -DENABLE_CJSON_UTILS=ON -DCMAKE_EXPORT_COMPILE_COMMANDS=ON
    cmake --build "$dir" -j 1
  ) >"$dir.log" 2>&1 || { tail -n 40 "$dir.log"; fail "$kind build with $family failed (log: $dir.log)"; }
}

# Compiler diagnostics of a build log, without columns (probes are inserted on the same line).
diagnostics() {
  grep -E '^/[^:]+:[0-9]+:[0-9]+: (warning|error)' "$1" | sed 's/:[0-9]*: / /' | sort || true
}

# Test names and which of them failed, as `NAME pass|fail` lines.
ctest_results() {
  local dir=$1
  (cd "$dir" && ctest -N) | sed -n 's/^ *Test *#[0-9]*: *//p' | while read -r name; do
    if grep -qs "^[0-9]*:$name\$" "$dir/Testing/Temporary/LastTestsFailed.log"; then
      echo "$name fail"
    else
      echo "$name pass"
    fi
  done
}

# Runs every test binary directly, in the directory ctest would run it in, into OUT/NAME.{out,err,status}.
run_tests() { # DIR OUT
  local dir=$1 out=$2 name bin status
  mkdir -p "$out"
  while read -r name _; do
    if [ -x "$dir/tests/$name" ]; then bin=tests/$name; else bin=$name; fi
    [ -x "$dir/$bin" ] || fail "no test binary for $name in $dir"
    status=0
    (cd "$(dirname "$dir/$bin")" &&
      SLEUTH_OUT="$out/$name.deps" "./$(basename "$bin")" >"$out/$name.out" 2>"$out/$name.err") ||
      status=$?
    echo "$status" >"$out/$name.status"
  done <"$dir.results"
}

check_family() { # FAMILY CC
  local family=$1 cc=$2 native=$work/build/native-$1 instrumented=$work/build/sleuth-$1
  local wrapper=$work/sleuth-cc-$family
  printf '#!/bin/sh\nSLEUTH_CC=%s exec %s cc "$@"\n' "$cc" "$sleuth" >"$wrapper"
  chmod +x "$wrapper"

  build native "$family" "$cc"
  build sleuth "$family" "$wrapper"

  # Every .c file went through the instrumenter: no fallback, no extra diagnostics.
  if grep -n -E 'sleuth c(c|\+\+): warning' "$instrumented.log"; then
    fail "$family: some files were compiled uninstrumented"
  fi
  if ! diff <(diagnostics "$native.log") <(diagnostics "$instrumented.log"); then
    fail "$family: the instrumented build printed other compiler diagnostics than the native one"
  fi
  # cjson tests each flag with the compiler; the wrapper must not change the answers.
  if ! diff <(grep '^FLAG_SUPPORTED' "$native/CMakeCache.txt") \
    <(grep '^FLAG_SUPPORTED' "$instrumented/CMakeCache.txt"); then
    fail "$family: the compiler accepts other flags through sleuth cc"
  fi
  grep -q -- '-Werror' <(grep '^CMAKE_C_FLAGS:' "$instrumented/CMakeCache.txt") ||
    fail "$family: cjson's strict flags are not on"

  # The package's own test suite, and each test binary run alone.
  ctest_results "$native" >"$native.results"
  ctest_results "$instrumented" >"$instrumented.results"
  [ -s "$native.results" ] || fail "$family: ctest found no tests"
  diff "$native.results" "$instrumented.results" ||
    fail "$family: ctest results differ (native <, instrumented >)"
  run_tests "$native" "$native.run"
  run_tests "$instrumented" "$instrumented.run"
  local name deps
  while read -r name _; do
    for part in status out err; do
      cmp -s "$native.run/$name.$part" "$instrumented.run/$name.$part" || {
        diff "$native.run/$name.$part" "$instrumented.run/$name.$part" | head -n 20
        fail "$family: $name: $part differs between the native and the instrumented build"
      }
    done
    deps=$instrumented.run/$name.deps
    [ -s "$deps" ] || fail "$family: $name wrote no dependence file"
    if [ "$(head -n 1 "$deps")" != "sleuth-deps 2" ] || [ "$(tail -n 1 "$deps")" != end ]; then
      fail "$family: $name: $deps is not a complete dependence file"
    fi
  done <"$native.results"
  # The shared libraries' instrumented code ran too (the Unity tests #include cJSON.c instead).
  grep -q "^file [0-9]* .*/cJSON\.c\$" "$instrumented.run/cJSON_test.deps" ||
    fail "$family: cJSON_test's dependence file does not mention cJSON.c"
  grep -q "^file [0-9]* .*/cJSON_Utils\.c\$" "$instrumented.run/json_patch_tests.deps" ||
    fail "$family: json_patch_tests' dependence file does not mention cJSON_Utils.c"
  # `sleuth run` keeps the dependence file of a run.
  (cd "$instrumented" && "$sleuth" run -o "$instrumented.run/sleuth-run.deps" -- ./cJSON_test \
    >/dev/null 2>&1) || fail "$family: sleuth run -- ./cJSON_test failed"
  [ "$(tail -n 1 "$instrumented.run/sleuth-run.deps")" = end ] ||
    fail "$family: sleuth run -o did not keep a complete dependence file"

  local total passed
  total=$(wc -l <"$native.results")
  passed=$(grep -c ' pass$' "$native.results" || true)
  note "$family: $total tests, same results ($passed passed), same output and exit status"
  tests_line="$total tests, same results ($passed passed)"
  stats_dir=$native
}

families=()
for family in ${SLEUTH_REALWORLD_FAMILIES:-gcc clang}; do
  case $family in
    gcc) check_family gcc gcc; families+=(gcc) ;;
    clang)
      if command -v clang-19 >/dev/null 2>&1; then
        check_family clang clang-19; families+=(clang-19)
      else
        note "clang-19 not found: clang builds skipped"
      fi
      ;;
    *) fail "unknown compiler family '$family'" ;;
  esac
done
[ ${#families[@]} -gt 0 ] || fail "no compiler family was built"

# --- the same graph at -O0 and at -O2 -------------------------------------------------------
# glibc's tolower() is a macro only when optimizing, and frames are laid out anew at each level:
# misc_tests (which includes cJSON.c) must record the same dependence graph both ways. It was 20
# lines apart while reads through pointers in macro arguments were lost and memset left a dead
# frame's origins in print()'s buffer.
same_graph_at_O0_and_O2() {
  local dir=$work/optimization unity=$src/tests/unity/src level
  rm -rf "$dir" && mkdir -p "$dir"
  for level in O0 O2; do
    SLEUTH_CC=gcc "$sleuth" cc -$level -std=c89 -I"$src" -I"$unity" -o "$dir/misc_tests.$level" \
      "$src/tests/misc_tests.c" "$unity/unity.c" >"$dir/build.$level.log" 2>&1 ||
      { tail -n 20 "$dir/build.$level.log"; fail "misc_tests -$level build failed"; }
    (cd "$src/tests" && SLEUTH_OUT="$dir/$level.deps" "$dir/misc_tests.$level" >/dev/null 2>&1) ||
      fail "misc_tests -$level failed"
    "$sleuth" slice "$dir/$level.deps" --format deps >"$dir/$level.txt" ||
      fail "misc_tests -$level: no loadable dependence file"
  done
  diff "$dir/O0.txt" "$dir/O2.txt" >"$dir/diff.txt" ||
    { head -n 20 "$dir/diff.txt"; fail "misc_tests records another dependence graph at -O2 than at -O0"; }
  note "gcc: misc_tests records the same dependence graph at -O0 and at -O2 ($(wc -l <"$dir/O2.txt") lines)"
}
same_graph_at_O0_and_O2

# --- what was instrumented ------------------------------------------------------------------
# The same files and arguments as the last native build, through the instrumenter alone.
mapfile -t files < <(grep -o '"file": "[^"]*"' "$stats_dir/compile_commands.json" |
  sed 's/"file": "\(.*\)"/\1/')
rm -rf "$work/instrumented" && mkdir -p "$work/instrumented"
"$sleuth" instrument --stats -p "$stats_dir" -o "$work/instrumented" "${files[@]}" \
  >"$work/stats.txt" 2>&1 || { cat "$work/stats.txt"; fail "sleuth instrument --stats failed"; }
read -r functions left < <(sed -n 's/.*: \([0-9]*\) functions, [0-9]* sites, [0-9]* probes, \([0-9]*\) functions left.*/\1 \2/p' \
  "$work/stats.txt" | awk '{ f += $1; l += $2 } END { print f + 0, l + 0 }')
[ "$(grep -c ' functions, ' "$work/stats.txt")" = "${#files[@]}" ] ||
  { cat "$work/stats.txt"; fail "sleuth instrument --stats did not report every file"; }

echo "cjson: $tests_line native and instrumented with ${families[*]}; ${#files[@]} files," \
  "$functions functions instrumented ($left left as they were); cjson ${version:-?}," \
  "$((SECONDS - started)) s"
