#!/usr/bin/env python3
"""The control-dependence oracle: checks the tracker's control dependences against a reference.

A perturbation that keeps the path cannot reveal a missed control dependence (changing a test's
outcome changes the path), so control dependences are checked against a reference computed
independently of the tracker, from the compiler's own control-flow graph and the run's block
sequence. For each program the oracle

1. builds it with sleuth's wrapper (dependency mode), runs it, and reads the whole dependence
   graph (`sleuth slice DEPS --format json`): every executed node with its controlling tests;
2. builds it again with Clang alone: the LLVM IR at -O0 with SanitizerCoverage on every basic
   block and a call before every return; the oracle numbers every block's guard in the IR and
   links control_trace_rt.c, which writes the run's sequence of (block, frame address, thread)
   and returns; both runs get the same input and must print the same;
3. computes dynamic control dependence as Xin and Zhang define it ("Efficient online detection
   of dynamic control dependence", ISSTA 2007) from each function's post-dominator tree: per
   activation a stack of (branch instance, its immediate post-dominator); entering block x pops
   the entries whose post-dominator is x, x's control parent is the top (or, on an empty stack,
   the parent of the caller's block that made the call: calls made under a test); a branch
   pushes itself, replacing a top entry with the same post-dominator (the previous iteration of
   a loop). Which branches are tests comes from the names Clang gives their targets (see
   branch_kind). Exceptions follow the tracker's model: the block that calls __cxa_throw is the
   `<throw>` node; a landing pad entered by unwinding is controlled by that throw (across
   frames), up to where the code that did not throw goes on; the handler's start (its
   __cxa_begin_catch) is the `<catch>` test, which controls the handler; going on unwinding
   (`resume`) is no successor, as an unwind edge is none. A throw from inside the library
   (std::stoi) is modelled by the tracker as data (the `<catch>` reads what the call read), so
   lines controlled by it are skipped. longjmp resumes the CD stack saved when its setjmp ran.
   Only the program's own functions count: blocks of library code (templates of the standard
   headers) are left out, so a callback's statements are controlled by what controls the
   program's call into the library, as in the tracker.
4. compares, per source line (the unit both sides share: the tracker's nodes are placed at
   statements and keywords, the IR's locations at operators), the union of the controllers of
   the tracker's nodes on the line with the union of the reference's control parents of the
   block instances that hold the line (its instructions' locations, its declared variables' and,
   for a function's entry, its parameters'): each test (or throw) is named by its line.
   Every difference is a MISMATCH: `missing` (the reference has a controller the tracker lacks)
   or `extra` (the tracker has one the reference does not).

With --expected FILE, mismatches listed there (PROGRAM:LINE CLASS CONTROLLER  CAUSE) are known;
the run fails (status 1) on a mismatch the file does not list and on a listed one that is gone.

usage: control_oracle.py [options] SOURCE...   (see --help)
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import struct
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
EXIT = -1  # the virtual exit of a function's CFG


def fail_usage(message):
    print(f"control_oracle: {message}", file=sys.stderr)
    sys.exit(2)


class OracleError(Exception):
    """A program the oracle cannot check (a build or run failed): reported, and a failure."""


# ---------------------------------------------------------------------------------------------
# The CFG: one function's blocks, from Clang's LLVM IR at -O0.

class Block:
    def __init__(self, label):
        self.label = label
        self.guard = None  # the block's number in the trace
        self.succs = []  # normal successors (labels), EXIT-less
        self.unwind = None  # the landing pad of an invoke
        self.exits = False  # ret, unreachable or resume
        self.lines = set()  # source lines the block holds
        self.catch_lines = set()  # a handler's start: the line of its `catch`
        self.branch_line = None  # the line of its terminator, when it branches
        self.branch_kind = None  # when it branches: see branch_kind()
        self.landing_pad = False
        self.throw_line = None  # the line of a __cxa_throw or __cxa_rethrow it calls
        self.begins_catch = False
        self.type_test = False  # its branch is a catch clause's type test
        self.setjmp = False
        self.resumes = False


class Function:
    def __init__(self, name, blocks, program):
        self.name = name
        self.blocks = blocks  # label -> Block, the entry first
        self.entry = next(iter(blocks))
        self.program = program  # defined in the program's source (not a library header)
        self._ipdom = None
        self._propagates = None
        self._handler_ends = {}

    def successors(self, label):
        b = self.blocks[label]
        succs = list(dict.fromkeys(b.succs))
        if b.unwind and b.throw_line is not None:
            succs = [b.unwind]  # a throw (its normal way is `unreachable`) goes to its handler
        if label not in self.propagates():  # going on unwinding is exceptional, as an unwind is
            succs = [s for s in succs if s not in self.propagates()]
        return succs + [EXIT] if b.exits or not succs else succs

    def propagates(self):
        """The blocks from which every path ends in `resume` (an exception that no handler of
        this function catches goes on unwinding): a catch clause's type test that does not match
        leads there."""
        if self._propagates is None:
            result = set()
            changed = True
            while changed:
                changed = False
                for label, b in self.blocks.items():
                    if label in result:
                        continue
                    if b.resumes or (b.succs and all(s in result for s in b.succs)):
                        result.add(label)
                        changed = True
            self._propagates = result
        return self._propagates

    def is_branch(self, label):
        """Whether the block is a test (or part of one's condition) of the source."""
        return self.blocks[label].branch_kind in ("test", "part", "value")

    def ipdom(self):
        """Immediate post-dominators over the normal edges, without those into blocks that go
        on unwinding (Cooper, Harvey and Kennedy's
        iteration on the reverse graph); a block that cannot reach the exit (an endless loop)
        gets an edge to it."""
        if self._ipdom is not None:
            return self._ipdom
        succs = {label: self.successors(label) for label in self.blocks}
        preds = {label: [] for label in self.blocks}
        preds[EXIT] = []
        for label, ss in succs.items():
            for s in ss:
                preds[s].append(label)
        reaching = set()
        work = [EXIT]
        while work:
            n = work.pop()
            if n in reaching:
                continue
            reaching.add(n)
            work.extend(preds[n])
        for label in self.blocks:
            if label not in reaching:
                succs[label].append(EXIT)
                preds[EXIT].append(label)
        # Postorder of the reverse graph from EXIT.
        order, seen = [], {EXIT}
        stack = [(EXIT, iter(preds[EXIT]))]
        while stack:
            node, it = stack[-1]
            nxt = next((p for p in it if p not in seen), None)
            if nxt is None:
                order.append(node)
                stack.pop()
            else:
                seen.add(nxt)
                stack.append((nxt, iter(preds[nxt])))
        number = {n: i for i, n in enumerate(order)}
        ipdom = {EXIT: EXIT}

        def intersect(a, b):
            while a != b:
                while number[a] < number[b]:
                    a = ipdom[a]
                while number[b] < number[a]:
                    b = ipdom[b]
            return a

        changed = True
        while changed:
            changed = False
            for n in reversed(order):
                if n == EXIT:
                    continue
                done = [s for s in succs[n] if s in ipdom]
                new = done[0]
                for s in done[1:]:
                    new = intersect(s, new)
                if ipdom.get(n) != new:
                    ipdom[n] = new
                    changed = True
        self._ipdom = ipdom
        return ipdom

    def handler_end(self, pad):
        """Where the control of a throw that lands on the landing pad pad ends: the first of
        pad's post-dominators that the function also reaches without an exception (after the
        handler, where the code that did not throw goes on)."""
        if pad not in self._handler_ends:
            reached, work = set(), [self.entry]
            while work:
                n = work.pop()
                if n in reached:
                    continue
                reached.add(n)
                work.extend(self.blocks[n].succs)
            ipdom = self.ipdom()
            n = ipdom[pad]
            while n != EXIT and n not in reached:
                n = ipdom[n]
            self._handler_ends[pad] = n
        return self._handler_ends[pad]


GUARD = re.compile(r"@__sanitizer_cov_trace_pc_guard\(ptr (?:inttoptr \(i64 add \(i64 ptrtoint "
                   r"\(ptr )?(@__sancov_gen_[\w.]*)(?: to i64\), i64 (\d+)\) to ptr\))?\)")
GUARD_ARRAY = re.compile(r"^(@__sancov_gen_[\w.]*) = (private global \[(\d+) x i32\]) "
                         r"zeroinitializer")
LABEL = re.compile(r"^([\w.$-]+|\"[^\"]+\"):")
DBG = re.compile(r"!dbg !(\d+)")
LOCATION = re.compile(r"^!(\d+) = (?:distinct )?!DILocation\(line: (\d+), column: (\d+)")
SUBPROGRAM = re.compile(r"^!(\d+) = (?:distinct )?!DISubprogram\((.*)\)")
FILE_MD = re.compile(r"^!(\d+) = (?:distinct )?!DIFile\(filename: \"([^\"]*)\", "
                     r"directory: \"([^\"]*)\"")
VARIABLE = re.compile(r"^!(\d+) = (?:distinct )?!DILocalVariable\((.*)\)")
DECLARE = re.compile(r"#dbg_declare\([^,]*, !(\d+),")
TARGET = re.compile(r"label %([\w.$-]+|\"[^\"]+\")")
SETJMP = re.compile(r"@(?:_setjmp|setjmp|sigsetjmp|__sigsetjmp)\(")


def number_guards(ir):
    """Gives every guard array of the IR distinct, non-zero numbers, and records every return
    (a call to __control_trace_return before each `ret`: Clang's -finstrument-functions would
    also name functions that only the library defines); returns the new IR and the first number
    of each array."""
    base, out, next_id = {}, [], 1
    for line in ir.split("\n"):
        if line.startswith("  ret ") and not (out and "musttail call" in out[-1]):
            out.append("  call void @__control_trace_return()")
        m = GUARD_ARRAY.match(line)
        if m:
            count = int(m.group(3))
            base[m.group(1)] = next_id
            values = ", ".join(f"i32 {next_id + i}" for i in range(count))
            line = f"{m.group(1)} = {m.group(2)} [{values}]" + line[m.end():]
            next_id += count
        out.append(line)
    out.append("declare void @__control_trace_return()")
    return "\n".join(out), base


def parse_ir(ir, source, base):
    """Every function of the IR (`program` tells the program's own) and a map from guard
    numbers to (function, block label)."""
    lines = ir.split("\n")
    locations, subprograms, files, variables = {}, {}, {}, {}
    for line in lines:
        if not line.startswith("!"):
            continue
        if m := LOCATION.match(line):
            locations[m.group(1)] = int(m.group(2))
        elif m := SUBPROGRAM.match(line):
            subprograms[m.group(1)] = m.group(2)
        elif m := FILE_MD.match(line):
            files[m.group(1)] = os.path.join(m.group(3), m.group(2))
        elif m := VARIABLE.match(line):
            lm = re.search(r"\bline: (\d+)", m.group(2))
            variables[m.group(1)] = int(lm.group(1)) if lm else 0
    source = os.path.realpath(source)
    with open(source, encoding="utf-8", errors="replace") as f:
        source_lines = f.read().split("\n")

    def field(text, name):
        m = re.search(rf"\b{name}: (!?\d+)", text)
        return m.group(1).lstrip("!") if m else None

    functions, guards = [], {}
    i = 0
    while i < len(lines):
        line = lines[i]
        if not line.startswith("define "):
            i += 1
            continue
        sp = re.search(r"!dbg !(\d+) \{$", line)
        sp_text = subprograms.get(sp.group(1), "") if sp else ""
        file_id = field(sp_text, "file")
        program = bool(file_id and os.path.realpath(files.get(file_id, "")) == source)
        sp_line = int(field(sp_text, "line") or 0)
        name = re.search(r"@([\w.$]+|\"[^\"]+\")\(", line).group(1)
        blocks = {}
        current = Block("<entry>")
        blocks[current.label] = current
        instructions = []  # of the current block: joined text of each
        body = []
        i += 1
        while lines[i] != "}":
            body.append(lines[i])
            i += 1
        for text in body + [None]:
            label = LABEL.match(text) if text is not None else None
            if text is None or label:
                finish_block(current, instructions, locations, variables)
                if text is None:
                    break
                if current.label == "<entry>" and not instructions:
                    del blocks["<entry>"]  # the entry has a name of its own
                current = Block(label.group(1))
                blocks[current.label] = current
                instructions = []
            elif text.startswith("  ") and not text.startswith("   ") and text[2] != "]":
                instructions.append(text.strip())
            elif text.strip() and instructions:
                instructions[-1] += " " + text.strip()
        if program and sp_line:
            next(iter(blocks.values())).lines.add(sp_line)
        for b in blocks.values():
            if b.begins_catch and program:
                b.catch_lines = {catch_keyword_line(source_lines, b)}
        function = Function(name, blocks, program)
        functions.append(function)
        for b in blocks.values():
            if b.guard is not None:
                array, offset = b.guard
                guards[base[array] + offset // 4] = (function, b.label)
        i += 1
    return functions, guards


# What a conditional branch is, from the names Clang's code generation gives the blocks it
# branches to (-fno-discard-value-names): a statement's test (the tracker's `<test>` and
# `<catch>` nodes), a short-circuit part of a test's condition (`a` of `if (a && b)`), the test
# of `?:`, `&&` or `||` in a value (in the tracker's model it controls the calls of its
# operands; their reads are data of its value), or another branch that the source does not
# write: va_arg's register or stack, the loops that construct and destroy arrays, `new`'s null
# check... Those are left out: what they hold is controlled by what controls them.
TEST_TARGETS = {"if.then", "if.else", "if.end", "for.body", "for.end", "for.cond.cleanup",
                "while.body", "while.end", "do.body", "do.end", "catch", "catch.fallthrough",
                "eh.resume", "sw.bb", "sw.default", "sw.epilog"}
PART_TARGETS = {"land.lhs.true", "lor.lhs.false"}
VALUE_TARGETS = {"cond.true", "cond.false", "land.rhs", "lor.rhs"}


def label_base(label):
    return re.sub(r"\d+$", "", label.strip('"'))


def branch_kind(op, succs):
    bases = {label_base(s) for s in succs}
    if bases & PART_TARGETS:
        return "part"
    if op == "switch" or bases & TEST_TARGETS:
        return "test"
    if bases & VALUE_TARGETS:
        return "value"
    return "other"


CATCH_KEYWORD = re.compile(r"\bcatch\b")


def catch_keyword_line(source_lines, block):
    """The line of a handler's `catch` keyword, its <catch> node's: the nearest line holding
    `catch` at or above the handler's first statement. (The location Clang gives the handler's
    start is another clause's or the try statement's end when a try has several clauses.)"""
    start = block.catch_lines
    if block.lines:
        first = min(block.lines)
        for line in range(first, max(first - 10, 0), -1):
            if line <= len(source_lines) and CATCH_KEYWORD.search(source_lines[line - 1]):
                return line
    return min(start) if start else 0


def finish_block(block, instructions, locations, variables):
    catch_location = None
    for text in instructions:
        if "@llvm.eh.typeid.for" in text:
            block.type_test = True
        if "@__cxa_begin_catch(" in text:
            block.begins_catch = True
            m = DBG.search(text)
            catch_location = m.group(1) if m else None
    for text in instructions:
        if text.startswith("#dbg_declare"):
            m = DECLARE.search(text)
            if m and variables.get(m.group(1)):
                block.lines.add(variables[m.group(1)])
            continue
        m = GUARD.search(text)
        if m:
            block.guard = (m.group(1), int(m.group(2) or 0))
            continue
        if (text.startswith("#dbg_") or "@__control_trace_return(" in text or
                "@__cxa_end_catch(" in text):
            continue
        if text.split(" ")[0] == "landingpad" or " = landingpad " in text:
            block.landing_pad = True
        dbg = DBG.search(text)
        line = locations.get(dbg.group(1), 0) if dbg else 0
        if "@__cxa_throw(" in text or "@__cxa_rethrow(" in text:
            block.throw_line = line
        if SETJMP.search(text):
            block.setjmp = True
        # An unconditional branch carries the location of the statement it leaves (an `if`'s,
        # at the end of its `then`): not a statement of the block.
        if text.startswith("br label "):
            continue
        # The handler's own bookkeeping (__cxa_begin_catch and what stores its result) carries
        # the `catch` clause's location: it is the <catch> test's, not a statement of the
        # handler's body.
        if line and catch_location and dbg and dbg.group(1) == catch_location:
            block.catch_lines.add(line)
        elif line:
            block.lines.add(line)
    if not instructions:
        return
    term = instructions[-1]
    op = term.split(" ")[0] if not term.startswith("%") else term.split(" ")[2]
    if op == "invoke" or " = invoke " in term:
        block.succs = [re.search(r" to label %([\w.$-]+|\"[^\"]+\")", term).group(1)]
        block.unwind = re.search(r"unwind label %([\w.$-]+|\"[^\"]+\")", term).group(1)
    elif op in ("br", "switch", "indirectbr"):
        block.succs = TARGET.findall(term)
    else:
        block.exits = True  # ret, unreachable, resume
    if len(set(block.succs)) > 1:
        dbg = DBG.search(term)
        block.branch_line = locations.get(dbg.group(1), 0) if dbg else 0
        block.branch_kind = branch_kind(op, block.succs)
    # A landing pad's and a resume's locations are the compiler's (the function's closing brace).
    if block.landing_pad or term.startswith("resume "):
        block.lines = set()
    block.resumes = term.startswith("resume ")


# ---------------------------------------------------------------------------------------------
# Dynamic control dependence (Xin and Zhang) over the trace.

class Entry:
    """A branch instance on an activation's CD stack."""

    def __init__(self, token, ipdom, kind, parent=None, line_parent=None):
        self.token = token  # 'test:LINE', 'throw:LINE' or 'libthrow:...'
        self.ipdom = ipdom  # where its control ends
        self.kind = kind  # "test", "part", "value" (see branch_kind), "type test" or "throw"
        self.parent = parent  # the branch instance's own control parent
        self.line_parent = line_parent  # and the one its lines show


class Activation:
    def __init__(self, function, frame, entry_parent, entry_line_parent):
        self.function = function
        self.frame = frame
        self.entry_parent = entry_parent
        self.entry_line_parent = entry_line_parent
        self.stack = []  # of Entry, innermost last
        self.block = None  # the block instance running now
        self.parent = None  # its control parent
        self.line_parent = None
        self.setjmp_stacks = {}  # setjmp block -> the stack when it ran


def test_token(line):
    return f"test:{line}"


def dynamic_control(events, guards, stats=None):
    """The control parents of the program's block instances: returns {line: set of controllers}
    (a controller is 'test:LINE', 'throw:LINE' or 'libthrow:...'; None for none) and a list of
    anomalies (events the reference could not place). stats, if given, gets the deepest CD stack
    ("deepest")."""
    activations = []  # the program's, innermost last
    parents = {}
    anomalies = []
    pending_throw = None

    def pop_deeper(frame, inclusive):
        while activations and (activations[-1].frame < frame or
                               (inclusive and activations[-1].frame == frame)):
            activations.pop()

    def push(act, entry):
        # A new instance of a branch whose control ends where the top's does replaces it: the
        # previous iteration of a loop (Xin and Zhang).
        if act.stack and act.stack[-1].ipdom == entry.ipdom:
            act.stack.pop()
        act.stack.append(entry)
        if stats is not None:
            stats["deepest"] = max(stats.get("deepest", 0), len(act.stack))

    for guard, frame in events:
        if guard == 0:  # a return
            pop_deeper(frame, inclusive=True)
            continue
        where = guards.get(guard)
        if where is None:
            anomalies.append(f"unknown block number {guard}")
            continue
        function, label = where
        if not function.program:
            pop_deeper(frame, inclusive=False)
            continue
        block = function.blocks[label]
        ipdom = function.ipdom()
        if label == function.entry:
            pop_deeper(frame, inclusive=True)
            caller = activations[-1] if activations else None
            act = Activation(function, frame, caller.parent if caller else None,
                             caller.parent if caller else None)
            activations.append(act)
            parent = line_parent = act.entry_parent
        else:
            pop_deeper(frame, inclusive=False)
            act = activations[-1] if activations else None
            if act is None or act.frame != frame or act.function is not function:
                anomalies.append(f"{function.name}:{label}: block of no running activation")
                act = Activation(function, frame, None, None)
                activations.append(act)
            previous = act.block
            if block.landing_pad:
                # Unwinding reached this frame: the throw controls the landing pad and what
                # follows, up to where the throwing call's two ways out meet.
                thrower = function.blocks.get(previous) if previous else None
                if thrower is not None and thrower.unwind != label:
                    anomalies.append(f"{function.name}:{label}: landing pad not the unwind "
                                     f"destination of the running block {previous}")
                controller = pending_throw or f"libthrow:{function.name}:{previous}"
                meet = function.handler_end(label)
                while act.stack and act.stack[-1].ipdom == label:
                    act.stack.pop()
                push(act, Entry(controller, meet, "throw"))
                parent = line_parent = controller
            else:
                if previous is not None and label not in function.blocks[previous].succs:
                    jumped = [s for s, b in function.blocks.items()
                              if b.setjmp and label in b.succs and s in act.setjmp_stacks]
                    if jumped:  # longjmp: back in the setjmp's block
                        act.stack = list(act.setjmp_stacks[jumped[0]])
                    else:
                        anomalies.append(f"{function.name}:{label}: not a successor of "
                                         f"{previous}")
                # The control of every branch instance whose post-dominator this is ends here
                # (also below the top: a test whose other way returns, above a test whose
                # region it outlives).
                act.stack = [e for e in act.stack if e.ipdom != label]
                top = act.stack[-1] if act.stack else None
                if top is None:
                    parent, line_parent = act.entry_parent, act.entry_line_parent
                elif (top.kind == "part" and label in function.blocks[previous].succs and
                      function.blocks[previous].branch_kind == "part"):
                    # The rest of a condition (`b` of `a && b`) is part of the same test: its
                    # lines have that test's parent, as the tracker's single test node of the
                    # condition; the calls it makes run only if `a` held, under the condition's
                    # line (the tracker's call takes the control of the test it is part of).
                    parent, line_parent = top.token, top.line_parent
                elif top.kind == "value":
                    # An operand of `?:`, `&&` or `||` in a value: the calls it makes run under
                    # the operator's test, its own reads are data of the operator's value.
                    parent, line_parent = top.token, top.line_parent
                else:
                    parent = line_parent = top.token
        if block.catch_lines:
            # The handler's start is its <catch> test: controlled by the throw (as the clause's
            # type test, which it replaces; `catch (...)` has none), it controls the handler up
            # to where the type test's control ends, or else the throw's.
            end = None
            while act.stack and act.stack[-1].kind == "type test":
                type_test = act.stack.pop()
                line_parent, end = type_test.line_parent, type_test.ipdom
            if end is None:
                end = act.stack[-1].ipdom if act.stack else EXIT
            for line in block.catch_lines:
                parents.setdefault(line, set()).add(line_parent)
            parent = line_parent = test_token(min(block.catch_lines))
            push(act, Entry(parent, end, "test", parent, parent))
        for line in block.lines:
            parents.setdefault(line, set()).add(line_parent)
        if function.is_branch(label):
            kind = "type test" if block.type_test else block.branch_kind
            push(act, Entry(test_token(block.branch_line), ipdom[label], kind, parent,
                            line_parent))
        if block.begins_catch:  # the exception is caught (a rethrow in the handler follows)
            pending_throw = None
        if block.throw_line is not None:
            pending_throw = f"throw:{block.throw_line}"
        if block.setjmp:
            act.setjmp_stacks[label] = list(act.stack)
        act.block, act.parent, act.line_parent = label, parent, line_parent
    return parents, anomalies


def read_trace(path):
    """The trace's events, per thread: {thread: [(block number or 0, frame address)]}."""
    with open(path, "rb") as f:
        data = f.read()
    data = data[:len(data) - len(data) % 16]
    threads = {}
    for g, thread, frame in struct.iter_unpack("<IIQ", data):
        threads.setdefault(thread, []).append((g, frame))
    return threads


# ---------------------------------------------------------------------------------------------
# The tracker's side.

def tracker_controls(graph, source):
    """{line: set of controllers} of the tracker's executed nodes in source, and
    {line: [node descriptions]}."""
    source = os.path.realpath(source)
    nodes = {n["id"]: n for n in graph["nodes"]}
    controls, described = {}, {}
    for n in graph["nodes"]:
        if n.get("executed") and os.path.realpath(n["file"]) == source:
            controls.setdefault(n["line"], set())
            described.setdefault(n["line"], []).append(f"{n['name']}")
    for e in graph["edges"]:
        if e["kind"] != "control":
            continue
        origin, target = nodes[e["from"]], nodes[e["to"]]
        if target["line"] not in controls or os.path.realpath(target["file"]) != source:
            continue
        kind = "throw" if origin["name"] == "<throw>" else "test"
        controls[target["line"]].add(f"{kind}:{origin['line']}")
    return controls, described


def compare(tracker, described, reference):
    """Mismatches: [(line, class, controller, detail)]; and the lines skipped (library throws)."""
    mismatches, skipped = [], []
    for line in sorted(tracker):
        if line not in reference:
            mismatches.append((line, "unplaced", "-",
                               f"no block of the run holds the line; nodes {described[line]}"))
            continue
        ref = reference[line]
        if any(c and c.startswith("libthrow:") for c in ref):
            skipped.append(line)
            continue
        ref = {c for c in ref if c}
        detail = (f"tracker={{{', '.join(sorted(tracker[line]))}}} "
                  f"reference={{{', '.join(sorted(ref))}}} nodes={described[line]}")
        for c in sorted(ref - tracker[line]):
            mismatches.append((line, "missing", c, detail))
        for c in sorted(tracker[line] - ref):
            mismatches.append((line, "extra", c, detail))
    return mismatches, skipped


# ---------------------------------------------------------------------------------------------
# Building and running.

def run(cmd, cwd, what, env=None, timeout=120):
    try:
        p = subprocess.run(cmd, cwd=cwd, env=env, stdin=subprocess.DEVNULL, capture_output=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        raise OracleError(f"{what}: timed out")
    except OSError as e:
        raise OracleError(f"{what}: {e}")
    return p


def check_program(args, source, work):
    name = os.path.basename(source)
    cxx = not source.endswith(".c")
    os.makedirs(work, exist_ok=True)
    flags = (args.cxxflags if cxx else args.cflags).split()

    # The tracker.
    exe = os.path.join(work, "deps_prog")
    p = run([args.sleuth, "c++" if cxx else "cc", *flags, "-o", exe, source], work,
            f"{name}: the dependency-mode build")
    if p.returncode:
        raise OracleError(f"{name}: the dependency-mode build failed: "
                          f"{p.stderr.decode(errors='replace').strip()[-500:]}")
    deps = os.path.join(work, "deps_prog.deps")
    env = dict(os.environ, SLEUTH_OUT=deps)
    tracked = run([exe], work, f"{name}: the dependency-mode run", env)
    graph_file = os.path.join(work, "graph.json")
    p = run([args.sleuth, "slice", deps, "--format", "json", "-o", graph_file], work,
            f"{name}: the slicer")
    if p.returncode:
        raise OracleError(f"{name}: sleuth slice failed: {p.stderr.decode(errors='replace')}")

    # The reference.
    compiler = args.cxx if cxx else args.cc
    ir_file = os.path.join(work, "trace.ll")
    p = run([compiler, *flags, "-g", "-fno-omit-frame-pointer", "-fno-discard-value-names",
             "-fsanitize-coverage=trace-pc-guard", "-mllvm", "-sanitizer-coverage-prune-blocks=0",
             "-S", "-emit-llvm", "-o", ir_file, source], work,
            f"{name}: the reference's compilation")
    if p.returncode:
        raise OracleError(f"{name}: the reference's compilation failed: "
                          f"{p.stderr.decode(errors='replace').strip()[-500:]}")
    with open(ir_file, encoding="utf-8", errors="replace") as f:
        ir, base = number_guards(f.read())
    numbered = os.path.join(work, "trace.numbered.ll")
    with open(numbered, "w", encoding="utf-8") as f:
        f.write(ir)
    runtime = os.path.join(work, "control_trace_rt.o")
    p = run([args.cc, "-O0", "-fno-omit-frame-pointer", "-c", "-o", runtime,
             os.path.join(HERE, "control_trace_rt.c")], work, f"{name}: the trace runtime")
    if p.returncode:
        raise OracleError(f"{name}: the trace runtime: {p.stderr.decode(errors='replace')}")
    traced_exe = os.path.join(work, "trace_prog")
    p = run([compiler, "-O0", "-w", "-o", traced_exe, numbered, runtime], work,
            f"{name}: the reference's link")
    if p.returncode:
        raise OracleError(f"{name}: the reference's link failed: "
                          f"{p.stderr.decode(errors='replace').strip()[-500:]}")
    trace_file = os.path.join(work, "run.trace")
    traced = run([traced_exe], work, f"{name}: the reference's run",
                 dict(os.environ, CONTROL_TRACE=trace_file))
    if not os.path.isfile(trace_file):
        raise OracleError(f"{name}: the reference's run wrote no trace")
    if (traced.stdout, traced.returncode) != (tracked.stdout, tracked.returncode):
        raise OracleError(f"{name}: the two builds' runs differ (output or status): the "
                          f"reference does not describe the tracked run")

    with open(graph_file, encoding="utf-8") as f:
        graph = json.load(f)
    functions, guards = parse_ir(ir, source, base)
    reference, anomalies = {}, []
    for events in read_trace(trace_file).values():
        parents, odd = dynamic_control(events, guards)
        for line, controllers in parents.items():
            reference.setdefault(line, set()).update(controllers)
        anomalies += odd
    tracker, described = tracker_controls(graph, source)
    mismatches, skipped = compare(tracker, described, reference)
    return mismatches, skipped, anomalies


def read_expected(path):
    expected = {}
    if not path:
        return expected
    try:
        with open(path, encoding="utf-8") as f:
            for number, line in enumerate(f, 1):
                if not line.strip() or line.startswith("#"):
                    continue
                p = line.split()
                if len(p) < 4 or ":" not in p[0] or p[1] not in ("missing", "extra", "unplaced"):
                    fail_usage(f"{path}:{number}: expected PROGRAM:LINE CLASS CONTROLLER CAUSE")
                expected[(p[0], p[1], p[2])] = " ".join(p[3:])
    except OSError as e:
        fail_usage(f"{path}: {e.strerror.lower()}")
    return expected


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("sources", nargs="+", metavar="SOURCE")
    ap.add_argument("--sleuth", default=os.path.join(REPO, "build/tools/sleuth/sleuth"))
    ap.add_argument("--work", default="control-oracle-work")
    ap.add_argument("--expected", help="known mismatches: PROGRAM:LINE CLASS CONTROLLER CAUSE")
    ap.add_argument("--cc", default="clang-19", help="the reference's C compiler (Clang)")
    ap.add_argument("--cxx", default="clang++-19", help="the reference's C++ compiler (Clang)")
    ap.add_argument("--jobs", "-j", type=int, default=2, help="programs checked at once")
    ap.add_argument("--cflags", default="-O0 -w")
    ap.add_argument("--cxxflags", default="-O0 -w -std=c++20")
    args = ap.parse_args()
    for s in args.sources:
        if not os.path.isfile(s):
            fail_usage(f"{s}: no such file")
    if not os.access(args.sleuth, os.X_OK):
        fail_usage(f"--sleuth {args.sleuth}: not an executable")
    # The builds run in each program's work directory.
    if os.sep in args.sleuth:
        args.sleuth = os.path.abspath(args.sleuth)
    for c in (args.cc, args.cxx):
        if not shutil.which(c):
            fail_usage(f"{c}: compiler not found (--cc/--cxx)")
    args.work = os.path.abspath(args.work)
    try:
        os.makedirs(args.work, exist_ok=True)
    except OSError as e:
        fail_usage(f"--work {args.work}: {e.strerror.lower()}")
    expected = read_expected(args.expected)
    failed, seen, checked = False, set(), set()
    totals = {"lines": 0, "mismatches": 0, "skipped": 0}
    names = [os.path.basename(s) for s in args.sources]
    if len(set(names)) != len(names):
        fail_usage("two sources of the same name")

    def check(source):
        try:
            return check_program(args, os.path.abspath(source),
                                 os.path.join(args.work, os.path.basename(source)))
        except OracleError as e:
            return e

    with concurrent.futures.ThreadPoolExecutor(max(1, args.jobs)) as pool:
        results = list(pool.map(check, args.sources))
    for source, result in zip(args.sources, results):
        name = os.path.basename(source)
        if isinstance(result, OracleError):
            print(f"ERROR {result}")
            failed = True
            continue
        mismatches, skipped, anomalies = result
        checked.add(name)
        for a in anomalies[:5]:
            print(f"ANOMALY {name}: {a}")
        if anomalies:
            failed = True
        totals["mismatches"] += len(mismatches)
        totals["skipped"] += len(skipped)
        for line, cls, controller, detail in mismatches:
            key = (f"{name}:{line}", cls, controller)
            seen.add(key)
            status = "expected" if key in expected else "MISMATCH"
            if key not in expected:
                failed = True
            print(f"{status} {name}:{line} {cls} {controller}  {detail}")
        if skipped:
            print(f"skipped {name}: lines {skipped} (controlled by a throw inside the library)")
    for key, cause in expected.items():
        if key[0].split(":")[0] in checked and key not in seen:
            print(f"EXPECTED MISMATCH GONE {' '.join(key)}  ({cause})")
            failed = True
    print(f"control oracle: {len(checked)} programs, {totals['mismatches']} mismatches, "
          f"{totals['skipped']} lines skipped (library throws)")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
