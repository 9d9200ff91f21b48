#!/usr/bin/env bash
# A program that forks: with `%p` in the dependence file's name (sleuth run -o, or SLEUTH_OUT)
# each process that exits writes a file of its own, named by its process id, instead of
# replacing the file of the process that exited before it. `%%` is a `%`.
# usage: per_process.sh SLEUTH WORKDIR
set -u
sleuth=$(realpath "$1") work=$2
rm -rf "$work" && mkdir -p "$work" && cd "$work" || exit 1
fail() { echo "FAIL: $*"; exit 1; }

cat >forks.c <<'PROGRAM'
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

int main(void) {
  int base = 20;
  pid_t child = fork();
  if (child < 0)
    return 1;
  if (child == 0) {
    int in_child = base + 1;
    printf("child %d\n", in_child);
    exit(0);
  }
  int status = 0;
  waitpid(child, &status, 0);
  int in_parent = base + WEXITSTATUS(status) + 2;
  printf("parent %d\n", in_parent);
  return 0;
}
PROGRAM
"$sleuth" cc -O1 -o forks forks.c 2>build.err || { cat build.err; fail "build"; }

# sleuth run names the program's own file.
"$sleuth" run -o 'out/run.%p.deps' -- ./forks >run.out 2>run.err || { cat run.err; fail "sleuth run"; }
written=$(sed -n 's|^sleuth run: dependences of ./forks written to \(.*\)$|\1|p' run.err)
case "$written" in
  out/run.[0-9]*.deps) ;;
  *) cat run.err; fail "sleuth run names '$written', not the parent's file" ;;
esac
[ -f "$written" ] || fail "$written does not exist"
count=$(ls out/run.*.deps | wc -l)
[ "$count" = 2 ] || { ls out; fail "$count files, not one per process"; }
other=$(ls out/run.*.deps | grep -vx "$written")
"$sleuth" slice "$written" in_parent@main >parent.txt 2>parent.err || { cat parent.err; fail "the parent's file does not slice"; }
grep -q 'int in_parent = base' parent.txt || { cat parent.txt; fail "the parent's slice lacks in_parent"; }
"$sleuth" slice "$other" in_child@main >child.txt 2>child.err || { cat child.err; fail "the child's file does not slice"; }
grep -q '^\*.*int in_child = base' child.txt || { cat child.txt; fail "the child's slice lacks in_child"; }
"$sleuth" slice "$written" in_child@main 2>/dev/null | grep -q '^\*.*int in_child' &&
  fail "the parent's file has the child's write executed"

# SLEUTH_OUT directly, with `%%` for a percent sign.
SLEUTH_OUT="$PWD/direct/100%%.%p.deps" ./forks >direct.out || fail "run with SLEUTH_OUT"
count=$(ls direct/100%.*.deps 2>/dev/null | wc -l)
[ "$count" = 2 ] || { ls direct; fail "SLEUTH_OUT: $count files, not 2"; }
echo "ok: one dependence file per process"
