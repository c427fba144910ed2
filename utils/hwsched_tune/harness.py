"""A timing and checking driver around one payload function.

hwsched-tune measures a candidate by running the payload's function through
mlir-runner. The payload is a module with the function (tensor or memref
arguments of static shape, tensor results or none); this module appends
@hwsched_tune_main to it, which

  1. allocates one buffer per argument and fills it with small integers
     (exact in every element type, so sums of products stay exact),
  2. when timing: calls the function once (warm-up), then `runs` times
     calls it until `min_time` seconds of thread CPU time have passed and
     prints "CPU <seconds>" and "CALLS <n>" (the bench/cpu-matmul method:
     CPU time, because the hosts are shared; @cputime is the wall clock for
     a program that runs on several threads, see tasks.run_program),
  3. refills every argument, calls the function once more and prints two
     checksums per output buffer (memref arguments and tensor results):
     "CHECK <i> <sum bits> <weighted sum bits>", the f64 bits of the sum of
     the elements and of the sum weighted by (1 + linear index mod 13), so
     a permutation of the output is caught as well as a wrong value.

The harness uses only func, arith, memref, scf and bufferization ops, so
the transform script's matchers (linalg ops) never see it. The same driver
without timing gives the reference output from the untransformed payload.
"""

import re
import struct

ELEMENT_TYPES = {"f16", "bf16", "f32", "f64", "i8", "i16", "i32", "i64"}


class HarnessError(Exception):
    pass


class ShapedArg:
    def __init__(self, kind, shape, element):
        self.kind = kind          # "tensor" or "memref"
        self.shape = shape        # list of ints
        self.element = element    # "f32", ...

    def type_text(self):
        return f"{self.kind}<{'x'.join(map(str, self.shape))}x{self.element}>"

    def memref_text(self):
        return f"memref<{'x'.join(map(str, self.shape))}x{self.element}>"


def _split_top(text, sep=","):
    """Splits at `sep` outside <>, (), [] and {}."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


def _parse_type(text, where):
    m = re.fullmatch(r"(tensor|memref)<([0-9x]+)x(\w+)>", text.strip())
    if not m:
        raise HarnessError(
            f"{where}: type '{text.strip()}' is not supported (a statically "
            "shaped tensor or memref with identity layout is)")
    shape = [int(d) for d in m.group(2).split("x")]
    if m.group(3) not in ELEMENT_TYPES:
        raise HarnessError(f"{where}: element type '{m.group(3)}' is not supported "
                           f"(supported: {', '.join(sorted(ELEMENT_TYPES))})")
    return ShapedArg(m.group(1), shape, m.group(3))


def find_functions(text):
    """{name: (args, results)} of the func.func definitions in `text`."""
    functions = {}
    for m in re.finditer(r"func\.func\s+(?:(public|private|nested)\s+)?@([\w$.]+)\s*\(", text):
        if m.group(1) == "private":
            continue
        # The argument list: up to the matching parenthesis.
        depth, i = 1, m.end()
        while i < len(text) and depth:
            depth += {"(": 1, ")": -1}.get(text[i], 0)
            i += 1
        args_text = text[m.end():i - 1]
        rest = text[i:i + 400]
        results_text = ""
        rm = re.match(r"\s*->\s*(\(.*?\)|[^{]+?)\s*(attributes\s*\{.*?\}\s*)?\{", rest, re.S)
        if not re.match(r"\s*(->|attributes|\{)", rest):
            continue  # a declaration
        if rm:
            results_text = rm.group(1).strip()
            if results_text.startswith("("):
                results_text = results_text[1:-1]
        functions[m.group(2)] = (args_text, results_text)
    return functions


class Signature:
    def __init__(self, name, args, results):
        self.name = name
        self.args = args          # [ShapedArg]
        self.results = results    # [ShapedArg] (tensors)


def parse_signature(text, function=None):
    """The function to drive: `function`, else the only public function."""
    functions = find_functions(text)
    if function is None:
        if len(functions) != 1:
            raise HarnessError(
                "the payload has %d public functions (%s): name the one to "
                "measure with --function" % (len(functions), ", ".join(sorted(functions)) or "none"))
        function = next(iter(functions))
    if function not in functions:
        raise HarnessError(f"no public function @{function} in the payload "
                           f"(found: {', '.join(sorted(functions)) or 'none'})")
    args_text, results_text = functions[function]
    args = []
    for i, arg in enumerate(_split_top(args_text)):
        if ":" not in arg:
            raise HarnessError(f"@{function}: cannot read argument '{arg}'")
        type_text = arg.split(":", 1)[1]
        type_text = re.sub(r"\{.*\}\s*$", "", type_text).strip()
        args.append(_parse_type(type_text, f"@{function} argument #{i}"))
    results = [_parse_type(r, f"@{function} result #{i}")
               for i, r in enumerate(_split_top(results_text))]
    for i, r in enumerate(results):
        if r.kind != "tensor":
            raise HarnessError(f"@{function} result #{i}: only tensor results are supported")
    return Signature(function, args, results)


def _is_float(element):
    return element.startswith("f") or element == "bf16"


class _Writer:
    def __init__(self):
        self.lines = []
        self.n = 0

    def tmp(self, prefix="v"):
        self.n += 1
        return f"%{prefix}{self.n}"

    def __call__(self, line):
        self.lines.append(line)

    def let(self, indent, rhs, prefix="v"):
        """Emits `%name = rhs` at `indent`; returns the new name."""
        name = self.tmp(prefix)
        self(f"{indent}{name} = {rhs}")
        return name


def _loop_nest(w, shape, body, indent="  "):
    """scf.for nest over `shape`; `body(ivs, indent)` emits the innermost."""
    c0, c1 = w.tmp("c"), w.tmp("c")
    w(f"{indent}{c0} = arith.constant 0 : index")
    w(f"{indent}{c1} = arith.constant 1 : index")
    ivs = []
    for d in shape:
        ub = w.let(indent, f"arith.constant {d} : index", "ub")
        iv = w.tmp("i")
        w(f"{indent}scf.for {iv} = {c0} to {ub} step {c1} {{")
        ivs.append(iv)
        indent += "  "
    body(ivs, indent)
    for _ in shape:
        indent = indent[:-2]
        w(f"{indent}}}")


def _weighted_sum(w, ind, terms):
    """Emits sum(iv * coefficient) over `terms`, (iv, coefficient) pairs in
    order, as an index; returns its name."""
    acc = None
    for iv, coefficient in terms:
        c = w.let(ind, f"arith.constant {coefficient} : index", "c")
        t = w.let(ind, f"arith.muli {iv}, {c} : index")
        if acc is None:
            acc = t
        else:
            acc = w.let(ind, f"arith.addi {acc}, {t} : index")
    return acc


def _mod_as_i64(w, ind, value, modulus):
    """Emits `value` mod `modulus` (indices) as an i64; returns its name."""
    m = w.let(ind, f"arith.constant {modulus} : index", "c")
    r = w.let(ind, f"arith.remui {value}, {m} : index")
    i64 = w.let(ind, f"arith.index_cast {r} : index to i64")
    return i64


def _fill(w, buf, arg, salt):
    """buf[i...] = ((sum_k i_k * (k + 2 + salt)) mod (5 + salt % 4)) - 2."""
    def body(ivs, ind):
        acc = _weighted_sum(w, ind, [(iv, k + 2 + salt)
                                     for k, iv in enumerate(ivs)])
        i64 = _mod_as_i64(w, ind, acc, 5 + salt % 4)
        two = w.let(ind, "arith.constant 2 : i64", "c")
        v = w.let(ind, f"arith.subi {i64}, {two} : i64")
        e = arg.element
        if _is_float(e):
            x = w.let(ind, f"arith.sitofp {v} : i64 to {e}")
        elif e == "i64":
            x = v
        else:
            x = w.let(ind, f"arith.trunci {v} : i64 to {e}")
        w(f"{ind}memref.store {x}, {buf}[{', '.join(ivs)}] : {arg.memref_text()}")
    _loop_nest(w, arg.shape, body)


def _checksum(w, buf, arg, index):
    """Prints CHECK <index> <bits of sum> <bits of weighted sum>."""
    sums = w.let("  ", "memref.alloca() : memref<2xf64>", "sums")
    zero = w.let("  ", "arith.constant 0.0 : f64", "c")
    i0, i1 = w.tmp("c"), w.tmp("c")
    w(f"  {i0} = arith.constant 0 : index")
    w(f"  {i1} = arith.constant 1 : index")
    w(f"  memref.store {zero}, {sums}[{i0}] : memref<2xf64>")
    w(f"  memref.store {zero}, {sums}[{i1}] : memref<2xf64>")

    def body(ivs, ind):
        x = w.let(ind, f"memref.load {buf}[{', '.join(ivs)}] : {arg.memref_text()}")
        e = arg.element
        if e == "f64":
            xd = x
        elif _is_float(e):
            xd = w.let(ind, f"arith.extf {x} : {e} to f64")
        else:
            xd = w.let(ind, f"arith.sitofp {x} : {e} to f64")
        # Linear index mod 13 (row-major).
        terms = []
        stride = 1
        for d, iv in reversed(list(zip(arg.shape, ivs))):
            terms.append((iv, stride))
            stride *= d
        ri = _mod_as_i64(w, ind, _weighted_sum(w, ind, terms), 13)
        rf = w.let(ind, f"arith.sitofp {ri} : i64 to f64")
        one = w.let(ind, "arith.constant 1.0 : f64", "c")
        wt = w.let(ind, f"arith.addf {rf}, {one} : f64")
        wx = w.let(ind, f"arith.mulf {xd}, {wt} : f64")
        for slot, val in ((i0, xd), (i1, wx)):
            old = w.let(ind, f"memref.load {sums}[{slot}] : memref<2xf64>")
            new = w.let(ind, f"arith.addf {old}, {val} : f64")
            w(f"{ind}memref.store {new}, {sums}[{slot}] : memref<2xf64>")
    _loop_nest(w, arg.shape, body)
    for slot, tag in ((i0, "sum"), (i1, "wsum")):
        v = w.let("  ", f"memref.load {sums}[{slot}] : memref<2xf64>")
        b = w.let("  ", f"arith.bitcast {v} : f64 to i64")
        w(f'  vector.print str "CHECK {index} {tag} "')
        w(f"  vector.print {b} : i64")


def driver(sig, timing, runs=3, min_time=0.1):
    """The text of @hwsched_tune_main (+ the cputime declaration)."""
    w = _Writer()
    w("func.func private @cputime() -> f64")
    w("func.func @hwsched_tune_main() {")
    bufs = []
    for i, arg in enumerate(sig.args):
        b = w.let("  ", f"memref.alloc() {{alignment = 64 : i64}} : {arg.memref_text()}", "arg")
        bufs.append(b)
    outs = []
    for i, res in enumerate(sig.results):
        b = w.let("  ", f"memref.alloc() {{alignment = 64 : i64}} : {res.memref_text()}", "res")
        outs.append(b)

    def fill_all():
        for i, (b, arg) in enumerate(zip(bufs, sig.args)):
            _fill(w, b, arg, i)

    def call(keep_results):
        operands = []
        for b, arg in zip(bufs, sig.args):
            if arg.kind == "tensor":
                t = w.tmp("t")
                w(f"  {t} = bufferization.to_tensor {b} restrict writable : "
                  f"{arg.memref_text()} to {arg.type_text()}")
                operands.append(t)
            else:
                operands.append(b)
        types = ", ".join(a.type_text() for a in sig.args)
        rtypes = ", ".join(r.type_text() for r in sig.results)
        if sig.results:
            rs = [w.tmp("r") for _ in sig.results]
            w(f"  {', '.join(rs)} = func.call @{sig.name}({', '.join(operands)}) : "
              f"({types}) -> ({rtypes})")
            if keep_results:
                for r, out, res in zip(rs, outs, sig.results):
                    w(f"  bufferization.materialize_in_destination {r} in restrict writable "
                      f"{out} : ({res.type_text()}, {res.memref_text()}) -> ()")
        else:
            w(f"  func.call @{sig.name}({', '.join(operands)}) : ({types}) -> ()")

    fill_all()
    if timing:
        call(False)  # warm-up
        c0, c1, cr = w.tmp("c"), w.tmp("c"), w.tmp("c")
        w(f"  {c0} = arith.constant 0 : index")
        w(f"  {c1} = arith.constant 1 : index")
        w(f"  {cr} = arith.constant {runs} : index")
        w(f"  scf.for %run = {c0} to {cr} step {c1} {{")
        t0 = w.let("    ", "func.call @cputime() : () -> f64", "t")
        mt = w.let("    ", f"arith.constant {float(min_time):e} : f64", "c")
        zero = w.let("    ", "arith.constant 0 : i64", "c")
        # Call until min_time has passed: the count calibrates itself to
        # the candidate's speed, so one program serves every candidate.
        w(f"    %calls, %elapsed = scf.while (%n = {zero}) : (i64) -> (i64, f64) {{")
        now = w.let("      ", "func.call @cputime() : () -> f64", "t")
        el = w.let("      ", f"arith.subf {now}, {t0} : f64")
        go = w.let("      ", f"arith.cmpf olt, {el}, {mt} : f64")
        w(f"      scf.condition({go}) %n, {el} : i64, f64")
        w("    } do {")
        w("    ^bb0(%m: i64, %e: f64):")
        saved = w.lines
        w.lines = []
        call(False)
        body = ["    " + line for line in w.lines]
        w.lines = saved
        w.lines.extend(body)
        one = w.let("      ", "arith.constant 1 : i64", "c")
        nn = w.let("      ", f"arith.addi %m, {one} : i64")
        w(f"      scf.yield {nn} : i64")
        w("    }")
        w('    vector.print str "CPU "')
        w("    vector.print %elapsed : f64")
        w('    vector.print str "CALLS "')
        w("    vector.print %calls : i64")
        w("  }")
        fill_all()
    call(True)
    index = 0
    for b, arg in zip(bufs, sig.args):
        if arg.kind == "memref":
            _checksum(w, b, arg, index)
            index += 1
    for b, res in zip(outs, sig.results):
        _checksum(w, b, res, index)
        index += 1
    if index == 0:
        raise HarnessError(f"@{sig.name} has no output to check (no memref "
                           "argument, no tensor result)")
    w("  return")
    w("}")
    return "\n".join(w.lines)


def with_driver(payload_text, sig, timing, runs=3, min_time=0.1):
    """The payload module with @hwsched_tune_main added."""
    text = payload_text.rstrip()
    body = driver(sig, timing, runs, min_time)
    stripped = re.sub(r"//[^\n]*", "", text).strip()
    if stripped.startswith("module") and text.endswith("}"):
        return text[:-1].rstrip() + "\n" + body + "\n}\n"
    return "module {\n" + text + "\n" + body + "\n}\n"


def parse_run(text):
    """(seconds per call of each timed run, checksums {index: (sum, wsum)})."""
    cpus, calls, checks = [], [], {}
    for line in text.splitlines():
        parts = line.split()
        if not parts:
            continue
        if parts[0] == "CPU" and len(parts) >= 2:
            cpus.append(float(parts[1]))
        elif parts[0] == "CALLS" and len(parts) >= 2:
            calls.append(int(parts[1]))
        elif parts[0] == "CHECK" and len(parts) >= 4:
            value = struct.unpack("<d", struct.pack("<q", int(parts[3])))[0]
            checks.setdefault(int(parts[1]), {})[parts[2]] = value
    per_call = [c / max(n, 1) for c, n in zip(cpus, calls)]
    return per_call, {i: (v.get("sum"), v.get("wsum")) for i, v in checks.items()}


def compare(got, want, rtol=1e-6):
    """None when the checksums agree, else why not."""
    if set(got) != set(want):
        return f"outputs {sorted(got)} printed, reference has {sorted(want)}"
    for index in sorted(want):
        for name, g, r in zip(("sum", "weighted sum"), got[index], want[index]):
            if g != g or r != r:  # NaN
                if not (g != g and r != r):
                    return f"output {index}: {name} {g} vs reference {r}"
                continue
            if abs(g - r) > rtol * max(abs(r), 1.0):
                return (f"output {index}: {name} {g!r} differs from the "
                        f"reference {r!r}")
    return None
