#!/usr/bin/env python3
"""Generates random but valid Linalg / SCF / memref payload programs.

Each program is one module. Programs built from memrefs with a static entry
shape are *executable*: they carry a `func.func @main()` that fills the inputs
deterministically, calls the kernel and prints every output with
printMemrefF32 (so utils/exec-check.py can compare CPU results before and
after a rewrite; memory spaces are erased there with --erase-memory-spaces).

Families (one is drawn per program, with random sizes and options):
  ew_chain      chains of elementwise linalg ops through on-chip temporaries
  matmul        linalg.matmul (+ bias/relu epilogue), tensors or memrefs
  staged_mm     k-loop that copies tiles into on-chip buffers, then matmul
  reduction     linalg.reduce / reduction generic / scf.for with iter_args
  transpose     linalg.transpose, optionally through an on-chip buffer
  broadcast     linalg.broadcast
  loops         nested scf.for loops over loads/stores, scf.if, subviews
  copies        chains of memref.copy / linalg.copy (redundant copies)
  lifetimes     on-chip buffers with disjoint lifetimes (merge candidates)
  gpu_launch    gpu.launch with workgroup buffers and barriers
  tensor_chain  linalg on tensors, static or dynamic shapes
On-chip allocations use one of #gpu.address_space<workgroup>, "ub", an
integer memory space, or the default space. Values are small multiples of
1/4, so sums are exact and outputs compare exactly.

Usage: gen_programs.py --seed S --count N --out DIR
Writes DIR/gen-<seed>-<i>.mlir. Deterministic for a given seed.
"""

import argparse
import os
import random

SPACES = ["#gpu.address_space<workgroup>", '"ub"', "3", None]
ELEM_OPS = ["arith.addf", "arith.mulf", "arith.subf", "arith.maximumf",
            "arith.minimumf"]


def mty(shape, space=None, layout=None):
    dims = "x".join("?" if d is None else str(d) for d in shape)
    parts = [f"{dims}xf32" if shape else "f32"]
    if layout:
        parts.append(layout)
    if space:
        parts.append(space)
    return f"memref<{', '.join(parts)}>"


def tty(shape):
    dims = "x".join("?" if d is None else str(d) for d in shape)
    return f"tensor<{dims}xf32>" if shape else "tensor<f32>"


def idmap(rank):
    dims = ", ".join(f"d{i}" for i in range(rank))
    return f"affine_map<({dims}) -> ({dims})>"


class Fn:
    """Collects the lines of one function with fresh SSA names."""

    def __init__(self):
        self.lines = []
        self.n = 0
        self.consts = {}

    def fresh(self, base="v"):
        self.n += 1
        return f"%{base}{self.n}"

    def emit(self, line, indent=2):
        self.lines.append("  " * indent + line)

    def idx(self, value):
        if value not in self.consts:
            name = f"%c{value}_{len(self.consts)}"
            self.emit(f"{name} = arith.constant {value} : index")
            self.consts[value] = name
        return self.consts[value]

    def f32(self, value):
        name = self.fresh("cst")
        self.emit(f"{name} = arith.constant {value} : f32")
        return name


class Gen:
    def __init__(self, rng):
        self.r = rng

    # -- helpers -----------------------------------------------------------
    def dim(self):
        return self.r.choice([4, 6, 8, 12, 16])

    def space(self):
        return self.r.choice(SPACES)

    def alloc(self, fn, shape, space, dyn_sizes=()):
        name = fn.fresh("buf")
        args = ", ".join(dyn_sizes)
        fn.emit(f"{name} = memref.alloc({args}) : {mty(shape, space)}")
        return name

    def dims_of(self, fn, value, shape):
        """SSA values for the dynamic sizes of `value`."""
        sizes = []
        for i, d in enumerate(shape):
            if d is None:
                s = fn.fresh("d")
                fn.emit(f"{s} = memref.dim {value}, {fn.idx(i)} : {mty(shape)}")
                sizes.append(s)
        return sizes

    def ew_generic(self, fn, ins, out, rank, ops=None, indent=2):
        """linalg.generic applying a random elementwise body."""
        maps = ", ".join([idmap(rank)] * (len(ins) + 1))
        its = ", ".join(['"parallel"'] * rank)
        ins_s = ", ".join(v for v, _ in ins)
        ins_t = ", ".join(t for _, t in ins)
        fn.emit(f"linalg.generic {{indexing_maps = [{maps}], iterator_types = [{its}]}}"
                f" ins({ins_s} : {ins_t}) outs({out[0]} : {out[1]}) {{", indent)
        args = ", ".join(f"%in{i}: f32" for i in range(len(ins)))
        fn.emit(f"^bb0({args}{', ' if ins else ''}%o: f32):", indent)
        acc = "%in0" if ins else "%o"
        k = 0
        for i in range(1, len(ins)):
            k += 1
            fn.emit(f"  %e{k} = {self.r.choice(ELEM_OPS)} {acc}, %in{i} : f32", indent)
            acc = f"%e{k}"
        if not ins or self.r.random() < 0.5:
            k += 1
            fn.emit(f"  %h{k} = arith.constant 0.5 : f32", indent)
            fn.emit(f"  %e{k} = {self.r.choice(['arith.mulf', 'arith.addf'])} {acc}, %h{k} : f32", indent)
            acc = f"%e{k}"
        fn.emit(f"  linalg.yield {acc} : f32", indent)
        fn.emit("}", indent)

    # -- families ------------------------------------------------------------
    # Each returns (kernel_lines, inputs, outputs): inputs/outputs are lists of
    # memref shapes (kernel argument order: inputs then outputs), or None for
    # non-executable programs (then the kernel text is complete).

    def fam_ew_chain(self, name):
        rank = self.r.choice([1, 2])
        shape = [self.dim() for _ in range(rank)]
        dyn = self.r.random() < 0.3
        ashape = [None] * rank if dyn else shape
        fn = Fn()
        at = mty(ashape)
        sizes = self.dims_of(fn, "%a", ashape) if dyn else []
        prev = ("%a", at)
        temps = []
        for _ in range(self.r.randint(1, 4)):
            sp = self.space()
            t = self.alloc(fn, ashape, sp, sizes)
            tt = mty(ashape, sp)
            ins = [prev] if self.r.random() < 0.5 else [prev, ("%b", at)]
            self.ew_generic(fn, ins, (t, tt), rank)
            if temps and self.r.random() < 0.6:
                old, oldt = temps.pop()
                fn.emit(f"memref.dealloc {old} : {oldt}")
            temps.append((t, tt))
            prev = (t, tt)
        if self.r.random() < 0.5:
            fn.emit(f"memref.copy {prev[0]}, %out : {prev[1]} to {at}")
        else:
            fn.emit(f"linalg.copy ins({prev[0]} : {prev[1]}) outs(%out : {at})")
        for t, tt in temps:
            if self.r.random() < 0.7:
                fn.emit(f"memref.dealloc {t} : {tt}")
        sig = f"%a: {at}, %b: {at}, %out: {at}"
        return self.kernel(name, sig, fn), [shape, shape], [shape], dyn

    def fam_matmul(self, name):
        M, N, K = self.dim(), self.dim(), self.dim()
        dyn = self.r.random() < 0.3
        fn = Fn()
        sA = [None, None] if dyn else [M, K]
        sB = [None, None] if dyn else [K, N]
        sC = [None, None] if dyn else [M, N]
        zero = fn.f32("0.0")
        fn.emit(f"linalg.fill ins({zero} : f32) outs(%c : {mty(sC)})")
        fn.emit(f"linalg.matmul ins(%a, %b : {mty(sA)}, {mty(sB)}) outs(%c : {mty(sC)})")
        if self.r.random() < 0.6:
            self.ew_generic(fn, [("%c", mty(sC))], ("%c", mty(sC)), 2)
        sig = f"%a: {mty(sA)}, %b: {mty(sB)}, %c: {mty(sC)}"
        return self.kernel(name, sig, fn), [[M, K], [K, N]], [[M, N]], dyn

    def fam_staged_mm(self, name):
        M, N = self.dim(), self.dim()
        T = self.r.choice([2, 4])
        K = T * self.r.randint(1, 4)
        fn = Fn()
        spA, spB = self.space(), self.space()
        hoist = self.r.random() < 0.6
        zero = fn.f32("0.0")
        fn.emit(f"linalg.fill ins({zero} : f32) outs(%c : {mty([M, N])})")
        bufA = bufB = None
        if hoist:
            bufA = self.alloc(fn, [M, T], spA)
            bufB = self.alloc(fn, [T, N], spB)
        lb, ub, st = fn.idx(0), fn.idx(K), fn.idx(T)
        fn.emit(f"scf.for %k = {lb} to {ub} step {st} {{")
        ind = 3
        if not hoist:
            fn.emit(f"%ta = memref.alloc() : {mty([M, T], spA)}", ind)
            fn.emit(f"%tb = memref.alloc() : {mty([T, N], spB)}", ind)
            bufA, bufB = "%ta", "%tb"
        la = f"strided<[{K}, 1], offset: ?>"
        lbl = f"strided<[{N}, 1], offset: ?>"
        fn.emit(f"%sa = memref.subview %a[0, %k] [{M}, {T}] [1, 1] : {mty([M, K])} to {mty([M, T], None, la)}", ind)
        fn.emit(f"%sb = memref.subview %b[%k, 0] [{T}, {N}] [1, 1] : {mty([K, N])} to {mty([T, N], None, lbl)}", ind)
        fn.emit(f"memref.copy %sa, {bufA} : {mty([M, T], None, la)} to {mty([M, T], spA)}", ind)
        fn.emit(f"memref.copy %sb, {bufB} : {mty([T, N], None, lbl)} to {mty([T, N], spB)}", ind)
        fn.emit(f"linalg.matmul ins({bufA}, {bufB} : {mty([M, T], spA)}, {mty([T, N], spB)}) outs(%c : {mty([M, N])})", ind)
        if not hoist:
            fn.emit(f"memref.dealloc %ta : {mty([M, T], spA)}", ind)
            fn.emit(f"memref.dealloc %tb : {mty([T, N], spB)}", ind)
        fn.emit("}")
        if hoist:
            fn.emit(f"memref.dealloc {bufA} : {mty([M, T], spA)}")
            fn.emit(f"memref.dealloc {bufB} : {mty([T, N], spB)}")
        sig = f"%a: {mty([M, K])}, %b: {mty([K, N])}, %c: {mty([M, N])}"
        return self.kernel(name, sig, fn), [[M, K], [K, N]], [[M, N]], False

    def fam_reduction(self, name):
        M, N = self.dim(), self.dim()
        fn = Fn()
        style = self.r.choice(["reduce", "generic", "loop"])
        zero = fn.f32("0.0")
        if style == "reduce":
            fn.emit(f"linalg.fill ins({zero} : f32) outs(%out : {mty([M])})")
            fn.emit(f"linalg.reduce ins(%a : {mty([M, N])}) outs(%out : {mty([M])}) dimensions = [1]")
            fn.emit(f"  (%x: f32, %acc: f32) {{")
            fn.emit(f"    %s = {self.r.choice(['arith.addf', 'arith.maximumf'])} %x, %acc : f32")
            fn.emit("    linalg.yield %s : f32")
            fn.emit("  }")
        elif style == "generic":
            fn.emit(f"linalg.fill ins({zero} : f32) outs(%out : {mty([M])})")
            fn.emit("linalg.generic {indexing_maps = [affine_map<(d0, d1) -> (d0, d1)>, "
                    "affine_map<(d0, d1) -> (d0)>], iterator_types = [\"parallel\", \"reduction\"]}"
                    f" ins(%a : {mty([M, N])}) outs(%out : {mty([M])}) {{")
            fn.emit("^bb0(%x: f32, %acc: f32):")
            fn.emit("  %s = arith.addf %x, %acc : f32")
            fn.emit("  linalg.yield %s : f32")
            fn.emit("}")
        else:
            lb, one, m, n = fn.idx(0), fn.idx(1), fn.idx(M), fn.idx(N)
            fn.emit(f"scf.for %i = {lb} to {m} step {one} {{")
            fn.emit(f"%r = scf.for %j = {lb} to {n} step {one} iter_args(%acc = {zero}) -> (f32) {{", 3)
            fn.emit(f"%x = memref.load %a[%i, %j] : {mty([M, N])}", 4)
            fn.emit("%s = arith.addf %x, %acc : f32", 4)
            fn.emit("scf.yield %s : f32", 4)
            fn.emit("}", 3)
            fn.emit(f"memref.store %r, %out[%i] : {mty([M])}", 3)
            fn.emit("}")
        sig = f"%a: {mty([M, N])}, %out: {mty([M])}"
        return self.kernel(name, sig, fn), [[M, N]], [[M]], False

    def fam_transpose(self, name):
        M, N = self.dim(), self.dim()
        fn = Fn()
        src, st = "%a", mty([M, N])
        if self.r.random() < 0.5:
            sp = self.space()
            t = self.alloc(fn, [M, N], sp)
            fn.emit(f"memref.copy %a, {t} : {st} to {mty([M, N], sp)}")
            src, st = t, mty([M, N], sp)
        fn.emit(f"linalg.transpose ins({src} : {st}) outs(%out : {mty([N, M])}) permutation = [1, 0]")
        sig = f"%a: {mty([M, N])}, %out: {mty([N, M])}"
        return self.kernel(name, sig, fn), [[M, N]], [[N, M]], False

    def fam_broadcast(self, name):
        M, N = self.dim(), self.dim()
        fn = Fn()
        fn.emit(f"linalg.broadcast ins(%a : {mty([N])}) outs(%out : {mty([M, N])}) dimensions = [0]")
        if self.r.random() < 0.5:
            self.ew_generic(fn, [("%out", mty([M, N]))], ("%out", mty([M, N])), 2)
        sig = f"%a: {mty([N])}, %out: {mty([M, N])}"
        return self.kernel(name, sig, fn), [[N]], [[M, N]], False

    def fam_loops(self, name):
        M, N = self.dim(), self.dim()
        T = self.r.choice([2, 4])
        M = T * max(1, M // T)
        fn = Fn()
        lb, one = fn.idx(0), fn.idx(1)
        m, n, t = fn.idx(M), fn.idx(N), fn.idx(T)
        sp = self.space()
        use_buf = self.r.random() < 0.6
        fn.emit(f"scf.for %i = {lb} to {m} step {t} {{")
        if use_buf:
            fn.emit(f"%buf = memref.alloc() : {mty([T, N], sp)}", 3)
            lay = f"strided<[{N}, 1], offset: ?>"
            fn.emit(f"%sv = memref.subview %a[%i, 0] [{T}, {N}] [1, 1] : {mty([M, N])} to {mty([T, N], None, lay)}", 3)
            fn.emit(f"memref.copy %sv, %buf : {mty([T, N], None, lay)} to {mty([T, N], sp)}", 3)
        fn.emit(f"scf.for %ii = {lb} to {t} step {one} {{", 3)
        fn.emit(f"scf.for %j = {lb} to {n} step {one} {{", 4)
        fn.emit("%row = arith.addi %i, %ii : index", 5)
        if use_buf:
            fn.emit(f"%x = memref.load %buf[%ii, %j] : {mty([T, N], sp)}", 5)
        else:
            fn.emit(f"%x = memref.load %a[%row, %j] : {mty([M, N])}", 5)
        fn.emit(f"%y = memref.load %b[%row, %j] : {mty([M, N])}", 5)
        fn.emit(f"%z = {self.r.choice(ELEM_OPS)} %x, %y : f32", 5)
        if self.r.random() < 0.5:
            fn.emit("%pos = arith.cmpf ogt, %z, %y : f32", 5)
            fn.emit("%w = scf.if %pos -> (f32) {", 5)
            fn.emit("scf.yield %z : f32", 6)
            fn.emit("} else {", 5)
            fn.emit("%nz = arith.negf %z : f32", 6)
            fn.emit("scf.yield %nz : f32", 6)
            fn.emit("}", 5)
            fn.emit(f"memref.store %w, %out[%row, %j] : {mty([M, N])}", 5)
        else:
            fn.emit(f"memref.store %z, %out[%row, %j] : {mty([M, N])}", 5)
        fn.emit("}", 4)
        fn.emit("}", 3)
        if use_buf:
            fn.emit(f"memref.dealloc %buf : {mty([T, N], sp)}", 3)
        fn.emit("}")
        sig = f"%a: {mty([M, N])}, %b: {mty([M, N])}, %out: {mty([M, N])}"
        return self.kernel(name, sig, fn), [[M, N], [M, N]], [[M, N]], False

    def fam_copies(self, name):
        rank = self.r.choice([1, 2])
        shape = [self.dim() for _ in range(rank)]
        fn = Fn()
        st = mty(shape)
        prev = ("%a", st)
        for _ in range(self.r.randint(2, 4)):
            sp = self.space()
            t = self.alloc(fn, shape, sp)
            tt = mty(shape, sp)
            if self.r.random() < 0.5:
                fn.emit(f"memref.copy {prev[0]}, {t} : {prev[1]} to {tt}")
            else:
                fn.emit(f"linalg.copy ins({prev[0]} : {prev[1]}) outs({t} : {tt})")
            prev = (t, tt)
        self.ew_generic(fn, [prev], ("%out", st), rank)
        sig = f"%a: {st}, %out: {st}"
        return self.kernel(name, sig, fn), [shape], [shape], False

    def fam_lifetimes(self, name):
        N = self.dim()
        fn = Fn()
        st = mty([N])
        acc = ("%a", st)
        for _ in range(self.r.randint(2, 5)):
            sp = self.r.choice(SPACES[:3])
            size = self.r.choice([N, N * 2, N * 4])
            t = self.alloc(fn, [size], sp)
            tt = mty([size], sp)
            view = t
            vt = tt
            if size != N:
                vt = mty([N], sp, "strided<[1]>")
                view = fn.fresh("sv")
                fn.emit(f"{view} = memref.subview {t}[0] [{N}] [1] : {tt} to {vt}")
            self.ew_generic(fn, [acc], (view, vt), 1)
            fn.emit(f"memref.copy {view}, %out : {vt} to {st}")
            if self.r.random() < 0.8:
                fn.emit(f"memref.dealloc {t} : {tt}")
            acc = ("%out", st)
        sig = f"%a: {st}, %out: {st}"
        return self.kernel(name, sig, fn), [[N]], [[N]], False

    def fam_gpu_launch(self, name):
        N = self.r.choice([32, 64, 128])
        T = self.r.choice([8, 16, 32])
        fn = Fn()
        one = fn.idx(1)
        nb = fn.idx(max(1, N // T))
        nt = fn.idx(T)
        fn.emit(f"gpu.launch blocks(%bx, %by, %bz) in (%gx = {nb}, %gy = {one}, %gz = {one}) "
                f"threads(%tx, %ty, %tz) in (%sx = {nt}, %sy = {one}, %sz = {one}) {{")
        nbuf = self.r.randint(1, 3)
        for k in range(nbuf):
            fn.emit(f"%s{k} = memref.alloc() : {mty([T], '#gpu.address_space<workgroup>')}", 3)
        fn.emit("%base = arith.muli %bx, %sx : index", 3)
        fn.emit("%gi = arith.addi %base, %tx : index", 3)
        fn.emit(f"%x = memref.load %a[%gi] : {mty([N])}", 3)
        fn.emit(f"memref.store %x, %s0[%tx] : {mty([T], '#gpu.address_space<workgroup>')}", 3)
        fn.emit("gpu.barrier", 3)
        val = "%x"
        for k in range(1, nbuf):
            fn.emit(f"%l{k} = memref.load %s{k-1}[%tx] : {mty([T], '#gpu.address_space<workgroup>')}", 3)
            fn.emit(f"%m{k} = arith.addf %l{k}, {val} : f32", 3)
            fn.emit(f"memref.store %m{k}, %s{k}[%tx] : {mty([T], '#gpu.address_space<workgroup>')}", 3)
            fn.emit("gpu.barrier", 3)
            val = f"%m{k}"
        fn.emit(f"%y = memref.load %s{nbuf-1}[%tx] : {mty([T], '#gpu.address_space<workgroup>')}", 3)
        fn.emit(f"memref.store %y, %out[%gi] : {mty([N])}", 3)
        fn.emit("gpu.terminator", 3)
        fn.emit("}")
        sig = f"%a: {mty([N])}, %out: {mty([N])}"
        return self.kernel(name, sig, fn), None, None, False

    def fam_tensor_chain(self, name):
        dyn = self.r.random() < 0.5
        M, N, K = self.dim(), self.dim(), self.dim()
        d = lambda s: [None] * len(s) if dyn else s
        fn = Fn()
        tA, tB = tty(d([M, K])), tty(d([K, N]))
        tC = tty(d([M, N]))
        if dyn:
            c0, c1 = fn.idx(0), fn.idx(1)
            fn.emit(f"%m = tensor.dim %a, {c0} : {tA}")
            fn.emit(f"%n = tensor.dim %b, {c1} : {tB}")
            fn.emit(f"%e = tensor.empty(%m, %n) : {tC}")
        else:
            fn.emit(f"%e = tensor.empty() : {tC}")
        zero = fn.f32("0.0")
        fn.emit(f"%f = linalg.fill ins({zero} : f32) outs(%e : {tC}) -> {tC}")
        fn.emit(f"%mm = linalg.matmul ins(%a, %b : {tA}, {tB}) outs(%f : {tC}) -> {tC}")
        cur = "%mm"
        for k in range(self.r.randint(0, 3)):
            kind = self.r.choice(["add", "generic", "transpose_back"])
            if kind == "add":
                fn.emit(f"%t{k} = linalg.add ins({cur}, %mm : {tC}, {tC}) outs(%e : {tC}) -> {tC}")
            elif kind == "generic":
                maps = ", ".join([idmap(2)] * 2)
                fn.emit(f"%t{k} = linalg.generic {{indexing_maps = [{maps}], iterator_types = [\"parallel\", \"parallel\"]}}"
                        f" ins({cur} : {tC}) outs(%e : {tC}) {{")
                fn.emit("^bb0(%x: f32, %o: f32):")
                fn.emit(f"  %y = arith.maximumf %x, {zero} : f32")
                fn.emit("  linalg.yield %y : f32")
                fn.emit(f"}} -> {tC}")
            else:
                tT = tty(d([N, M]))
                if dyn:
                    fn.emit(f"%et{k} = tensor.empty(%n, %m) : {tT}")
                else:
                    fn.emit(f"%et{k} = tensor.empty() : {tT}")
                fn.emit(f"%tt{k} = linalg.transpose ins({cur} : {tC}) outs(%et{k} : {tT}) permutation = [1, 0]")
                fn.emit(f"%t{k} = linalg.transpose ins(%tt{k} : {tT}) outs(%e : {tC}) permutation = [1, 0]")
            cur = f"%t{k}"
        if self.r.random() < 0.5:
            tR = tty(d([M]))
            if dyn:
                fn.emit(f"%er = tensor.empty(%m) : {tR}")
            else:
                fn.emit(f"%er = tensor.empty() : {tR}")
            fn.emit(f"%fr = linalg.fill ins({zero} : f32) outs(%er : {tR}) -> {tR}")
            fn.emit(f"%red = linalg.reduce ins({cur} : {tC}) outs(%fr : {tR}) dimensions = [1]")
            fn.emit("  (%x: f32, %acc: f32) {")
            fn.emit("    %s = arith.addf %x, %acc : f32")
            fn.emit("    linalg.yield %s : f32")
            fn.emit("  }")
            fn.emit(f"return {cur}, %red : {tC}, {tR}")
            rets = f"{tC}, {tR}"
        else:
            fn.emit(f"return {cur} : {tC}")
            rets = tC
        lines = [f"  func.func @{name}(%a: {tA}, %b: {tB}) -> ({rets}) {{"]
        lines += fn.lines + ["  }"]
        return lines, None, None, False

    # -- assembly ------------------------------------------------------------
    def kernel(self, name, sig, fn):
        return ([f"  func.func @{name}({sig}) {{"] + fn.lines +
                ["    return", "  }"])

    def main_fn(self, kernel, ins, outs, dyn):
        """@main: allocate, fill with index patterns, call, print outputs."""
        lines = ["  func.func @main() {"]
        args, types = [], []
        for k, shape in enumerate(ins + outs):
            lines.append(f"    %arg{k} = memref.alloc() : {mty(shape)}")
            rank = len(shape)
            dynshape = [None] * rank
            lines.append(f"    %dyn{k} = memref.cast %arg{k} : {mty(shape)} to {mty(dynshape)}")
            seed = k * 3 + 1
            lines.append(f"    %seed{k} = arith.constant {seed} : index")
            lines.append(f"    func.call @fill{rank}d(%dyn{k}, %seed{k}) : ({mty(dynshape)}, index) -> ()")
            if dyn:
                args.append(f"%dyn{k}")
                types.append(mty(dynshape))
            else:
                args.append(f"%arg{k}")
                types.append(mty(shape))
        lines.append(f"    func.call @{kernel}({', '.join(args)}) : ({', '.join(types)}) -> ()")
        for k in range(len(ins), len(ins) + len(outs)):
            shape = (ins + outs)[k]
            lines.append(f"    %u{k} = memref.cast %arg{k} : {mty(shape)} to memref<*xf32>")
            lines.append(f"    func.call @printMemrefF32(%u{k}) : (memref<*xf32>) -> ()")
        for k, shape in enumerate(ins + outs):
            lines.append(f"    memref.dealloc %arg{k} : {mty(shape)}")
        lines += ["    return", "  }"]
        return lines


FILL = """  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}
  // v = ((7*i + 3*j + seed) mod 11 - 5) / 4: exact in f32.
  func.func private @pattern(%i: index, %j: index, %seed: index) -> f32 {
    %c3 = arith.constant 3 : index
    %c5 = arith.constant 5 : index
    %c7 = arith.constant 7 : index
    %c11 = arith.constant 11 : index
    %q = arith.constant 0.25 : f32
    %a = arith.muli %i, %c7 : index
    %b = arith.muli %j, %c3 : index
    %s0 = arith.addi %a, %b : index
    %s = arith.addi %s0, %seed : index
    %r = arith.remui %s, %c11 : index
    %d = arith.subi %r, %c5 : index
    %di = arith.index_cast %d : index to i32
    %f = arith.sitofp %di : i32 to f32
    %v = arith.mulf %f, %q : f32
    return %v : f32
  }
  func.func private @fill1d(%m: memref<?xf32>, %seed: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n = memref.dim %m, %c0 : memref<?xf32>
    scf.for %i = %c0 to %n step %c1 {
      %v = func.call @pattern(%i, %c0, %seed) : (index, index, index) -> f32
      memref.store %v, %m[%i] : memref<?xf32>
    }
    return
  }
  func.func private @fill2d(%m: memref<?x?xf32>, %seed: index) {
    %c0 = arith.constant 0 : index
    %c1 = arith.constant 1 : index
    %n0 = memref.dim %m, %c0 : memref<?x?xf32>
    %n1 = memref.dim %m, %c1 : memref<?x?xf32>
    scf.for %i = %c0 to %n0 step %c1 {
      scf.for %j = %c0 to %n1 step %c1 {
        %v = func.call @pattern(%i, %j, %seed) : (index, index, index) -> f32
        memref.store %v, %m[%i, %j] : memref<?x?xf32>
      }
    }
    return
  }"""

FAMILIES = ["ew_chain", "matmul", "staged_mm", "reduction", "transpose",
            "broadcast", "loops", "copies", "lifetimes", "gpu_launch",
            "tensor_chain"]


def generate(seed, index):
    """Returns (family, text) of program `index` for `seed`."""
    rng = random.Random(f"{seed}-{index}")
    g = Gen(rng)
    family = FAMILIES[index % len(FAMILIES)] if index < len(FAMILIES) * 2 \
        else rng.choice(FAMILIES)
    kernel, ins, outs, dyn = getattr(g, "fam_" + family)("kernel")
    lines = [f"// Generated by utils/robustness/gen_programs.py: seed {seed}, "
             f"program {index}, family {family}."]
    attrs = " attributes {gpu.container_module}" if False else ""
    lines.append(f"module{attrs} {{")
    lines += kernel
    if ins is not None:
        lines.append(FILL)
        lines += g.main_fn("kernel", ins, outs, bool(dyn))
    lines.append("}")
    return family, "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=40)
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    for i in range(args.count):
        _, text = generate(args.seed, i)
        with open(os.path.join(args.out, f"gen-{args.seed}-{i}.mlir"), "w") as f:
            f.write(text)


if __name__ == "__main__":
    main()
