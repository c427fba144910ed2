#!/usr/bin/env python3
"""Adds an executable `@main` to a payload written the way frontends write it.

Frontends (torch-mlir, IREE, StableHLO lowerings) and upstream test files emit
functions that take and return tensors (or write memref arguments); nothing
runs them. `utils/exec-check.py` needs a `func.func @main()` that builds the
inputs, calls the kernels and prints what they computed. This module writes
one:

  * every public function with a body whose argument and result types it
    understands (ranked tensors and identity-layout memrefs of f16, bf16,
    f32, f64, i1/i4/i8/i16/i32/i64 or index elements, and scalars of those
    types) is called once;
  * each tensor argument is a tensor.generate (a memref argument a buffer
    it is copied into), so the harness has no loop and no Linalg op before
    lowering: a transform script that matches loops or Linalg ops never
    touches it. Its elements are small integers: element (i0, i1, ...) of
    argument a is
    ((i0*7 + i1*3 + i2*5 + i3*11 + ... + 3*a + 1) mod R) - R/2 with R = 3 for
    16-bit floats and 4- and 8-bit integers, 5 otherwise, so that every sum of
    products a matmul or a convolution of the corpus sizes computes is
    exactly representable, whatever the order of the reduction;
  * dynamic dimensions get one extent (`--dynamic-extent`, default 24) so
    that the shapes of the arguments agree, unless the caller gives extents
    per argument dimension (`arg_extents`; utils/exec-check.py solves them
    from the ops, hwsched_tools/dynamic_extents.py, so that a convolution
    whose input and output are both arguments gets an input that fits its
    window and stride);
  * every result and every memref argument (it may be written) is printed
    with printMemrefF32 / printMemrefI32 / printMemrefF64 / printMemrefI64,
    16-bit floats widened to f32 and narrow integers to i32 first.

A payload function named `@main` that is not a harness (it has arguments or
results, as StableHLO modules name their entry function) is renamed
`@main_payload` (with its callers). Functions the harness cannot call are
listed on stderr and skipped; with none left it fails (exit status 1).

Usage:
  python3 utils/exec_harness.py PAYLOAD.mlir [--dynamic-extent N] > WITH_MAIN.mlir
  from exec_harness import add_main; text = add_main(payload_text)
"""

import argparse
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hwsched_tools import mlir_text  # noqa: E402

FLOATS = {"f16": 16, "bf16": 16, "f32": 32, "f64": 64}
INTS = {"i1": 1, "i4": 4, "i8": 8, "i16": 16, "i32": 32, "i64": 64}
DIM_WEIGHTS = [7, 3, 5, 11, 13, 2, 17, 19]


class HarnessError(Exception):
    pass


class Type:
    """A ranked tensor, an identity-layout memref or a scalar."""

    def __init__(self, text):
        self.text = text.strip()
        m = re.fullmatch(r"(tensor|memref)<(.*)>", self.text)
        if m:
            self.kind = m.group(1)
            body = m.group(2)
            if "," in body:  # layout, memory space or encoding
                raise HarnessError(f"unsupported type {self.text}")
            parts = body.split("x")
            self.elem = parts[-1]
            self.shape = [None if p == "?" else int(p) for p in parts[:-1]]
        elif self.text in FLOATS or self.text in INTS or self.text == "index":
            self.kind = "scalar"
            self.elem = self.text
            self.shape = []
        else:
            raise HarnessError(f"unsupported type {self.text}")
        if self.elem not in FLOATS and self.elem not in INTS and self.elem != "index":
            raise HarnessError(f"unsupported element type in {self.text}")

    def static_shape(self, extent):
        return [dim_extent(extent, i) if d is None else d
                for i, d in enumerate(self.shape)]

    def memref(self, extent=None, dynamic=False):
        dims = ["?" if (d is None and dynamic) else
                str(dim_extent(extent, i) if d is None else d)
                for i, d in enumerate(self.shape)]
        return "memref<" + "".join(d + "x" for d in dims) + self.elem + ">"


def dim_extent(extent, i):
    """The extent of dynamic dimension `i`: `extent` is one extent for every
    dimension or a list with one per dimension (None where static)."""
    return extent[i] if isinstance(extent, (list, tuple)) else extent


def split_top(text, sep=","):
    """Splits at `sep` outside brackets and quotes (hwsched_tools.mlir_text)."""
    return mlir_text.split_top(text, sep)


def matching(text, start):
    """Index of the bracket closing the one at `start`."""
    try:
        return mlir_text.closing(text, start)
    except ValueError:
        raise HarnessError("unbalanced brackets in a function signature")


class Func:
    def __init__(self, name, args, results):
        self.name = name
        self.args = args
        self.results = results


FUNC_RE = re.compile(r"^\s*func\.func\s+(?:(public|private|nested)\s+)?@([\w$.-]+)\s*\(",
                     re.M)


def parse_functions(text):
    """The functions of `text`: (public callable ones, skipped with reasons)."""
    funcs, skipped = [], []
    for m in FUNC_RE.finditer(text):
        visibility, name = m.group(1), m.group(2)
        open_paren = m.end() - 1
        close = matching(text, open_paren)
        args_text = text[open_paren + 1:close]
        rest = text[close + 1:]
        # Results up to `attributes` or the body's `{`; a declaration ends at
        # the end of the line.
        head = re.match(r"\s*(->\s*(\([^{]*?\)|[^{\n]*?))?\s*(attributes\s*\{|\{|\n|$)", rest)
        if not head:
            skipped.append((name, "unparsed signature"))
            continue
        if head.group(3) in ("\n", ""):
            continue  # declaration
        if head.group(3).startswith("attributes"):
            # attributes {...} then the body
            a = rest.index("{", head.start(3))
            after = rest[matching(rest, a) + 1:].lstrip()
            if not after.startswith("{"):
                continue
        if visibility in ("private", "nested"):
            skipped.append((name, f"{visibility} function"))
            continue
        try:
            args = []
            for a in split_top(args_text):
                a = a.strip()
                am = re.match(r"%[\w$.-]+\s*:\s*(.*)$", a, re.S)
                if not am:
                    raise HarnessError(f"unparsed argument '{a}'")
                ty = am.group(1).strip()
                # Drop argument attributes and locations.
                ty = re.sub(r"\s*(\{.*\}|loc\(.*\))\s*$", "", ty, flags=re.S)
                args.append(Type(ty))
            results = []
            res_text = (head.group(2) or "").strip()
            if res_text.startswith("("):
                res_text = res_text[1:-1]
            for r in split_top(res_text):
                r = re.sub(r"\s*\{.*\}\s*$", "", r.strip(), flags=re.S)
                if r:
                    results.append(Type(r))
            funcs.append(Func(name, args, results))
        except HarnessError as e:
            skipped.append((name, str(e)))
    return funcs, skipped


class Writer:
    def __init__(self):
        self.lines = []
        self.n = 0
        self.consts = {}
        self.decls = set()

    def fresh(self, hint="v"):
        self.n += 1
        return f"%h_{hint}{self.n}"

    def emit(self, line, indent=2):
        self.lines.append(" " * indent + line)

    def index(self, value):
        if value not in self.consts:
            name = f"%h_idx{value}"
            self.consts[value] = name
        return self.consts[value]


def fill_value(w, elem, idx, argno, indent):
    """Emits the value of one element; returns its SSA name."""
    narrow = elem in ("f16", "bf16") or elem in ("i1", "i4", "i8")
    r = 3 if narrow else 5
    if elem == "i1":
        r = 2
    acc = w.index(3 * argno + 1)
    for d, i in enumerate(idx):
        t = w.fresh("m")
        w.emit(f"{t} = arith.muli {i}, {w.index(DIM_WEIGHTS[d % len(DIM_WEIGHTS)])} : index", indent)
        s = w.fresh("s")
        w.emit(f"{s} = arith.addi {acc}, {t} : index", indent)
        acc = s
    rem = w.fresh("r")
    w.emit(f"{rem} = arith.remui {acc}, {w.index(r)} : index", indent)
    val = w.fresh("val")
    w.emit(f"{val} = arith.subi {rem}, {w.index(r // 2)} : index", indent)
    if elem == "index":
        return val
    i64 = w.fresh("i")
    w.emit(f"{i64} = arith.index_cast {val} : index to i64", indent)
    if elem in FLOATS:
        f = w.fresh("f")
        w.emit(f"{f} = arith.sitofp {i64} : i64 to {elem}", indent)
        return f
    if elem == "i64":
        return i64
    t = w.fresh("t")
    w.emit(f"{t} = arith.trunci {i64} : i64 to {elem}", indent)
    return t


def generate(w, shape_type, elem, rank, dyn_sizes, body):
    """A tensor.generate of `shape_type`; `body(idx, indent)` returns the
    element. No loop and no Linalg op: the harness stays invisible to
    transform scripts (bufferization turns it into loops when lowering)."""
    t = w.fresh("gen")
    sizes = (" " + ", ".join(dyn_sizes)) if dyn_sizes else ""
    w.emit(f"{t} = tensor.generate{sizes} {{")
    idx = [w.fresh("i") for _ in range(rank)]
    w.emit(f"^bb0({', '.join(f'{i}: index' for i in idx)}):", 0)
    v = body(idx, 4)
    w.emit(f"tensor.yield {v} : {elem}", 4)
    w.emit(f"}} : {shape_type}")
    return t


def tensor_type(ty, extent=None, dynamic=False):
    dims = ["?" if (d is None and dynamic) else
            str(dim_extent(extent, i) if d is None else d)
            for i, d in enumerate(ty.shape)]
    return "tensor<" + "".join(d + "x" for d in dims) + ty.elem + ">"


def make_input(w, ty, argno, extent):
    """A filled tensor of the static shape of `ty` (dynamic dims: extent)."""
    static = tensor_type(ty, extent)
    return generate(w, static, ty.elem, len(ty.shape), [],
                    lambda idx, indent: fill_value(w, ty.elem, idx, argno, indent)), static


def print_tensor(w, value, ty):
    """Prints a tensor value (any supported element type)."""
    elem = ty.elem
    rank = len(ty.shape)
    src, stype = value, tensor_type(ty, dynamic=True)
    if elem not in ("f32", "f64", "i32", "i64"):
        target = "f32" if elem in FLOATS else "i32" if elem != "index" else "i64"
        dyn = []
        for d, size in enumerate(ty.shape):
            if size is None:
                n = w.fresh("dim")
                w.emit(f"{n} = tensor.dim {value}, {w.index(d)} : {stype}")
                dyn.append(n)
        wide = "tensor<" + "".join(("?" if s is None else str(s)) + "x"
                                   for s in ty.shape) + target + ">"

        def body(idx, indent):
            e = w.fresh("e")
            w.emit(f"{e} = tensor.extract {value}[{', '.join(idx)}] : {stype}", indent)
            x = w.fresh("x")
            if elem in FLOATS:
                w.emit(f"{x} = arith.extf {e} : {elem} to f32", indent)
            elif elem == "index":
                w.emit(f"{x} = arith.index_cast {e} : index to i64", indent)
            else:
                w.emit(f"{x} = arith.extsi {e} : {elem} to i32", indent)
            return x
        src = generate(w, wide, target, rank, dyn, body)
        stype = wide
    else:
        target = elem
    fn = {"f32": "printMemrefF32", "f64": "printMemrefF64",
          "i32": "printMemrefI32", "i64": "printMemrefI64"}[target]
    w.decls.add((fn, target))
    mtype = "memref<" + stype[len("tensor<"):]
    b = w.fresh("out")
    w.emit(f"{b} = bufferization.to_buffer {src} : {stype} to {mtype}")
    u = w.fresh("u")
    w.emit(f"{u} = memref.cast {b} : {mtype} to memref<*x{target}>")
    w.emit(f"func.call @{fn}({u}) : (memref<*x{target}>) -> ()")


def harness(funcs, extent, arg_extents=None):
    w = Writer()
    for f in funcs:
        w.emit(f"// {f.name}")
        per_arg = (arg_extents or {}).get(f.name, {})
        operands, types, memrefs = [], [], []
        for a, ty in enumerate(f.args):
            if ty.kind == "scalar":
                v = fill_value(w, ty.elem, [], a + 1, 2)
                operands.append(v)
                types.append(ty.text)
                continue
            ext = per_arg.get(a, extent)
            t, static = make_input(w, ty, a, ext)
            if ty.kind == "memref":
                mtype = ty.memref(ext)
                buf = w.fresh("buf")
                w.emit(f"{buf} = memref.alloc() : {mtype}")
                w.emit(f"bufferization.materialize_in_destination {t} in restrict "
                       f"writable {buf} : ({static}, {mtype}) -> ()")
                val = buf
                if mtype != ty.text:
                    val = w.fresh("cast")
                    w.emit(f"{val} = memref.cast {buf} : {mtype} to {ty.text}")
                operands.append(val)
                memrefs.append((buf, mtype, ty, static))
            else:
                if static != ty.text:
                    c = w.fresh("cast")
                    w.emit(f"{c} = tensor.cast {t} : {static} to {ty.text}")
                    t = c
                operands.append(t)
            types.append(ty.text)
        res_types = [r.text for r in f.results]
        call = f"func.call @{f.name}({', '.join(operands)}) : ({', '.join(types)}) -> ({', '.join(res_types)})"
        if f.results:
            r = w.fresh("res")
            w.emit(f"{r}:{len(f.results)} = {call}" if len(f.results) > 1 else f"{r} = {call}")
            names = [f"{r}#{i}" for i in range(len(f.results))] if len(f.results) > 1 else [r]
        else:
            w.emit(call)
            names = []
        for name, ty in zip(names, f.results):
            if ty.kind == "scalar":
                w.emit(f"vector.print {name} : {ty.elem}")
            elif ty.kind == "tensor":
                print_tensor(w, name, ty)
            else:
                t = w.fresh("t")
                w.emit(f"{t} = bufferization.to_tensor {name} restrict : {ty.text} to {tensor_type(ty, dynamic=True)}")
                print_tensor(w, t, ty)
        for buf, mtype, ty, static in memrefs:
            t = w.fresh("t")
            w.emit(f"{t} = bufferization.to_tensor {buf} restrict : {mtype} to {static}")
            st = Type(static)
            print_tensor(w, t, st)
    consts = [f"  {name} = arith.constant {v} : index"
              for v, name in sorted(w.consts.items())]
    body = "\n".join(consts + w.lines)
    decls = "".join(
        f"func.func private @{fn}(memref<*x{t}>) attributes {{llvm.emit_c_interface}}\n"
        for fn, t in sorted(w.decls))
    return decls, f"func.func @main() {{\n{body}\n  return\n}}\n"


def add_main(text, extent=24, arg_extents=None):
    """`text` with an executable @main appended (inside its module).
    `arg_extents` ({function: {argument number: [extent or None per
    dimension]}}, e.g. from hwsched_tools.dynamic_extents.solve) overrides
    `extent` for the arguments it lists."""
    # A payload @main that is not a harness: rename it and its callers.
    if re.search(r"func\.func\s+(public\s+)?@main\s*\(\s*%", text) or \
            re.search(r"func\.func\s+(public\s+)?@main\s*\(\s*\)\s*->", text):
        text = re.sub(r"@main\b", "@main_payload", text)
    elif re.search(r"func\.func\s+(public\s+)?@main\s*\(\s*\)", text):
        return text  # already has a harness
    funcs, skipped = parse_functions(text)
    for name, why in skipped:
        print(f"exec_harness: @{name} not called: {why}", file=sys.stderr)
    if not funcs:
        raise HarnessError("no public function with supported argument and "
                           "result types to call")
    decls, main = harness(funcs, extent, arg_extents)
    # Declarations the payload already has stay single.
    decls = "".join(l + "\n" for l in decls.splitlines()
                    if re.search(r"@\w+", l).group(0) + "(" not in text)
    addition = decls + "\n" + main
    stripped = text.rstrip()
    # Inside an explicit top-level module (after any attribute or type alias
    # definitions): before its closing brace.
    if re.match(r"^\s*(//.*\n|\s|[#!][\w$.-]+\s*=.*\n)*module\b", text) and \
            stripped.endswith("}"):
        return stripped[:-1].rstrip() + "\n\n" + addition + "}\n"
    return stripped + "\n\n" + addition


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("payload")
    ap.add_argument("--dynamic-extent", type=int, default=24)
    args = ap.parse_args()
    with open(args.payload) as f:
        text = f.read()
    try:
        sys.stdout.write(add_main(text, args.dynamic_extent))
    except HarnessError as e:
        print(f"exec_harness: {args.payload}: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
