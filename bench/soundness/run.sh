#!/usr/bin/env bash
# The soundness oracle's full run (tests/soundness/oracle.py), whose counts bench/RESULTS.md
# keeps: the corpus of tests/soundness/corpus and Csmith's random C and C++ programs, every write
# outside the slice of what each program printed perturbed (its first and last execution, a bit
# flipped and one added), and for precision every write inside it too.
# usage: bench/soundness/run.sh [SLEUTH] [WORKDIR]   (C_SEEDS, CXX_SEEDS, MAX_TRIALS,
#        TIME_LIMIT override the sets of Csmith seeds, the trials per program and side, and the
#        seconds per program)
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
sleuth=$(realpath "${1:-$root/build/tools/sleuth/sleuth}")
work=${2:-$(mktemp -d /tmp/sleuth-soundness.XXXXXX)}
C_SEEDS=${C_SEEDS:-"101 103 105 106 107 108 110 111"}
CXX_SEEDS=${CXX_SEEDS:-"6 17 19 51 65"}
MAX_TRIALS=${MAX_TRIALS:-400}
TIME_LIMIT=${TIME_LIMIT:-300}
mkdir -p "$work"
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

echo "== corpus (tests/soundness/corpus)"
"${oracle[@]}" --work "$work/corpus" --json "$work/corpus.json" \
  "$root"/tests/soundness/corpus/*.c "$root"/tests/soundness/corpus/*.cpp || status=1

command -v csmith >/dev/null || { echo "csmith is needed for the rest"; exit 1; }
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

echo "== totals"
python3 - "$work"/corpus.json "$work"/csmith-c.json "$work"/csmith-cxx.json <<'PY'
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
