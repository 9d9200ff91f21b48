#!/usr/bin/env python3
"""Scores sleuth's fault localization on faulty versions of small programs.

For every subject in bench/localize/subjects/NAME/ (program.c or program.cpp, inputs.txt with
one argument list per line, each a test), every mutant `sleuth mutate` makes of the program is
built natively and run on all inputs; a mutant whose outputs differ from the original's on some
inputs but not all is *revealed*. For each revealed mutant a coverage build runs the suite
(`sleuth localize --tests`, the original's output as oracle) and every formula and BlockRank
ranks the lines. The fault's line is the mutant's line. Per ranking:

  EXAM  = rank of the fault line / number of ranked (executed) lines, in percent; best, average
          and worst over ties;
  Top-N = the fault line's average rank is at most N.

usage: score.py SLEUTH [--subjects DIR] [--work DIR] [--max-mutants N] [--markdown FILE]
"""
import argparse
import json
import os
import re
import shlex
import statistics
import subprocess
import sys
import time

FORMULAS = ["tarantula", "ochiai", "jaccard", "dstar", "op2", "barinel", "kulczynski2",
            "naish1", "blockrank"]
MUTANT_LINE = re.compile(r"^(\d+) (.+):(\d+):(\d+) (\S+) (.*)$")


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def outputs(binary, inputs, cwd):
    """stdout and exit status of each input; None for a run that hung."""
    result = []
    for args in inputs:
        try:
            p = subprocess.run([binary] + shlex.split(args), capture_output=True, cwd=cwd,
                               timeout=5)
            result.append((p.stdout, p.returncode))
        except subprocess.TimeoutExpired:
            result.append(None)
    return result


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("sleuth")
    ap.add_argument("--subjects", default=os.path.join(here, "subjects"))
    ap.add_argument("--work", default="/tmp/sleuth-localize-bench")
    ap.add_argument("--max-mutants", type=int, default=0, help="per subject (0: all)")
    ap.add_argument("--markdown", help="write the result tables here")
    opts = ap.parse_args()
    sleuth = os.path.abspath(opts.sleuth)
    started = time.time()
    per_formula = {f: [] for f in FORMULAS}  # list of (best, avg, worst, n)
    per_subject = {}
    for subject in sorted(os.listdir(opts.subjects)):
        sdir = os.path.join(opts.subjects, subject)
        src = next((os.path.join(sdir, f) for f in ("program.c", "program.cpp")
                    if os.path.exists(os.path.join(sdir, f))), None)
        if not src:
            continue
        cxx = src.endswith(".cpp")
        compiler = "g++" if cxx else "gcc"
        flags = ["-std=c++20" if cxx else "-std=c99", "-O0", "-w"]
        with open(os.path.join(sdir, "inputs.txt")) as f:
            inputs = [l.rstrip("\n") for l in f if l.strip() and not l.startswith("#")]
        work = os.path.join(opts.work, subject)
        os.makedirs(work, exist_ok=True)
        original = os.path.join(work, "original")
        if run([compiler] + flags + ["-o", original, src]).returncode:
            sys.exit(f"{src}: does not compile")
        expected = outputs(original, inputs, work)
        listing = run([sleuth, "mutate", "--list", src, "--"] + flags)
        if listing.returncode:
            sys.exit(f"sleuth mutate failed on {src}: {listing.stderr}")
        mutants = [MUTANT_LINE.match(l) for l in listing.stdout.splitlines()]
        mutants = [m for m in mutants if m]
        if opts.max_mutants:
            mutants = mutants[:opts.max_mutants]
        stats = {"mutants": len(mutants), "revealed": 0}
        for m in mutants:
            mid, line = m.group(1), int(m.group(3))
            mdir = os.path.join(work, "m" + mid)
            os.makedirs(mdir, exist_ok=True)
            msrc = os.path.join(mdir, os.path.basename(src))
            text = run([sleuth, "mutate", "--apply", mid, src, "--"] + flags)
            if text.returncode:
                continue
            with open(msrc, "w") as f:
                f.write(text.stdout)
            native = os.path.join(mdir, "native")
            if run([compiler] + flags + ["-o", native, msrc]).returncode:
                continue
            got = outputs(native, inputs, mdir)
            failing = [i for i in range(len(inputs)) if got[i] != expected[i]]
            if not failing or len(failing) == len(inputs):
                continue
            # The coverage build and the suite, with the original's output as oracle.
            env = dict(os.environ, SLEUTH_MODE="coverage")
            wrapper = "c++" if cxx else "cc"
            if run([sleuth, wrapper] + flags + ["-o", os.path.join(mdir, "prog"), msrc],
                   env=env, cwd=mdir).returncode:
                continue
            with open(os.path.join(mdir, "tests.txt"), "w") as t:
                for i, args in enumerate(inputs):
                    exp = expected[i]
                    if exp is None:
                        continue
                    with open(os.path.join(mdir, f"expected{i}.txt"), "wb") as e:
                        e.write(exp[0])
                    t.write(f"name=t{i} exit={exp[1]} stdout=expected{i}.txt timeout=5 "
                            f"./prog {args}\n")
            store = os.path.join(mdir, "store")
            ok = True
            for k, formula in enumerate(FORMULAS):
                suite = (["--tests", os.path.join(mdir, "tests.txt")] if k == 0
                         else ["--from", store])
                out = os.path.join(mdir, formula + ".json")
                r = run([sleuth, "localize"] + suite + ["--store", store, "--formula", formula,
                                                        "--view", "none", "--json", out,
                                                        "--jobs", "2"], cwd=mdir)
                if r.returncode:
                    print(f"{subject} m{mid}: localize failed: {r.stderr.strip()}",
                          file=sys.stderr)
                    ok = False
                    break
                with open(out) as f:
                    ranking = json.load(f)
                events = [e for e in ranking["events"] if e["kind"] == "line"]
                n = len(events)
                hit = [e for e in events if e["line"] == line]
                if hit:
                    r_ = hit[0]["rank"]
                    per_formula[formula].append((r_["best"], r_["average"], r_["worst"], n))
                else:  # the faulty line never ran: all of the code is examined
                    per_formula[formula].append((n, n, n, n))
            if ok:
                stats["revealed"] += 1
        per_subject[subject] = stats
        print(f"{subject}: {stats['revealed']} revealed of {stats['mutants']} mutants",
              file=sys.stderr)

    lines = []
    total = sum(s["revealed"] for s in per_subject.values())
    lines.append(f"Subjects: " + ", ".join(f"{k} ({v['revealed']} revealed of {v['mutants']} "
                                          f"mutants)" for k, v in per_subject.items()))
    lines.append(f"Faulty versions scored: {total}; wall time {time.time() - started:.0f} s")
    lines.append("")
    lines.append("| technique | EXAM best % | EXAM avg % | EXAM worst % | Top-1 | Top-3 | Top-5 "
                 "| Top-10 |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|")
    for formula in FORMULAS:
        rows = per_formula[formula]
        if not rows:
            continue
        exam = [[100.0 * r[i] / r[3] for r in rows] for i in range(3)]
        top = [sum(1 for r in rows if r[1] <= n) for n in (1, 3, 5, 10)]
        lines.append(f"| {formula} | {statistics.mean(exam[0]):.1f} | "
                     f"{statistics.mean(exam[1]):.1f} | {statistics.mean(exam[2]):.1f} | " +
                     " | ".join(str(t) for t in top) + " |")
    text = "\n".join(lines) + "\n"
    print(text)
    if opts.markdown:
        with open(opts.markdown, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
