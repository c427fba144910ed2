#!/usr/bin/env python3
"""Allocation problems for transform.smem.merge_allocations, as data and as
payloads.

A problem is a list of buffers (start, end, size, align): inclusive program
points, bytes, offset alignment. Used by bench/smem and by lit tests
(import with `sys.path.insert(0, <repo>/utils)`, or run as a script):

  read_minimalloc_csv(path)      MiniMalloc's `id,lower,upper,size` CSV
                                 (half-open lifespans) as buffers
  cut_rectangle(n, seed, ...)    a points x bytes rectangle cut at random
                                 into n buffers: every point has exactly
                                 `capacity` bytes live, so the optimum is the
                                 lower bound
  straight_line_kernel(bufs,...) one func.func: all allocations at the top,
                                 a store at each buffer's first point and a
                                 load at its last (stores before loads at the
                                 same point), so the op sees exactly these
                                 intervals

The schedule is not here: apply a shipped sequence of
transform-scripts/smem.mlir (@hwsched_merge_smem, @hwsched_merge_smem_1mib)
to the payload, with a spec copy (hwsched_tools.spec_variant) where a
figure must differ, as bench/smem does.

usage: allocation_problems.py (--csv FILE | --cut-rectangle N SEED
           [--points P] [--capacity B] [--grain G]) [--name NAME]
"""

import argparse
import csv
import random
import sys

SPACE = "#gpu.address_space<workgroup>"


def read_minimalloc_csv(path):
    """Buffers of a MiniMalloc CSV: [lower, upper) becomes [lower, upper-1],
    alignment 1 (the format has none)."""
    with open(path, newline="") as f:
        return [(int(row["lower"]), int(row["upper"]) - 1, int(row["size"]), 1)
                for row in csv.DictReader(f)]


def cut_rectangle(n, seed, points=1000, capacity=1 << 20, grain=1024):
    """Guillotine cuts of a points x capacity rectangle into n buffers: a
    piece among the largest quarter (by area) is cut in time or in bytes
    (multiples of `grain`) at a random place until there are n pieces."""
    rng = random.Random(seed)
    pieces = [(0, points, 0, capacity)]
    while len(pieces) < n:
        pieces.sort(key=lambda p: (-(p[1] - p[0]) * (p[3] - p[2]), p))
        k = rng.randrange(max(1, len(pieces) // 4))
        t0, t1, b0, b1 = pieces[k]
        can_time = t1 - t0 >= 2
        can_bytes = (b1 - b0) // grain >= 2
        if not can_time and not can_bytes:
            if all(p[1] - p[0] < 2 and (p[3] - p[2]) // grain < 2 for p in pieces):
                raise ValueError("rectangle too small for %d pieces" % n)
            continue
        if can_time and (not can_bytes or rng.random() < 0.5):
            c = rng.randrange(t0 + 1, t1)
            pieces[k:k + 1] = [(t0, c, b0, b1), (c, t1, b0, b1)]
        else:
            c = b0 + grain * rng.randrange(1, (b1 - b0) // grain)
            pieces[k:k + 1] = [(t0, t1, b0, c), (t0, t1, c, b1)]
    rng.shuffle(pieces)
    return [(t0, t1 - 1, b1 - b0, 1) for (t0, t1, b0, b1) in pieces]


def lower_bound(bufs):
    """Maximum over points of the live (aligned) bytes."""
    events = {}
    for s, e, size, align in bufs:
        b = -(-size // max(align, 1)) * max(align, 1)
        events[s] = events.get(s, 0) + b
        events[e + 1] = events.get(e + 1, 0) - b
    live = best = 0
    for t in sorted(events):
        live += events[t]
        best = max(best, live)
    return best


def straight_line_kernel(bufs, name="kernel"):
    """MLIR text of a straight-line kernel over `bufs` (see module doc)."""
    events = {}
    for i, (s, e, _, _) in enumerate(bufs):
        events.setdefault(s, ([], []))[0].append(i)
        events.setdefault(e, ([], []))[1].append(i)
    lines = ["module attributes {transform.with_named_sequence} {",
             f"  func.func @{name}() {{",
             "    %c0 = arith.constant 0 : index",
             "    %v = arith.constant 1 : i8"]
    for i, (_, _, size, align) in enumerate(bufs):
        lines.append(f"    %b{i} = memref.alloc() {{alignment = {align} : i64}} : "
                     f"memref<{size}xi8, {SPACE}>")
    for t in sorted(events):
        starts, ends = events[t]
        for i in starts:
            lines.append(f"    memref.store %v, %b{i}[%c0] : memref<{bufs[i][2]}xi8, {SPACE}>")
        for i in ends:
            lines.append(f"    %l{i} = memref.load %b{i}[%c0] : memref<{bufs[i][2]}xi8, {SPACE}>")
    lines += ["    return", "  }", "}"]
    return "\n".join(lines) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--csv")
    src.add_argument("--cut-rectangle", nargs=2, type=int, metavar=("N", "SEED"))
    ap.add_argument("--points", type=int, default=1000)
    ap.add_argument("--capacity", type=int, default=1 << 20)
    ap.add_argument("--grain", type=int, default=1024)
    ap.add_argument("--name", default="kernel")
    args = ap.parse_args()
    if args.csv:
        bufs = read_minimalloc_csv(args.csv)
    else:
        n, seed = args.cut_rectangle
        bufs = cut_rectangle(n, seed, args.points, args.capacity, args.grain)
    sys.stdout.write(straight_line_kernel(bufs, args.name))
    return 0


if __name__ == "__main__":
    sys.exit(main())
