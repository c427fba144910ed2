#!/usr/bin/env python3
"""Checks select_tile_config's measurement-mode remarks (stdin: the
diagnostics of one or more split-input-file cases).

For every "measured N candidates" remark: N == --k, every candidate has a
measured time, the kept candidate (#j) is the fastest listed, and the
`picked ...` params that follow equal the kept candidate's lists. Exits 1
with a message otherwise (also when no such remark appears)."""
import argparse
import re
import sys

ap = argparse.ArgumentParser()
ap.add_argument("--k", type=int, required=True)
args = ap.parse_args()
text = sys.stdin.read()
cases = re.findall(r"measured (\d+) candidates on the host CPU[^;]*((?:; #\d+ [^;]*)+); kept #(\d+)"
                   r"(.*?)(?=measured \d+ candidates on the host CPU|\Z)", text, re.S)
if not cases:
    sys.exit("no measurement remark in:\n" + text)
CAND = re.compile(r"#(\d+) tile_sizes (\[[^\]]*\]), reduction_tile_sizes (\[[^\]]*\]), "
                  r"thread_tile_sizes (\[[^\]]*\]): measured ([0-9.]+) ms")
for count, body, kept, rest in cases:
    if int(count) != args.k:
        sys.exit(f"expected {args.k} measured candidates, got {count}")
    cands = CAND.findall(body)
    if len(cands) != args.k:
        sys.exit(f"expected {args.k} candidates with times, got:\n{body}")
    times = {int(c[0]): float(c[4]) for c in cands}
    kept = int(kept)
    if times[kept] != min(times.values()):
        sys.exit(f"kept #{kept} ({times[kept]} ms) is not the fastest of {times}")
    lists = {int(c[0]): c[1:4] for c in cands}[kept]
    for name, expected in zip(("tile_sizes", "reduction_tile_sizes", "thread_tile_sizes"), lists):
        m = re.search(r"picked " + name + r" ([^\n]*)", rest)
        if not m:
            sys.exit(f"no 'picked {name}' remark after the measurement")
        got = [int(v) for v in re.findall(r"(-?\d+) : i64", m.group(1))]
        if got != [int(v) for v in re.findall(r"-?\d+", expected)]:
            sys.exit(f"picked {name} {got} != kept candidate's {expected}")
print(f"OK: {len(cases)} measurement(s) of {args.k} candidates")
