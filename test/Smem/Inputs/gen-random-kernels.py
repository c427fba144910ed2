#!/usr/bin/env python3
"""Generates a random payload for execution checks of
transform.smem.merge_allocations: kernels with nested scf.for / scf.if,
buffers of random sizes allocated at random depths, written and read at
random points (read-modify-write across loop iterations, reads through
subviews and casts, buffers carried through scf.if results), plus @main
printing every kernel's output. If the op let two live buffers share bytes,
a value would be overwritten and the printed output would change.

usage: gen-random-kernels.py SEED [KERNELS] > payload.mlir
"""

import random
import sys

SPACE = "#gpu.address_space<workgroup>"


class Gen:
    def __init__(self, rng):
        self.rng = rng
        self.lines = []
        self.n = 0

    def fresh(self, prefix="v"):
        self.n += 1
        return f"%{prefix}{self.n}"

    def emit(self, depth, text):
        self.lines.append("  " * (depth + 2) + text)

    def ty(self, size):
        return f"memref<{size}xf32, {SPACE}>"

    def elementwise(self, depth, body):
        """scf.for over the 16 used elements; body(j) emits inside."""
        j = self.fresh("j")
        self.emit(depth, f"scf.for {j} = %c0 to %c16 step %c1 {{")
        body(depth + 1, j)
        self.emit(depth, "}")

    def write_from(self, depth, dst, src, ty_dst, ty_src, rmw):
        def body(d, j):
            x = self.fresh()
            if src is None:
                self.emit(d, f"{x} = memref.load %in[{j}] : memref<16xf32>")
            else:
                self.emit(d, f"{x} = memref.load {src}[{j}] : {ty_src}")
            y = self.fresh()
            c = self.rng.choice(["%one", "%eighth", "%two"])
            self.emit(d, f"{y} = arith.addf {x}, {c} : f32")
            if rmw:
                old = self.fresh()
                self.emit(d, f"{old} = memref.load {dst}[{j}] : {ty_dst}")
                z = self.fresh()
                self.emit(d, f"{z} = arith.subf {y}, {old} : f32")
                y = z
            self.emit(d, f"memref.store {y}, {dst}[{j}] : {ty_dst}")
        self.elementwise(depth, body)

    def accumulate(self, depth, src, ty):
        def body(d, j):
            x = self.fresh()
            self.emit(d, f"{x} = memref.load {src}[{j}] : {ty}")
            o = self.fresh()
            self.emit(d, f"{o} = memref.load %out[{j}] : memref<16xf32>")
            s = self.fresh()
            self.emit(d, f"{s} = arith.addf {o}, {x} : f32")
            self.emit(d, f"memref.store {s}, %out[{j}] : memref<16xf32>")
        self.elementwise(depth, body)

    def block(self, depth, live, budget, in_loop=False):
        """Statements of one block. `live`: buffers (value, memref type) written and
        readable here (from enclosing blocks)."""
        local = []
        if in_loop and live and self.rng.random() < 0.7:
            # Read a buffer from outside the loop first: its bytes must not
            # go to buffers of the loop body, whatever comes after.
            self.accumulate(depth, *self.rng.choice(live))
        steps = self.rng.randrange(2, 6)
        for _ in range(steps):
            if budget[0] <= 0:
                break
            r = self.rng.random()
            readable = live + local
            if r < 0.35:
                budget[0] -= 1
                size = self.rng.choice([16, 24, 32, 48, 64])
                b = self.fresh("buf")
                self.emit(depth, f"{b} = memref.alloc() : {self.ty(size)}")
                src = self.rng.choice(readable) if readable and self.rng.random() < 0.6 else None
                self.write_from(depth, b, src[0] if src else None, self.ty(size),
                                src[1] if src else "memref<16xf32>", False)
                # Later uses go through an alias made now, half of the time:
                # the buffer must stay live as long as the alias is used.
                kind = self.rng.random()
                if kind < 0.25:
                    a = self.fresh("sv")
                    ty = f"memref<16xf32, strided<[1]>, {SPACE}>"
                    self.emit(depth, f"{a} = memref.subview {b}[0] [16] [1] : {self.ty(size)} to {ty}")
                    local.append((a, ty))
                elif kind < 0.5:
                    a = self.fresh("ca")
                    ty = f"memref<?xf32, {SPACE}>"
                    self.emit(depth, f"{a} = memref.cast {b} : {self.ty(size)} to {ty}")
                    local.append((a, ty))
                else:
                    local.append((b, self.ty(size)))
            elif r < 0.55 and readable:
                self.accumulate(depth, *self.rng.choice(readable))
            elif r < 0.65 and readable:
                dst = self.rng.choice(readable)
                src = self.rng.choice(readable)
                self.write_from(depth, dst[0], src[0], dst[1], src[1], True)
            elif r < 0.85 and depth < 3:
                it = self.fresh("it")
                self.emit(depth, f"scf.for {it} = %c0 to %c3 step %c1 {{")
                self.block(depth + 1, readable, budget, in_loop=True)
                self.emit(depth, "}")
            elif depth < 3:
                cond = self.rng.choice(["%p", "%q"])
                if readable and self.rng.random() < 0.4:
                    # A buffer carried out of the branch as an scf.if result.
                    a = self.rng.choice(readable)
                    same = [b for b in readable if b[1] == a[1]]
                    other = self.rng.choice(same)
                    res = self.fresh("sel")
                    self.emit(depth, f"{res} = scf.if {cond} -> ({a[1]}) {{")
                    self.block(depth + 1, readable, budget)
                    self.emit(depth + 1, f"scf.yield {a[0]} : {a[1]}")
                    self.emit(depth, "} else {")
                    self.block(depth + 1, readable, budget)
                    self.emit(depth + 1, f"scf.yield {other[0]} : {a[1]}")
                    self.emit(depth, "}")
                    local.append((res, a[1]))
                else:
                    self.emit(depth, f"scf.if {cond} {{")
                    self.block(depth + 1, readable, budget)
                    self.emit(depth, "} else {")
                    self.block(depth + 1, readable, budget)
                    self.emit(depth, "}")
        # Read back something local at the end so lifetimes reach here.
        if local and self.rng.random() < 0.7:
            self.accumulate(depth, *self.rng.choice(local))


def kernel(rng, name):
    g = Gen(rng)
    g.lines.append(f"  func.func @{name}(%in: memref<16xf32>, %out: memref<16xf32>, %p: i1, %q: i1) {{")
    for text in ["%c0 = arith.constant 0 : index", "%c1 = arith.constant 1 : index",
                 "%c3 = arith.constant 3 : index", "%c16 = arith.constant 16 : index",
                 "%one = arith.constant 1.0 : f32", "%two = arith.constant 2.0 : f32",
                 "%eighth = arith.constant 0.125 : f32"]:
        g.emit(0, text)
    g.block(0, [], [rng.randrange(6, 14)])
    g.emit(0, "return")
    g.lines.append("  }")
    return g.lines


def main():
    seed = int(sys.argv[1])
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 4
    rng = random.Random(seed)
    out = ["// Generated by gen-random-kernels.py " + str(seed) + " " + str(count), "module {",
           "  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}"]
    for k in range(count):
        out += kernel(rng, f"k{k}")
    out += ["  func.func @main() {",
            "    %c0 = arith.constant 0 : index", "    %c1 = arith.constant 1 : index",
            "    %c16 = arith.constant 16 : index", "    %zero = arith.constant 0.0 : f32",
            "    %eighth = arith.constant 0.125 : f32",
            "    %t = arith.constant true", "    %f = arith.constant false",
            "    %in = memref.alloc() : memref<16xf32>", "    %out = memref.alloc() : memref<16xf32>",
            "    %u = memref.cast %out : memref<16xf32> to memref<*xf32>",
            "    scf.for %i = %c0 to %c16 step %c1 {",
            "      %ii = arith.index_cast %i : index to i32",
            "      %fi = arith.sitofp %ii : i32 to f32",
            "      %v = arith.mulf %fi, %eighth : f32",
            "      memref.store %v, %in[%i] : memref<16xf32>", "    }"]
    for k in range(count):
        for p, q in (("%t", "%f"), ("%f", "%t"), ("%t", "%t")):
            out += ["    scf.for %i = %c0 to %c16 step %c1 {",
                    "      memref.store %zero, %out[%i] : memref<16xf32>", "    }",
                    f"    call @k{k}(%in, %out, {p}, {q}) : (memref<16xf32>, memref<16xf32>, i1, i1) -> ()",
                    "    call @printMemrefF32(%u) : (memref<*xf32>) -> ()"]
    out += ["    memref.dealloc %out : memref<16xf32>", "    memref.dealloc %in : memref<16xf32>",
            "    return", "  }", "}"]
    print("\n".join(out))


if __name__ == "__main__":
    main()
