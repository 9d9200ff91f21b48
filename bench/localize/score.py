#!/usr/bin/env python3
"""Scores sleuth's fault localization on faulty versions of small programs.

For every subject in bench/localize/subjects/NAME/ (program.c or program.cpp, inputs.txt with
one argument list per line, each a test), every mutant `sleuth mutate` makes of the program is
built natively and run on all inputs; a mutant whose outputs differ from the original's on some
inputs but not all is *revealed*. For each revealed mutant a coverage build runs the suite
(`sleuth localize --tests`, the original's output as oracle) and every formula and BlockRank
ranks the lines. The fault's line is the mutant's line.

Mutation-based ranking (unless --mutation-budget 0): for each revealed mutant the schemata of
the faulty program (`sleuth mutate --schemata`, every mutant of the faulty version in one
source) is built once in coverage mode and the same suite runs through `sleuth localize
--mutants` twice, scored by Metallaxis-FL (`metallaxis`) and by MUSE (`muse`, from the first
run's store); each run's mutant runs are capped by --mutation-budget seconds. Per ranking:

  EXAM  = rank of the fault line / number of ranked (executed) lines, in percent; best, average
          and worst over ties;
  Top-N = the fault line's average rank is at most N;
  time  = mean wall seconds per version of the `sleuth localize` run that made the ranking,
          the suite's run included (for the formulas, the one `--tests` run: the other formulas
          re-rank its store).

Specification-guided ranking (unless --no-specification): the faulty program built with path
recording (SLEUTH_PATH=1) runs the suite through `sleuth localize --specification` (SAT-TAR)
over Op2, ties broken by importance; the diagnoses of each run are capped by
--specification-budget seconds (default 20).

usage: score.py SLEUTH [--subjects DIR] [--work DIR] [--max-mutants N] [--jobs N]
                [--mutation-budget SECONDS] [--specification-budget SECONDS]
                [--no-specification] [--markdown FILE]
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
# Formulas whose ties are also broken by the value predicates' Importance (`--tie-break
# importance`), as rows "FORMULA+importance".
TIE_BROKEN = ["ochiai", "dstar", "op2"]
MUTATION = ["metallaxis", "muse"]
# SAT-TAR (`--specification`) over a build that records paths, on top of these formulas (ties
# broken by importance, as the default does), rows "FORMULA+specification". Each row diagnoses
# the failing runs again (--from does not keep diagnoses): one formula keeps the run affordable.
SPECIFICATION = ["op2"]
SPEC_SUMMARY = re.compile(r"specification of \S+: (.*)")
SPEC_BUDGET = re.compile(r"diagnosed (\d+) of the (\d+) failing tests")
MUTATION_SUMMARY = re.compile(r"ran (\d+) of (\d+) mutants")
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


def fault_rank(json_file, line, seconds):
    """(best, average, worst, ranked lines, seconds) of the fault line in a JSON export."""
    with open(json_file) as f:
        ranking = json.load(f)
    events = [e for e in ranking["events"] if e["kind"] == "line"]
    n = len(events)
    hit = [e for e in events if e["line"] == line]
    if not hit:  # the faulty line never ran: all of the code is examined
        return (n, n, n, n, seconds)
    r = hit[0]["rank"]
    return (r["best"], r["average"], r["worst"], n, seconds)


def localize(sleuth, cwd, args):
    """Runs sleuth localize; (its stderr, wall seconds), or None when it failed."""
    started = time.time()
    r = run([sleuth, "localize", "--view", "none"] + args, cwd=cwd)
    seconds = time.time() - started
    if r.returncode:
        print(f"{cwd}: localize {' '.join(args)} failed: {r.stderr.strip()}", file=sys.stderr)
        return None
    return r.stderr, seconds


def write_tests(mdir, name, program, inputs, expected):
    """The suite file: each input, the original's output as oracle."""
    with open(os.path.join(mdir, name), "w") as t:
        for i, args in enumerate(inputs):
            exp = expected[i]
            if exp is None:
                continue
            with open(os.path.join(mdir, f"expected{i}.txt"), "wb") as e:
                e.write(exp[0])
            t.write(f"name=t{i} exit={exp[1]} stdout=expected{i}.txt timeout=5 "
                    f"./{program} {args}\n")


def rank_formulas(sleuth, mdir, line, jobs):
    """Every formula's fault rank from one run of the suite; None when a run failed."""
    store = os.path.join(mdir, "store")
    ranked = {}
    suite_seconds = 0.0
    for k, formula in enumerate(FORMULAS):
        suite = (["--tests", os.path.join(mdir, "tests.txt")] if k == 0
                 else ["--from", store])
        out = os.path.join(mdir, formula + ".json")
        done = localize(sleuth, mdir, suite + ["--store", store, "--formula", formula,
                                               "--tie-break", "none", "--json", out,
                                               "--jobs", str(jobs)])
        if not done:
            return None
        if k == 0:
            suite_seconds = done[1]
        ranked[formula] = fault_rank(out, line, suite_seconds)
    for formula in TIE_BROKEN:
        out = os.path.join(mdir, formula + "+importance.json")
        if not localize(sleuth, mdir, ["--from", store, "--store", store, "--formula", formula,
                                       "--tie-break", "importance", "--json", out]):
            return None
        ranked[formula + "+importance"] = fault_rank(out, line, suite_seconds)
    return ranked


def rank_specification(sleuth, mdir, msrc, line, flags, inputs, expected, opts, notes):
    """SAT-TAR's fault ranks over a build with SLEUTH_PATH=1; None when a step failed. Counts
    the failing runs' outcomes (diagnosed, or why not) into notes."""
    env = dict(os.environ, SLEUTH_MODE="coverage", SLEUTH_PATH="1")
    wrapper = "c++" if msrc.endswith(".cpp") else "cc"
    r = run([sleuth, wrapper] + flags + ["-o", os.path.join(mdir, "pprog"), msrc], env=env,
            cwd=mdir)
    if r.returncode:
        print(f"{msrc}: path-recording build failed: {r.stderr.strip()}", file=sys.stderr)
        return None
    write_tests(mdir, "ptests.txt", "pprog", inputs, expected)
    store = os.path.join(mdir, "pstore")
    ranked = {}
    for k, formula in enumerate(SPECIFICATION):
        suite = (["--tests", os.path.join(mdir, "ptests.txt")] if k == 0
                 else ["--from", store])
        out = os.path.join(mdir, formula + "+specification.json")
        done = localize(sleuth, mdir, suite + [
            "--store", store, "--specification", "--specification-budget",
            f"{opts.specification_budget:g}", "--formula", formula, "--tie-break",
            "importance", "--json", out, "--jobs", str(opts.jobs)])
        if not done:
            return None
        if k == 0:
            for m in SPEC_SUMMARY.finditer(done[0]):
                what = m.group(1)
                key = ("diagnosed" if "correction set" in what else
                       "inconsistent" if "does not reproduce" in what else
                       "nothing to blame" if "nothing to blame" in what else
                       "no checkable output" if "oracle cannot check" in what or
                       "format's text" in what or "no output differs" in what else "other")
                notes[key] = notes.get(key, 0) + 1
            cut = SPEC_BUDGET.search(done[0])
            if cut:
                notes["left out by the budget"] = (notes.get("left out by the budget", 0) +
                                                   int(cut.group(2)) - int(cut.group(1)))
        ranked[formula + "+specification"] = fault_rank(out, line, done[1])
    return ranked


def rank_mutation(sleuth, mdir, msrc, line, flags, inputs, expected, opts):
    """Metallaxis-FL's and MUSE's fault ranks from the faulty version's schemata, and the
    (mutants run, mutants eligible) of each run; None when a step failed."""
    ext = os.path.splitext(msrc)[1]
    schemata = os.path.join(mdir, "faulty.s" + ext)
    r = run([sleuth, "mutate", "--schemata", schemata, msrc, "--"] + flags)
    if r.returncode:
        print(f"{msrc}: sleuth mutate --schemata failed: {r.stderr.strip()}", file=sys.stderr)
        return None
    env = dict(os.environ, SLEUTH_MODE="coverage")
    wrapper = "c++" if ext == ".cpp" else "cc"
    r = run([sleuth, wrapper] + flags + ["-o", os.path.join(mdir, "sprog"), schemata],
            env=env, cwd=mdir)
    if r.returncode:
        print(f"{schemata}: coverage build failed: {r.stderr.strip()}", file=sys.stderr)
        return None
    write_tests(mdir, "stests.txt", "sprog", inputs, expected)
    store = os.path.join(mdir, "sstore")
    ranked, counts = {}, []
    for k, technique in enumerate(MUTATION):
        suite = (["--tests", os.path.join(mdir, "stests.txt")] if k == 0
                 else ["--from", store])
        out = os.path.join(mdir, technique + ".json")
        done = localize(sleuth, mdir, suite + [
            "--store", store, "--mutants", schemata + ".json", "--mutation-score", technique,
            "--mutation-budget", f"{opts.mutation_budget:g}", "--formula", "ochiai",
            "--tie-break", "none", "--json", out,
            "--jobs", str(opts.jobs)])
        if not done:
            return None
        summary = MUTATION_SUMMARY.search(done[0])
        if summary:
            counts.append((int(summary.group(1)), int(summary.group(2))))
        ranked[technique] = fault_rank(out, line, done[1])
    return ranked, counts


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser()
    ap.add_argument("sleuth")
    ap.add_argument("--subjects", default=os.path.join(here, "subjects"))
    ap.add_argument("--work", default="/tmp/sleuth-localize-bench")
    ap.add_argument("--max-mutants", type=int, default=0, help="per subject (0: all)")
    ap.add_argument("--jobs", type=int, default=2, help="tests sleuth localize runs at once")
    ap.add_argument("--mutation-budget", type=float, default=60,
                    help="seconds of mutant runs per localize run (0: no mutation ranking)")
    ap.add_argument("--specification-budget", type=float, default=20,
                    help="seconds of trace-formula diagnoses per localize run")
    ap.add_argument("--no-specification", action="store_true",
                    help="leave out the SAT-TAR rows (--specification)")
    ap.add_argument("--markdown", help="write the result tables here")
    opts = ap.parse_args()
    sleuth = os.path.abspath(opts.sleuth)
    started = time.time()
    techniques = (FORMULAS + [f + "+importance" for f in TIE_BROKEN] +
                  ([] if opts.no_specification else [f + "+specification" for f in SPECIFICATION]) +
                  (MUTATION if opts.mutation_budget > 0 else []))
    spec_notes = {}  # failing runs under --specification: diagnosed, or why not
    per_formula = {f: [] for f in techniques}  # list of (best, avg, worst, n, seconds)
    mutants_run = []  # per mutation run: (mutants run, mutants on lines failing tests executed)
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
            write_tests(mdir, "tests.txt", "prog", inputs, expected)
            ranked = rank_formulas(sleuth, mdir, line, opts.jobs)
            if ranked and not opts.no_specification:
                spec = rank_specification(sleuth, mdir, msrc, line, flags, inputs, expected,
                                          opts, spec_notes)
                ranked = ranked | spec if spec else None
            if ranked and opts.mutation_budget > 0:
                # A version counts for every technique or for none: the means compare alike.
                mutation = rank_mutation(sleuth, mdir, msrc, line, flags, inputs, expected, opts)
                ranked = ranked | mutation[0] if mutation else None
                if mutation:
                    mutants_run.extend(mutation[1])
            if ranked is None:
                print(f"{subject} m{mid}: not scored", file=sys.stderr)
                continue
            for technique, row in ranked.items():
                per_formula[technique].append(row)
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
    if mutants_run:
        run_, all_ = sum(r[0] for r in mutants_run), sum(r[1] for r in mutants_run)
        cut = sum(1 for r in mutants_run if r[0] < r[1])
        lines.append(f"Mutation runs: budget {opts.mutation_budget:g} s each; {run_} of {all_} "
                     f"mutants on lines failing tests executed were run; {cut} of "
                     f"{len(mutants_run)} runs cut by the budget")
        lines.append("")
    if spec_notes:
        lines.append("Failing runs under --specification: " + ", ".join(
            f"{v} {k}" for k, v in sorted(spec_notes.items(), key=lambda kv: -kv[1])))
        lines.append("")
    lines.append("| technique | EXAM best % | EXAM avg % | EXAM worst % | Top-1 | Top-3 | Top-5 "
                 "| Top-10 | within 10 % | time/version s |")
    lines.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for formula in techniques:
        rows = per_formula[formula]
        if not rows:
            continue
        exam = [[100.0 * r[i] / r[3] for r in rows] for i in range(3)]
        top = [sum(1 for r in rows if r[1] <= n) for n in (1, 3, 5, 10)]
        within = sum(1 for e in exam[1] if e <= 10.0)
        lines.append(f"| {formula} | {statistics.mean(exam[0]):.1f} | "
                     f"{statistics.mean(exam[1]):.1f} | {statistics.mean(exam[2]):.1f} | " +
                     " | ".join(str(t) for t in top) +
                     f" | {within} | {statistics.mean(r[4] for r in rows):.2f} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if opts.markdown:
        with open(opts.markdown, "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
