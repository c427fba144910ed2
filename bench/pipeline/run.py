#!/usr/bin/env python3
"""Benchmark of transform.pipeline.schedule_stages over a corpus of loops.

Corpus: the execution-test inputs of test/Pipeline/Inputs (every loop tagged
`pipeline`, scheduled for nvidia-h100, ascend-910b and x86-avx512), random
loops from utils/pipeline-fuzz.py (small bodies, their own random targets
and num_stages) and large random bodies of about 100 scheduled ops.

For every loop it prints: scheduled ops, ResMII, RecMII, MII, the achieved
interval, stages used / stage limit, on-chip bytes / capacity, the op's run
time (analysis + scheduling, then rewrite, in microseconds: the library's
events for the loop in hwsched-opt --hwsched-time-trace, wall clock) and the number of dependence violations
found by an independent checker.

The checker does not use the scheduler's graph: it re-reads the loop's text,
derives SSA def-use (through unscheduled index/view ops and iter_args) and
memory accesses (memref.copy, linalg ins/outs, loads/stores, transfers,
nvgpu async copies; element sets from static subview boxes and constant
indices; function arguments alias unless llvm.noalias), takes the stages
and buffer copies from the `explain` remarks, and checks, for a body-ordered
kernel:
  - a value is never used in an earlier stage than its definition, and a
    loop-carried value is defined no later than stage(use) + 1 (and only +1
    when the definition comes first in the body);
  - two conflicting accesses (one a write) to a buffer that is not
    multi-buffered are in the same stage; on a multi-buffered buffer they
    keep body order (stage(a) <= stage(b)), the copies cover the stage span
    (copies >= span + 1), every read is covered by writes earlier in the
    same iteration (no data flows between iterations), and the function
    does not read the root after the loop (the data would be in a copy).

  python3 bench/pipeline/run.py [--opt build/bin/hwsched-opt] [--seed 11]
      [--small 60] [--large 10] [--large-ops 90] [--csv FILE]
"""

import argparse
import collections
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "utils"))
from hwsched_tools import time_trace_events  # noqa: E402
INPUTS = os.path.join(ROOT, "test", "Pipeline", "Inputs")
FUZZ = os.path.join(ROOT, "utils", "pipeline-fuzz.py")
TARGETS = ["nvidia-h100", "ascend-910b", "x86-avx512"]

REMARK_RE = re.compile(r"^(.*?):(\d+):(\d+): remark: (.*)$")
# The library's steps for one loop, in the time trace of hwsched-opt
# --hwsched-time-trace (the op itself times nothing): analysis, scheduling,
# the precondition check, then the rewrite. Each event's detail is the loop.
LOOP_EVENTS = ("hwsched::buildLoopDependenceGraph", "hwsched::scheduleForSync",
               "hwsched::checkPipelinePreconditions", "hwsched::pipelineLoop")
LOC_RE = re.compile(r'loc\("(.*?)":(\d+):(\d+)\)')
SUMMARY_RE = re.compile(r"stages (\d+) of limit (\d+): ResMII (\d+), RecMII (\d+), MII (\d+), achieved interval (\d+)")
EXHAUSTIVE_RE = re.compile(r"smallest latency-only interval (\d+)")
BOUND_RE = re.compile(r"lower bound with \d+ stages (\d+) \((modulo scheduled|level merging)\)")
BUFBYTES_RE = re.compile(r"buffer (\d+) cop(?:y|ies)(?: x (\d+) bytes)?.* (on|off) chip")
SPECS = os.path.join(ROOT, "hw-specs")
ELEM_BYTES = {"f64": 8, "i64": 8, "index": 8, "f32": 4, "i32": 4, "f16": 2, "bf16": 2,
              "i16": 2, "i8": 1, "i1": 1}
BYTES_RE = re.compile(r"on-chip bytes (\d+) of capacity (\d+)")
STAGE_RE = re.compile(r"stage (\d+) on unit (\w+)")
BUFFER_RE = re.compile(r"buffer (\d+) cop")


# The shipped sequence the fixed inputs are scheduled with (their loops carry
# `pipeline`); the target comes from the driver (--hwsched-target).
LIBRARY = os.path.join(ROOT, "transform-scripts", "pipeline.mlir")
ENTRY = "hwsched_pipeline_tagged_loops"


def loop_times(trace):
    """{0-based line of the loop: microseconds of its LOOP_EVENTS} in one
    time trace (wall clock)."""
    times = collections.defaultdict(float)
    for name in LOOP_EVENTS:
        for detail, us in time_trace_events(trace, name):
            m = LOC_RE.search(detail)
            if m:
                times[int(m.group(2)) - 1] += us
    return times


def run_opt(opt, payload, lib, entry, repeat=5, extra=()):
    """Runs the transform `repeat` times; returns the exit status and stderr
    of the last run and, per loop line, the fastest of the runs' times (the
    machine is shared, the minimum is the least disturbed measurement)."""
    best = {}
    with tempfile.TemporaryDirectory(prefix="bench-pipeline-trace-") as tmp:
        trace = os.path.join(tmp, "trace.json")
        for _ in range(repeat):
            proc = subprocess.run(
                [opt, payload, f"--transform-preload-library=transform-library-paths={lib}",
                 f"--transform-interpreter=entry-point={entry}", *extra,
                 f"--hwsched-time-trace={trace}", "-o", os.devnull],
                capture_output=True, text=True)
            if not os.path.exists(trace):
                continue
            for line, us in loop_times(trace).items():
                best[line] = min(us, best.get(line, us))
            os.remove(trace)
    return proc.returncode, proc.stderr, best


# ----------------------------------------------------------------------------
# Independent checker on the loop text.
# ----------------------------------------------------------------------------

NAME = r"%[\w.$-]+(?:#\d+)?"


def find_loops(lines):
    """(start line index, end line index) of every scf.for in the text."""
    loops = []
    for i, line in enumerate(lines):
        if re.search(r"\bscf\.for\b", line):
            depth = 0
            for j in range(i, len(lines)):
                depth += lines[j].count("{") - lines[j].count("}")
                if depth <= 0 and j > i:
                    loops.append((i, j))
                    break
    return loops


def func_of(lines, idx):
    for i in range(idx, -1, -1):
        if lines[i].lstrip().startswith("func.func"):
            return lines[i]
    return ""


def dims_of(type_text):
    m = re.search(r"memref<([\dx]+)x\w+", type_text)
    if not m:
        return None
    return tuple(int(d) for d in m.group(1).split("x"))


class LoopText:
    """Ops of one loop body, with their defs, uses and memory accesses."""

    def __init__(self, lines, start, end):
        self.lines = lines
        self.start = start
        self.end = end
        header = lines[start]
        self.iter_args = re.findall(r"(" + NAME + r") = " + NAME, header.split("iter_args", 1)[1]) \
            if "iter_args" in header else []
        self.iv = re.search(r"scf\.for (?:unsigned )?(" + NAME + ")", header).group(1)
        sig = func_of(lines, start)
        self.args = {}
        for name, typ in re.findall(r"(" + NAME + r"): (memref<[^>]*>(?: \{[^}]*\})?)", sig):
            self.args[name] = ("noalias" in typ, dims_of(typ))
        # Constants and memref definitions of the whole function (text before
        # and inside the loop).
        self.consts, self.memdef = {}, {}
        fstart = start
        while fstart > 0 and not lines[fstart].lstrip().startswith("func.func"):
            fstart -= 1
        for line in lines[fstart:end]:
            m = re.match(r"\s*(" + NAME + r") = arith\.constant (-?\d+) : index", line)
            if m:
                self.consts[m.group(1)] = int(m.group(2))
            m = re.match(r"\s*(" + NAME + r") = memref\.(alloc|alloca)\(\) : (memref<[^>]*>)", line)
            if m:
                self.memdef[m.group(1)] = ("alloc", m.group(1), dims_of(m.group(3)))
            m = re.match(r"\s*(" + NAME + r") = memref\.(subview|cast) (" + NAME + r")(.*)", line)
            if m:
                self.memdef[m.group(1)] = (m.group(2), m.group(3), m.group(4))
        # Top-level body ops (depth 1).
        self.ops = []
        depth = 0
        for i in range(start + 1, end):
            line = lines[i]
            if depth == 0 and line.strip() and not line.strip().startswith("//"):
                self.ops.append(i)
            depth += line.count("{") - line.count("}")
            depth = max(depth, 0)
        self.yield_line = next((i for i in self.ops if "scf.yield" in lines[i]), None)
        self.yields = re.findall(NAME, lines[self.yield_line].split(":")[0]) if self.yield_line is not None else []
        self.defs = {}
        for i in self.ops:
            m = re.match(r"\s*((?:" + NAME + r"(?::\d+)?)(?:, " + NAME + r")*) = ", lines[i])
            if m:
                for res in m.group(1).split(", "):
                    base = res.split(":")[0]
                    self.defs[base] = i

    def root_and_elems(self, name):
        """(root, element set or None for 'any'); element sets in root coords."""
        offsets, sizes = None, None
        while name in self.memdef:
            kind, src, rest = self.memdef[name]
            if kind == "alloc":
                break
            if kind == "subview":
                m = re.match(r"\[([^\]]*)\] \[([^\]]*)\] \[([^\]]*)\]", rest.strip())
                if not m:
                    return src, None
                offs = [x.strip() for x in m.group(1).split(",")]
                szs = [x.strip() for x in m.group(2).split(",")]
                if all(re.fullmatch(r"-?\d+", x) for x in offs + szs) and offsets is None:
                    offsets, sizes = [int(x) for x in offs], [int(x) for x in szs]
                else:
                    offsets = "any"
            name = src
        shape = self.memdef[name][2] if name in self.memdef else \
            (self.args[name][1] if name in self.args else None)
        if offsets == "any" or shape is None:
            return name, None
        if offsets is None:
            offsets, sizes = [0] * len(shape), list(shape)
        if len(offsets) != len(shape):
            return name, None
        return name, box_set(offsets, sizes)

    def accesses(self, i):
        """[(root, elems or None, is_write, exact)] of the op on line i."""
        line = self.lines[i]
        acc = []

        def add(name, write, exact=True, elems=None):
            root, full = self.root_and_elems(name)
            if elems is not None and full is not None:
                acc.append((root, elems, write, exact))
            else:
                acc.append((root, full, write, exact and full is not None))

        m = re.search(r"memref\.copy (" + NAME + r"), (" + NAME + r")", line)
        if m:
            add(m.group(1), False)
            add(m.group(2), True)
        m = re.search(r"linalg\.\w+ (?:\{[^}]*\} )?ins\(([^:)]*)(?::[^)]*)?\) outs\(([^:)]*)", line)
        if m:
            for n in re.findall(NAME, m.group(1)):
                if n in self.memdef or n in self.args:
                    add(n, False)
            for n in re.findall(NAME, m.group(2)):
                add(n, False)
                add(n, True)
        for op, write in (("vector.transfer_read", False), ("memref.load", False),
                          ("vector.load", False)):
            m = re.search(op + r" (" + NAME + r")\[([^\]]*)\]", line)
            if m:
                add(m.group(1), write, exact=False, elems=self.point(m.group(1), m.group(2))
                    if op == "memref.load" else None)
        for op in ("memref.store", "vector.transfer_write", "vector.store"):
            m = re.search(op + r" " + NAME + r", (" + NAME + r")\[([^\]]*)\]", line)
            if m:
                pt = self.point(m.group(1), m.group(2)) if op == "memref.store" else None
                add(m.group(1), True, exact=pt is not None, elems=pt)
        m = re.search(r"nvgpu\.device_async_copy (" + NAME + r")\[[^\]]*\], (" + NAME + r")\[", line)
        if m:
            add(m.group(1), False)
            add(m.group(2), True, exact=False)
        if "nvgpu.device_async_wait" in line:
            for j in self.ops:
                mm = re.search(r"nvgpu\.device_async_copy " + NAME + r"\[[^\]]*\], (" + NAME + r")\[", self.lines[j])
                if mm:
                    add(mm.group(1), True, exact=False)
        return acc

    def live_out_roots(self):
        """Roots whose contents at the loop's exit the function reads: walking
        the ops after the loop at its own nesting level, a root certainly
        read (copy source, named linalg input, load, vector read) before any
        write to it. Multi-buffering such a root is wrong: after the loop
        the data of the last iteration is in one of the copies, not in the
        buffer the later op reads (our rewrite has no copy-out, and the
        scheduler refuses to rename any buffer used outside the loop). The
        walk stops at the first op with a region (it does not look inside),
        so it under-approximates: leaving a root out only weakens a proof."""
        roots, written = set(), set()
        indent = len(self.lines[self.start]) - len(self.lines[self.start].lstrip())
        for i in range(self.end + 1, len(self.lines)):
            line = self.lines[i]
            if not line.strip() or line.lstrip().startswith("//"):
                continue
            if len(line) - len(line.lstrip()) < indent or line.lstrip().startswith("}") \
                    or line.rstrip().endswith("{"):
                break
            m = re.match(r"\s*(" + NAME + r") = memref\.(subview|cast) (" + NAME + r")(.*)", line)
            if m:
                self.memdef.setdefault(m.group(1), (m.group(2), m.group(3), m.group(4)))
                continue
            reads = {r for r, _ in certain_reads(self, i)} | reads_unknown_elems(self, i)
            roots |= reads - written
            written |= {r for r, _, w, _ in self.accesses(i) if w}
        return roots

    def point(self, name, idx_text):
        idx = [x.strip() for x in idx_text.split(",") if x.strip()]
        if not all(x in self.consts for x in idx):
            return None
        root, full = self.root_and_elems(name)
        if full is None or name != root:
            return None
        return {tuple(self.consts[x] for x in idx)}

    def operands(self, i):
        line = self.lines[i]
        body = line.split(" = ", 1)[1] if re.match(r"\s*" + NAME + r".* = ", line) else line
        body = body.split(" : ")[0]
        return [n.split("#")[0] for n in re.findall(NAME, body)]

    def producers(self, name, scheduled, seen, carried=False):
        """The ops of `scheduled` that `name` is computed from in the body, as
        (line, iteration boundaries crossed): 0 within the iteration; through
        an iter_arg (its yielded value, distance 1) only when `carried`.
        `seen` holds the names already walked."""
        if name in seen:
            return []
        seen.add(name)
        if name in self.iter_args:
            k = self.iter_args.index(name)
            if not carried or k >= len(self.yields):
                return []
            return [(p, d + 1) for p, d in
                    self.producers(self.yields[k], scheduled, seen, carried) if d == 0]
        if name not in self.defs:
            return []
        line = self.defs[name]
        if line in scheduled:
            return [(line, 0)]
        out = []
        for n in self.operands(line):
            out += self.producers(n, scheduled, seen, carried)
        return out

    def may_alias(self, r1, r2):
        """Whether memref roots `r1` and `r2` may be the same memory: the
        same root, or two function arguments neither of which is noalias."""
        if r1 == r2:
            return True
        if r1 in self.args and r2 in self.args:
            return not (self.args[r1][0] or self.args[r2][0])
        return False


def box_set(offsets, sizes):
    sets = [()]
    for o, s in zip(offsets, sizes):
        sets = [p + (k,) for p in sets for k in range(o, o + s)]
    return set(sets)


# ----------------------------------------------------------------------------
# Independent bound: can any schedule reach MII within the stage limit and
# the capacity? Derived from the loop text, the spec's latencies and the
# units named in the remarks (the unit mapping is an input, not a claim).
# ----------------------------------------------------------------------------

def load_spec(target):
    import json
    with open(os.path.join(SPECS, target + ".json")) as f:
        spec = json.load(f)
    return spec


SYNC_OPS = ("nvgpu.device_async_create_group", "nvgpu.device_async_wait", "gpu.barrier")


# Named linalg ops whose payload reads the output (accumulations).
ACCUMULATING = {"matmul", "batch_matmul", "matvec", "vecmat", "dot", "batch_matvec",
                "batch_reduce_matmul", "matmul_transpose_a", "matmul_transpose_b"}


def certain_reads(lt, i):
    """[(root, elems or None)] the op on line i reads for sure (a subset of
    LoopText.accesses, which also counts linalg outs as reads: a fill or an
    elementwise op does not read them): memref.copy sources, the inputs of
    named linalg ops (not linalg.generic, whose body may ignore one), the
    outputs of named contractions (they accumulate) and memref.load."""
    line = lt.lines[i]
    out = []
    m = re.search(r"memref\.copy (" + NAME + r"), (" + NAME + r")", line)
    if m:
        out.append(lt.root_and_elems(m.group(1)))
    m = re.search(r"linalg\.(\w+) (?:\{[^}]*\} )?ins\(([^:)]*)(?::[^)]*)?\) outs\(([^:)]*)", line)
    if m and m.group(1) != "generic":
        # Contractions accumulate into their outputs (C += A * B): those are
        # read too; elementwise ops and fills overwrite theirs.
        names = re.findall(NAME, m.group(2))
        if m.group(1) in ACCUMULATING:
            names += re.findall(NAME, m.group(3))
        for n in names:
            if n in lt.memdef or n in lt.args:
                out.append(lt.root_and_elems(n))
    m = re.search(r"memref\.load (" + NAME + r")\[([^\]]*)\]", line)
    if m:
        root, _ = lt.root_and_elems(m.group(1))
        out.append((root, lt.point(m.group(1), m.group(2))))
    return out


def reads_unknown_elems(lt, i):
    """Roots the op on line i reads through ops certain_reads leaves out
    because their elements are not computed (vector reads, async-copy
    sources): they do read, the elements are unknown."""
    line = lt.lines[i]
    roots = set()
    for op in ("vector.transfer_read", "vector.load"):
        m = re.search(op + r" (" + NAME + r")\[", line)
        if m:
            roots.add(lt.root_and_elems(m.group(1))[0])
    m = re.search(r"nvgpu\.device_async_copy (" + NAME + r")\[", line)
    if m:
        roots.add(lt.root_and_elems(m.group(1))[0])
    return roots


def conflicting_accesses(ops, acc, alias, with_self=False):
    """Conflicting access pairs of two ops, `a` before `b` in `ops` (or the
    same op with `with_self`): one of them writes, their roots may alias and
    their elements are not provably disjoint. Yields (a, b, root_a, writes_a,
    root_b, writes_b)."""
    for ka, a in enumerate(ops):
        for b in ops[ka if with_self else ka + 1:]:
            for ra, ea, wa, _ in acc[a]:
                for rb, eb, wb, _ in acc[b]:
                    if not (wa or wb) or not alias(ra, rb):
                        continue
                    if ra == rb and ea is not None and eb is not None and not (ea & eb):
                        continue
                    yield a, b, ra, wa, rb, wb


def loop_carried(lt, ops, pos, lat, alias, producers, acc):
    """Loop-carried dependences that every schedule must respect, from the
    loop text: (values, raws, fixed_roots).
      - values: (p, u, latency(p), slack) for the producer p of a yielded
        value and every op u using its iter_arg: sigma(u) + II >= sigma(p) +
        latency, and the checker's rule stage(p) <= stage(u) + slack (1 when
        p is before u in the body, else 0);
      - raws: (W, R, latency(W)) for certain loop-carried memory RAW: element
        e read by R is last written, going backwards around the loop from R,
        by an op W of the previous iteration whose write set is known exactly
        and contains e (any possibly-writing op met first leaves e out);
        and possible loop-carried RAW: a real read of R meets, walking back,
        no possibly-overlapping write in its own iteration and then such a
        write W in the previous one (aliasing roots, unknown elements);
      - fixed_roots: the allocations of those RAW (they cannot be
        multi-buffered: some read is not covered in its iteration)."""
    values, raws = [], []
    for k, arg in enumerate(lt.iter_args):
        if k >= len(lt.yields):
            break
        prods = producers(lt.yields[k], set())

        def uses_arg(name, seen):
            if name == arg:
                return True
            if name in seen or name not in lt.defs or lt.defs[name] in acc:
                return False
            seen.add(name)
            return any(uses_arg(n, seen) for n in lt.operands(lt.defs[name]))

        users = [u for u in ops if any(uses_arg(n, set()) for n in lt.operands(u))]
        for p in prods:
            for u in users:
                values.append((p, u, lat(p, u), 1 if pos[p] < pos[u] else 0))
    order = sorted(ops, key=lambda i: pos[i])
    fixed_roots = set()
    for r in ops:
        k = order.index(r)
        back = [(x, 0) for x in reversed(order[:k])] + [(x, 1) for x in reversed(order[k:])]
        for root, elems in certain_reads(lt, r):
            if elems is None:
                continue
            remaining = set(elems)
            for x, d in back:
                if not remaining:
                    break
                stop = False
                for rw, ew, ww, exact in acc[x]:
                    if not ww or not alias(root, rw):
                        continue
                    if rw == root and ew is not None:
                        hit = remaining & ew
                        if not hit:
                            continue
                        if exact:
                            if d == 1:
                                raws.append((x, r, lat(x, r)))
                                fixed_roots.add(root)
                            remaining -= ew
                            continue
                    stop = True
                if stop:
                    break
    # Possible loop-carried RAW: a real read (as for the same-iteration
    # latency edges) of root r, walking backwards around the loop, that meets
    # no write which may overlap it in its own iteration and then, in the
    # previous iteration, a write W which may overlap it (an aliasing root,
    # or r with elements not provably disjoint). Nothing between W(i) and
    # R(i+1) may overwrite those elements, so when the alias or the overlap
    # is real (the IR allows it: a correct schedule must be correct for such
    # inputs too) R reads what W wrote and must wait for W's latency, as the
    # same-iteration edges already do for possible aliases. Reads that a
    # possible write of their own iteration may serve are left out (that
    # write may kill the dependence), so this only under-approximates.
    certain = set(raws)
    real_reads = {i: {root for root, _ in certain_reads(lt, i)} | reads_unknown_elems(lt, i)
                  for i in ops}
    for r in ops:
        k = order.index(r)
        back = [(x, 0) for x in reversed(order[:k])] + [(x, 1) for x in reversed(order[k:])]
        reads = [(root, elems) for root, elems, w, _ in acc[r]
                 if not w and root in real_reads[r]]
        for root, elems in reads:
            for x, d in back:
                hit = any(ww and alias(root, rw) and not (
                    rw == root and ew is not None and elems is not None and not (ew & elems))
                    for rw, ew, ww, _ in acc[x])
                if not hit:
                    continue
                if d == 1 and (x, r, lat(x, r)) not in certain:
                    raws.append((x, r, lat(x, r)))
                    certain.add((x, r, lat(x, r)))
                    if lt.memdef.get(root, ("",))[0] == "alloc":
                        fixed_roots.add(root)
                break
    return values, raws, fixed_roots


def recurrence_infeasible(lt, ops, pos, edges, lat, alias, producers, acc, units, sync, pu,
                          limit, ii):
    """Proof that no schedule at interval `ii` exists, from loop-carried
    dependences (not used by the path bound above). Issue times sigma must
    satisfy, for any schedule the checker accepts:
      - every same-iteration edge a -> b: sigma(b) - sigma(a) >= latency;
      - loop-carried values (iter_args): the yielded value's producer p and
        every op u using the iter_arg: sigma(u) + ii >= sigma(p) + latency(p);
        and the checker's rule stage(p) <= stage(u) + (1 if p is before u
        else 0), i.e. sigma(p) - sigma(u) <= (that + 1) * ii - 1;
      - loop-carried memory RAW where it is certain: element e read by R is
        last written, going backwards around the loop from R, by an op W of
        the previous iteration whose write set is known exactly and contains
        e (any possibly-writing op met first leaves e out), and where it is
        possible but nothing can kill it (see loop_carried):
        sigma(R) + ii >= sigma(W) + latency(W);
      - two ops of one unit with count 1 never overlap in the modulo
        reservation table: when sigma(b) - sigma(a) >= w is forced and
        w mod ii is below a's issue cycles, sigma(b) - sigma(a) >= w - (w mod
        ii) + issue(a);
      - 0 <= sigma <= limit * ii - 1.
    These are difference constraints: infeasible iff longest paths from a
    virtual source diverge or exceed the horizon. Returns '' when feasible."""
    horizon = limit * ii - 1
    cons = []  # (a, b, w): sigma(b) - sigma(a) >= w

    def serialize(a, b, w):
        u = units.get(a)
        if a != b and u is not None and u == units.get(b) and not sync[a] and not sync[b] \
                and u in pu and pu[u]["count"] == 1:
            phase = w % ii
            if phase < pu[u]["issue_cycles"]:
                w += pu[u]["issue_cycles"] - phase
        return w

    for (a, b), w in edges.items():
        cons.append((a, b, serialize(a, b, w)))
    carried = 0
    values, raws, fixed_roots = loop_carried(lt, ops, pos, lat, alias, producers, acc)
    for p, u, w, slack in values:
        cons.append((p, u, serialize(p, u, w - ii)))
        cons.append((p, u, -((slack + 1) * ii - 1)))
        carried += 1
    for x, r, w in raws:
        cons.append((x, r, serialize(x, r, w - ii)))
        carried += 1
    order = sorted(ops, key=lambda i: pos[i])
    # The checker's same-stage rule: conflicting accesses through two
    # different (aliasing) roots, or to one root that is not multi-buffered,
    # share a stage: |sigma(a) - sigma(b)| <= ii - 1. A root with a certain
    # loop-carried RAW cannot be multi-buffered (the checker requires every
    # read of a multi-buffered root to be covered by writes earlier in the
    # same iteration, and the walk above met no write of that element).
    # Neither can a root read after the loop (LoopText.live_out_roots) nor
    # one that is not an allocation (function arguments: the checker only
    # accepts copies of allocations).
    fixed_roots = fixed_roots | lt.live_out_roots()
    same_stage = {}  # insertion-ordered set of (a, b)
    for a, b, ra, _, rb, _ in conflicting_accesses(order, acc, alias):
        fixed = ra in fixed_roots or ra not in lt.memdef or lt.memdef[ra][0] != "alloc"
        if not (ra == rb and not fixed):
            same_stage[(a, b)] = True
    for a, b in same_stage:
        cons.append((a, b, -(ii - 1)))
        cons.append((b, a, -(ii - 1)))
        carried += 1
    if not carried:
        return ""
    dist = {i: 0 for i in ops}
    for _ in range(len(ops) + 1):
        changed = False
        for a, b, w in cons:
            if dist[a] + w > dist[b]:
                dist[b] = dist[a] + w
                changed = True
        if not changed:
            break
    else:
        return f"the loop-carried dependences admit no issue times at II {ii} (positive cycle)"
    late = max(dist.values()) if dist else 0
    if late > horizon:
        return (f"the loop-carried dependences need issue times up to {late} > {horizon} "
                f"(stage limit {limit} at II {ii})")
    return ""


def exact_schedule_exists(lt, ops, pos, edges, lat, alias, producers, acc, units, sync, pu,
                          limit, ii):
    """Whether a schedule at interval `ii` exists, decided exactly (a mixed
    integer program, scipy/HiGHS) over a relaxation of the rules every
    schedule must satisfy; None when scipy is missing or the solver gives up.
    Variables: issue time sigma(v) and stage(v) per op, with sigma(v) =
    ii * stage(v) + t(v), 0 <= t(v) <= ii - 1, 0 <= stage(v) <= limit - 1.
    Constraints:
      - same-iteration edges, loop-carried values and certain loop-carried
        memory RAW with their latencies (as in recurrence_infeasible);
      - the checker's stage rules: loop-carried values stage(p) <= stage(u)
        + slack; two conflicting accesses share a stage unless they go
        through one allocation that can be multi-buffered, i.e. every read
        of it is covered by exact writes earlier in the iteration (the
        checker's overwrite rule) and the function does not read it after
        the loop, and then keep body order;
      - units of count 1: the issue windows [t, t + issue) of two ops never
        overlap modulo ii (one binary per pair).
    Left out (so False is a proof, True is not a schedule): units of count
    above 1, the capacity, loop-carried memory RAW that a possible write of
    the reader's iteration may kill, and the checker's copy count."""
    try:
        import numpy as np
        from scipy.optimize import Bounds, LinearConstraint, milp
        from scipy.sparse import coo_matrix
    except ImportError:
        return None
    n = len(ops)
    if n == 0:
        return True
    idx = {v: k for k, v in enumerate(ops)}
    rows = []  # ({column: coefficient}, lower, upper)
    inf = np.inf

    def sig(v):
        return idx[v]

    def stg(v):
        return n + idx[v]

    unsat = []

    def difference(col, b, a, lower, upper=inf):
        """lower <= x(b) - x(a) <= upper; on one op, a check of 0."""
        if a == b:
            if not lower <= 0 <= upper:
                unsat.append((a, lower, upper))
            return
        rows.append(({col(b): 1, col(a): -1}, lower, upper))

    for (a, b), w in edges.items():
        difference(sig, b, a, w)
    values, raws, _ = loop_carried(lt, ops, pos, lat, alias, producers, acc)
    for p, u, w, slack in values:
        difference(sig, u, p, w - ii)
        difference(stg, u, p, -slack)
    for x, r, w in raws:
        difference(sig, r, x, w - ii)
    renamable = set()
    roots = {r for i in ops for r, *_ in acc[i]}
    live_out = lt.live_out_roots()
    for r in roots:
        if r not in lt.memdef or lt.memdef[r][0] != "alloc" or r in live_out:
            continue
        written, covered = set(), True
        for i in lt.ops:
            for root, elems, w, exact in lt.accesses(i):
                if root == r and not w:
                    need = elems if elems is not None else lt.root_and_elems(r)[1]
                    covered = covered and need is not None and need <= written
            for root, elems, w, exact in lt.accesses(i):
                if root == r and w and exact and elems is not None:
                    written |= elems
        if covered:
            renamable.add(r)
    order = sorted(ops, key=lambda i: pos[i])
    for a, b, ra, _, rb, _ in conflicting_accesses(order, acc, alias):
        same = not (ra == rb and ra in renamable)
        difference(stg, b, a, 0, 0 if same else inf)
    if unsat:
        return False  # a self-dependence longer than the interval
    for v in ops:
        rows.append(({sig(v): 1, stg(v): -ii}, 0, ii - 1))
    per_unit = collections.defaultdict(list)
    for v in ops:
        if not sync[v] and units.get(v) in pu and pu[units[v]]["count"] == 1:
            per_unit[units[v]].append(v)
    nbin = 0
    big = 2 * ii
    for u, vs in per_unit.items():
        issue = pu[u]["issue_cycles"]
        if len(vs) * issue > ii:
            return False  # the unit's slots do not fit one interval
        for x in range(len(vs)):
            for y in range(x + 1, len(vs)):
                a, b = vs[x], vs[y]
                z = 2 * n + nbin
                nbin += 1
                # t(b) - t(a) = sigma(b) - sigma(a) - ii * (stage(b) - stage(a))
                d = {sig(b): 1, sig(a): -1, stg(b): -ii, stg(a): ii}
                neg = {k: -c for k, c in d.items()}
                # z = 1: a's window first: t(b) - t(a) in [issue, ii - issue];
                # z = 0: b's window first: t(a) - t(b) in [issue, ii - issue].
                rows.append(({**d, z: -big}, issue - big, inf))
                rows.append(({**neg, z: -big}, issue - ii - big, inf))
                rows.append(({**neg, z: big}, issue, inf))
                rows.append(({**d, z: big}, issue - ii, inf))
    cols = 2 * n + nbin
    ri, ci, vals, lo, hi = [], [], [], [], []
    for k, (coef, l, h) in enumerate(rows):
        for j, c in coef.items():
            ri.append(k)
            ci.append(j)
            vals.append(c)
        lo.append(l)
        hi.append(h)
    a_mat = coo_matrix((vals, (ri, ci)), shape=(len(rows), cols)).tocsr()
    upper = np.concatenate([np.full(n, limit * ii - 1), np.full(n, limit - 1), np.ones(nbin)])
    res = milp(c=np.zeros(cols), constraints=LinearConstraint(a_mat, lo, hi),
               integrality=np.ones(cols), bounds=Bounds(np.zeros(cols), upper),
               options={"time_limit": 30})
    if res.status == 0:
        return True
    if res.status == 2:
        return False
    return None


def independent_bound(lt, stages, units, spec, limit, mii, onchip_bytes, capacity,
                      achieved=None):
    """Returns a dict: resmii (recomputed), path (longest same-iteration
    latency path), stages_at_mii (stages any schedule at MII needs),
    ii_bound (smallest II with those stages within `limit`), bytes_at_mii (a
    lower bound of the on-chip bytes at MII), reason ('' when the bounds
    allow II == MII)."""
    ops = [i for i in lt.ops if i in stages]
    pu = spec["pipeline"]["units"]
    line = {i: lt.lines[i] for i in ops}
    sync = {i: any(k in line[i] for k in SYNC_OPS) for i in ops}
    group = {i: "nvgpu.device_async_create_group" in line[i] for i in ops}
    # ResMII: issue cycles per unit over the unit count.
    per_unit = collections.Counter(units[i] for i in ops if not sync[i])
    resmii = max([1] + [-(-per_unit[u] * pu[u]["issue_cycles"] // pu[u]["count"])
                        for u in per_unit if u in pu])

    def lat(a, b):
        if sync[b] and units.get(b) == units.get(a):
            return 0
        if sync[a] and not group[a]:
            return 0
        return pu.get(units.get(a), {}).get("latency_cycles", 0)

    # Same-iteration edges a -> b (a earlier in the body) with latency.
    edges = collections.defaultdict(int)
    pos = {i: k for k, i in enumerate(lt.ops)}
    defs_to_ops = {}

    def producers(name, seen):
        return [a for a, _ in lt.producers(name, stages, seen)]

    for b in ops:
        for n in set(lt.operands(b)):
            for a in producers(n, set()):
                if a != b and pos[a] < pos[b]:
                    edges[(a, b)] = max(edges[(a, b)], lat(a, b))
    acc = {i: lt.accesses(i) for i in ops}

    alias = lt.may_alias

    real_reads = {i: {root for root, _ in certain_reads(lt, i)} | reads_unknown_elems(lt, i)
                  for i in ops}
    conflicts = collections.defaultdict(set)  # (a, b) -> roots
    for a, b, ra, wa, rb, wb in conflicting_accesses(ops, acc, alias):
        # RAW carries the writer's latency; WAR/WAW only order. Only a real
        # read waits for the latency: linalg outs count as reads for the
        # conflicts, but a fill or an elementwise op overwrites them without
        # reading.
        w = lat(a, b) if wa and not wb and rb in real_reads[b] else 0
        edges[(a, b)] = max(edges.get((a, b), 0), w)
        conflicts[(a, b)].add(ra)
        conflicts[(a, b)].add(rb)
    # Longest paths from every node over the DAG (body order is topological).
    succ = collections.defaultdict(list)
    for (a, b), w in edges.items():
        succ[a].append((b, w))
    order = sorted(ops, key=lambda i: pos[i])
    longest = {}
    for a in order:
        dist = {a: 0}
        for u in order[order.index(a):]:
            if u not in dist:
                continue
            for v, w in succ[u]:
                if dist[u] + w > dist.get(v, -1):
                    dist[v] = dist[u] + w
        longest[a] = dist
    path = max([0] + [max(d.values()) for d in longest.values()])
    stages_at_mii = 1 + path // mii
    ii_bound = max(mii, path // limit + 1)
    # On-chip bytes at MII: two conflicting accesses to one buffer that a
    # latency path separates by k stage boundaries keep k + 1 copies live.
    need = collections.defaultdict(lambda: 1)
    for (a, b), roots in conflicts.items():
        k = 1 + longest[a].get(b, 0) // mii
        for r in roots:
            need[r] = max(need[r], k)
    bytes_at_mii = 0
    for r, size in onchip_bytes.items():
        bytes_at_mii += size * need[r]
    exact = [None, None]

    def exact_at(ii):
        return exact_schedule_exists(lt, ops, pos, edges, lat, alias, producers, acc, units,
                                     sync, pu, limit, ii)

    reason = ""
    if stages_at_mii > limit:
        reason = f"stages: a {path}-cycle path needs {stages_at_mii} stages at II {mii} > {limit}"
    elif capacity and bytes_at_mii > capacity:
        reason = f"capacity: >= {bytes_at_mii} bytes at II {mii} > {capacity}"
    else:
        why = recurrence_infeasible(lt, ops, pos, edges, lat, alias, producers, acc, units,
                                    sync, pu, limit, mii)
        if why:
            reason = "recurrence: " + why
    # The exact check: at MII on every loop the bounds above leave open (a
    # loop scheduled at MII must pass it: the soundness check in main), and
    # on a loop above MII the smallest interval it admits, scanning up to
    # the achieved one (a few steps: each is a solve).
    exact_bound = None
    if not reason and achieved is not None:
        ok = exact_at(mii)
        exact = [ok, mii]
        if ok is False:
            reason = (f"exact: no issue times and stages at II {mii} satisfy the dependences, "
                      f"the checker's stage rules and the count-1 units (MILP)")
            exact_bound = mii + 1
            for ii in range(mii + 1, min(achieved, mii + 16)):
                ok = exact_at(ii)
                if ok is not False:
                    break
                exact_bound = ii + 1
    return dict(resmii=resmii, path=path, stages_at_mii=stages_at_mii, ii_bound=ii_bound,
                bytes_at_mii=bytes_at_mii, reason=reason, exact=exact[0],
                exact_bound=exact_bound)


def check_loop(text, stages, copies):
    """Returns a list of violation strings for one loop."""
    v = []
    lt = text
    pos = {line: k for k, line in enumerate(lt.ops)}
    scheduled = {line for line in lt.ops if line in stages}

    def producers(name):
        return lt.producers(name, scheduled, set(), carried=True)

    for u in scheduled:
        for n in set(lt.operands(u)):
            for p, d in producers(n):
                if p == u:
                    continue
                if d == 0 and stages[p] > stages[u]:
                    v.append(f"line {u + 1}: uses a value of line {p + 1} from a later stage")
                if d == 1 and stages[p] > stages[u] + (1 if pos[p] < pos[u] else 0):
                    v.append(f"line {u + 1}: loop-carried value of line {p + 1} defined too late")
    # Memory.
    acc = {i: lt.accesses(i) for i in lt.ops}
    for i in lt.ops:
        if acc[i] and i not in stages:
            v.append(f"line {i + 1}: memory op without a stage")

    alias = lt.may_alias

    # Overwrite property of multi-buffered roots.
    renamed = {r for r, c in copies.items() if c > 1}
    for r in renamed & lt.live_out_roots():
        v.append(f"{r}: multi-buffered but read after the loop")
    for r in renamed:
        written = set()
        for i in lt.ops:
            for root, elems, w, exact in acc[i]:
                if root != r or w:
                    continue
                need = elems if elems is not None else lt.root_and_elems(r)[1]
                if need is None or not need <= written:
                    v.append(f"line {i + 1}: multi-buffered {r} read before being overwritten")
            for root, elems, w, exact in acc[i]:
                if root == r and w and exact and elems is not None:
                    written |= elems
    span = collections.defaultdict(list)
    for i in lt.ops:
        for root, *_ in acc[i]:
            if i in stages:
                span[root].append(stages[i])
    for r in renamed:
        if r in span and copies[r] < max(span[r]) - min(span[r]) + 1:
            v.append(f"{r}: {copies[r]} copies for stages {min(span[r])}..{max(span[r])}")
    staged = [i for i in lt.ops if i in stages]
    for a, b, ra, _, rb, _ in conflicting_accesses(staged, acc, alias, with_self=True):
        if ra == rb and ra in renamed:
            if stages[a] > stages[b]:
                v.append(f"lines {a + 1}->{b + 1}: order inverted on {ra}")
        elif stages[a] != stages[b]:
            v.append(f"lines {a + 1},{b + 1}: conflicting accesses to "
                     f"{ra}/{rb} in stages {stages[a]} and {stages[b]}")
    return sorted(set(v))


def memref_bytes(type_text):
    m = re.search(r"memref<([\dx]+)x(\w+)", type_text)
    if not m:
        return None
    n = 1
    for d in m.group(1).split("x"):
        n *= int(d)
    return n * ELEM_BYTES.get(m.group(2), 4)


def analyse(payload, stderr, times, label, rows, target, requested):
    with open(payload) as f:
        lines = f.read().split("\n")
    loops = find_loops(lines)
    remarks = collections.defaultdict(list)
    for line in stderr.splitlines():
        m = REMARK_RE.match(line)
        if m and os.path.abspath(m.group(1)) == os.path.abspath(payload):
            remarks[int(m.group(2)) - 1].append(m.group(4))
    for start, end in loops:
        summary = next((SUMMARY_RE.search(r) for r in remarks.get(start, []) if SUMMARY_RE.search(r)), None)
        if not summary:
            continue
        bytes_m = next((BYTES_RE.search(r) for r in remarks[start] if BYTES_RE.search(r)), None)
        text = LoopText(lines, start, end)
        stages, units = {}, {}
        for i in text.ops:
            for r in remarks.get(i, []):
                m = STAGE_RE.search(r)
                if m:
                    stages[i] = int(m.group(1))
                    units[i] = m.group(2)
        copies, onchip = {}, {}
        for name, (kind, _, _) in text.memdef.items():
            if kind != "alloc":
                continue
            # The nearest definition above the loop (names repeat across
            # functions).
            line = next((k for k in range(start - 1, -1, -1)
                         if re.match(r"\s*" + re.escape(name) + r" = memref\.alloca?\(", lines[k])), None)
            if line is None:
                continue
            for r in remarks.get(line, []):
                m = BUFFER_RE.search(r)
                if m:
                    copies[name] = int(m.group(1))
                m = BUFBYTES_RE.search(r)
                if m and m.group(3) == "on":
                    size = memref_bytes(lines[line])
                    if size is not None:
                        onchip[name] = size
        violations = check_loop(text, stages, copies)
        s = [int(x) for x in summary.groups()]
        tgt, req = target, requested
        if isinstance(target, dict):
            fn = re.search(r"func\.func @(\w+)", func_of(lines, start)).group(1)
            tgt, req = target[fn]
        spec = load_spec(tgt)
        limit = spec["pipeline"]["max_stages"]
        if req:
            limit = min(limit, req)
        capacity = int(bytes_m.group(2)) if bytes_m else 0
        ind = independent_bound(text, stages, units, spec, limit, s[4], onchip, capacity,
                                achieved=s[5])
        bound_m = next((BOUND_RE.search(r) for r in remarks[start] if BOUND_RE.search(r)), None)
        exh_m = next((EXHAUSTIVE_RE.search(r) for r in remarks[start] if EXHAUSTIVE_RE.search(r)), None)
        rows.append(dict(loop=f"{label}:{start + 1}", ops=len(stages), stages=s[0], limit=s[1],
                         resmii=s[2], recmii=s[3], mii=s[4], ii=s[5],
                         bytes=int(bytes_m.group(1)) if bytes_m else 0,
                         capacity=int(bytes_m.group(2)) if bytes_m else 0,
                         us=times.get(start, float("nan")), violations=violations,
                         reduced=any("reduced" in r for r in remarks[start]),
                         ind=ind, req_limit=limit,
                         sched_bound=int(bound_m.group(1)) if bound_m else None,
                         modulo=bool(bound_m and bound_m.group(2) == "modulo scheduled"),
                         exhaustive=int(exh_m.group(1)) if exh_m else None))


def main(argv):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--opt", default=os.path.join(ROOT, "build", "bin", "hwsched-opt"))
    p.add_argument("--seed", type=int, default=11)
    p.add_argument("--small", type=int, default=60)
    p.add_argument("--large", type=int, default=10)
    p.add_argument("--large-ops", type=int, default=90)
    p.add_argument("--csv", default=None)
    p.add_argument("--show-violations", action="store_true")
    args = p.parse_args(argv)
    work = tempfile.mkdtemp(prefix="bench-pipeline-")
    rows = []
    # The inputs use workgroup memory; the NPU and CPU runs see the same
    # loops with the buffers in "ub" and in the default space.
    spaces = {"nvidia-h100": None, "ascend-910b": '"ub"', "x86-avx512": "0"}
    for name in ("matmul-k-exec.mlir", "loops-exec.mlir"):
        for target in TARGETS:
            payload = os.path.join(INPUTS, name)
            if spaces[target]:
                with open(payload) as f:
                    text = f.read().replace("#gpu.address_space<workgroup>", spaces[target])
                payload = os.path.join(work, f"{target}-{name}")
                with open(payload, "w") as f:
                    f.write(text)
            rc, err, times = run_opt(args.opt, payload, LIBRARY, ENTRY,
                                     extra=[f"--hwsched-target={target}"])
            analyse(payload, err, times, f"{name.split('.')[0]}/{target}", rows, target, None)
    for kind, count, extra in (("small", args.small, []),
                               ("large", args.large, ["--min-ops", str(args.large_ops),
                                                      "--max-ops", str(args.large_ops),
                                                      "--max-buffers", "12"])):
        if count == 0:
            continue
        out = os.path.join(work, kind)
        subprocess.run([sys.executable, FUZZ, "--seed", str(args.seed), "--cases", str(count),
                        "--per-module", "10", "--emit-only", out, *extra],
                       check=True, capture_output=True)
        for f in sorted(os.listdir(out)):
            if f.endswith(".lib.mlir"):
                continue
            payload = os.path.join(out, f)
            lib = payload.replace(".mlir", ".lib.mlir")
            with open(lib) as fh:
                text = re.sub(r"(schedule_stages %l \{[^}]*?) \}", r"\1, explain }", fh.read())
            with open(lib, "w") as fh:
                fh.write(text)
            rc, err, times = run_opt(args.opt, payload, lib, "fuzz")
            # Each case has its own target and stage count (pipeline-fuzz.py).
            per_case = {}
            for m in re.finditer(r"attributes\{(case_\d+)\}.*\n.*schedule_stages %l \{([^}]*)\}", text):
                tgt = re.search(r'target = "([\w-]+)"', m.group(2)).group(1)
                req = re.search(r"num_stages = (\d+)", m.group(2))
                per_case[m.group(1)] = (tgt, int(req.group(1)) if req else None)
            analyse(payload, err, times, f"{kind}/{f.split('.')[0]}", rows, per_case, None)

    hdr = (f"{'loop':34} {'ops':>4} {'ResMII':>6} {'RecMII':>6} {'MII':>5} {'II':>5} {'IIlb':>5} "
           f"{'st/lim':>6} {'bytes/capacity':>16} {'us':>8} {'viol':>4}  II>MII because")
    print(hdr)
    print("-" * len(hdr))
    for r in rows:
        ind = r["ind"]
        if r["ii"] == r["mii"]:
            why = ""
        elif ind["reason"]:
            why = "no schedule at MII: " + ind["reason"]
        elif r["exhaustive"] is not None and r["exhaustive"] > r["mii"]:
            why = (f"no schedule at MII by enumeration of all stage assignments "
                   f"(scheduler's graph, latencies only): best {r['exhaustive']}")
        else:
            why = "SCHEDULER (no proof that MII is out of reach)"
        r["why"] = why
        print(f"{r['loop']:34} {r['ops']:>4} {r['resmii']:>6} {r['recmii']:>6} {r['mii']:>5} "
              f"{r['ii']:>5} {max(ind['ii_bound'], ind['exact_bound'] or 0):>5} "
              f"{str(r['stages']) + '/' + str(r['limit']):>6} "
              f"{str(r['bytes']) + '/' + str(r['capacity']):>16} {r['us']:>8.0f} "
              f"{len(r['violations']):>4}  {why}")
        if args.show_violations:
            for v in r["violations"]:
                print("    violation:", v)
    n = len(rows)
    eq = sum(r["ii"] == r["mii"] for r in rows)
    proven_st = sum(r["ii"] != r["mii"] and r["ind"]["reason"].startswith("stages") for r in rows)
    proven_cap = sum(r["ii"] != r["mii"] and r["ind"]["reason"].startswith("capacity") for r in rows)
    proven_rec = sum(r["ii"] != r["mii"] and r["ind"]["reason"].startswith("recurrence") for r in rows)
    proven_exact = [r for r in rows if r["ii"] != r["mii"] and r["ind"]["reason"].startswith("exact")]
    enumerated = [r for r in rows if r["ii"] != r["mii"] and not r["ind"]["reason"]
                  and r["exhaustive"] is not None and r["exhaustive"] > r["mii"]]
    weak = [r for r in rows if r["ii"] != r["mii"] and not r["ind"]["reason"]
            and r not in enumerated]
    at_bound = sum(r["ii"] != r["mii"] and r["ii"] == r["ind"]["ii_bound"] for r in rows)
    res_bad = [r for r in rows if r["resmii"] != r["ind"]["resmii"]]
    viol = sum(len(r["violations"]) for r in rows)
    big = [r for r in rows if r["ops"] >= 80]
    print()
    print(f"loops: {n}; achieved interval == MII: {eq}; above MII where no schedule at MII "
          f"exists (independent proof): {proven_st + proven_cap + proven_rec + len(proven_exact)} "
          f"(stage limit {proven_st}, capacity {proven_cap}, loop-carried recurrence with the "
          f"unit's issue cycles {proven_rec}, exact MILP {len(proven_exact)}); above MII without "
          f"any proof (counted as scheduler weakness): {len(weak)}")
    if proven_exact:
        optimal = [r for r in proven_exact if r["ind"]["exact_bound"] == r["ii"]]
        print(f"  exact MILP proofs: constrained bound IIc (smallest II the exact check admits, "
              f"scanned up to 15 above MII) reaches the achieved interval on {len(optimal)} of "
              f"{len(proven_exact)}: "
              + ", ".join(f"{r['loop']} MII {r['mii']} IIc {r['ind']['exact_bound']} II {r['ii']}"
                          for r in proven_exact))
    open_exact = [r for r in rows if r["ii"] != r["mii"] and not r["ind"]["reason"]]
    if any(r["ind"]["exact"] is None for r in open_exact):
        print("  exact check unavailable on "
              f"{sum(r['ind']['exact'] is None for r in open_exact)} loops (scipy missing or "
              "solver time limit): run with a python3 that has scipy (Debian: python3-scipy)")
    print(f"  of the unproven, a schedule at MII exists in the exact check's relaxation "
          f"(units of count > 1, capacity and uncertain loop-carried memory left out): "
          f"{sum(r['ind']['exact'] is True for r in open_exact)}")
    if weak:
        ratios = sorted(r["ii"] / r["mii"] for r in weak)
        print(f"  unproven: {sum(r['mii'] == r['recmii'] for r in weak)} recurrence-bound; "
              f"II / MII median {ratios[len(ratios) // 2]:.3f}, max {ratios[-1]:.3f}")
    print(f"above MII, no independent proof, but no stage assignment reaches MII by "
          f"exhaustive enumeration (the scheduler's own graph and latency model, not "
          f"independent): {len(enumerated)}")
    print(f"loops where MII is reachable by the independent bounds: {n - proven_st - proven_cap - proven_rec - len(proven_exact)}, "
          f"of which reached: {eq}")
    print(f"above MII and equal to the independent stage-limited bound IIlb "
          f"(= max(MII, path // limit + 1)): {at_bound} of {n - eq}")
    own = sum(1 for r in weak if r["sched_bound"] is not None and r["ii"] == r["sched_bound"])
    print(f"of the {len(weak)} without an independent proof: {own} at the scheduler's own "
          f"stage-limited bound (it includes loop-carried edges; a claim, not a proof); "
          f"II / MII at most {max([r['ii'] / r['mii'] for r in weak] or [1]):.3f}")
    print(f"ResMII recomputed independently differs on {len(res_bad)} loops; "
          f"level-merging fallback used on {sum(not r['modulo'] for r in rows)} loops")
    # A proof that MII is unreachable on a loop scheduled at MII would be
    # unsound: must stay 0.
    contradicted = [r["loop"] for r in rows if r["ii"] == r["mii"] and r["ind"]["reason"]]
    print(f"proofs contradicted by a schedule at MII (must be 0): {len(contradicted)}"
          + (f" ({', '.join(contradicted)})" if contradicted else ""))
    print(f"dependence violations (independent checker): {viol}")
    if big:
        ts = sorted(r["us"] for r in big)
        per100 = max(r["us"] / r["ops"] * 100 for r in big) / 1000
        print(f"loops with >= 80 scheduled ops: {len(big)}, ops {min(r['ops'] for r in big)}.."
              f"{max(r['ops'] for r in big)}, op time median {ts[len(ts) // 2] / 1000:.2f} ms, "
              f"max {ts[-1] / 1000:.2f} ms, max per 100 ops {per100:.2f} ms")
    if args.csv:
        with open(args.csv, "w") as f:
            f.write("loop,ops,resmii,recmii,mii,ii,stages,limit,bytes,capacity,us,violations\n")
            for r in rows:
                f.write(f"{r['loop']},{r['ops']},{r['resmii']},{r['recmii']},{r['mii']},{r['ii']},"
                        f"{r['stages']},{r['limit']},{r['bytes']},{r['capacity']},{r['us']:.1f},"
                        f"{len(r['violations'])}\n")
    return 1 if viol or contradicted else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
