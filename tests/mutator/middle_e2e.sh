#!/usr/bin/env bash
# End to end: mutate examples/middle.cpp, apply a known mutant, check that it compiles and
# changes what the program prints, and that -o writes the same text.
# usage: middle_e2e.sh SLEUTH_MUTATE MIDDLE_CPP WORKDIR
set -euo pipefail
mutate=$1 middle=$2 work=$3
rm -rf "$work" && mkdir -p "$work"
fail() { echo "mutator e2e: FAIL: $*"; exit 1; }

"$mutate" --list "$middle" -- -std=c++20 >"$work/list.txt"
[ "$(wc -l <"$work/list.txt")" -gt 20 ] || fail "too few mutants: $(cat "$work/list.txt")"
# `else if (x < z)` on line 5 with `<` replaced by `>`: middle(2, 1, 3) now returns z.
line=$(grep -F "middle.cpp:5:20 ror '<' -> '>'" "$work/list.txt") ||
  fail "no mutant 5:20 ror < -> >: $(cat "$work/list.txt")"
id=${line%% *}
"$mutate" --apply "$id" "$middle" -- -std=c++20 >"$work/mutant.cpp"
diff "$middle" "$work/mutant.cpp" >"$work/diff.txt" && fail "the mutant is the original"
[ "$(grep -c '^<' "$work/diff.txt")" = 1 ] || fail "more than one line changed: $(cat "$work/diff.txt")"
grep -q '^> *else if (x > z)$' "$work/diff.txt" || fail "unexpected change: $(cat "$work/diff.txt")"

c++ -std=c++20 -Wall -Wextra -Werror -o "$work/original" "$middle"
c++ -std=c++20 -Wall -Wextra -Werror -o "$work/mutant" "$work/mutant.cpp"
[ "$("$work/original")" = "middle(2, 1, 3) = 1" ] || fail "original: $("$work/original")"
[ "$("$work/mutant")" = "middle(2, 1, 3) = 3" ] || fail "mutant: $("$work/mutant")"

# -o writes the same mutant, under the file's path relative to --root.
"$mutate" -o "$work/out" --root "$(dirname "$middle")" "$middle" -- -std=c++20
dir=$(printf 'm%04d' "$id")
cmp "$work/mutant.cpp" "$work/out/$dir/middle.cpp" || fail "-o wrote another text"
grep -q "\"dir\": \"$dir\"" "$work/out/mutants.json" || fail "$dir not in mutants.json"
echo "mutator e2e: middle.cpp: $(wc -l <"$work/list.txt") mutants; mutant $id prints 3 instead of 1"
