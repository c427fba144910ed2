"""A smaller instance of a payload whose Linalg ops are too large to run
unscheduled on a CPU.

exec-check.py compares a scheduled payload with its unscheduled reference,
and the reference runs as plain scalar loops. A production-sized payload (a
2x256x512x256 convolution over 3x3x768 filters: 463 G multiply-adds) keeps
that reference busy for hours. This module rewrites the payload's static
shapes into a smaller instance of the same program: the same ops, the same
maps, windows, strides and element types, each large loop cut down, and
with each extent's remainder modulo 16 kept (a partial tile stays partial,
an unaligned extent stays unaligned). The schedule then decides for the
smaller shapes: the check covers the script's route on this payload, not
its decisions at the original size, and exec-check says so.

How. The payload is read with its named ops generalized
(`--linalg-generalize-named-ops`), so that every op shows its indexing
maps. For each op:

  * its loop ranges come from its static operand shapes (a loop read as
    `d1` takes that dimension's size; one read only through a window sum,
    `c1*d1 + c2*d4 + k`, is solved from it);
  * each range over the cap becomes `cap` rounded down to a multiple of 16,
    plus the range's remainder modulo 16; smaller ranges (filter windows,
    batch counts, channel counts under the cap) are kept;
  * each operand dimension becomes what the op reads at the new ranges plus
    the slack it had (rows of a strided input that no window reaches).

Every operand type then maps to one new type; a type that two ops would
need in two different shapes (an op that reads `256` as a plain loop while
another reads the same tensor as a 254-row output plus a 3-tap window)
refuses the reduction, as does a payload that no longer verifies (a static
size written elsewhere: a dense constant, a slice's sizes). The static
sizes of a tensor.expand_shape's output_shape follow its result type. The
cap halves, from 512, until every op runs at most `target` loop iterations.
"""

import re
import subprocess

from .dynamic_extents import _functions, _generics, _shape, MAP_ALIAS, solve_window
from .mlir_text import split_top

ALIGN = 16
FIRST_CAP = 512
SMALLEST_CAP = 16


class ReduceError(Exception):
    """The payload has no smaller instance this module can write."""


class Reduction:
    """What reduce_payload changed: the largest op's loop iterations before
    and after, the cap and the type map."""

    def __init__(self, before, after, cap, types):
        self.before, self.after, self.cap, self.types = before, after, cap, types

    def short(self):
        return f"largest op {self.before} -> {self.after} loop iterations"

    def __str__(self):
        return (f"loops over {self.cap} cut to {self.cap - self.cap % ALIGN} + their "
                f"remainder mod {ALIGN}; {self.short()}; "
                + ", ".join(f"{k} -> {v}" for k, v in sorted(self.types.items())))


def _generalize(text, opt):
    proc = subprocess.run([opt, "-", "--linalg-generalize-named-ops"], input=text,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        first = next((l for l in proc.stderr.splitlines() if "error" in l), proc.stderr[:200])
        raise ReduceError(f"the payload does not parse or verify: {first}")
    return proc.stdout


def _ops(generalized):
    """[(maps, [(operand, type)])] of every linalg.generic with static
    operand shapes and maps this module reads."""
    maps = {m.group(1): m.group(2) for m in MAP_ALIAS.finditer(generalized)}
    out = []
    for _, _, body in _functions(generalized):
        for parsed, operands in _generics(body, maps, {}):
            if any(p is None for p in parsed):
                continue
            shapes = [_shape(t) for _, t in operands]
            if any(s is None for s in shapes):
                continue
            out.append((parsed, operands, shapes))
    return out


def _ranges(parsed, shapes):
    """Loop ranges of one op from its static operand shapes (None where a
    dimension is dynamic and nothing else fixes the loop)."""
    ranges = [None] * parsed[0][0]
    changed = True
    while changed:
        changed = False
        for (_, results), shape in zip(parsed, shapes):
            for (terms, const), size in zip(results, shape):
                solved = solve_window(terms, const, size, ranges) if size is not None else None
                if solved:
                    ranges[solved[0]] = solved[1]
                    changed = True
    return ranges


def _cut(extent, cap):
    if extent is None or extent <= cap:
        return extent
    return cap - cap % ALIGN + extent % ALIGN


def _iterations(ranges):
    n = 1
    for r in ranges:
        n *= r or 1
    return n


def _type_map(ops, cap):
    """{old type text: new type text} at `cap`, and the largest op's new
    iteration count; ReduceError on a type needed in two shapes."""
    mapping, largest = {}, 0
    for parsed, operands, shapes in ops:
        old = _ranges(parsed, shapes)
        new = [_cut(r, cap) for r in old]
        largest = max(largest, _iterations(new))
        for (_, results), (name, t), shape in zip(parsed, operands, shapes):
            dims = []
            for (terms, const), size in zip(results, shape):
                if size is None or any(old[l] is None for _, l in terms):
                    dims.append(size)
                    continue
                read_old = const + sum(c * (old[l] - 1) for c, l in terms) + 1
                read_new = const + sum(c * (new[l] - 1) for c, l in terms) + 1
                dims.append(read_new + max(size - read_old, 0))
            body = t.strip()
            m = re.match(r"(tensor|memref)<(.*)>$", body)
            elem = split_top(m.group(2))[0].split("x")[-1]
            rest = m.group(2)[len(split_top(m.group(2))[0]):]
            shape_text = "x".join("?" if d is None else str(d) for d in dims)
            new_type = f"{m.group(1)}<{shape_text + 'x' if dims else ''}{elem}{rest}>"
            if mapping.get(body, new_type) != new_type:
                raise ReduceError(f"{body} would need two shapes ({mapping[body]} and "
                                  f"{new_type}): ops read it through different loops")
            mapping[body] = new_type
    return mapping, largest


def _substitute(text, mapping):
    """Every occurrence of an old type in `text` replaced (whole types only:
    `tensor<4x8xf32>` is not changed inside `tensor<4x8xf32, #enc>`)."""
    if not mapping:
        return text
    pattern = re.compile("|".join(re.escape(t) for t in sorted(mapping, key=len, reverse=True))
                         )
    return pattern.sub(lambda m: mapping[m.group(0)], text)


RESHAPE = re.compile(r"(output_shape\s*\[)([^\]]*)(\]\s*:\s*tensor<[^>]*>\s*into\s*)(tensor<[^>]*>)")


def _reshape_sizes(text):
    """The static entries of each tensor.expand_shape's output_shape set to
    its (new) result type: the list repeats the type's sizes, and the
    tensor verifier accepts a stale one that bufferization then refuses."""
    def fix(m):
        dims = _shape(m.group(4))
        entries = [e.strip() for e in m.group(2).split(",")]
        if dims is None or len(dims) != len(entries):
            return m.group(0)
        new = [str(d) if re.fullmatch(r"\d+", e) and d is not None else e
               for e, d in zip(entries, dims)]
        return m.group(1) + ", ".join(new) + m.group(3) + m.group(4)
    return RESHAPE.sub(fix, text)


def reduce_payload(text, target, opt):
    """(reduced text, Reduction) for a payload whose largest Linalg op runs
    more than `target` loop iterations, else (text, None). ReduceError when
    no instance at most `target` large can be written."""
    ops = _ops(_generalize(text, opt))
    before = max((_iterations(_ranges(p, s)) for p, _, s in ops), default=0)
    if before <= target:
        return text, None
    cap = FIRST_CAP
    while True:
        mapping, after = _type_map(ops, cap)
        if after <= target or cap <= SMALLEST_CAP:
            break
        cap //= 2
    if after > target:
        raise ReduceError(f"the largest op still runs {after} iterations with every "
                          f"loop cut to {cap} (target {target})")
    changed = {k: v for k, v in mapping.items() if k != v}
    reduced = _reshape_sizes(_substitute(text, changed))
    proc = subprocess.run([opt, "-", "-o", "/dev/null"], input=reduced,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode != 0:
        first = next((l for l in proc.stderr.splitlines() if "error" in l), proc.stderr[:200])
        raise ReduceError("the reduced payload does not verify (a static size outside "
                          f"the Linalg operand types?): {first.strip()}")
    return reduced, Reduction(before, after, cap, changed)


def main(argv=None):
    """`python3 -m hwsched_tools.reduced_instance FILE --target N`: the
    reduced payload on stdout, the summary on stderr."""
    import argparse
    import sys
    from . import toolchain
    ap = argparse.ArgumentParser(description=main.__doc__)
    ap.add_argument("file")
    ap.add_argument("--target", type=int, default=1 << 26,
                    help="largest op's loop iterations to reduce to")
    ap.add_argument("--opt", default=None, help="default: LLVM's mlir-opt")
    args = ap.parse_args(argv)
    try:
        reduced, summary = reduce_payload(open(args.file).read(), args.target,
                                          args.opt or toolchain.mlir_opt())
    except ReduceError as e:
        print(f"reduced-instance: {e}", file=sys.stderr)
        return 1
    print(f"reduced-instance: {summary or 'already small enough'}", file=sys.stderr)
    sys.stdout.write(reduced)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
