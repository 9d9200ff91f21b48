#!/usr/bin/env bash
# Real-program test: Debian's `bzip2` source package, built with its own Makefile (libbz2.a,
# libbz2.so and bzip2 linked against it, bzip2recover) with Debian's build flags, natively and
# through `sleuth cc` (each mode in SLEUTH_REALWORLD_MODES). Its own tests (`make test`: three
# sample files compressed and decompressed, the latter also with the small-memory decompressor,
# compared with the expected bytes) must give the same results, and bzip2 the same bytes and
# exit statuses on a 1 MB file: -1 and -9, a round trip with -s, -t on a good and on a damaged
# file, bzip2recover. bzip2's decompressor returns from inside a macro's body (BZ_GET_SMALL's
# `return True`): in dependency mode no function of the library may be left as it was, and the
# slice of BZ2_decompress's return value must reach into its body. See common.sh for the
# arguments.
PKG=bzip2
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"
rw_init "$@"
rw_fetch bzip2
[ -f "$src/bzlib.c" ] && [ -f "$src/Makefile" ] || fail "$src is not a bzip2 source tree"

build_bzip2() { # DIR CC CXX
  local dir=$1 cc=$2
  cp -a "$src/." "$dir/"
  eval "$(debian_flags)"
  cd "$dir"
  make -j1 CC="$cc" CFLAGS="$CFLAGS $CPPFLAGS -D_FILE_OFFSET_BITS=64" LDFLAGS="$LDFLAGS" \
    libbz2.a bzip2 bzip2recover
}

# About 1 MB of text (bzip2's own sources and manual).
input=$work/input-1.txt
if [ ! -s "$input" ]; then
  cat "$src"/*.c "$src"/*.h "$src/manual.xml" "$src"/*.c >"$input"
  head -c 1000000 "$input" >"$input.tmp" && mv "$input.tmp" "$input"
fi

run_bzip2_tests() { # DIR OUT
  local dir=$1 out=$2
  rm -rf "$out" && mkdir -p "$out"
  (cd "$dir" && make test >"$out/make-test.log" 2>&1) && echo pass >"$out/make-test.result" ||
    echo fail >"$out/make-test.result"
  grep -c '^cmp ' "$out/make-test.log" >"$out/make-test.cmps" || true
  # The binary loads libbz2.so.1.0: the one just built, not the system's.
  local run="env LD_LIBRARY_PATH=$dir"
  rw_run "$out" bzip2-9 "$dir" sh -c "$run ./bzip2 -9 -c <'$input' | md5sum"
  rw_run "$out" bzip2-1 "$dir" sh -c "$run ./bzip2 -1 -c <'$input' | md5sum"
  rw_run "$out" roundtrip "$dir" sh -c "$run ./bzip2 -c <'$input' | $run ./bzip2 -d -s -c | cmp - '$input' && echo same"
  rw_run "$out" integrity "$dir" sh -c "$run ./bzip2 -t sample3.bz2 && echo good"
  # A damaged copy: -t fails (exit 2) with the same message.
  rw_run "$out" damaged "$dir" sh -c "head -c 1500 sample2.bz2 >'$out/damaged.bz2' && $run ./bzip2 -t '$out/damaged.bz2' 2>&1 | sed 's|$out/||'"
  rw_run "$out" recover "$dir" sh -c "cp sample1.bz2 '$out/r.bz2' && ./bzip2recover '$out/r.bz2' 2>&1 | sed 's|$out/||'; cat '$out'/rec*r.bz2 | md5sum"
}

for family in "${families[@]}"; do
  rw_build native "$family" build_bzip2
  native=$work/build/native-$family
  run_bzip2_tests "$native" "$native.run"
  [ "$(cat "$native.run/make-test.result")" = pass ] || note "$family: native make test fails"
  for mode in "${modes[@]}"; do
    rw_build "$mode" "$family" build_bzip2
    inst=$work/build/$mode-$family
    run_bzip2_tests "$inst" "$inst.run"
    for f in make-test.result make-test.cmps; do
      cmp -s "$native.run/$f" "$inst.run/$f" || fail "$mode/$family: make test: $(cat "$native.run/$f") native, $(cat "$inst.run/$f") instrumented"
    done
    rw_compare_dirs "$native.run" "$inst.run" "$mode/$family"
    [ -s "$inst.run/roundtrip.sleuth" ] || fail "$mode/$family: the round trip wrote no $mode file"
    summary+=("$mode/$family: make test $(cat "$native.run/make-test.result") both ways ($(cat "$native.run/make-test.cmps") comparisons), 6 runs same output and status; $(rw_stats "$mode" "$family")")
    rw_compiled_all "$mode" "$family"
    if [ "$mode" = deps ]; then
      skipped=$(awk -F'\t' '$1 ~ /\/(blocksort|huffman|crctable|randtable|compress|decompress|bzlib)\.c$/ { last[$1] = $6; why[$1] = $11 } END { for (f in last) if (last[f] > 0) print f ": " last[f] " (" why[f] ")" }' "$work/wrappers-$mode-$family/stats.tsv")
      [ -z "$skipped" ] || fail "deps/$family: library functions left as they were: $skipped"
      rw_run "$inst.run" slice "$inst" sh -c "echo hello | env LD_LIBRARY_PATH=$inst ./bzip2 -c | env LD_LIBRARY_PATH=$inst ./bzip2 -d"
      "$sleuth" slice "$inst.run/slice.sleuth" BZ2_decompress:return >"$inst.run/slice.txt" 2>&1 ||
        fail "deps/$family: $(cat "$inst.run/slice.txt")"
      grep -q '^\* *[0-9]* *return retVal;' "$inst.run/slice.txt" ||
        { head -n 20 "$inst.run/slice.txt"; fail "deps/$family: BZ2_decompress's return is not in its slice"; }
      lines=$(grep -c '^\*' "$inst.run/slice.txt")
      summary+=("deps/$family: every library function instrumented; BZ2_decompress:return slices $lines executed lines")
    fi
  done
done
rw_report
