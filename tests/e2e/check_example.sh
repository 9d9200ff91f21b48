#!/usr/bin/env bash
# End-to-end check of one example program:
#   native build -> run;  `sleuth cc/c++` build -> `sleuth run`;  same output and exit status;
#   then every golden slice of the example (examples/golden/NAME*.txt) must match.
# A golden file's first line is `# sleuth slice DEPS ARGS...` (DEPS is replaced by this run's
# dependence file); further lines starting with `#` explain it; the rest is the expected output.
# usage: check_example.sh SLEUTH EXAMPLE GOLDEN_DIR|- gcc|clang WORKDIR
# (GOLDEN_DIR '-': no golden slices, only the same behaviour and a loadable dependence file;
# C files whose name starts with c99 are compiled with -std=c99 instead of -std=c89; a source
# with a line `/* check_example flags: FLAGS */` is compiled with FLAGS too, both ways)
set -u
sleuth=$(realpath "$1") example=$2 golden_dir=$3 family=$4 work=$5
name=$(basename "${example%.*}")
rm -rf "$work" && mkdir -p "$work" || exit 1

if [ -d "$example" ]; then
  sources=$(ls "$example"/*.c "$example"/*.cpp 2>/dev/null)
else
  sources=$example
fi
case "$sources" in
  *.cpp*) lang=c++ ;;
  *) lang=c ;;
esac
if [ "$lang" = c ]; then
  std=c89
  case "$name" in c99*) std=c99 ;; esac
  flags="-std=$std -pedantic -Wall -Wextra -Wshadow -Werror"
  if [ "$family" = gcc ]; then compiler=gcc; else compiler=clang-19; flags="$flags -Wcomma -Wused-but-marked-unused"; fi
else
  flags="-std=c++20 -Wall -Wextra -Werror -Wzero-as-null-pointer-constant -Wshadow -Wold-style-cast"
  if [ "$family" = gcc ]; then compiler=g++; flags="$flags -Wuseless-cast"; else compiler=clang++-19; flags="$flags -Wcomma -Wused-but-marked-unused"; fi
fi
# Optimized, as real builds are: GCC's flow analyses (-Wmaybe-uninitialized, -Wuse-after-free)
# run only then, and must find nothing in the instrumented code that they find not in the
# original.
flags="-O2 $flags"

# shellcheck disable=SC2086
extra=$(cat $sources | sed -n 's|^/\* check_example flags: \(.*\) \*/$|\1|p' | head -n 1)
flags="$flags $extra"

fail() { echo "FAIL [$name/$family]: $*"; exit 1; }

# shellcheck disable=SC2086
$compiler $flags -o "$work/native" $sources 2>"$work/native.err" || { cat "$work/native.err"; fail "native build failed"; }
(cd "$work" && ./native >native.out 2>native.stderr); native_status=$?

upper=$(echo "$lang" | sed 's/c++/CXX/; s/^c$/CC/')
# shellcheck disable=SC2086
wrapper=cc; [ "$lang" = c++ ] && wrapper=c++
env "SLEUTH_$upper=$compiler" "$sleuth" "$wrapper" $flags -o "$work/instrumented" $sources \
  2>"$work/instrumented.err" || { cat "$work/instrumented.err"; fail "instrumented build failed"; }
[ -s "$work/instrumented.err" ] && { cat "$work/instrumented.err"; fail "instrumented build printed diagnostics"; }
(cd "$work" && "$sleuth" run -o run.deps -- ./instrumented >instrumented.out 2>instrumented.stderr)
instrumented_status=$?

[ "$native_status" = "$instrumented_status" ] ||
  fail "exit status differs: native $native_status, instrumented $instrumented_status"
cmp -s "$work/native.out" "$work/instrumented.out" ||
  { diff "$work/native.out" "$work/instrumented.out"; fail "output differs"; }

# Reads whose edges the instrumenter knows statically have no probe (docs/architecture.md,
# static data edges): the graph must be the one that checking every read at run time gives
# (SLEUTH_CHECKED_READS=1). Once per example (gcc). A program whose checked runs disagree among
# themselves (threads) is not compared.
edges() { grep -E '^(data|ctrl|hit) ' "$1" | sort; }
if [ "$family" = gcc ]; then
  # shellcheck disable=SC2086
  env "SLEUTH_$upper=$compiler" SLEUTH_CHECKED_READS=1 "$sleuth" "$wrapper" $flags \
    -o "$work/checked" $sources 2>"$work/checked.err" || { cat "$work/checked.err"; fail "checked build failed"; }
  (cd "$work" && "$sleuth" run -o checked.deps -- ./checked >/dev/null 2>&1)
  if ! cmp -s <(edges "$work/run.deps") <(edges "$work/checked.deps"); then
    (cd "$work" && "$sleuth" run -o checked2.deps -- ./checked >/dev/null 2>&1)
    cmp -s <(edges "$work/checked.deps") <(edges "$work/checked2.deps") && {
      diff <(edges "$work/checked.deps") <(edges "$work/run.deps") | head -20
      fail "static data edges give another graph than checked reads"
    }
  fi
fi

# The runtime's slow paths must record what its inline paths do: a traced run, every node
# through the runtime (SLEUTH_PERTURB=none, as the soundness oracle's baseline), gives the same
# graph. Once per example (gcc); a program whose plain runs disagree (threads) is not compared.
if [ "$family" = gcc ]; then
  (cd "$work" && SLEUTH_PERTURB=none "$sleuth" run -o traced.deps -- ./instrumented >/dev/null 2>&1)
  if ! cmp -s <(edges "$work/run.deps") <(edges "$work/traced.deps"); then
    (cd "$work" && "$sleuth" run -o again.deps -- ./instrumented >/dev/null 2>&1)
    cmp -s <(edges "$work/run.deps") <(edges "$work/again.deps") && {
      diff <(edges "$work/run.deps") <(edges "$work/traced.deps") | head -20
      fail "a traced run (SLEUTH_PERTURB=none) records another graph than the inline probes"
    }
  fi
fi

if [ "$golden_dir" = - ]; then
  # No golden slices: the dependence file must still be complete and loadable.
  "$sleuth" slice "$work/run.deps" --format deps >/dev/null 2>"$work/slice.err" ||
    { cat "$work/slice.err"; fail "the dependence file does not load"; }
  echo "ok [$name/$family]: same output and status ($native_status), dependence file loads"
  exit 0
fi
checked=0
for golden in "$golden_dir/$name".txt "$golden_dir/$name".*.txt; do
  [ -f "$golden" ] || continue
  header=$(head -n 1 "$golden")
  case "$header" in
    "# sleuth slice DEPS"*) ;;
    *) fail "$golden: first line must be '# sleuth slice DEPS ...'" ;;
  esac
  args=${header#"# sleuth slice DEPS"}
  grep -v '^#' "$golden" >"$work/expected.txt"
  # shellcheck disable=SC2086
  "$sleuth" slice "$work/run.deps" $args >"$work/actual.txt" 2>"$work/slice.err" ||
    { cat "$work/slice.err"; fail "sleuth slice$args failed"; }
  diff -u "$work/expected.txt" "$work/actual.txt" || fail "slice differs from $(basename "$golden")"
  checked=$((checked + 1))
done
[ "$checked" -gt 0 ] || fail "no golden slice for $name in $golden_dir"
echo "ok [$name/$family]: same output and status ($native_status), $checked golden slice(s)"
