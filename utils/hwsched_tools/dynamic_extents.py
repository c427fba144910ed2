"""Extents for the dynamic dimensions of a payload's function arguments that
fit the Linalg ops reading them.

utils/exec_harness.py gives every `?` of every argument one extent (24 by
default). That fits a matmul or an elementwise op, whose loops read each
dimension as it is, but not a convolution whose input and output are both
arguments: with a 3x3 window and stride 2 an output row count of 24 needs
49 input rows, not 24. Upstream's runtime op verification then stops the
reference run and utils/exec-check.py reports an "invalid instance": a
payload that was not checked at all.

This module reads the payload with its named Linalg ops generalized
(`--linalg-generalize-named-ops`: every op is a `linalg.generic` with its
indexing maps printed) and solves, per function, for the loop ranges and the
argument extents:

  * a loop read by an operand dimension as the loop itself (`d1`) takes that
    dimension's size when it is known (static, or an argument extent already
    chosen); a loop no operand fixes gets the default extent (a window
    loop, read only through a sum and not by the init, 3 taps);
  * an argument dimension read as `c1*d1 + c2*d4 + k` (a strided window)
    gets the extent the op reads, c1*(L1 - 1) + c2*(L4 - 1) + k + 1;
  * the ops are visited in order and again until nothing changes, so an
    extent chosen for one op's operand fixes the loops of the next op that
    reads the same argument.

A Linalg op's result has the shape of its init, so an argument read by the
op that consumes another op's result is solved too (a pooling, then an add
of its result and an argument). Only function arguments passed straight to
Linalg ops (or through their results) are solved; a dimension
the solver cannot reach keeps the default extent (the harness's behaviour
before). The answer is a plain table, {function: {argument number: [extent
per dimension, None for static]}}, which utils/exec_harness.py takes as
`arg_extents`.
"""

import re

from .mlir_text import closing, split_top

WINDOW_DEFAULT = 3

MAP_ALIAS = re.compile(r"^(#[\w$.-]+)\s*=\s*(affine_map<.*>)\s*$", re.M)
FUNC = re.compile(r"func\.func\s+(?:public\s+|private\s+)?@([\w$.-]+)\s*\(")
GENERIC = re.compile(r"(?:(%[\w$.-]+)(?::(\d+))?\s*=\s*)?linalg\.generic\s*\{")


def _past(text, start):
    """Index just past the bracket closing the one at `start`."""
    return closing(text, start) + 1


def _shape(type_text):
    """Dimensions of a ranked tensor or memref type: ints, None for `?`."""
    m = re.match(r"\s*(?:tensor|memref)<(.*)>\s*$", type_text)
    if not m:
        return None
    body = split_top(m.group(1))[0]  # without layout or memory space
    parts = body.split("x")
    try:
        return [None if d == "?" else int(d) for d in parts[:-1]]
    except ValueError:
        return None


def _parse_map(text):
    """affine_map<(d0, d1, ...) -> (e0, e1, ...)> as, per result, a list of
    (coefficient, loop) terms and a constant; None for what this solver does
    not read (symbols, floordiv, mod, products of loops)."""
    m = re.match(r"affine_map<\(([^)]*)\)(?:\[[^\]]*\])?\s*->\s*\((.*)\)>$", text.strip())
    if not m:
        return None
    loops = [d.strip() for d in m.group(1).split(",") if d.strip()]
    results = []
    for expr in split_top(m.group(2)):
        terms, const = [], 0
        for term in re.split(r"\s*\+\s*", expr.strip()):
            term = term.strip()
            if re.fullmatch(r"-?\d+", term):
                const += int(term)
                continue
            tm = re.fullmatch(r"(d\d+)(?:\s*\*\s*(\d+))?|(\d+)\s*\*\s*(d\d+)", term)
            if not tm:
                return None
            name = tm.group(1) or tm.group(4)
            coeff = int(tm.group(2) or tm.group(3) or 1)
            if name not in loops:
                return None
            terms.append((coeff, loops.index(name)))
        results.append((terms, const))
    return len(loops), results


def _functions(text):
    """(name, [argument types], body text) of every function with a body."""
    out = []
    for m in FUNC.finditer(text):
        open_paren = m.end() - 1
        close = _past(text, open_paren)
        args = []
        for a in split_top(text[open_paren + 1:close - 1]):
            am = re.match(r"%[\w$.-]+\s*:\s*(.*?)(?:\s*\{.*\})?$", a)
            args.append(am.group(1) if am else "")
        brace = text.find("{", close)
        nxt = FUNC.search(text, close)
        if brace < 0 or (nxt and nxt.start() < brace):
            continue  # a declaration
        end = _past(text, brace)
        out.append((m.group(1), args, text[brace:end]))
    return out


def _operand_list(text, open_paren):
    """The `(%a, %b : type_a, type_b)` of an `ins` or `outs` whose bracket
    is at text[open_paren]: ([(name, type)], index past its `)`); no pairs
    when it has no types."""
    close = _past(text, open_paren)
    inner = text[open_paren + 1:close - 1]
    if ":" not in inner:
        return [], close
    names, types = inner.split(":", 1)
    return list(zip([n.strip() for n in names.split(",")], split_top(types))), close


def _generics(body, maps, aliases):
    """(indexing maps, [(operand name, type)]) of each linalg.generic; fills
    `aliases` with what each result has the shape of (its init operand)."""
    out = []
    for m in GENERIC.finditer(body):
        attr_end = _past(body, m.end() - 1)
        attrs = body[m.end() - 1:attr_end]
        im = re.search(r"indexing_maps\s*=\s*\[", attrs)
        if not im:
            continue
        list_end = _past(attrs, im.end() - 1)
        entries = split_top(attrs[im.end():list_end - 1])
        parsed = [_parse_map(maps.get(e, e)) for e in entries]
        operands, n_ins = [], 0
        rest = body[attr_end:attr_end + 4000]
        for kw in ("ins", "outs"):
            km = re.match(r"\s*" + kw + r"\s*\(", rest) if kw == "ins" else \
                re.search(r"outs\s*\(", rest)
            if not km:
                continue
            pairs, close = _operand_list(rest, km.end() - 1)
            if not pairs:
                continue
            operands += pairs
            if kw == "ins":
                rest = rest[close:]
                n_ins = len(operands)
            else:
                inits = [n for n, _ in operands[n_ins:]]
                result, count = m.group(1), int(m.group(2) or 1)
                if result and inits:
                    if count == 1:
                        aliases[result] = inits[0]
                    for i, init in enumerate(inits[:count]):
                        aliases[f"{result}#{i}"] = init
        if len(operands) == len(parsed):
            out.append((parsed, operands))
    return out


def solve_window(terms, const, size, ranges):
    """The one loop of an operand dimension `const + sum c * loop` whose
    range `ranges` does not know yet, solved from the dimension's `size`
    (size - 1 = const + sum c * (range - 1)): (loop, range), or None when
    not exactly one loop is unknown or no whole range fits."""
    unknown = [(c, l) for c, l in terms if ranges[l] is None]
    if len(unknown) != 1:
        return None
    rest = size - 1 - const - sum(c * (ranges[l] - 1)
                                  for c, l in terms if ranges[l] is not None)
    c, l = unknown[0]
    if rest < 0 or rest % c:
        return None
    return l, rest // c + 1


def solve(generalized_text, default=24):
    """{function: {argument number: [extent or None per dimension]}} for the
    arguments with a dynamic dimension; see the module docstring."""
    maps = {m.group(1): m.group(2) for m in MAP_ALIAS.finditer(generalized_text)}
    table = {}
    for name, arg_types, body in _functions(generalized_text):
        shapes = [_shape(t) for t in arg_types]
        if not any(s and None in s for s in shapes):
            continue
        aliases = {}
        ops = [(parsed, operands) for parsed, operands in _generics(body, maps, aliases)
               if all(p is not None for p in parsed)]
        table[name] = _solve_function(shapes, ops, aliases, default)
    return table


def _solve_function(shapes, ops, aliases, default):
    chosen = {}  # (argument, dimension) -> extent
    loops = [[None] * parsed[0][0] for parsed, _ in ops]  # loop ranges per op

    def arg_of(operand):
        # A Linalg op's result has its init's shape.
        for _ in range(len(aliases) + 1):
            if operand not in aliases:
                break
            operand = aliases[operand]
        m = re.fullmatch(r"%arg(\d+)", operand)
        if m and int(m.group(1)) < len(shapes) and shapes[int(m.group(1))]:
            return int(m.group(1))
        return None

    def size(operand, t, dim):
        a = arg_of(operand)
        if a is not None:
            s = shapes[a]
            if dim >= len(s):
                return None
            return s[dim] if s[dim] is not None else chosen.get((a, dim))
        s = _shape(t)
        return s[dim] if s and dim < len(s) else None

    def dims(k):
        parsed, operands = ops[k]
        for (_, results), (operand, t) in zip(parsed, operands):
            for dim, (terms, const) in enumerate(results):
                yield operand, t, dim, terms, const

    def propagate():
        """Loop ranges from known sizes, argument extents from known loop
        ranges, until nothing changes."""
        changed = True
        while changed:
            changed = False
            for k in range(len(ops)):
                ranges = loops[k]
                for operand, t, dim, terms, const in dims(k):
                    known = size(operand, t, dim)
                    unknown = [(c, l) for c, l in terms if ranges[l] is None]
                    if known is not None and len(unknown) == 1:
                        solved = solve_window(terms, const, known, ranges)
                        if solved:
                            ranges[solved[0]] = solved[1]
                            changed = True
                    elif known is None and not unknown and terms:
                        a = arg_of(operand)
                        if a is not None and (a, dim) not in chosen:
                            extent = sum(c * (ranges[l] - 1) for c, l in terms) + const + 1
                            if extent >= 1:
                                chosen[(a, dim)] = extent
                                changed = True

    def default_one():
        """The default for one loop nothing fixes; within a window whose
        size is known (a static input row count) at most half of what is
        left, so that the window's other loops fit too."""
        for k in range(len(ops)):
            ranges = loops[k]
            for l, r in enumerate(ranges):
                if r is not None:
                    continue
                value = default
                for operand, t, dim, terms, const in dims(k):
                    known = size(operand, t, dim)
                    if known is None or all(ll != l for _, ll in terms):
                        continue
                    rest = known - 1 - const - sum(
                        c * (ranges[ll] - 1) for c, ll in terms if ranges[ll] is not None)
                    c = next(c for c, ll in terms if ll == l)
                    others = sum(1 for _, ll in terms if ll != l and ranges[ll] is None)
                    value = min(value, max(rest, 0) // (c * (2 if others else 1)) + 1)
                # A window loop (a reduction loop read through a sum,
                # `oh + kh`: in a compound index, not in the init's) that
                # nothing fixes gets a filter-sized default, not the default
                # extent: real windows are small, and a 24-tap window would
                # run the schedule's window chunks (3 taps) 64 times.
                init_terms = ops[k][0][-1][1]
                in_init = any(ll == l for terms, _ in init_terms for _, ll in terms)
                in_sum = any(len(terms) > 1 and any(ll == l for _, ll in terms)
                             for _, _, _, terms, _ in dims(k))
                if in_sum and not in_init:
                    value = min(value, WINDOW_DEFAULT)
                ranges[l] = max(value, 1)
                return True
        return False

    propagate()
    while default_one():
        propagate()
    entry = {}
    for a, s in enumerate(shapes):
        if s and None in s:
            entry[a] = [chosen.get((a, d), default) if v is None else None
                        for d, v in enumerate(s)]
    return entry


def solve_payload(text, default=24, opt=None):
    """The table for a payload as written (named ops and all): its named ops
    generalized with `opt` (default: LLVM's mlir-opt), then solve(). None when
    the payload has no dynamic dimension or does not parse with that tool
    (the harness then gives every `?` the default, as before)."""
    if not re.search(r"(tensor|memref)<[^>]*\?", text):
        return None
    import subprocess
    from . import toolchain
    proc = subprocess.run([opt or toolchain.mlir_opt(), "-", "--linalg-generalize-named-ops"],
                          input=text, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True)
    if proc.returncode != 0:
        return None
    return solve(proc.stdout, default)


def main(argv=None):
    """`python3 -m hwsched_tools.dynamic_extents [FILE]`: the table for a
    payload whose named ops are already generalized (stdin by default), one
    line per function argument."""
    import argparse
    import sys
    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("file", nargs="?")
    ap.add_argument("--default", type=int, default=24)
    args = ap.parse_args(argv)
    text = open(args.file).read() if args.file else sys.stdin.read()
    for func, entry in solve(text, args.default).items():
        for arg, extents in sorted(entry.items()):
            dims = "x".join("-" if e is None else str(e) for e in extents)
            print(f"@{func} arg {arg}: {dims}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
