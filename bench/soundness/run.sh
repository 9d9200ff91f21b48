#!/usr/bin/env bash
# The soundness oracle's full run (tests/soundness/oracle.py), whose counts bench/RESULTS.md
# keeps: the corpus of tests/soundness/corpus and Csmith's random C and C++ programs, every write
# outside the slice of what each program printed perturbed (its first and last execution, a bit
# flipped and one added), and for precision every write inside it too. Then test programs of
# the real-world packages (tests/realworld): cJSON's test.c and three of its Unity tests, zlib's
# example.c, tinyxml2's xmltest, and fmtlib's GoogleTest programs (args-test, assert-test,
# ostream-test, printf-test) with GoogleTest itself instrumented (bench/soundness/fmt-harness.sh,
# from a copy of Debian's /usr/src/googletest: what GoogleTest prints is then in the slices),
# built from the Debian sources that the real-world tests fetch.
# usage: bench/soundness/run.sh [SLEUTH] [WORKDIR]   (C_SEEDS, CXX_SEEDS, MAX_TRIALS,
#        TIME_LIMIT override the sets of Csmith seeds, the trials per program and side, and the
#        seconds per program; PARTS="corpus csmith packages control" the parts to run, control
#        the control-dependence oracle on the corpus and the examples; CACHE where the
#        package sources are kept, by default the build's realworld-cache; FMT_TESTS fmtlib's
#        test programs, by names of its test/*.cc)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
sleuth=$(realpath "${1:-$root/build/tools/sleuth/sleuth}")
work=${2:-$(mktemp -d /tmp/sleuth-soundness.XXXXXX)}
C_SEEDS=${C_SEEDS:-"101 103 105 106 107 108 110 111"}
CXX_SEEDS=${CXX_SEEDS:-"6 17 19 51 65"}
MAX_TRIALS=${MAX_TRIALS:-400}
TIME_LIMIT=${TIME_LIMIT:-300}
PARTS=${PARTS:-"corpus csmith packages control"}
FMT_TESTS=${FMT_TESTS:-"args-test assert-test ostream-test printf-test"}
CACHE=${CACHE:-$root/build/realworld-cache}
mkdir -p "$work"
work=$(realpath "$work") # the recipes run in directories of their own
status=0

# The run takes minutes: it uses a copy of the build's sleuth, runtime and runtime headers laid
# out as an installation (bin, lib, include), which a rebuild meanwhile does not change.
if [ "$sleuth" = "$(realpath "$root/build/tools/sleuth/sleuth" 2>/dev/null)" ]; then
  copy=$work/sleuth
  rm -rf "$copy" && mkdir -p "$copy/bin" "$copy/lib" "$copy/include"
  cp "$sleuth" "$copy/bin/sleuth" && cp "$root"/build/runtime/libsleuth_rt.{so,a} "$copy/lib/" &&
    cp -r "$root/runtime/include/sleuth" "$copy/include/" ||
    { echo "cannot copy the build (a build running?)"; exit 1; }
  sleuth=$copy/bin/sleuth
fi
oracle=(python3 "$root/tests/soundness/oracle.py" --sleuth "$sleuth" --precision
        --max-trials "$MAX_TRIALS" --time-limit "$TIME_LIMIT"
        --expected "$root/tests/soundness/expected-misses.txt")

part() { case " $PARTS " in *" $1 "*) return 0 ;; esac; return 1; }

if part corpus; then
echo "== corpus (tests/soundness/corpus)"
"${oracle[@]}" --work "$work/corpus" --json "$work/corpus.json" \
  "$root"/tests/soundness/corpus/*.c "$root"/tests/soundness/corpus/*.cpp || status=1
fi

if part csmith; then
command -v csmith >/dev/null || { echo "csmith is needed for the Csmith part"; exit 1; }
mkdir -p "$work/sources"
for seed in $C_SEEDS; do
  csmith --seed "$seed" -o "$work/sources/csmith_$seed.c" >/dev/null 2>&1
done
for seed in $CXX_SEEDS; do
  csmith --seed "$seed" --lang-cpp -o "$work/sources/csmith_$seed.cpp" >/dev/null 2>&1
done
# csmith.h as a system header: its transparent_crc, which prints the checksum, is then a
# library call whose effect node is the criterion.
flags="-O1 -w -isystem /usr/include/csmith"
echo "== Csmith C (seeds $C_SEEDS)"
"${oracle[@]}" --work "$work/csmith-c" --json "$work/csmith-c.json" --cflags "$flags" \
  $(for s in $C_SEEDS; do echo "$work/sources/csmith_$s.c"; done) || status=1
echo "== Csmith C++ (seeds $CXX_SEEDS)"
"${oracle[@]}" --work "$work/csmith-cxx" --json "$work/csmith-cxx.json" \
  --cxxflags "$flags -Wno-narrowing" \
  $(for s in $CXX_SEEDS; do echo "$work/sources/csmith_$s.cpp"; done) || status=1
fi

if part packages; then
echo "== real-world packages' test programs"
# The sources, as the real-world tests fetch them (tests/realworld/common.sh).
if ! (
  PKG=soundness
  . "$root/tests/realworld/common.sh"
  set +E
  trap - ERR
  rw_init "$sleuth" "$work/fetch" "$CACHE" >/dev/null
  for package in cjson zlib tinyxml2 fmtlib; do rw_fetch "$package" >&2; done
  [ -f /usr/src/googletest/CMakeLists.txt ] || rw_apt_install googletest >&2
); then
  echo "cannot fetch the packages' sources"
  exit 1
fi
cj=$CACHE/src/cjson z=$CACHE/src/zlib tx=$CACHE/src/tinyxml2
unity=(-I"$cj" -I"$cj/tests" -I"$cj/tests/unity/src")
recipes=(--recipe "cjson_test=\$CC -O0 -w -o program $cj/cJSON.c $cj/test.c -lm")
# A Unity test includes cJSON.c itself (tests/common.h).
for t in print_number parse_number misc_tests; do
  recipes+=(--recipe "cjson_$t=\$CC -O0 -w ${unity[*]} -o program $cj/tests/$t.c $cj/tests/unity/src/unity.c -lm")
done
zlib_sources=$(for f in adler32 compress crc32 deflate gzclose gzlib gzread gzwrite infback inffast \
  inflate inftrees trees uncompr zutil; do printf '%s ' "$z/$f.c"; done)
recipes+=(--recipe "zlib_example=\$CC -O0 -w -D_LARGEFILE64_SOURCE=1 -I$z -o program $z/test/example.c $zlib_sources")
# xmltest reads and writes resources/ where it runs, and prints how long a parse took: the
# program is a script that drops that line (the run keeps its environment and personality).
printf '%s\n' '#!/bin/bash' 'set -o pipefail' '"$(dirname "$0")/xmltest" | grep -v milli-seconds' \
  >"$work/xmltest-filter"
recipes+=(--recipe "tinyxml2_xmltest=cp -r $tx/resources . && \$CXX -O0 -w -I$tx -o xmltest $tx/tinyxml2.cpp $tx/xmltest.cpp && install -m 755 $work/xmltest-filter program")
# fmtlib's tests link GoogleTest, GoogleMock, {fmt} and fmt's test harness, built once by the
# first recipe into fmt-harness (the later ones replay its log, wrapper warnings included).
# GoogleTest is a copy: under /usr it would be a system file, left uninstrumented.
fm=$CACHE/src/fmtlib gt=$work/googletest
rm -rf "$gt" "$work/fmt-harness" && cp -r /usr/src/googletest "$gt"
harness="bash $root/bench/soundness/fmt-harness.sh $fm $gt $work/fmt-harness"
for t in $FMT_TESTS; do
  [ -f "$fm/test/$t.cc" ] || { echo "FMT_TESTS: $fm/test/$t.cc: no such test"; exit 2; }
  # The program runs the test without timings, which differ between runs.
  printf '%s\n' '#!/bin/sh' "exec \"\$(dirname \"\$0\")/$t\" --gtest_print_time=0 --gtest_color=no" \
    >"$work/$t-run"
  recipes+=(--recipe "fmtlib_${t//-/_}=$harness && \$CXX -O0 -w -pthread -I$fm/include -I$gt/googletest/include -I$gt/googlemock/include -o $t $fm/test/$t.cc \$(cat $work/fmt-harness/objects) && install -m 755 $work/$t-run program")
done
"${oracle[@]}" --work "$work/packages" --json "$work/packages.json" "${recipes[@]}" || status=1
fi

if part control; then
echo "== control dependences (tests/soundness/control_oracle.py: the corpus and the examples)"
python3 "$root/tests/soundness/control_oracle.py" --sleuth "$sleuth" --work "$work/control" \
  --expected "$root/tests/soundness/expected-control-mismatches.txt" \
  "$root"/tests/soundness/corpus/*.c "$root"/tests/soundness/corpus/*.cpp \
  "$root"/tests/soundness/control_corpus/*.c "$root"/tests/soundness/control_corpus/*.cpp \
  "$root"/examples/*.c "$root"/examples/*.cpp || status=1
fi

echo "== totals"
python3 - "$work"/corpus.json "$work"/csmith-c.json "$work"/csmith-cxx.json "$work"/packages.json <<'PY'
import json, sys
total = {}
for path in sys.argv[1:]:
    try:
        summary = json.load(open(path))["summary"]
    except OSError:
        continue
    for k, v in summary.items():
        total[k] = total.get(k, 0) + v
print(", ".join(f"{k.replace('_', ' ')} {v}" for k, v in total.items()))
PY
echo "(results in $work)"
exit $status
