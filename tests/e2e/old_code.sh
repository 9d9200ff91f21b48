#!/usr/bin/env bash
# Sources that GCC compiles with warnings and Clang 19 rejects by default (tests/e2e/old_code/:
# K&R C with implicit int and `return;` in a function of implicit int; C++17 with `register`
# and `"%"PRId64`), and a warning option that the real compiler needs (-Wno-invalid-constexpr
# with clang++-19): `sleuth cc`/`sleuth c++` instrument them with gcc and with clang-19, with
# no warning of their own, the program behaves as the native build does, and its slice is the
# one expected (the same for both compilers).
# usage: old_code.sh SLEUTH WORKDIR
set -u
sleuth=$(realpath "$1") work=$2
sources=$(cd "$(dirname "${BASH_SOURCE[0]}")/old_code" && pwd)
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL [old_code] $*"; exit 1; }

# check NAME SOURCE CRITERION EXPECTED COMPILER FLAGS...
check() {
  local name=$1 source=$2 criterion=$3 expected=$4 compiler=$5
  shift 5
  local dir=$work/$name wrapper=cc variable=SLEUTH_CC
  case "$source" in *.cpp) wrapper=c++ variable=SLEUTH_CXX ;; esac
  mkdir -p "$dir" && cd "$dir" || exit 1
  "$compiler" "$@" -o native "$sources/$source" 2>native.err || { cat native.err; fail "$name: native build"; }
  ./native >native.out 2>&1
  local native_status=$?
  env "$variable=$compiler" "$sleuth" "$wrapper" "$@" -o instrumented "$sources/$source" 2>build.err ||
    { cat build.err; fail "$name: sleuth $wrapper failed"; }
  # The compiler's own warnings about the source are expected; the wrapper's are not (such as
  # "compiling it uninstrumented").
  if grep "^sleuth " build.err; then fail "$name: sleuth $wrapper warned"; fi
  "$sleuth" run -o run.deps -- ./instrumented >instrumented.out 2>run.err
  local status=$?
  [ "$(tail -n 1 run.deps 2>/dev/null)" = end ] || { cat run.err; fail "$name: no complete dependence file"; }
  [ "$status" = "$native_status" ] || fail "$name: exit status $status, natively $native_status"
  cmp -s native.out instrumented.out || { diff native.out instrumented.out; fail "$name: output differs"; }
  "$sleuth" slice run.deps "$criterion" >slice.txt 2>slice.err || { cat slice.err; fail "$name: slice"; }
  diff -u "$work/$expected" slice.txt || fail "$name: slice of $criterion differs"
  echo "ok [old_code] $name: instrumented, same output and status ($native_status), slice of $criterion"
  cd "$work" || exit 1
}

# The return value of report(count): count's writes in bump (the second call's `return;`
# returned nothing), the parameters of K&R definitions at their declarations.
cat >old_c.expected <<'EOF'
     8 report(n)      // <= count (bump:24)
     9 {
*   10   if (n < 0)   // <= n (8)
    11     return;
    12   printf("count %d\n", n);
*   13   return n;    // <= n (8); <- <test> (10)
    14 }

    16 scale(x, k)
    17   int x;          // <= a (main:30)
    18 {
*   19   return x * k;   // <= k (16), x (17)
    20 }

    22 void bump(d) int d;    // <= bytes (main:31), b (main:32)
    23 {
*   24   count = count + d;   // <= d (22), count (24)
    25   return count;
    26 }

    28 main()
    29 {
*   30   int a = 3, b;
*   31   char *bytes = &count;
*   32   b = scale(a, 2);   // <= <scale() return value> (scale:19)
    33   bump(b);
    34   bump(bytes != 0);
    35   report(-1);
    36   total(count);
    37   return report(count) != 7;
    38 }
EOF
# GCC's default language (gnu17), as older code is built; -Wno-return-type as in many builds
# of it; Clang needs C89 and -Wno-return-type for the same source.
check old_c.gcc old_c.c report:return old_c.expected gcc
check old_c.gcc.no-return-type old_c.c report:return old_c.expected gcc -Wno-return-type
check old_c.clang old_c.c report:return old_c.expected clang-19 -std=gnu89 -Wno-return-type

cat >old_cxx.expected <<'EOF'
     7 static std::int64_t triangle(register int n) {
*    8   register std::int64_t sum = 0;
*    9   for (register int i = 1; i <= n; ++i)   // <= n (7), i (9:21), i (9:38); <- <test> (9)
*   10     sum += i;                             // <= sum (8), i (9:21), i (9:38), sum (10); <- <test> (9)
*   11   return sum;                             // <= sum (10)
    12 }
EOF
check old_cxx.gcc old_cxx.cpp triangle:return old_cxx.expected g++ -std=c++17
check old_cxx.clang old_cxx.cpp triangle:return old_cxx.expected \
  clang++-19 -std=c++17 -Wno-register -Wno-reserved-user-defined-literal

cat >never_constant.expected <<'EOF'
*    6 static int next() { return ++counter; }   // <= counter (6)

     9 int main() {
*   10   int v = twiceNext();      // <= <next() return value> (next:6)
*   11   std::printf("%d\n", v);   // <= v (10)
    12   return v != 2;
    13 }
EOF
check never_constant.clang never_constant.cpp never_constant.cpp:11 never_constant.expected \
  clang++-19 -std=c++20 -Wno-invalid-constexpr
