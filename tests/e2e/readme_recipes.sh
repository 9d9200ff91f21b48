#!/usr/bin/env bash
# Runs the recipes of README.md and docs/*.md as a user would: each `sh` block marked
# `<!-- recipe: NAME -->` is extracted and run with bash -e in a fresh copy of examples/stats,
# with the built sleuth first on PATH, and its result checked below; the block marked
# `<!-- output: NAME -->` after it must show lines the recipe really printed. A `sh` block
# marked `<!-- tested-by: TEST... -->` is run by those CTest tests instead, which must exist.
# Every `sh` block must carry one of the two markers, so no command of the docs goes untested.
#
# usage: readme_recipes.sh SLEUTH SOURCE_DIR BUILD_DIR WORK_DIR
set -euo pipefail
sleuth=$1
root=$2
build=$3
work=$4
PATH=$(cd "$(dirname "$sleuth")" && pwd):$PATH
export PATH

fail() {
  echo "readme_recipes: $*" >&2
  exit 1
}

rm -rf "$work"
mkdir -p "$work/blocks"

# extract FILE: writes each marked block of FILE to $work/blocks/ID.sh (recipes, tested-by
# lists) or ID.out (outputs), ID being FILE's name with '/' as '_' and the marker's name, and
# lists "KIND ID LINE" on stdout. Fails on an unmarked sh block or a marker that is not
# followed by a fenced block.
extract() {
  awk -v file="$1" -v dir="$work/blocks" '
    function id(name) { f = file; gsub("/", "_", f); return f "." name }
    /^<!-- (recipe|output|tested-by): .* -->$/ {
      kind = $2; sub(":", "", kind)
      name = $0; sub("^<!-- [a-z-]+: ", "", name); sub(" -->$", "", name)
      if (kind == "tested-by") { tests = name; name = "tested-by." NR }
      pending = kind; pendingName = name; markerLine = NR
      next
    }
    /^```/ && !inBlock {
      inBlock = 1
      if (pending == "") {
        if ($0 == "```sh") { printf "%s:%d: a sh block without a recipe or tested-by marker\n", file, NR > "/dev/stderr"; bad = 1 }
        out = ""
        next
      }
      if ((pending == "recipe" || pending == "tested-by") && $0 != "```sh") {
        printf "%s:%d: a %s marker before a block that is not sh\n", file, markerLine, pending > "/dev/stderr"; bad = 1
      }
      out = dir "/" id(pendingName) (pending == "output" ? ".out" : ".sh")
      printf "" > out
      if (pending == "tested-by") print tests > (dir "/" id(pendingName) ".tests")
      print pending, id(pendingName), NR
      pending = ""
      next
    }
    /^```/ && inBlock { inBlock = 0; if (out != "") close(out); out = ""; next }
    inBlock && out != "" { print > out; next }
    pending != "" && !/^[[:space:]]*$/ {
      printf "%s:%d: the %s marker is not followed by a fenced block\n", file, markerLine, pending > "/dev/stderr"; bad = 1
      pending = ""
    }
    END { if (inBlock) { printf "%s: unterminated fenced block\n", file > "/dev/stderr"; bad = 1 }; exit bad }
  ' "$root/$1"
}

# ranked_within FILE LOCATION N: LOCATION's worst rank in the first ranking printed in FILE is
# <= N.
ranked_within() {
  awk -v loc="$2" -v n="$3" '
    # rank, score, failed, passed, location, source
    !found && $5 == loc && $1 ~ /^[0-9]+(-[0-9]+)?$/ { r = $1; sub("^[0-9]+-", "", r); found = 1; ok = (r + 0 <= n) }
    END { exit !(found && ok) }' "$1"
}

# check_output ID LOG: every line of the documented output ID.out occurs in LOG. A progress
# counter `[N/M]` may differ: tests finish in the order the scheduler gives them.
check_output() {
  local shown=$work/blocks/$1.out
  [ -f "$shown" ] || return 0
  local printed=$2.progress
  sed -E 's|\[[0-9]+/([0-9]+)\]|[N/\1]|' "$2" >"$printed"
  while IFS= read -r line; do
    [ -z "$line" ] && continue
    line=$(printf '%s\n' "$line" | sed -E 's|\[[0-9]+/([0-9]+)\]|[N/\1]|')
    grep -qxF -- "$line" "$printed" || fail "$1: the documented output line '$line' is not what the recipe prints (see $2)"
  done <"$shown"
}

# check_recipe ID DIR LOG: the result of recipe ID, run in DIR, which printed LOG.
check_recipe() {
  local id=$1 dir=$2 log=$3
  case $id in
  README.md.slice)
    grep -qx 'median: 3' "$log" || fail "$id: the program did not print 'median: 3'"
    grep -qE '^\*.*return \(values\[middle\] \+ values\[middle \+ 1\]\) / 2;' "$log" ||
      fail "$id: the faulty line is not in the slice"
    grep -qE '^\*.*int count = stats_parse\(argv \+ 2, argc - 2, values, 64\);' "$log" ||
      fail "$id: the slice does not reach main's stats_parse call"
    if grep -qE '^\*.*stats_max' "$log"; then fail "$id: the slice holds a line of the max branch"; fi
    ;;
  README.md.localize | docs_localizer.md.ctest)
    ranked_within "$log" src/stats.c:50 1 || fail "$id: src/stats.c:50 is not ranked first"
    if [ "$id" = docs_localizer.md.ctest ]; then
      grep -q 'stats.c' "$dir/report.html" || fail "$id: report.html names no source"
      grep -q 'BlockRank\|blockrank' "$log" || fail "$id: no BlockRank ranking printed"
    fi
    ;;
  README.md.reduce)
    cmp -s "$dir/crash.c.orig" "$root/examples/stats/crash.c" || fail "$id: crash.c.orig is not the original"
    [ "$(wc -c <"$dir/crash.c")" -lt $(($(wc -c <"$root/examples/stats/crash.c") / 10)) ] ||
      fail "$id: crash.c did not shrink to a tenth: $(wc -c <"$dir/crash.c") bytes"
    # README.md shows the result.
    [ "$(wc -l <"$dir/crash.c.orig")" = 44 ] || fail "$id: crash.c has not the 44 lines README.md says"
    [ "$(wc -l <"$dir/crash.c")" -le 3 ] && grep -qF 'stats_mean(0, 0);' "$dir/crash.c" ||
      fail "$id: crash.c is not the three lines README.md shows: $(tr '\n' ' ' <"$dir/crash.c")"
    mkdir "$dir/retest"
    cp "$dir/crash.c" "$dir/retest/"
    (cd "$dir/retest" && PROJECT=$dir "$dir/test.sh") || fail "$id: the reduced crash.c is not interesting any more"
    ;;
  README.md.mutate)
    [ -s "$dir/mutants/mutants.json" ] || fail "$id: no mutants/mutants.json"
    local n=0 m
    for m in "$dir"/mutants/m*/src/stats.c; do
      [ -f "$m" ] || continue
      cmp -s "$m" "$dir/src/stats.c" && fail "$id: $m is the original"
      n=$((n + 1))
    done
    [ "$n" = 5 ] || fail "$id: $n mutants written, not 5"
    ;;
  docs_wrappers.md.builds)
    [ -x "$dir/build/stats" ] || fail "$id: CMake did not build build/stats"
    (cd "$dir" && sleuth run -o cmake.deps -- ./build/stats median 1 2 3 >/dev/null 2>&1) &&
      grep -q stats_median "$dir/cmake.deps" || fail "$id: the CMake build is not instrumented"
    (cd "$dir" && SLEUTH_COV_OUT=make.cov ./stats median 1 2 3 >/dev/null) &&
      [ -s "$dir/make.cov" ] || fail "$id: the Make build did not write a coverage file"
    ;;
  *) fail "$id: a recipe this test has no check for" ;;
  esac
}

cd "$root"
[ "$(wc -l <README.md)" -le 250 ] || fail "README.md has $(wc -l <README.md) lines, more than 250"
# The docs describe the project as it is; its history is in git.
if grep -rniE 'session[ -][0-9]+' README.md docs bench; then fail "the docs narrate development sessions (above)"; fi

# Every document's blocks first, so that a badly marked one fails before anything runs.
: >"$work/blocks.list"
for doc in README.md docs/*.md; do
  extract "$doc" | sed "s|^|$doc |" >>"$work/blocks.list" || fail "$doc: badly marked blocks (above)"
done

recipes=0
while read -r doc kind id line <&3; do
  case $kind in
  tested-by)
    for t in $(cat "$work/blocks/$id.tests"); do
      registered=$(ctest --test-dir "$build" -N -R "^${t//./\\.}\$")
      grep -q '^Total Tests: 1$' <<<"$registered" ||
        fail "$doc:$line: the block is said to be run by the test '$t', which does not exist"
    done
    ;;
  recipe)
    dir=$work/$id
    cp -r "$root/examples/stats" "$dir"
    echo "== $doc:$line: $id" >&2
    (cd "$dir" && bash -e "$work/blocks/$id.sh") </dev/null >"$work/$id.log" 2>&1 ||
      { cat "$work/$id.log" >&2; fail "$doc:$line: recipe '$id' failed"; }
    check_recipe "$id" "$dir" "$work/$id.log"
    check_output "$id" "$work/$id.log"
    recipes=$((recipes + 1))
    ;;
  esac
done 3<"$work/blocks.list"
[ "$recipes" -ge 6 ] || fail "only $recipes recipes found in README.md and docs/"
echo "readme_recipes: $recipes recipes ran and gave what the docs say"
