#!/usr/bin/env python3
"""Randomized differential test of transform.pipeline.schedule_stages.

Generates random scf.for loop bodies (copies global -> on-chip, whole and
through subviews, elementwise computes, matmuls accumulating in memory,
loads into vector / scalar accumulators, stores back to global memory,
buffers read before they are overwritten, alloc and alloca, addresses carried
to the next iteration), with random bounds (static or dynamic, lower bound
0..3, step 1..3, trip count 0..7), random targets (nvidia-h100, ascend-910b,
x86-avx512) and random num_stages (absent or 1..6). Each module holds
--per-module loops; exec-check.py runs it before and after the transform on
the CPU and compares the printed results.

  python3 utils/pipeline-fuzz.py --seed 1 --cases 300 [--per-module 30]
      [--opt build/bin/hwsched-opt] [--keep DIR] [--emit-only DIR]

Prints one line per module and a summary:
  PIPELINE-FUZZ: <cases> cases, <modules> modules, <rewritten> rewritten,
  <unchanged> unchanged, <mismatches> mismatches
and exits 1 on any mismatch or harness failure. Refused loops (silenceable
failures, suppressed per loop) count as unchanged.
"""

import argparse
import os
import random
import re
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from hwsched_tools import exec_check_command, run_tool  # noqa: E402

TARGETS = {
    "nvidia-h100": ["#gpu.address_space<workgroup>", "3"],
    "ascend-910b": ['"ub"'],
    "x86-avx512": [None],
}
GLOBAL = "memref<32x4xf32>"
ROW4 = "memref<4x4xf32, strided<[4, 1], offset: ?>>"
ROW2 = "memref<2x4xf32, strided<[4, 1], offset: ?>>"


def tile(ms):
    return f"memref<4x4xf32, {ms}>" if ms else "memref<4x4xf32>"


def half(ms, h):
    off = 8 * h
    if ms:
        return f"memref<2x4xf32, strided<[4, 1], offset: {off}>, {ms}>"
    return f"memref<2x4xf32, strided<[4, 1], offset: {off}>>"


class Case:
    def __init__(self, rng, idx, min_ops=2, max_ops=8, max_buffers=4, targets=None):
        self.idx = idx
        self.target = rng.choice(targets or sorted(TARGETS))
        self.ms = rng.choice(TARGETS[self.target])
        self.stages = rng.choice([None, 1, 2, 3, 4, 5, 6])
        self.static = rng.random() < 0.5
        self.lb = rng.randint(0, 3)
        self.step = rng.randint(1, 3)
        self.trips = rng.choice([0, 1, 2, 3, 4, 5, 6, 7, 4, 5])
        self.ub = self.lb + self.step * self.trips - rng.randint(0, self.step - 1)
        if self.trips == 0:
            self.ub = self.lb - rng.randint(0, 2)
        self.noalias = rng.random() < 0.6
        self.nbuf = rng.randint(2, max_buffers)
        self.kinds = [rng.choice(["alloc", "alloca"]) for _ in range(self.nbuf)]
        # Scratch buffers are only used inside the loop (so they can be
        # multi-buffered); the others are initialised before and printed
        # after it. Only buffers refilled at the top of the body can be
        # scratch (they are never read uninitialised).
        self.scratch = [False] * self.nbuf
        self.ops = []
        written = set()
        # Most bodies start by refilling some buffers (whole, or both halves
        # through subviews), so they are overwritten every iteration and
        # their copies can rotate; the rest keep data between iterations.
        if rng.random() < 0.8:
            for b in rng.sample(range(self.nbuf), rng.randint(1, self.nbuf)):
                g, row = rng.randint(0, 1), rng.choice(["iv", "off", "iv1"])
                if rng.random() < 0.3:
                    self.ops.append(("load_half", [b, 0, 0], 0, g, row))
                    self.ops.append(("load_half", [b, 0, 0], 1, g, row))
                else:
                    self.ops.append(("load", [b, 0, 0], 0, g, row))
                written.add(b)
                self.scratch[b] = rng.random() < 0.7
        for _ in range(rng.randint(min_ops, max_ops)):
            kind = rng.choice(["load", "load", "load_half", "add", "matmul",
                               "acc_vec", "store", "scale", "fill", "scalar",
                               "acc_vec"])
            s = [rng.randrange(self.nbuf) for _ in range(3)]
            if kind in ("add", "matmul", "acc_vec", "store", "scalar") and \
                    rng.random() < 0.7 and written:
                s[0] = rng.choice(sorted(written))
            self.ops.append((kind, s, rng.randint(0, 1), rng.randint(0, 1),
                             rng.choice(["iv", "off", "iv1"])))
            if kind in ("load", "fill"):
                written.add(s[0])
            if kind in ("add", "matmul"):
                written.add(s[2])

    def emit(self):
        i = self.idx
        ms = self.ms
        T = tile(ms)
        L = []
        na = " {llvm.noalias}" if self.noalias else ""
        L.append(f"func.func @case_{i}(%G0: {GLOBAL}{na}, %G1: {GLOBAL}{na}, %O: {GLOBAL}{na}, "
                 f"%lbd: index, %ubd: index, %stepd: index) {{")
        L.append("  %c0 = arith.constant 0 : index")
        L.append("  %c1 = arith.constant 1 : index")
        L.append("  %c2 = arith.constant 2 : index")
        L.append("  %f0 = arith.constant 0.0 : f32")
        L.append("  %fone = arith.constant 1.0 : f32")
        L.append("  %vzero = arith.constant dense<0.0> : vector<4x4xf32>")
        for b in range(self.nbuf):
            L.append(f"  %S{b} = memref.{self.kinds[b]}() : {T}")
            if not self.scratch[b]:
                L.append(f"  %fv{b} = arith.constant {b + 1}.0 : f32")
                L.append(f"  linalg.fill ins(%fv{b} : f32) outs(%S{b} : {T})")
        if self.static:
            L.append(f"  %lb = arith.constant {self.lb} : index")
            L.append(f"  %ub = arith.constant {self.ub} : index")
            L.append(f"  %step = arith.constant {self.step} : index")
        else:
            L.append("  %lb = arith.addi %lbd, %c0 : index")
            L.append("  %ub = arith.addi %ubd, %c0 : index")
            L.append("  %step = arith.addi %stepd, %c0 : index")
        L.append("  %r:4 = scf.for %iv = %lb to %ub step %step iter_args("
                 "%acc = %vzero, %off = %lb, %pass = %fone, %sacc = %f0) -> "
                 "(vector<4x4xf32>, index, f32, f32) {")
        L.append("    %iv1 = arith.addi %iv, %c1 : index")
        acc, sacc = "%acc", "%sacc"
        for n, (kind, s, h, g, rowname) in enumerate(self.ops):
            row = {"iv": "%iv", "off": "%off", "iv1": "%iv1"}[rowname]
            G = f"%G{g}"
            a, b2, c = (f"%S{x}" for x in s)
            if kind == "load":
                L.append(f"    %g{n} = memref.subview {G}[{row}, 0] [4, 4] [1, 1] : {GLOBAL} to {ROW4}")
                L.append(f"    memref.copy %g{n}, {a} : {ROW4} to {T}")
            elif kind == "load_half":
                L.append(f"    %g{n} = memref.subview {G}[{row}, 0] [2, 4] [1, 1] : {GLOBAL} to {ROW2}")
                L.append(f"    %h{n} = memref.subview {a}[{2 * h}, 0] [2, 4] [1, 1] : {T} to {half(ms, h)}")
                L.append(f"    memref.copy %g{n}, %h{n} : {ROW2} to {half(ms, h)}")
            elif kind == "add":
                L.append(f"    linalg.add ins({a}, {b2} : {T}, {T}) outs({c} : {T})")
            elif kind == "matmul":
                L.append(f"    linalg.matmul ins({a}, {b2} : {T}, {T}) outs({c} : {T})")
            elif kind == "acc_vec":
                L.append(f"    %v{n} = vector.transfer_read {a}[%c0, %c0], %f0 {{in_bounds = [true, true]}} : {T}, vector<4x4xf32>")
                L.append(f"    %a{n} = arith.addf {acc}, %v{n} : vector<4x4xf32>")
                acc = f"%a{n}"
            elif kind == "store":
                L.append(f"    %o{n} = memref.subview %O[{row}, 0] [4, 4] [1, 1] : {GLOBAL} to {ROW4}")
                L.append(f"    memref.copy {a}, %o{n} : {T} to {ROW4}")
            elif kind == "scale":
                L.append(f"    linalg.add ins({a}, {a} : {T}, {T}) outs({a} : {T})")
            elif kind == "fill":
                L.append(f"    %fill{n} = arith.constant {n}.5 : f32")
                L.append(f"    linalg.fill ins(%fill{n} : f32) outs({a} : {T})")
            elif kind == "scalar":
                L.append(f"    %x{n} = memref.load {a}[%c1, %c2] : {T}")
                L.append(f"    %s{n} = arith.addf {sacc}, %x{n} : f32")
                sacc = f"%s{n}"
        L.append("    %next = arith.addi %iv, %step : index")
        L.append(f"    scf.yield {acc}, %next, %pass, {sacc} : vector<4x4xf32>, index, f32, f32")
        L.append(f"  }} {{case_{i}}}")
        L.append("  %plain = memref.alloc() : memref<4x4xf32>")
        L.append("  %pu = memref.cast %plain : memref<4x4xf32> to memref<*xf32>")
        for b in range(self.nbuf):
            if self.scratch[b]:
                continue
            L.append(f"  memref.copy %S{b}, %plain : {T} to memref<4x4xf32>")
            L.append("  func.call @printMemrefF32(%pu) : (memref<*xf32>) -> ()")
        L.append("  vector.print %r#0 : vector<4x4xf32>")
        L.append("  vector.print %r#1 : index")
        L.append("  vector.print %r#2 : f32")
        L.append("  vector.print %r#3 : f32")
        L.append("  memref.dealloc %plain : memref<4x4xf32>")
        for b in range(self.nbuf):
            if self.kinds[b] == "alloc":
                L.append(f"  memref.dealloc %S{b} : {T}")
        L.append("  return")
        L.append("}")
        return "\n".join(L)

    def transform(self):
        attrs = [f'target = "{self.target}"']
        if self.stages:
            attrs.append(f"num_stages = {self.stages}")
        return (f"    transform.sequence %root : !transform.any_op failures(suppress) {{\n"
                f"    ^bb0(%r: !transform.any_op):\n"
                f"      %l = transform.structured.match ops{{[\"scf.for\"]}} attributes{{case_{self.idx}}} in %r : (!transform.any_op) -> !transform.op<\"scf.for\">\n"
                f"      %p = transform.pipeline.schedule_stages %l {{ {', '.join(attrs)} }} : (!transform.op<\"scf.for\">) -> !transform.op<\"scf.for\">\n"
                f"    }}")


MAIN_HELPERS = """
func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

func.func @fill_global(%m: memref<32x4xf32>, %seed: index) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c4 = arith.constant 4 : index
  %c5 = arith.constant 5 : index
  %c32 = arith.constant 32 : index
  scf.for %i = %c0 to %c32 step %c1 {
    scf.for %j = %c0 to %c4 step %c1 {
      %t0 = arith.muli %i, %c4 : index
      %t1 = arith.addi %t0, %j : index
      %t2 = arith.addi %t1, %seed : index
      %t3 = arith.remui %t2, %c5 : index
      %t4 = arith.index_cast %t3 : index to i32
      %t5 = arith.sitofp %t4 : i32 to f32
      memref.store %t5, %m[%i, %j] : memref<32x4xf32>
    }
  }
  return
}
"""


def emit_module(cases):
    parts = [c.emit() for c in cases]
    parts.append(MAIN_HELPERS)
    m = ["func.func @main() {"]
    m.append("  %G0 = memref.alloc() : memref<32x4xf32>")
    m.append("  %G1 = memref.alloc() : memref<32x4xf32>")
    m.append("  %O = memref.alloc() : memref<32x4xf32>")
    m.append("  %Ou = memref.cast %O : memref<32x4xf32> to memref<*xf32>")
    for k in range(8):
        m.append(f"  %k{k} = arith.constant {k} : index")
    m.append("  %km1 = arith.constant -1 : index")
    m.append("  %k9 = arith.constant 9 : index")
    for c in cases:
        m.append(f"  func.call @fill_global(%G0, %k1) : (memref<32x4xf32>, index) -> ()")
        m.append(f"  func.call @fill_global(%G1, %k2) : (memref<32x4xf32>, index) -> ()")
        m.append(f"  func.call @fill_global(%O, %k3) : (memref<32x4xf32>, index) -> ()")
        lb = f"%k{c.lb}"
        ub = c.ub
        ubv = f"%k{ub}" if 0 <= ub <= 7 else ("%km1" if ub == -1 else None)
        if ubv is None:
            m.append(f"  %ub{c.idx} = arith.constant {ub} : index")
            ubv = f"%ub{c.idx}"
        m.append(f"  func.call @case_{c.idx}(%G0, %G1, %O, {lb}, {ubv}, %k{c.step}) : "
                 f"({GLOBAL}, {GLOBAL}, {GLOBAL}, index, index, index) -> ()")
        m.append("  func.call @printMemrefF32(%Ou) : (memref<*xf32>) -> ()")
    m.append("  return")
    m.append("}")
    parts.append("\n".join(m))
    lib = ["module attributes {transform.with_named_sequence} {",
           "  transform.named_sequence @fuzz(%root: !transform.any_op {transform.readonly}) {"]
    lib += [c.transform() for c in cases]
    lib += ["    transform.yield", "  }", "}"]
    return "\n\n".join(parts) + "\n", "\n".join(lib) + "\n"


def main(argv):
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--cases", type=int, default=300)
    p.add_argument("--per-module", type=int, default=30)
    p.add_argument("--min-ops", type=int, default=2,
                   help="random ops per body after the refills (default 2..8)")
    p.add_argument("--max-ops", type=int, default=8)
    p.add_argument("--max-buffers", type=int, default=4)
    p.add_argument("--targets", default=None,
                   help="comma-separated subset of the targets (default: all)")
    p.add_argument("--opt", default=os.environ.get("HWSCHED_OPT", "hwsched-opt"))
    p.add_argument("--keep", default=None, help="keep generated files here")
    p.add_argument("--emit-only", default=None,
                   help="write module/library pairs to DIR and exit")
    args = p.parse_args(argv)
    rng = random.Random(args.seed)
    targets = sorted(args.targets.split(",")) if args.targets else None
    if targets and any(t not in TARGETS for t in targets):
        p.error(f"--targets: choose from {', '.join(sorted(TARGETS))}")
    cases = [Case(rng, i, args.min_ops, args.max_ops, args.max_buffers, targets)
             for i in range(args.cases)]
    modules = [cases[i:i + args.per_module]
               for i in range(0, len(cases), args.per_module)]
    workdir = args.keep or args.emit_only or tempfile.mkdtemp(prefix="pipeline-fuzz-")
    os.makedirs(workdir, exist_ok=True)
    mismatches = failures = rewritten = unchanged = 0
    for mi, mod in enumerate(modules):
        payload, lib = emit_module(mod)
        ppath = os.path.join(workdir, f"fuzz-{args.seed}-{mi}.mlir")
        lpath = os.path.join(workdir, f"fuzz-{args.seed}-{mi}.lib.mlir")
        with open(ppath, "w") as f:
            f.write(payload)
        with open(lpath, "w") as f:
            f.write(lib)
        if args.emit_only:
            continue
        keep = os.path.join(workdir, f"temps-{mi}")
        cmd = exec_check_command(ppath, args.opt, lpath, "fuzz", (
            "--erase-memory-spaces", "--erase-gpu-barriers", "--emulate-npu-sync",
            "--keep-temps", keep))
        rc, out, err = run_tool(cmd)
        verdict = (out.strip().splitlines() or ["(no output)"])[0]
        transformed = os.path.join(keep, "after.transformed.mlir")
        left = 0
        if os.path.exists(transformed):
            with open(transformed) as f:
                left = len(set(re.findall(r"\{case_(\d+)\}", f.read())))
        rewritten += len(mod) - left
        unchanged += left
        print(f"module {mi}: {len(mod)} loops, {len(mod) - left} rewritten: {verdict}")
        if rc != 0:
            if "outputs differ" in out:
                mismatches += 1
            else:
                failures += 1
            print(out[-3000:], err[-3000:], sep="\n")
    if args.emit_only:
        print(f"wrote {len(modules)} modules to {workdir}")
        return 0
    print(f"PIPELINE-FUZZ: {len(cases)} cases, {len(modules)} modules, "
          f"{rewritten} rewritten, {unchanged} unchanged, "
          f"{mismatches} mismatches, {failures} harness failures")
    return 1 if mismatches or failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
