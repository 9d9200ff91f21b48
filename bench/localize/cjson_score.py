#!/usr/bin/env python3
"""Scores `sleuth localize` on mutants of a real Debian package: cJSON.c from `cjson`.

Each mutant is built once, in coverage mode with `sleuth cc` (cjson's Unity tests #include
cJSON.c, which the wrappers instrument along with each test), and the package's own ctest suite
runs through `sleuth localize --ctest`. The suite decides what the mutant is:
  uncompilable  the build fails
  survived      every test passes ("nothing to localize")
  all-failed    every test fails (no passing run to compare with)
  revealed      some tests fail, some pass: scored
Mutants are drawn (seeded) from those on lines the unmutated suite executes: a mutant on a line
no test runs cannot be revealed. For every revealed mutant, each formula's ranking (the CSV
export carries them all) and BlockRank's are restricted to cJSON.c's lines, and the mutated
line's rank range gives

  EXAM  = rank of the faulty line / cJSON.c lines executed by the suite, in percent, best,
          average and worst over ties (a faulty line that never ran: all lines examined);
  Top-N = the faulty line's average rank is at most N.

usage: cjson_score.py SLEUTH [--work DIR] [--src DIR] [--sample N] [--revealed N] [--seed S]
                      [--jobs J] [--markdown FILE]
Resumable: one result file per mutant in WORK/results; rerun the same command.
"""
import argparse
import csv
import glob
import json
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import time

FORMULAS = ["tarantula", "ochiai", "jaccard", "dstar", "op2", "barinel", "kulczynski2",
            "naish1"]
# Formulas whose ties are also broken by the value predicates' Importance (the CSV's `second`
# column, `--tie-break importance`), as rows "FORMULA+importance".
TIE_BROKEN = ["ochiai", "dstar", "op2"]
MUTANT_LINE = re.compile(r"^(\d+) (.+):(\d+):(\d+) (\S+) (.*)$")


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def die(message):
    sys.exit(f"cjson-score: {message}")


def unpack(work):
    """Debian's cjson source, unpacked once into WORK/cache/src/cjson by scripts/apt.sh, the
    project's one way of fetching a source package (its lock lets it run beside the tests)."""
    apt = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "apt.sh")
    r = run(["bash", "-c", '. "$0" && sleuth_fetch_source cjson "$1/cache" "$1" >&2 && printf %s "$src"',
             apt, work])
    if r.returncode:
        die("fetching the cjson source package failed: " + r.stderr.strip())
    src = r.stdout
    pristine = os.path.join(src, "cJSON.c.orig-sleuth")
    if not os.path.exists(pristine):
        shutil.copy(os.path.join(src, "cJSON.c"), pristine)
    return src


def configure(sleuth, work, src):
    """A coverage-mode build of cjson and its tests through the wrappers (gcc, -O0)."""
    build = os.path.join(work, "build")
    if os.path.exists(os.path.join(build, "build.ninja")):
        return build
    cc = os.path.join(work, "cc")
    with open(cc, "w") as f:
        f.write(f"#!/bin/sh\nSLEUTH_CC=gcc SLEUTH_MODE=coverage exec {sleuth} cc \"$@\"\n")
    os.chmod(cc, 0o755)
    env = dict(os.environ, CC=cc, CFLAGS="-O0")
    r = run(["cmake", "-S", src, "-B", build, "-G", "Ninja", "-DCMAKE_BUILD_TYPE=None",
             "-DENABLE_CJSON_TEST=ON", "-DENABLE_CJSON_UTILS=ON",
             "-DCMAKE_EXPORT_COMPILE_COMMANDS=ON"], env=env)
    if r.returncode:
        die("cmake failed: " + r.stdout[-2000:] + r.stderr[-2000:])
    return build


def executed_lines(build, cjson):
    """Lines of cJSON.c that the unmutated suite executes (from its coverage files)."""
    covdir = os.path.join(os.path.dirname(build), "baseline-cov")
    shutil.rmtree(covdir, ignore_errors=True)
    os.makedirs(covdir)
    r = run(["ctest", "--timeout", "60"], cwd=build, env=dict(os.environ, SLEUTH_COV_DIR=covdir))
    if r.returncode:
        die("the unmutated tests do not all pass:\n" + r.stdout[-3000:])
    lines = set()
    for path in glob.glob(os.path.join(covdir, "*.cov")):
        ids = set()
        with open(path) as f:
            for rec in f:
                parts = rec.split()
                if parts[0] == "file" and os.path.realpath(parts[3]) == cjson:
                    ids.add(parts[1])
                elif parts[0] == "line" and parts[1] in ids and int(parts[3]) > 0:
                    lines.add(int(parts[2]))
    if not lines:
        die("no coverage of cJSON.c from the unmutated suite: were the tests instrumented "
            "with cJSON.c (SLEUTH_HEADERS)?")
    return lines


def same(x, s):
    """As the localizer ties scores: within 1e-9 relative; inf ties inf (DStar)."""
    if math.isinf(x) or math.isinf(s):
        return x == s
    return abs(x - s) <= 1e-9 * max(1.0, abs(s))


def ranks(scores, fault):
    """(best, average, worst) rank of line `fault` among {line: score}; None if absent. A score
    may be a tuple (score, second criterion), compared in that order."""
    if fault not in scores:
        return None
    s = scores[fault] if isinstance(scores[fault], tuple) else (scores[fault],)

    def key(x):
        return x if isinstance(x, tuple) else (x,)

    def tied(x):
        return all(same(a, b) for a, b in zip(key(x), s))

    def above(x):
        for a, b in zip(key(x), s):
            if not same(a, b):
                return a > b
        return False

    best = 1 + sum(1 for x in scores.values() if above(x))
    worst = best - 1 + sum(1 for x in scores.values() if tied(x))
    return best, (best + worst) / 2, worst


def number(text):
    return float("inf") if text in ("inf", "+inf") else float(text)


def techniques():
    return FORMULAS + [f + "+importance" for f in TIE_BROKEN] + ["blockrank"]


def score_mutant(sleuth, build, mdir, cjson, line, jobs):
    store = os.path.join(mdir, "store")
    shutil.rmtree(store, ignore_errors=True)
    csv_path = os.path.join(mdir, "rank.csv")
    r = run([sleuth, "localize", "--ctest", build, "--store", store, "--jobs", str(jobs),
             "--timeout", "10", "--tie-break", "importance", "--view", "none", "--csv", csv_path])
    message = (r.stderr.strip().splitlines() or [""])[-1]
    if r.returncode:
        if "nothing to localize" in message:
            return {"status": "survived"}
        if "no passing test" in message:
            return {"status": "all-failed"}
        return {"status": "error", "detail": message}
    json_path = os.path.join(mdir, "blockrank.json")
    r = run([sleuth, "localize", "--from", store, "--formula", "blockrank", "--view", "none",
             "--json", json_path])
    if r.returncode:
        return {"status": "error", "detail": r.stderr.strip()}
    shutil.rmtree(store, ignore_errors=True)
    return dict(status="revealed", **rank_files(mdir, cjson, line))


def rank_files(mdir, cjson, line):
    """The faulty line's rank range per technique, from a mutant's kept rankings (the CSV
    export carries every formula's score; BlockRank's JSON its own)."""
    csv_path = os.path.join(mdir, "rank.csv")
    json_path = os.path.join(mdir, "blockrank.json")
    scores = {f: {} for f in techniques()}
    with open(csv_path) as f:
        for row in csv.DictReader(f):
            if row["kind"] != "line" or os.path.realpath(row["file"]) != cjson:
                continue
            for formula in FORMULAS:
                scores[formula][int(row["line"])] = number(row[formula])
            if row.get("second") is not None:  # kept from a run with --tie-break importance
                for formula in TIE_BROKEN:
                    scores[formula + "+importance"][int(row["line"])] = (
                        number(row[formula]), number(row["second"]))
    with open(json_path) as f:
        for e in json.load(f)["events"]:
            if e["kind"] == "line" and os.path.realpath(e["file"]) == cjson:
                scores["blockrank"][e["line"]] = number(str(e["score"]))
    n = len(scores["ochiai"])
    result = {"lines": n, "ranks": {}}
    for technique, by_line in scores.items():
        if not by_line:
            continue
        r_ = ranks(by_line, line)
        result["ranks"][technique] = list(r_) if r_ else [n, n, n]
    return result


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("sleuth")
    ap.add_argument("--work", default="/tmp/sleuth-cjson-score")
    ap.add_argument("--src", help="an unpacked cjson source tree (default: apt-get source)")
    ap.add_argument("--sample", type=int, default=400, help="mutants to draw (default 400)")
    ap.add_argument("--revealed", type=int, default=100, help="stop after this many revealed")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=2, help="ninja and ctest parallelism")
    ap.add_argument("--markdown", help="write the result table here")
    opts = ap.parse_args()
    sleuth = os.path.abspath(opts.sleuth)
    work = os.path.abspath(opts.work)
    os.makedirs(work, exist_ok=True)
    started = time.time()
    src = os.path.abspath(opts.src) if opts.src else unpack(work)
    cjson_path = os.path.join(src, "cJSON.c")
    pristine = cjson_path + ".orig-sleuth"
    if not os.path.exists(pristine):
        shutil.copy(cjson_path, pristine)
    cjson = os.path.realpath(cjson_path)
    shutil.copy(pristine, cjson_path)
    build = configure(sleuth, work, src)
    r = run(["ninja", "-C", build, f"-j{opts.jobs}"])
    if r.returncode:
        die("the unmutated build failed:\n" + r.stdout[-3000:])
    covered = executed_lines(build, cjson)

    listing = run([sleuth, "mutate", "--list", "-p", build, cjson_path])
    if listing.returncode:
        die("sleuth mutate failed: " + listing.stderr.strip())
    mutants = [m for m in map(MUTANT_LINE.match, listing.stdout.splitlines()) if m]
    total = len(mutants)
    candidates = [m for m in mutants if int(m.group(3)) in covered]
    random.Random(opts.seed).shuffle(candidates)
    candidates = candidates[:opts.sample]
    print(f"cjson-score: {total} mutants of cJSON.c, {len(candidates)} drawn from the "
          f"{len([m for m in mutants if int(m.group(3)) in covered])} on the "
          f"{len(covered)} executed lines", file=sys.stderr)

    results_dir = os.path.join(work, "results")
    os.makedirs(results_dir, exist_ok=True)
    results = []
    try:
        for m in candidates:
            if sum(1 for r in results if r["status"] == "revealed") >= opts.revealed:
                break
            mid, line, operator = m.group(1), int(m.group(3)), m.group(5)
            out = os.path.join(results_dir, f"m{mid}.json")
            if os.path.exists(out):
                with open(out) as f:
                    results.append(json.load(f))
                continue
            t0 = time.time()
            # Each mutant is one change to the pristine file (ids number the pristine file's
            # mutants), never on top of the previous mutant.
            shutil.copy(pristine, cjson_path)
            text = run([sleuth, "mutate", "--apply", mid, "-p", build, cjson_path])
            if text.returncode:
                continue
            with open(cjson_path, "w") as f:
                f.write(text.stdout)
            mdir = os.path.join(work, "m" + mid)
            os.makedirs(mdir, exist_ok=True)
            if run(["ninja", "-C", build, f"-j{opts.jobs}"]).returncode:
                result = {"status": "uncompilable"}
            else:
                result = score_mutant(sleuth, build, mdir, cjson, line, opts.jobs)
            result.update(id=int(mid), line=line, operator=operator,
                          seconds=round(time.time() - t0, 1))
            with open(out + ".tmp", "w") as f:
                json.dump(result, f)
            os.replace(out + ".tmp", out)
            results.append(result)
            done = len(results)
            if done % 10 == 0:
                revealed = sum(1 for r in results if r["status"] == "revealed")
                print(f"cjson-score: {done} mutants done, {revealed} revealed", file=sys.stderr)
    finally:
        shutil.copy(pristine, cjson_path)
        run(["ninja", "-C", build, f"-j{opts.jobs}"])

    counts = {}
    for r in results:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    scored = [r for r in results if r["status"] == "revealed"]
    # Ranks are computed again from the kept rankings, so a rerun applies the current rules.
    for r in scored:
        mdir = os.path.join(work, f"m{r['id']}")
        if os.path.exists(os.path.join(mdir, "rank.csv")):
            r.update(rank_files(mdir, cjson, r["line"]))
    lines = [
        f"cjson ({open(os.path.join(src, '.sleuth-unpacked')).read().strip() if os.path.exists(os.path.join(src, '.sleuth-unpacked')) else src}): "
        f"{total} mutants of cJSON.c, {len(results)} tried (seed {opts.seed}), " +
        ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) +
        f"; wall time {time.time() - started:.0f} s, "
        f"{statistics.mean([r['seconds'] for r in results]) if results else 0:.1f} s per mutant",
        "",
        "| technique | EXAM best % | EXAM avg % | EXAM worst % | Top-1 | Top-3 | Top-5 | Top-10 "
        "| within 10 % |",
        "|---|---:|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for technique in techniques():
        rows = [(r["ranks"][technique], r["lines"]) for r in scored if technique in r["ranks"]]
        if not rows:
            continue
        exam = [statistics.mean(100.0 * rk[i] / n for rk, n in rows) for i in range(3)]
        top = [sum(1 for rk, _ in rows if rk[1] <= k) for k in (1, 3, 5, 10)]
        within = sum(1 for rk, n in rows if 100.0 * rk[1] / n <= 10)
        lines.append(f"| {technique} | {exam[0]:.1f} | {exam[1]:.1f} | {exam[2]:.1f} | " +
                     " | ".join(str(t) for t in top) + f" | {within} |")
    text = "\n".join(lines) + "\n"
    print(text)
    if opts.markdown:
        with open(opts.markdown + ".tmp", "w") as f:
            f.write(text)
        os.replace(opts.markdown + ".tmp", opts.markdown)


if __name__ == "__main__":
    main()
