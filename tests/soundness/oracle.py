#!/usr/bin/env python3
"""The soundness oracle: finds dependences that a backward slice missed.

A statement outside the backward slice of a criterion cannot have influenced the criterion in
that run. For each program the oracle builds it once with the compiler wrappers for perturbed
runs (SLEUTH_PERTURBABLE=1), runs it for the baseline (its output, exit status, the path it
took, and its dependence file), and takes as criterion everything the program printed and its
exit status: the union of the backward slices of every executed output node (`effect` nodes:
printf, puts, std::cout <<, exit ...), assertion, and return value of `main`. Then, one trial
at a time, it perturbs the value that one execution of a write outside that slice stored
(SLEUTH_PERTURB=NODE:OCCURRENCE:flip|add: the runtime flips the lowest bit, or adds one, right
after the store) and reruns:

- the path changed (another sequence of nodes or test outcomes, a crash, a time-out): not
  counted, a potential dependence that a dynamic slice does not promise;
- same path, same output and status: consistent with the slice;
- same path, and the output or status changed: a MISSED DEPENDENCE, reported with the
  statement, the criterion and what changed.

With --precision it also perturbs the writes inside the slice and counts those that never
changed the criterion on the same path (lines a slice holds that the runs did not show needed).

A program is one source file, or a recipe (--recipe NAME=COMMAND): a shell command that builds
a program of several files, such as a real package's test program, with $CC and $CXX (the
wrappers, in perturbable dependency mode) into ./program of the directory it runs in, where
the program then runs.

usage: oracle.py [options] [SOURCE...] [--recipe NAME=COMMAND...]   (see --help)
"""
import argparse
import concurrent.futures
import json
import os
import random
import shutil
import subprocess
import sys
import time
import urllib.parse

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))


def fail_usage(message):
    print(f"oracle: {message}", file=sys.stderr)
    sys.exit(2)


def decode(field):
    """A text field of the dependence file (docs/dependence-format.md): %XX escapes."""
    return urllib.parse.unquote(field, errors="replace")


class Deps:
    """A dependence file: sites, hits and edges."""

    def __init__(self, path):
        self.files, self.funcs, self.sites, self.hits = {}, {}, {}, {}
        self.preds = {}  # node -> [(origin, kind)]
        self.edges = set()
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().split("\n")
        if not lines or not lines[0].startswith("sleuth-deps ") or "end" not in lines:
            raise ValueError(f"{path}: not a complete dependence file")
        for line in lines:
            p = line.split(" ")
            if p[0] == "file":
                self.files[int(p[1])] = decode(p[-1])
            elif p[0] == "func":
                self.funcs[int(p[1])] = (int(p[2]), decode(p[5]))
            elif p[0] == "site":
                self.sites[int(p[1])] = {"kind": p[2], "func": int(p[3]), "line": int(p[4]),
                                         "column": int(p[5]), "name": decode(p[6])}
            elif p[0] == "hit":
                self.hits[int(p[1])] = int(p[2])
            elif p[0] in ("data", "ctrl"):
                a, b = int(p[1]), int(p[2])
                self.preds.setdefault(a, []).append(b)
                self.edges.add((p[0], a, b))

    def where(self, node):
        s = self.sites[node]
        file_id, func = self.funcs[s["func"]]
        return {"file": self.files[file_id], "line": s["line"], "column": s["column"],
                "name": s["name"], "kind": s["kind"], "function": func}

    def function_of(self, node):
        return self.funcs[self.sites[node]["func"]][1]

    def backward(self, criteria):
        seen, work = set(criteria), list(criteria)
        while work:
            n = work.pop()
            for m in self.preds.get(n, ()):
                if m not in seen:
                    seen.add(m)
                    work.append(m)
        return seen


def read_report(path):
    """The runtime's perturbation report (runtime/src/perturb.h), as a dict; None if absent."""
    try:
        with open(path) as f:
            lines = f.read().split("\n")
    except OSError:
        return None
    if not lines or lines[0] != "sleuth-perturb 1" or "end" not in lines:
        return None
    r = {}
    for line in lines[1:]:
        p = line.split(" ")
        if p[0] in ("hits", "executions"):
            r[p[0]] = int(p[1])
        elif p[0] == "applied":
            r["applied"] = {"size": int(p[1]), "before": p[2], "after": p[3]}
        elif p[0] == "path":
            r["path"] = (int(p[1]), p[2])
    return r


class Run:
    def __init__(self, status, stdout, stderr, report, seconds, timed_out):
        self.status, self.stdout, self.stderr = status, stdout, stderr
        self.report, self.seconds, self.timed_out = report, seconds, timed_out

    def criterion(self):
        return (self.status, self.stdout, self.stderr)


# The environment's bytes that differ between runs are padded to this many, so that every run
# finds its stack where the others did.
ENV_SPACE = 512


def run_program(exe, work, tag, perturb, timeout):
    """Runs exe once (SLEUTH_PERTURB=perturb unless None). The path that the runtime
    fingerprints includes the addresses written, so runs are made alike in where things are:
    without address space randomization (setarch -R), with environments of one size."""
    env = dict(os.environ)
    env.pop("SLEUTH_ORACLE_PADDING", None)
    report = os.path.join(work, f"{tag}.report")
    if os.path.exists(report):
        os.unlink(report)
    env["SLEUTH_OUT"] = os.path.join(work, f"{tag}.deps")
    if perturb is None:
        env.pop("SLEUTH_PERTURB", None)
        env.pop("SLEUTH_PERTURB_REPORT", None)
    else:
        env["SLEUTH_PERTURB"] = perturb
        env["SLEUTH_PERTURB_REPORT"] = report
    varying = sum(len(env.get(k, "")) for k in
                  ("SLEUTH_OUT", "SLEUTH_PERTURB", "SLEUTH_PERTURB_REPORT"))
    env["SLEUTH_ORACLE_PADDING"] = "x" * max(0, ENV_SPACE - varying)
    start = time.monotonic()
    try:
        p = subprocess.run(["setarch", "-R", exe], cwd=work, env=env, stdin=subprocess.DEVNULL,
                           capture_output=True, timeout=timeout)
        timed_out, status, out, err = False, p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        timed_out, status, out, err = True, None, e.stdout or b"", e.stderr or b""
    seconds = time.monotonic() - start
    rep = read_report(report) if perturb is not None else None
    return Run(status, out, err, rep, seconds, timed_out)


def first_difference(a, b):
    """The first line where two outputs differ, for the report."""
    la, lb = a.decode(errors="replace").split("\n"), b.decode(errors="replace").split("\n")
    for i in range(max(len(la), len(lb))):
        x = la[i] if i < len(la) else "<none>"
        y = lb[i] if i < len(lb) else "<none>"
        if x != y:
            return f"line {i + 1}: {x!r} became {y!r}"
    return "same text"


def describe_change(base, run):
    parts = []
    if base.status != run.status:
        parts.append(f"exit status {base.status} became {run.status}")
    if base.stdout != run.stdout:
        parts.append("stdout " + first_difference(base.stdout, run.stdout))
    if base.stderr != run.stderr:
        parts.append("stderr " + first_difference(base.stderr, run.stderr))
    return "; ".join(parts)


def wrapper_warning(stderr):
    """The first warning of the compiler wrappers in a build's output, or None. A file the
    wrapper could not instrument is compiled as it was, and falls out of every slice: no test
    of the slices then."""
    for line in stderr.splitlines():
        if line.startswith(("sleuth cc: ", "sleuth c++: ")):
            return line
    return None


def build_recipe(args, command, work):
    env = dict(os.environ)
    env["SLEUTH_PERTURBABLE"] = "1"
    env["SLEUTH_MODE"] = "deps"
    env["SLEUTH_CC"], env["SLEUTH_CXX"] = args.cc, args.cxx
    env["CC"], env["CXX"] = f"{args.sleuth} cc", f"{args.sleuth} c++"
    p = subprocess.run(["bash", "-c", command], cwd=work, env=env, capture_output=True,
                       text=True, stdin=subprocess.DEVNULL)
    if p.returncode != 0:
        last = (p.stderr.strip() or p.stdout.strip()).splitlines()[-1:]
        return None, f"the recipe failed ({p.returncode}): {last}"
    warning = wrapper_warning(p.stderr + p.stdout)
    if warning:
        return None, "the wrapper warned: " + warning
    exe = os.path.join(work, "program")
    if not os.access(exe, os.X_OK):
        return None, "the recipe made no ./program"
    return exe, None


def build(args, source, work):
    cxx = source.endswith((".cpp", ".cc", ".cxx"))
    wrapper = "c++" if cxx else "cc"
    env = dict(os.environ)
    env["SLEUTH_PERTURBABLE"] = "1"
    env["SLEUTH_MODE"] = "deps"
    env["SLEUTH_CXX" if cxx else "SLEUTH_CC"] = args.cxx if cxx else args.cc
    flags = (args.cxxflags if cxx else args.cflags).split()
    exe = os.path.join(work, "program")
    p = subprocess.run([args.sleuth, wrapper, *flags, "-o", exe, source, *args.libs.split()],
                       cwd=work, env=env, capture_output=True, text=True)
    if p.returncode != 0:
        return None, f"build failed: {p.stderr.strip().splitlines()[-1:] or p.returncode}"
    if p.stderr.strip():
        return None, "the wrapper warned: " + p.stderr.strip().splitlines()[0]
    return exe, None


def criterion_nodes(deps):
    crit = set()
    for node, s in deps.sites.items():
        if deps.hits.get(node, 0) == 0:
            continue
        if s["kind"] in ("effect", "assert"):
            crit.add(node)
        elif s["kind"] == "ret" and deps.function_of(node) == "main":
            crit.add(node)
    return crit


def plan_trials(deps, nodes, cap, seed):
    """Trials (node, occurrence, mode), round-robin over the nodes so that a cap still reaches
    each: the first execution flipped, the last one plus one, then the others."""
    rounds = ([], [], [], [])
    ordered = sorted(nodes)
    random.Random(seed).shuffle(ordered)
    for n in ordered:
        last = deps.hits[n]
        rounds[0].append((n, 1, "flip"))
        rounds[1].append((n, last, "add"))
        if last > 1:
            rounds[2].append((n, 1, "add"))
            rounds[3].append((n, last, "flip"))
        else:
            rounds[2].append((n, 1, "add"))
    trials, seen = [], set()
    for r in rounds:
        for t in r:
            if t not in seen:
                seen.add(t)
                trials.append(t)
    return trials[:cap] if cap else trials


def check_program(args, program, pool):
    name, source, recipe = program
    work = os.path.join(args.work, name)
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    counts = ("trials", "same_path", "path_changed", "unchanged", "not_applied", "no_address")
    result = {"program": name, "source": source, "misses": [], "error": None, "outside": 0,
              "slice_writes": 0, **{k: 0 for k in counts},
              "inside_counts": {k: 0 for k in counts}}
    exe, error = build_recipe(args, recipe, work) if recipe else build(args, source, work)
    if error:
        result["error"] = error
        return result
    # The slice comes from a plain run (the inline probes as a user runs them); the traced
    # runs (every node on the runtime's path) give the baseline path, twice: a program whose
    # path or output varies between runs is no subject.
    plain = run_program(exe, work, "plain", None, args.timeout)
    base = run_program(exe, work, "base", "none", args.timeout)
    again = run_program(exe, work, "again", "none", args.timeout)
    if plain.timed_out or base.timed_out:
        result["error"] = "the program runs too long"
        return result
    if not base.report or not again.report:
        result["error"] = "no perturbation report (not a dependence-mode build?)"
        return result
    if base.criterion() != again.criterion() or base.report["path"] != again.report["path"]:
        result["error"] = "not deterministic"
        return result
    if plain.criterion() != base.criterion():
        result["error"] = "a traced run prints otherwise than a plain one"
        return result
    try:
        deps = Deps(os.path.join(work, "plain.deps"))
        traced = Deps(os.path.join(work, "base.deps"))
    except (OSError, ValueError) as e:
        result["error"] = str(e)
        return result
    # The runtime's inline probes and its slow paths must record the same graph.
    if deps.hits != traced.hits or deps.edges != traced.edges:
        diff = sorted(deps.edges ^ traced.edges)[:3]
        result["error"] = f"the inline probes and the runtime record other graphs: {diff}"
        return result
    criteria = criterion_nodes(deps)
    in_slice = deps.backward(criteria)
    writes = [n for n, s in deps.sites.items() if s["kind"] == "var" and deps.hits.get(n, 0)]
    if args.only:
        writes = [n for n in writes if deps.sites[n]["name"] in args.only]
    outside = [n for n in writes if n not in in_slice]
    inside = [n for n in writes if n in in_slice]
    result["criteria"] = len(criteria)
    result["outside"] = len(outside)
    key = lambda n: f"{name}:{deps.where(n)['line']}:{deps.where(n)['name']}"
    result["candidates"] = sorted({key(n) for n in outside})
    # Per statement, its trials without a cap, and those run: an expected miss is checked only
    # where all of them ran (the cap may have left out the one trial that shows it).
    planned = {}
    for n, _, _ in plan_trials(deps, outside, 0, 0):
        planned[key(n)] = planned.get(key(n), 0) + 1
    ran_outside = {}
    result["slice_writes"] = len(inside)
    seed = sum(name.encode())
    trials = [("outside", t) for t in plan_trials(deps, outside, args.max_trials, seed)]
    if args.precision:
        trials += [("inside", t) for t in plan_trials(deps, inside, args.max_trials, seed)]
    timeout = min(args.timeout, max(2.0, 10 * base.seconds))
    deadline = time.monotonic() + args.time_limit if args.time_limit else None
    needed, tried_inside, same_path_inside = set(), set(), set()

    def one(index, side, trial):
        if deadline and time.monotonic() > deadline:
            return index, side, trial, None
        node, occurrence, mode = trial
        tag = f"t{index}"
        run = run_program(exe, work, tag, f"{node}:{occurrence}:{mode}", timeout)
        for leftover in (f"{tag}.deps", f"{tag}.report"):
            try:
                os.unlink(os.path.join(work, leftover))
            except OSError:
                pass
        return index, side, trial, run

    futures = [pool.submit(one, i, side, t) for i, (side, t) in enumerate(trials)]
    for fut in futures:
        index, side, (node, occurrence, mode), run = fut.result()
        if run is None:
            continue
        rep = run.report
        count = result if side == "outside" else result["inside_counts"]
        if side == "outside":
            ran_outside[key(node)] = ran_outside.get(key(node), 0) + 1
        if side == "inside":
            tried_inside.add(node)
        count["trials"] += 1
        if run.timed_out or rep is None:  # killed, or died before the runtime could write
            count["path_changed"] += 1
            continue
        if "applied" not in rep:
            # A write that passes no address (a declaration the program's constructor makes,
            # a C register variable), or an execution the run never reached.
            if rep.get("hits", 0) > 0 and rep.get("executions", 0) == 0:
                count["no_address"] += 1
            else:
                count["not_applied"] += 1
            continue
        crashed = run.status is not None and run.status < 0 and not (base.status or 0) < 0
        if crashed or rep.get("path") != base.report["path"]:
            count["path_changed"] += 1
            continue
        count["same_path"] += 1
        if side == "inside":
            same_path_inside.add(node)
        if run.criterion() == base.criterion():
            count["unchanged"] += 1
            continue
        if side == "inside":
            needed.add(node)
            continue
        where = deps.where(node)
        result["misses"].append({
            "key": key(node), "node": node, "where": where,
            "occurrence": occurrence, "of": deps.hits[node], "mode": mode,
            "applied": rep["applied"], "change": describe_change(base, run)})
    result["tried"] = sorted(k for k, n in ran_outside.items() if n == planned[k])
    if args.precision:
        result["inside_tried"] = len(tried_inside)
        result["inside_needed"] = len(needed)
        result["inside_not_shown_needed"] = sorted(
            f"{deps.where(n)['line']}:{deps.where(n)['name']}"
            for n in same_path_inside - needed)
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)
    return result


def read_expected(path):
    """Expected misses: `PROGRAM:LINE:NAME GAP REASON...` per line, # comments."""
    expected = {}
    if not path:
        return expected
    with open(path) as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            parts = line.split(None, 2)
            if len(parts) < 3 or parts[0].count(":") < 2:
                fail_usage(f"{path}:{number}: expected 'PROGRAM:LINE:NAME GAP REASON'")
            expected[parts[0]] = (parts[1], parts[2])
    return expected


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("sources", nargs="*", metavar="SOURCE")
    ap.add_argument("--recipe", action="append", default=[], metavar="NAME=COMMAND",
                    help="a program built by a shell command into ./program (repeatable)")
    ap.add_argument("--sleuth", default=os.path.join(REPO, "build/tools/sleuth/sleuth"))
    ap.add_argument("--cc", default="gcc")
    ap.add_argument("--cxx", default="g++")
    ap.add_argument("--cflags", default="-O0 -w")
    ap.add_argument("--cxxflags", default="-O0 -w -std=c++20")
    ap.add_argument("--libs", default="", help="extra link arguments")
    ap.add_argument("--work", default=None, help="scratch directory (default: a temporary one)")
    ap.add_argument("--max-trials", type=int, default=0,
                    help="at most N trials per program and side (0: all)")
    ap.add_argument("--time-limit", type=float, default=0,
                    help="stop starting trials of a program after S seconds (0: none)")
    ap.add_argument("--timeout", type=float, default=60, help="per run, seconds")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--only", action="append", metavar="NAME",
                    help="perturb only the writes of NAME as the dependence file names them "
                    "(`x`, `*p`; repeatable): to reduce a program that shows a miss")
    ap.add_argument("--precision", action="store_true",
                    help="also perturb the writes inside the slice")
    ap.add_argument("--expected", help="file of expected misses: the run fails on any other "
                    "miss and on an expected one that no longer shows")
    ap.add_argument("--json", help="write the results as JSON to this file")
    ap.add_argument("--keep", action="store_true", help="keep each program's scratch files")
    args = ap.parse_args()
    if not os.access(args.sleuth, os.X_OK):
        fail_usage(f"--sleuth: {args.sleuth}: not an executable")
    # The builds run in each program's work directory.
    if os.sep in args.sleuth:
        args.sleuth = os.path.abspath(args.sleuth)
    if not shutil.which("setarch"):
        fail_usage("setarch (util-linux) is needed to run programs without address randomization")
    for s in args.sources:
        if not os.path.isfile(s):
            fail_usage(f"{s}: no such file")
    programs = [(os.path.basename(s), os.path.abspath(s), None) for s in args.sources]
    for r in args.recipe:
        name, _, command = r.partition("=")
        if not name or not command.strip() or "/" in name:
            fail_usage(f"--recipe {r!r}: expected NAME=COMMAND")
        programs.append((name, None, command))
    if not programs:
        fail_usage("no program: give a SOURCE or a --recipe")
    if len({p[0] for p in programs}) != len(programs):
        fail_usage("two programs of one name")
    if args.max_trials < 0 or args.jobs < 1:
        fail_usage("--max-trials must be >= 0 and --jobs >= 1")
    expected = read_expected(args.expected)
    temporary = None
    if args.work is None:
        import tempfile
        temporary = args.work = tempfile.mkdtemp(prefix="sleuth-oracle-")
    os.makedirs(args.work, exist_ok=True)
    args.work = os.path.abspath(args.work)

    results = []
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for program in programs:
            r = check_program(args, program, pool)
            results.append(r)
            if r["error"]:
                print(f"{r['program']}: ERROR {r['error']}", flush=True)
                continue
            line = (f"{r['program']}: {r['outside']} writes outside the slice, {r['trials']} "
                    f"trials, {r['same_path']} on the same path, {len(r['misses'])} missed")
            if args.precision:
                line += (f"; slice writes {r['slice_writes']}, {r.get('inside_needed', 0)} shown "
                         f"needed, {len(r.get('inside_not_shown_needed', []))} not")
            print(line, flush=True)
    if temporary and not args.keep:
        shutil.rmtree(temporary, ignore_errors=True)

    ok = [r for r in results if not r["error"]]
    misses = [m for r in ok for m in r["misses"]]
    keys = {}
    for m in misses:
        keys.setdefault(m["key"], []).append(m)
    summary = {
        "programs": len(ok), "errors": len(results) - len(ok),
        "criteria": sum(r.get("criteria", 0) for r in ok),
        "writes_outside": sum(r["outside"] for r in ok),
        "trials": sum(r["trials"] for r in ok),
        "same_path": sum(r["same_path"] for r in ok),
        "path_changed": sum(r["path_changed"] for r in ok),
        "not_perturbable": sum(r["no_address"] for r in ok),
        "not_reached": sum(r["not_applied"] for r in ok),
        "missed_trials": len(misses), "missed_statements": len(keys),
    }
    if args.precision:
        summary["slice_trials"] = sum(r["inside_counts"]["trials"] for r in ok)
        summary["slice_same_path"] = sum(r["inside_counts"]["same_path"] for r in ok)
        summary["slice_writes_tried"] = sum(r.get("inside_tried", 0) for r in ok)
        summary["slice_writes_shown_needed"] = sum(r.get("inside_needed", 0) for r in ok)
        summary["slice_writes_not_shown_needed"] = sum(
            len(r.get("inside_not_shown_needed", [])) for r in ok)
    print("\nsummary: " + ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in summary.items()))
    for key in sorted(keys):
        m = keys[key][0]
        w = m["where"]
        tag = f" [expected: gap {expected[key][0]}, {expected[key][1]}]" if key in expected else ""
        print(f"MISS {key}{tag}\n  statement: {w['file']}:{w['line']}:{w['column']} "
              f"{w['kind']} {w['name']!r} in {w['function']} (node {m['node']}), execution "
              f"{m['occurrence']} of {m['of']}, {m['mode']}: {m['applied']['before']} -> "
              f"{m['applied']['after']}\n  criterion: the output and exit status (outside "
              f"its slice)\n  changed: {m['change']}")
    failed = bool(len(results) - len(ok))
    unexpected = sorted(k for k in keys if k not in expected)
    # An expected miss of a program that ran must show where all its trials ran, and stay
    # outside the slice: else the list is out of date.
    ran = {r["program"]: r for r in ok}
    vanished = sorted(
        k for k in expected if k.split(":")[0] in ran and k not in keys and
        (k not in ran[k.split(":")[0]]["candidates"] or k in ran[k.split(":")[0]]["tried"]))
    if args.expected:
        for k in unexpected:
            print(f"NEW MISS {k} (not in {os.path.basename(args.expected)})")
        for k in vanished:
            print(f"EXPECTED MISS GONE {k} (gap {expected[k][0]}): update "
                  f"{os.path.basename(args.expected)}")
        failed = failed or bool(unexpected or vanished)
    else:
        failed = failed or bool(keys)
    if args.json:
        tmp = args.json + ".tmp"
        with open(tmp, "w") as f:
            json.dump({"summary": summary, "programs": results}, f, indent=1, default=str)
        os.replace(tmp, args.json)
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
