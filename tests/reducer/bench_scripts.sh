#!/bin/bash
# The reducer benchmark's scripts:
#   bench/reduce-split      the two-file split of a preprocessed case
#                           (headers in lib.h, the case's own code in main.*);
#   bench/reduce-cases/make-orig   a case's orig.* from its seed;
#   bench/reduce-compare    sleuth beside the best peer, from bench/reduce's rows.
# A synthetic case with hand-written line markers checks the split's files,
# both marker modes and every error; make-orig runs on a copy of the C case
# (clang-19 preprocesses it in about a second) and its result must crash
# clang-19 as the case's test.sh expects.
#
# usage: bench_scripts.sh SOURCE_DIR WORK_DIR
set -u
src=$1 work=$2
split=$src/bench/reduce-split make_orig=$src/bench/reduce-cases/make-orig
rm -rf "$work" && mkdir -p "$work" || exit 1
fails=0
fail() { echo "FAIL: $*" >&2; fails=$((fails + 1)); }

# A preprocessed file as `cpp` writes it: the main file, a header entered
# (flag 1) and left (flag 2), then the main file's own code.
case_dir=$work/case
mkdir -p "$case_dir"
cat >"$case_dir/orig.cpp" <<'EOF'
# 1 "orig.cpp"
# 1 "<built-in>"
# 1 "<command-line>"
# 1 "orig.cpp"
# 1 "point.h" 1
struct point { int x, y; };
int norm(point p);
# 2 "orig.cpp" 2
int crash_here(point p) { return norm(p); }
EOF
cat >"$case_dir/test.sh" <<'EOF'
#!/bin/bash
F=${1:-${REDUCE_FILE:-orig.cpp}}
grep -q 'crash_here' "$F" && cat "$F" lib.h 2>/dev/null | grep -q 'struct point'
EOF
chmod +x "$case_dir/test.sh"

out=$work/split
if ! "$split" "$case_dir" "$out" >"$work/split.log" 2>&1; then
  fail "reduce-split failed: $(cat "$work/split.log")"
else
  [ "$(cat "$out/lib.h")" = "$(printf 'struct point { int x, y; };\nint norm(point p);')" ] ||
    fail "lib.h is not the header's text without markers: $(cat "$out/lib.h")"
  [ "$(head -1 "$out/main.cpp")" = '#include "lib.h"' ] || fail "main.cpp does not include lib.h first"
  grep -q '^int crash_here' "$out/main.cpp" || fail "main.cpp lost the case's own code"
  grep -q '^# ' "$out/main.cpp" "$out/lib.h" && fail "line markers were kept without --keep-markers"
  grep -q 'orig.cpp' "$out/test.sh" && fail "test.sh still names orig.cpp"
  (cd "$out" && ./test.sh) || fail "the split does not pass its test.sh"
  [ -f "$out/README" ] || fail "no README beside the split"
fi

out=$work/split-markers
if ! "$split" --keep-markers "$case_dir" "$out" >"$work/markers.log" 2>&1; then
  fail "reduce-split --keep-markers failed: $(cat "$work/markers.log")"
else
  grep -q '^# 1 "point.h" 1$' "$out/lib.h" || fail "--keep-markers lost the header's marker"
  # A marker that returns to the includer at the top of main.cpp would pop an
  # empty include stack; it loses its flag.
  grep -q '^# 2 "orig.cpp"$' "$out/main.cpp" || fail "main.cpp's marker kept its flag"
fi

# Errors: one line on stderr, exit 2 for usage, 1 for a case that cannot be
# split; the output directory is never left half made.
expect() { # status description command...
  local want=$1 what=$2 rc lines
  shift 2
  "$@" >"$work/err.out" 2>"$work/err.log"
  rc=$?
  lines=$(wc -l <"$work/err.log")
  [ $rc -eq "$want" ] || fail "$what: exit $rc, expected $want ($(cat "$work/err.log"))"
  [ "$lines" -eq 1 ] || fail "$what: $lines lines on stderr"
}
expect 2 "no arguments" "$split"
expect 2 "missing case" "$split" "$work/none" "$work/o1"
expect 2 "existing output" "$split" "$case_dir" "$work/split"
mkdir -p "$work/plain"
printf 'int main() { return 0; }\n' >"$work/plain/orig.c"
cp "$case_dir/test.sh" "$work/plain/"
expect 1 "no line markers" "$split" "$work/plain" "$work/o2"
[ -e "$work/o2" ] && fail "a failed split left its output directory"
mkdir -p "$work/uninteresting"
cp "$case_dir/orig.cpp" "$work/uninteresting/"
printf '#!/bin/bash\nexit 1\n' >"$work/uninteresting/test.sh"
chmod +x "$work/uninteresting/test.sh"
expect 1 "test.sh not naming the file" "$split" "$work/uninteresting" "$work/o3"
printf '#!/bin/bash\ngrep -q nothing-here orig.cpp\n' >"$work/uninteresting/test.sh"
expect 1 "a split that fails its test" "$split" "$work/uninteresting" "$work/o4"
[ -e "$work/o4" ] && fail "a split that fails its test was kept"

# make-orig on a copy of the C case: markers name orig.c, not the seed, and
# the result crashes clang-19 as the case's test expects.
if command -v clang-19 >/dev/null; then
  c=$work/emptyescape
  cp -r "$src/bench/reduce-cases/clang19-c-gh102218-emptyescape" "$c"
  rm -f "$c/orig.c"
  if "$make_orig" "$c" >"$work/make-orig.log" 2>&1; then
    grep -q '^# [0-9]* "orig.c"' "$c/orig.c" || fail "make-orig: no marker names orig.c"
    grep -q '"seed.c"' "$c/orig.c" && fail "make-orig: a marker still names seed.c"
    (cd "$c" && ./test.sh) || fail "make-orig: orig.c does not pass the case's test.sh"
    ls "$c"/.orig.* >/dev/null 2>&1 && fail "make-orig left a temporary file"
  else
    fail "make-orig failed: $(cat "$work/make-orig.log")"
  fi
  mkdir -p "$work/not-a-case"
  expect 2 "make-orig on a directory without preprocess" "$make_orig" "$work/not-a-case"
else
  fail "clang-19 is not installed"
fi

# reduce-compare: sleuth beside the best peer whose result still passes; a peer stopped by the
# limit is beaten by a finished, smaller sleuth run within half the limit.
compare=$src/bench/reduce-compare
cat >"$work/table.md" <<'EOF'
| case | variant | tool | original | final | wall | tests | 1 min | 5 min | 20 min | finished | result | load |
|---|---|---|---|---|---|---|---|---|---|---|---|---|
| a | one | sleuth | 9 / 9 / 900 | 1 / 1 / 13 | 10 s | 100 | 13 | 13 | 13 | yes | ok | 1 / 1 |
| a | one | cvise | 9 / 9 / 900 | 1 / 1 / 12 | 60 s | 800 | 13 | 12 | 12 | yes | ok | 1 / 1 |
| a | one | creduce | 9 / 9 / 900 | 1 / 1 / 11 | 50 s | 900 | 11 | 11 | 11 | yes | NOT INTERESTING | 1 / 1 |
| b | split | sleuth | 9 / 9 / 900 | 1 / 1 / 20 | 40 s | 100 | 20 | 20 | 20 | yes | ok | 1 / 1 |
| b | split | cvise | 9 / 9 / 900 | 1 / 1 / 400 | 180 s | 800 | 500 | 400 | 400 | no (stopped) | ok | 1 / 1 |
EOF
out=$("$compare" "$work/table.md")
echo "$out" | grep -qF '| a | one | 13 in 10 s | cvise: 12 in 60 s | **no** |' ||
  fail "reduce-compare: a larger sleuth result is not a miss, or an uninteresting peer counted: $out"
echo "$out" | grep -qF '| b | split | 20 in 40 s | cvise: 400 at the limit, 180 s | yes (22 % of the time) |' ||
  fail "reduce-compare: a peer stopped at the limit: $out"
echo "$out" | grep -qF 'target met on 1 of 2' || fail "reduce-compare: no count: $out"
expect 2 "reduce-compare on a missing file" "$compare" "$work/none.md"

[ $fails -eq 0 ] && echo "bench scripts: all checks passed"
exit $((fails > 0))
