#!/usr/bin/env python3
"""gen-copy-programs.py: random executable programs full of buffer copies.

Usage:
  python3 utils/gen-copy-programs.py --seed S [--kernels K] [-o FILE]

Writes one MLIR module with K kernels `@kernel_<i>` and a `@main` that
builds deterministic inputs, calls every kernel and prints every output with
printMemrefF32: the input of the differential test of
transform.smem.eliminate_redundant_copies (utils/copy-differential.py).

Each kernel takes two inputs and two outputs (memref<16xf32>, `llvm.noalias`
on most kernels; the caller passes distinct buffers, so the attribute is
true), and runs a random sequence of: local allocations (default or
#gpu.address_space<workgroup> space, initialized by a fill), subviews
(memref<8xf32> at offset 0, 4 or 8), copies (memref.copy, linalg.copy or a
copy-like linalg.generic) between any two buffers or views of the same
shape with different roots, elementwise computations, fills, single-element
stores, scf.for loops (2 iterations) and scf.if regions around these, and
the two staging patterns that produce redundant copies (`alloc t; copy x ->
t; use t` and `alloc s; def s; copy s -> y`). Finally every output
accumulates a few visible buffers, so the locals' contents reach the
printout. All values are small multiples of 1/4, so results are exact.
"""
import argparse
import random
import sys

WS = "#gpu.address_space<workgroup>"


class Buffer:
    def __init__(self, name, size, ws, root, offset, local):
        self.name, self.size, self.ws = name, size, ws
        self.root, self.offset, self.local = root, offset, local

    @property
    def type(self):
        space = f", {WS}" if self.ws else ""
        if self.root is self:
            return f"memref<{self.size}xf32{space}>"
        return (f"memref<{self.size}xf32, strided<[1], offset: {self.offset}>"
                f"{space}>")


class Kernel:
    def __init__(self, rng, index):
        self.rng, self.index = rng, index
        self.counter = 0
        self.lines = []

    def fresh(self, prefix):
        self.counter += 1
        return f"%{prefix}{self.counter}"

    def emit(self, depth, text):
        self.lines.append("  " * (depth + 1) + text)

    # -- statements ---------------------------------------------------------

    def alloc(self, depth, scope):
        ws = self.rng.random() < 0.25
        name = self.fresh("buf")
        buf = Buffer(name, 16, ws, None, 0, True)
        buf.root = buf
        self.emit(depth, f"{name} = memref.alloc() : {buf.type}")
        self.fill(depth, buf)
        scope.append(buf)
        return buf

    def view(self, depth, scope):
        bases = [b for b in scope if b.root is b]
        base = self.rng.choice(bases)
        offset = self.rng.choice([0, 4, 8])
        name = self.fresh("v")
        view = Buffer(name, 8, base.ws, base, offset, base.local)
        self.emit(depth, f"{name} = memref.subview {base.name}[{offset}] [8] [1]"
                         f" : {base.type} to {view.type}")
        scope.append(view)
        return view

    def const(self, depth):
        value = self.rng.randint(-8, 8) / 4
        name = self.fresh("c")
        self.emit(depth, f"{name} = arith.constant {value} : f32")
        return name

    def fill(self, depth, dst):
        c = self.const(depth)
        self.emit(depth, f"linalg.fill ins({c} : f32) outs({dst.name} : {dst.type})")

    def store(self, depth, dst):
        c = self.const(depth)
        idx = self.fresh("i")
        self.emit(depth, f"{idx} = arith.constant {self.rng.randrange(dst.size)} : index")
        self.emit(depth, f"memref.store {c}, {dst.name}[{idx}] : {dst.type}")

    def copy(self, depth, src, dst):
        kind = self.rng.random()
        if kind < 0.5:
            self.emit(depth, f"memref.copy {src.name}, {dst.name} : {src.type} to {dst.type}")
        elif kind < 0.75:
            self.emit(depth, f"linalg.copy ins({src.name} : {src.type}) outs({dst.name} : {dst.type})")
        else:
            self.emit(depth, "linalg.generic {indexing_maps = [#id, #id], iterator_types = [\"parallel\"]}")
            self.emit(depth, f"    ins({src.name} : {src.type}) outs({dst.name} : {dst.type}) {{")
            self.emit(depth, "^bb0(%x: f32, %o: f32):")
            self.emit(depth, "  linalg.yield %x : f32")
            self.emit(depth, "}")

    def compute(self, depth, dst, a, b):
        accumulate = self.rng.random() < 0.3
        body = self.rng.choice(["addf", "subf", "maximumf", "minimumf", "half"])
        self.emit(depth, "linalg.generic {indexing_maps = [#id, #id, #id], iterator_types = [\"parallel\"]}")
        self.emit(depth, f"    ins({a.name}, {b.name} : {a.type}, {b.type}) outs({dst.name} : {dst.type}) {{")
        self.emit(depth, "^bb0(%x: f32, %y: f32, %o: f32):")
        if body == "half":
            self.emit(depth, "  %h = arith.constant 0.5 : f32")
            self.emit(depth, "  %s = arith.addf %x, %y : f32")
            self.emit(depth, "  %r0 = arith.mulf %s, %h : f32")
        else:
            self.emit(depth, f"  %r0 = arith.{body} %x, %y : f32")
        if accumulate:
            self.emit(depth, "  %r = arith.addf %r0, %o : f32")
            self.emit(depth, "  linalg.yield %r : f32")
        else:
            self.emit(depth, "  linalg.yield %r0 : f32")
        self.emit(depth, "}")

    # -- choice helpers -----------------------------------------------------

    def pick(self, scope, size=None, writable=False, avoid=()):
        roots = {b.root.name for b in avoid}
        cands = [b for b in scope if (size is None or b.size == size)
                 and (not writable or b.root.name != "%in")
                 and b.root.name not in roots
                 and (not writable or b.writable)]
        return self.rng.choice(cands) if cands else None

    def statement(self, depth, scope, budget):
        rng = self.rng
        r = rng.random()
        if r < 0.2:
            # staging: alloc t; copy x -> t; use t; sometimes x changes and
            # t is used again (forward must then keep the copy).
            x = self.pick(scope, 16)
            t = self.alloc(depth, scope)
            self.copy(depth, x, t)
            dst = self.pick(scope, 16, writable=True, avoid=(t,))
            b = self.pick(scope, 16, avoid=(dst,) if dst else ())
            if dst and b:
                self.compute(depth, dst, t, b)
            if x.writable and rng.random() < 0.5:
                if rng.random() < 0.5:
                    self.store(depth, x)
                else:
                    self.fill(depth, x)
                dst = self.pick(scope, 16, writable=True, avoid=(t, x))
                if dst:
                    self.compute(depth, dst, t, t)
        elif r < 0.3:
            # result: alloc s; def s; copy s -> y; sometimes y is read or
            # written in between (backward must then keep the copy).
            s = self.alloc(depth, scope)
            a = self.pick(scope, 16, avoid=(s,))
            self.compute(depth, s, a, a)
            y = self.pick(scope, 16, writable=True, avoid=(s,))
            if y:
                if rng.random() < 0.4:
                    other = self.pick(scope, 16, writable=True, avoid=(s, y))
                    if other and rng.random() < 0.5:
                        self.compute(depth, other, y, y)
                    else:
                        self.store(depth, y)
                self.copy(depth, s, y)
        elif r < 0.38 and budget > 1:
            # a buffer allocated outside a loop, produced and copied out in
            # it, initialized in the first iteration only: its contents are
            # carried across iterations while the copy's target changes.
            s = Buffer(self.fresh("buf"), 16, False, None, 0, True)
            s.root = s
            self.emit(depth, f"{s.name} = memref.alloc() : {s.type}")
            y = self.pick(scope, 16, writable=True, avoid=(s,))
            lb, ub, st = self.fresh("lb"), self.fresh("ub"), self.fresh("st")
            iv, first = self.fresh("iv"), self.fresh("first")
            self.emit(depth, f"{lb} = arith.constant 0 : index")
            self.emit(depth, f"{ub} = arith.constant 2 : index")
            self.emit(depth, f"{st} = arith.constant 1 : index")
            self.emit(depth, f"scf.for {iv} = {lb} to {ub} step {st} {{")
            self.emit(depth + 1, f"{first} = arith.cmpi eq, {iv}, {lb} : index")
            self.emit(depth + 1, f"scf.if {first} {{")
            self.fill(depth + 2, s)
            self.emit(depth + 1, "}")
            self.store(depth + 1, s)
            if y:
                self.copy(depth + 1, s, y)
                a = self.pick(scope, 16, avoid=(y, s))
                if a:
                    self.compute(depth + 1, y, a, y)
            self.emit(depth, "}")
            scope.append(s)
        elif r < 0.5:
            size = rng.choice([16, 8])
            src = self.pick(scope, size)
            dst = self.pick(scope, size, writable=True, avoid=(src,)) if src else None
            if src and dst:
                self.copy(depth, src, dst)
        elif r < 0.62:
            size = rng.choice([16, 8])
            dst = self.pick(scope, size, writable=True)
            if dst:
                a = self.pick(scope, size, avoid=(dst,)) or dst
                b = self.pick(scope, size, avoid=(dst,)) or dst
                self.compute(depth, dst, a, b)
        elif r < 0.68:
            self.alloc(depth, scope)
        elif r < 0.76:
            self.view(depth, scope)
        elif r < 0.81:
            dst = self.pick(scope, rng.choice([16, 8]), writable=True)
            if dst:
                self.fill(depth, dst)
        elif r < 0.86:
            dst = self.pick(scope, rng.choice([16, 8]), writable=True)
            if dst:
                self.store(depth, dst)
        elif r < 0.94 and budget > 1:
            lb, ub, st = self.fresh("lb"), self.fresh("ub"), self.fresh("st")
            self.emit(depth, f"{lb} = arith.constant 0 : index")
            self.emit(depth, f"{ub} = arith.constant 2 : index")
            self.emit(depth, f"{st} = arith.constant 1 : index")
            self.emit(depth, f"scf.for {self.fresh('iv')} = {lb} to {ub} step {st} {{")
            self.block(depth + 1, list(scope), budget // 2)
            self.emit(depth, "}")
        elif budget > 1:
            src = self.pick(scope, 16)
            v, z, cond = self.fresh("ld"), self.fresh("z"), self.fresh("cond")
            self.emit(depth, f"{z} = arith.constant 0 : index")
            self.emit(depth, f"{v} = memref.load {src.name}[{z}] : {src.type}")
            c = self.const(depth)
            self.emit(depth, f"{cond} = arith.cmpf ogt, {v}, {c} : f32")
            self.emit(depth, f"scf.if {cond} {{")
            self.block(depth + 1, list(scope), budget // 2)
            self.emit(depth, "}")

    def block(self, depth, scope, budget):
        start = len(scope)
        for _ in range(self.rng.randint(2, max(2, budget))):
            self.statement(depth, scope, budget)
        # Deallocate some of this region's allocations at its end.
        for buf in scope[start:]:
            if buf.root is buf and buf.local and self.rng.random() < 0.5:
                self.emit(depth, f"memref.dealloc {buf.name} : {buf.type}")
                scope[:] = [b for b in scope if b.root is not buf]

    def generate(self):
        noalias = " {llvm.noalias}" if self.rng.random() < 0.85 else ""
        args = []
        scope = []
        for name in ("in0", "in1", "out0", "out1"):
            buf = Buffer(f"%{name}", 16, False, None, 0, False)
            buf.root = buf
            buf.writable = name.startswith("out")
            args.append(f"{buf.name}: {buf.type}{noalias}")
            scope.append(buf)
        Buffer.writable = True
        for b in scope:
            b.writable = b.name.startswith("%out")
        self.lines.append(f"func.func @kernel_{self.index}({', '.join(args)}) {{")
        self.block(0, scope, 8)
        outs = [b for b in scope if b.name.startswith("%out")]
        for out in outs:
            for _ in range(2):
                other = self.pick(scope, 16, avoid=(out,))
                if other:
                    self.emit(0, "linalg.generic {indexing_maps = [#id, #id], iterator_types = [\"parallel\"]}")
                    self.emit(0, f"    ins({other.name} : {other.type}) outs({out.name} : {out.type}) {{")
                    self.emit(0, "^bb0(%x: f32, %o: f32):")
                    self.emit(0, "  %r = arith.addf %x, %o : f32")
                    self.emit(0, "  linalg.yield %r : f32")
                    self.emit(0, "}")
        self.emit(0, "return")
        self.lines.append("}")
        return "\n".join(self.lines)


MAIN_INIT = """  linalg.generic {{indexing_maps = [#id], iterator_types = ["parallel"]}} outs({buf} : memref<16xf32>) {{
  ^bb0(%o: f32):
    %i = linalg.index 0 : index
    %k = arith.constant {k} : index
    %m = arith.muli %i, %k : index
    %c = arith.constant 9 : index
    %r = arith.remui %m, %c : index
    %ri = arith.index_cast %r : index to i32
    %f = arith.sitofp %ri : i32 to f32
    %q = arith.constant 0.25 : f32
    %v = arith.mulf %f, %q : f32
    linalg.yield %v : f32
  }}"""


def generate_module(seed, kernels):
    rng = random.Random(seed)
    parts = ["// Generated by utils/gen-copy-programs.py --seed %d --kernels %d"
             % (seed, kernels),
             "#id = affine_map<(d0) -> (d0)>",
             "module {",
             "func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}"]
    for index in range(kernels):
        parts.append(Kernel(rng, index).generate())
    main = ["func.func @main() {",
            "  %zero = arith.constant 0.0 : f32"]
    for index in range(kernels):
        for name in ("in0", "in1", "out0", "out1"):
            main.append(f"  %{name}_{index} = memref.alloc() : memref<16xf32>")
        main.append(MAIN_INIT.format(buf=f"%in0_{index}", k=(index % 5) + 2))
        main.append(MAIN_INIT.format(buf=f"%in1_{index}", k=(index % 3) + 4))
        for name in ("out0", "out1"):
            main.append(f"  linalg.fill ins(%zero : f32) outs(%{name}_{index} : memref<16xf32>)")
        main.append(f"  call @kernel_{index}(%in0_{index}, %in1_{index}, %out0_{index}, %out1_{index})"
                    " : (memref<16xf32>, memref<16xf32>, memref<16xf32>, memref<16xf32>) -> ()")
        for name in ("out0", "out1"):
            main.append(f"  %u_{name}_{index} = memref.cast %{name}_{index} : memref<16xf32> to memref<*xf32>")
            main.append(f"  call @printMemrefF32(%u_{name}_{index}) : (memref<*xf32>) -> ()")
    main += ["  return", "}"]
    parts.append("\n".join(main))
    parts.append("}")
    return "\n".join(parts) + "\n"


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--kernels", type=int, default=20)
    parser.add_argument("-o", "--output", default="-")
    args = parser.parse_args(argv)
    text = generate_module(args.seed, args.kernels)
    if args.output == "-":
        sys.stdout.write(text)
    else:
        with open(args.output, "w") as f:
            f.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
