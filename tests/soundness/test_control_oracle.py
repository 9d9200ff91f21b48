#!/usr/bin/env python3
"""Unit tests of the control-dependence reference (control_oracle.py): post-dominance and
dynamic control dependence on hand-made CFGs and traces, the comparison with the tracker's
graph, and, with Clang, the IR reader and the trace runtime on a small compiled program."""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

sys.dont_write_bytecode = True  # no __pycache__ in the source tree
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import control_oracle as co  # noqa: E402


class Program:
    """Hand-made functions: blocks given as label -> dict of Block fields; the first is the
    entry. Numbers every block for the trace."""

    def __init__(self):
        self.guards, self.numbers, self.functions = {}, {}, {}

    def function(self, name, blocks, program=True):
        made = {}
        for label, fields in blocks.items():
            b = co.Block(label)
            for key, value in fields.items():
                setattr(b, key, set(value) if key in ("lines", "catch_lines") else value)
            if b.branch_line is not None and b.branch_kind is None:
                b.branch_kind = "test"
            if not b.succs and not b.unwind:
                b.exits = True
            made[label] = b
        f = co.Function(name, made, program)
        self.functions[name] = f
        for label in made:
            number = len(self.guards) + 1
            self.guards[number] = (f, label)
            self.numbers[(name, label)] = number
        return f

    def run(self, steps, stats=None):
        """steps: (function, label, frame) for a block, ("return", frame) for a return."""
        events = []
        for step in steps:
            if step[0] == "return":
                events.append((0, step[1]))
            else:
                events.append((self.numbers[(step[0], step[1])], step[2]))
        parents, anomalies = co.dynamic_control(events, self.guards, stats)
        return parents, anomalies


def trace(function, labels, frame=1000):
    return [(function, label, frame) for label in labels]


def short_circuit_condition(name):
    """A program whose function `name` tests `if (a && b)` on line 2 (`a` a part of the test,
    `b` the test), under a test on line 1."""
    p = Program()
    p.function(name, {
        "entry": {"succs": ["lhs", "end"], "branch_line": 1, "lines": [1]},
        "lhs": {"succs": ["rhs", "end"], "branch_line": 2, "branch_kind": "part", "lines": [2]},
        "rhs": {"succs": ["then", "end"], "branch_line": 2, "lines": [2]},
        "then": {"succs": ["end"], "lines": [3]},
        "end": {"lines": [4]},
    })
    return p


class PostDominance(unittest.TestCase):
    def test_if_else_join(self):
        p = Program()
        f = p.function("f", {
            "entry": {"succs": ["then", "else"], "branch_line": 1},
            "then": {"succs": ["join"]},
            "else": {"succs": ["join"]},
            "join": {},
        })
        ipdom = f.ipdom()
        self.assertEqual(ipdom["entry"], "join")
        self.assertEqual(ipdom["then"], "join")
        self.assertEqual(ipdom["join"], co.EXIT)

    def test_early_return_reaches_the_exit(self):
        p = Program()
        f = p.function("f", {
            "entry": {"succs": ["ret1", "rest"], "branch_line": 1},
            "ret1": {},
            "rest": {},
        })
        self.assertEqual(f.ipdom()["entry"], co.EXIT)

    def test_endless_loop_gets_an_edge_to_the_exit(self):
        p = Program()
        f = p.function("f", {
            "entry": {"succs": ["loop"]},
            "loop": {"succs": ["loop2"]},
            "loop2": {"succs": ["loop"]},
        })
        ipdom = f.ipdom()
        self.assertIn("loop", ipdom)
        self.assertIn("loop2", ipdom)


class DynamicControl(unittest.TestCase):
    def test_while_loop_test_is_controlled_by_its_previous_instance(self):
        p = Program()
        p.function("f", {
            "entry": {"succs": ["cond"], "lines": [1]},
            "cond": {"succs": ["body", "end"], "branch_line": 2, "lines": [2]},
            "body": {"succs": ["cond"], "lines": [3]},
            "end": {"lines": [4]},
        })
        parents, anomalies = p.run(trace("f", ["entry", "cond", "body", "cond", "body", "cond",
                                              "end"]))
        self.assertEqual(anomalies, [])
        self.assertEqual(parents[2], {None, "test:2"})
        self.assertEqual(parents[3], {"test:2"})
        self.assertEqual(parents[4], {None})

    def test_a_loop_keeps_one_entry_for_its_test(self):
        p = Program()
        p.function("f", {
            "entry": {"succs": ["cond"]},
            "cond": {"succs": ["body", "end"], "branch_line": 2, "lines": [2]},
            "body": {"succs": ["cond"], "lines": [3]},
            "end": {"lines": [4]},
        })
        stats = {}
        p.run(trace("f", ["entry"] + ["cond", "body"] * 50 + ["cond", "end"]), stats)
        self.assertEqual(stats["deepest"], 1)

    def test_break_controls_the_next_iteration_and_the_latch(self):
        p = Program()
        p.function("f", {
            "entry": {"succs": ["cond"]},
            "cond": {"succs": ["body", "end"], "branch_line": 2, "lines": [2]},
            "body": {"succs": ["brk", "latch"], "branch_line": 3, "lines": [3]},
            "brk": {"succs": ["end"], "lines": [4]},
            "latch": {"succs": ["cond"], "lines": [5]},
            "end": {"lines": [6]},
        })
        parents, _ = p.run(trace("f", ["entry", "cond", "body", "latch", "cond", "body", "brk",
                                      "end"]))
        self.assertEqual(parents[2], {None, "test:3"})
        self.assertEqual(parents[3], {"test:2"})
        self.assertEqual(parents[4], {"test:3"})
        self.assertEqual(parents[5], {"test:3"})
        self.assertEqual(parents[6], {None})

    def test_do_while_first_iteration_is_not_controlled(self):
        p = Program()
        p.function("f", {
            "entry": {"succs": ["body"]},
            "body": {"succs": ["cond"], "lines": [2]},
            "cond": {"succs": ["body", "end"], "branch_line": 3, "lines": [3]},
            "end": {"lines": [4]},
        })
        parents, _ = p.run(trace("f", ["entry", "body", "cond", "body", "cond", "end"]))
        self.assertEqual(parents[2], {None, "test:3"})
        self.assertEqual(parents[3], {None, "test:3"})
        self.assertEqual(parents[4], {None})

    def test_nested_if(self):
        p = Program()
        p.function("f", {
            "entry": {"succs": ["if2", "join1"], "branch_line": 1, "lines": [1]},
            "if2": {"succs": ["then2", "join2"], "branch_line": 3, "lines": [3]},
            "then2": {"succs": ["join2"], "lines": [4]},
            "join2": {"succs": ["join1"], "lines": [5]},
            "join1": {"lines": [6]},
        })
        parents, _ = p.run(trace("f", ["entry", "if2", "then2", "join2", "join1"]))
        self.assertEqual(parents[3], {"test:1"})
        self.assertEqual(parents[4], {"test:3"})
        self.assertEqual(parents[5], {"test:1"})
        self.assertEqual(parents[6], {None})

    def test_call_under_a_test_and_a_return(self):
        p = Program()
        p.function("main", {
            "entry": {"succs": ["call", "end"], "branch_line": 10, "lines": [10]},
            "call": {"succs": ["end"], "lines": [11]},
            "end": {"lines": [12]},
        })
        p.function("g", {"entry": {"lines": [20]}})
        parents, anomalies = p.run(
            trace("main", ["entry", "call"]) + [("g", "entry", 900), ("return", 900)] +
            # the same frame address again, called from outside the test
            trace("main", ["end"]) + [("g", "entry", 900), ("return", 900)])
        self.assertEqual(anomalies, [])
        self.assertEqual(parents[20], {"test:10", None})
        self.assertEqual(parents[12], {None})

    def test_library_code_is_transparent_to_a_callback(self):
        p = Program()
        p.function("main", {
            "entry": {"succs": ["call", "end"], "branch_line": 10},
            "call": {"succs": ["end"]},
            "end": {},
        })
        p.function("sort", {"entry": {"succs": ["loop", "done"], "branch_line": 99},
                            "loop": {"succs": ["entry"]}, "done": {}}, program=False)
        p.function("compare", {"entry": {"lines": [30]}})
        parents, anomalies = p.run(
            trace("main", ["entry", "call"]) + [("sort", "entry", 900), ("compare", "entry", 800),
                                                ("return", 800), ("sort", "loop", 900)] +
            trace("main", ["end"]))
        self.assertEqual(anomalies, [])
        self.assertEqual(parents[30], {"test:10"})

    def test_throw_across_frames_controls_the_handler(self):
        p = Program()
        p.function("main", {
            "entry": {"succs": ["try"], "lines": [30]},
            "try": {"succs": ["cont"], "unwind": "lpad", "lines": [31]},
            "cont": {"succs": ["trycont"], "lines": [32]},
            "lpad": {"succs": ["dispatch"], "landing_pad": True},
            "dispatch": {"succs": ["catch", "resume"], "branch_line": 33, 
                         "lines": [33]},
            "catch": {"succs": ["trycont"], "begins_catch": True, "catch_lines": [33],
                      "lines": [34]},
            "resume": {"resumes": True},
            "trycont": {"lines": [35]},
        })
        p.function("check", {
            "entry": {"succs": ["throw", "ret"], "branch_line": 40, "lines": [40]},
            "throw": {"throw_line": 41, "lines": [41]},
            "ret": {"lines": [42]},
        })
        p.function("deep", {"entry": {"lines": [50]}})
        parents, anomalies = p.run(
            trace("main", ["entry", "try"]) + [("deep", "entry", 900), ("check", "entry", 800),
                                               ("check", "throw", 800)] +
            trace("main", ["lpad", "dispatch", "catch", "trycont"]))
        self.assertEqual(anomalies, [])
        self.assertEqual(parents[41], {"test:40"})
        self.assertEqual(parents[33], {"throw:41"})  # the <catch>: its type test and start
        self.assertEqual(parents[34], {"test:33"})
        self.assertEqual(parents[35], {None})

    def test_nested_handlers_type_test_hands_over_to_the_catch(self):
        # try { try { check(); } catch (A &) { ... } } catch (...) { ... }: the inner clause's
        # type test goes to the outer handler when it fails, not on unwinding.
        p = Program()
        p.function("main", {
            "entry": {"succs": ["cont"], "unwind": "lpad", "lines": [1]},
            "cont": {"succs": ["end"]},
            "lpad": {"succs": ["inner", "outer"], "landing_pad": True, "branch_line": 3,
                     "type_test": True},
            "inner": {"succs": ["end"], "begins_catch": True, "catch_lines": [3], "lines": [4]},
            "outer": {"succs": ["end"], "begins_catch": True, "catch_lines": [5], "lines": [6]},
            "end": {"lines": [7]},
        })
        p.function("check", {"entry": {"throw_line": 10}})
        parents, anomalies = p.run(trace("main", ["entry"]) + [("check", "entry", 900)] +
                                   trace("main", ["lpad", "inner", "end"]))
        self.assertEqual(anomalies, [])
        self.assertEqual(parents[3], {"throw:10"})
        self.assertEqual(parents[4], {"test:3"})
        self.assertEqual(parents[7], {None})

    def test_a_throw_of_the_library_is_marked(self):
        p = Program()
        p.function("main", {
            "entry": {"succs": ["cont"], "unwind": "lpad", "lines": [1]},
            "cont": {"lines": [2]},
            "lpad": {"succs": ["catch"], "landing_pad": True},
            "catch": {"begins_catch": True, "catch_lines": [3], "lines": [4]},
        })
        parents, _ = p.run(trace("main", ["entry", "lpad", "catch"]))
        self.assertTrue(all(c.startswith("libthrow:") for c in parents[3]))
        mismatches, skipped = co.compare({3: {"throw:9"}}, {3: ["<catch>"]}, parents)
        self.assertEqual((mismatches, skipped), ([], [3]))

    def test_short_circuit_condition_is_one_test(self):
        p = short_circuit_condition("f")
        parents, _ = p.run(trace("f", ["entry", "lhs", "rhs", "then", "end"]))
        self.assertEqual(parents[2], {"test:1"})  # `b` of `if (a && b)` too
        self.assertEqual(parents[3], {"test:2"})
        self.assertEqual(parents[4], {None})

    def test_a_call_in_the_rest_of_a_condition_runs_under_its_first_part(self):
        # `if (round != 1 && check(round))`: check runs only if `round != 1` held; the rest of
        # the condition's own lines keep the test's parent.
        p = short_circuit_condition("main")
        p.function("check", {"entry": {"lines": [20]}})
        parents, anomalies = p.run(trace("main", ["entry", "lhs", "rhs"]) +
                                   [("check", "entry", 900), ("return", 900)] +
                                   trace("main", ["then", "end"]))
        self.assertEqual(anomalies, [])
        self.assertEqual(parents[2], {"test:1"})
        self.assertEqual(parents[20], {"test:2"})

    def test_value_operator_controls_calls_only(self):
        p = Program()
        p.function("main", {
            "entry": {"succs": ["t", "f"], "branch_line": 1, "branch_kind": "value",
                      "lines": [1]},
            "t": {"succs": ["end"], "lines": [1]},
            "f": {"succs": ["end"], "lines": [1]},
            "end": {"lines": [1]},
        })
        p.function("h", {"entry": {"lines": [20]}})
        parents, _ = p.run(trace("main", ["entry", "t"]) + [("h", "entry", 900),
                                                           ("return", 900)] +
                           trace("main", ["end"]))
        self.assertEqual(parents[1], {None})
        self.assertEqual(parents[20], {"test:1"})

    def test_longjmp_resumes_the_setjmp_stack(self):
        p = Program()
        p.function("main", {
            "entry": {"succs": ["sj"]},
            "sj": {"succs": ["ok", "jumped"], "branch_line": 5, "setjmp": True, "lines": [5]},
            "ok": {"succs": ["inner", "end"], "branch_line": 6, "lines": [6]},
            "inner": {"succs": ["end"], "lines": [7]},
            "jumped": {"succs": ["end"], "lines": [8]},
            "end": {"lines": [9]},
        })
        p.function("fail", {"entry": {"succs": ["t", "r"], "branch_line": 20},
                            "t": {"lines": [21]}, "r": {}})
        parents, anomalies = p.run(trace("main", ["entry", "sj", "ok", "inner"]) +
                                   [("fail", "entry", 900), ("fail", "t", 900)] +
                                   trace("main", ["jumped", "end"]))
        self.assertEqual(anomalies, [])
        self.assertEqual(parents[8], {"test:5"})  # not test:6, under which the call ran
        self.assertEqual(parents[21], {"test:20"})
        self.assertEqual(parents[9], {None})


class HandlerLine(unittest.TestCase):
    def test_the_catch_keyword_above_the_handler_body(self):
        source = ["try {", "  f();", "} catch (const A &e) {", "  x = 1;", "} catch (...) {",
                  "  y = 2;", "}"]
        first, second = co.Block("catch"), co.Block("catch1")
        first.lines, first.catch_lines = {4, 5}, {7}  # Clang's location: the try's end
        second.lines, second.catch_lines = {6}, {3}
        self.assertEqual(co.catch_keyword_line(source, first), 3)
        self.assertEqual(co.catch_keyword_line(source, second), 5)

    def test_an_empty_handler_keeps_clangs_location(self):
        b = co.Block("catch")
        b.catch_lines = {9}
        self.assertEqual(co.catch_keyword_line(["x"] * 10, b), 9)


class Comparison(unittest.TestCase):
    def test_missing_and_extra(self):
        tracker = {2: {"test:1"}, 5: {"test:4", "test:3"}}
        described = {2: ["x"], 5: ["y"]}
        reference = {2: {"test:1", "test:2"}, 5: {"test:4", None}}
        mismatches, skipped = co.compare(tracker, described, reference)
        self.assertEqual([(m[0], m[1], m[2]) for m in mismatches],
                         [(2, "missing", "test:2"), (5, "extra", "test:3")])
        self.assertEqual(skipped, [])

    def test_a_line_no_block_holds(self):
        mismatches, _ = co.compare({7: set()}, {7: ["z"]}, {})
        self.assertEqual(mismatches[0][:2], (7, "unplaced"))


@unittest.skipUnless(shutil.which("clang-19"), "needs clang-19")
class CompiledProgram(unittest.TestCase):
    """The IR reader and the trace runtime on a compiled C program (no sleuth involved)."""

    def test_while_loop_and_call_under_a_test(self):
        source_text = ("int twice(int v) {\n"            # 1
                       "  return v * 2;\n"               # 2
                       "}\n"                             # 3
                       "int main(void) {\n"              # 4
                       "  int k = 0, s = 0;\n"           # 5
                       "  while (k < 3) {\n"             # 6
                       "    if (k == 1)\n"               # 7
                       "      s += twice(k);\n"          # 8
                       "    k++;\n"                      # 9
                       "  }\n"                           # 10
                       "  return s == 2 ? 0 : 1;\n"      # 11
                       "}\n")
        with tempfile.TemporaryDirectory() as work:
            source = os.path.join(work, "loop.c")
            with open(source, "w") as f:
                f.write(source_text)
            ir_file = os.path.join(work, "loop.ll")
            subprocess.run(["clang-19", "-O0", "-g", "-fno-omit-frame-pointer",
                            "-fno-discard-value-names", "-fsanitize-coverage=trace-pc-guard",
                            "-mllvm", "-sanitizer-coverage-prune-blocks=0", "-S", "-emit-llvm",
                            "-o", ir_file, source], check=True)
            with open(ir_file) as f:
                ir, base = co.number_guards(f.read())
            numbered = os.path.join(work, "numbered.ll")
            with open(numbered, "w") as f:
                f.write(ir)
            exe = os.path.join(work, "loop")
            subprocess.run(["clang-19", "-O0", "-w", "-o", exe, numbered,
                            os.path.join(co.HERE, "control_trace_rt.c")], check=True)
            trace_file = os.path.join(work, "run.trace")
            status = subprocess.run([exe], env=dict(os.environ, CONTROL_TRACE=trace_file))
            self.assertEqual(status.returncode, 0)
            functions, guards = co.parse_ir(ir, source, base)
            self.assertEqual(sorted(f.name for f in functions if f.program), ["main", "twice"])
            threads = co.read_trace(trace_file)
            self.assertEqual(len(threads), 1)
            parents, anomalies = co.dynamic_control(next(iter(threads.values())), guards)
            self.assertEqual(anomalies, [])
            self.assertEqual(parents[6], {None, "test:6"})
            self.assertEqual(parents[7], {"test:6"})
            self.assertEqual(parents[8], {"test:7"})
            self.assertEqual(parents[9], {"test:6"})
            self.assertEqual(parents[1], {"test:7"})  # twice's entry: its parameter
            self.assertEqual(parents[2], {"test:7"})
            self.assertEqual(parents[11], {None})  # `?:` in a value is no test of the line


if __name__ == "__main__":
    unittest.main()
