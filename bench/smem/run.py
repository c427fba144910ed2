#!/usr/bin/env python3
"""On-chip allocation packing benchmark.

Prints, per case and in total: buffers, sum of sizes, lower bound (maximum
over program points of live aligned bytes), our peak, and the peaks of the
TVM free-list and IREE group-sum schemes (baselines.py); then the run time of
the packer alone and of transform.smem.merge_allocations in hwsched-opt at
100, 1,000 and 10,000 allocations.

usage: bench/smem/run.py [--build DIR] [--sizes 100,1000] [--no-op-timing]
"""

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import baselines  # noqa: E402
import scenarios  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "utils"))
import allocation_problems as problems  # noqa: E402
from hwsched_tools import spec_variant  # noqa: E402

# The shipped sequence the op timing runs (transform-scripts/smem.mlir), on a
# copy of nvidia-a100 with 1-byte alignment and no capacity to meet, so that
# the op sees exactly each case's intervals.
SMEM_SCRIPT = os.path.join(ROOT, "transform-scripts", "smem.mlir")
ENTRY = "hwsched_merge_smem"
SPEC_UPDATES = {"onchip.alignment_bytes": 1, "onchip.capacity_bytes": 1 << 40}


def run_packer(binary, cases, repeat=3):
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        for name, bufs in cases:
            f.write(f"case {name} {len(bufs)}\n")
            for b in bufs:
                f.write(f"{b[0]} {b[1]} {b[2]} {b[3]}\n")
        path = f.name
    try:
        out = subprocess.run([binary, path, str(repeat)], check=True,
                             capture_output=True, text=True).stdout
    finally:
        os.unlink(path)
    rows = {}
    for line in out.splitlines():
        name, n, lb, peak, strategy, exact, optimal, ok, ms = line.split()[:9]
        rows[name] = dict(n=int(n), lb=int(lb), peak=int(peak), strategy=strategy,
                          exact=exact == "1", optimal=optimal == "1",
                          ok=ok == "1", ms=float(ms))
    return rows


def make_ir(bufs, name="bench"):
    """Straight-line kernel (utils/allocation_problems.py): all allocations at
    the top, a store at each buffer's first program point and a load at its
    last, so the op sees exactly these intervals."""
    return problems.straight_line_kernel(bufs, name)


PEAK_RE = re.compile(r"peak (\d+) B .* lower bound (\d+) B")


def time_op(opt, bufs, spec):
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(make_ir(bufs))
        path = f.name
    try:
        t0 = time.perf_counter()
        proc = subprocess.run([opt, path,
                               "--transform-preload-library=transform-library-paths="
                               + SMEM_SCRIPT,
                               "--transform-interpreter=entry-point=" + ENTRY,
                               "--hwsched-target=" + spec, "-o", os.devnull,
                               "--mlir-print-op-on-diagnostic=false", "--mlir-timing"],
                              capture_output=True, text=True)
        wall = time.perf_counter() - t0
    finally:
        os.unlink(path)
    if proc.returncode != 0:
        raise RuntimeError(proc.stderr[-2000:])
    m = PEAK_RE.search(proc.stderr)
    interp = None
    for line in proc.stderr.splitlines():
        if line.strip().endswith("InterpreterPass"):
            interp = float(line.split()[0]) * 1000.0
    return (int(m.group(1)), int(m.group(2))) if m else (None, None), interp, wall * 1000.0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--sizes", default="100,1000")
    ap.add_argument("--no-op-timing", action="store_true")
    args = ap.parse_args()
    packer = os.path.join(args.build, "bin", "hwsched-pack-bench")
    opt = os.path.join(args.build, "bin", "hwsched-opt")
    spec_dir = tempfile.mkdtemp(prefix="hwsched-smem-bench-")
    spec = spec_variant("nvidia-a100", SPEC_UPDATES, spec_dir,
                        "bench/smem/run.py: 1-byte alignment and no capacity "
                        "limit, so that the op sees exactly the case's intervals")
    sizes = tuple(int(s) for s in args.sizes.split(","))

    cases = scenarios.hand_written() + scenarios.generated(sizes)
    rows = run_packer(packer, cases)

    hdr = (f"{'case':<22} {'bufs':>5} {'sum B':>11} {'lower B':>10} {'ours B':>10} "
           f"{'ours/LB':>8} {'TVM B':>10} {'IREE B':>10} {'strategy':<18} {'ms':>8}")
    print(hdr)
    print("-" * len(hdr))
    tot = dict(sum=0, lb=0, ours=0, tvm=0, iree=0)
    worse = []
    bad = []
    for name, bufs in cases:
        r = rows[name]
        total = sum(baselines.footprint(b) for b in bufs)
        tvm = baselines.tvm_free_list(bufs)
        iree = baselines.iree_group_sum(bufs)
        lb = baselines.lower_bound(bufs)
        assert lb == r["lb"], (name, lb, r["lb"])
        if not r["ok"]:
            bad.append(name)
        if r["peak"] > tvm or r["peak"] > iree:
            worse.append(name)
        tot["sum"] += total
        tot["lb"] += r["lb"]
        tot["ours"] += r["peak"]
        tot["tvm"] += tvm
        tot["iree"] += iree
        strat = r["strategy"] + ("*" if r["optimal"] else "")
        print(f"{name:<22} {len(bufs):>5} {total:>11} {r['lb']:>10} {r['peak']:>10} "
              f"{r['peak'] / max(1, r['lb']):>8.4f} {tvm:>10} {iree:>10} {strat:<18} "
              f"{r['ms']:>8.2f}")
    print("-" * len(hdr))
    print(f"{'TOTAL':<22} {'':>5} {tot['sum']:>11} {tot['lb']:>10} {tot['ours']:>10} "
          f"{tot['ours'] / tot['lb']:>8.4f} {tot['tvm']:>10} {tot['iree']:>10}")
    print(f"(* = proven optimal: peak equals the lower bound or the exact search finished)")
    print()
    gap = 100.0 * (tot["ours"] - tot["lb"]) / tot["lb"]
    print(f"target: total peak within 2% of total lower bound: {gap:.3f}% -> "
          f"{'OK' if gap <= 2.0 else 'MISSED'}")
    print(f"target: never above either baseline: "
          f"{'OK' if not worse else 'MISSED on ' + ', '.join(worse)}")
    print(f"packings verified (no interfering overlap, aligned): "
          f"{'all' if not bad else 'FAILED on ' + ', '.join(bad)}")
    print(f"vs TVM free list: {100.0 * (tot['tvm'] - tot['ours']) / tot['tvm']:.1f}% fewer bytes; "
          f"vs IREE group sum: {100.0 * (tot['iree'] - tot['ours']) / tot['iree']:.1f}% fewer bytes")

    print()
    print("run time (random intervals; packer = packAllocations alone, best of 3;")
    print("op = transform.smem.merge_allocations inside hwsched-opt, --mlir-timing of the")
    print("transform interpreter, on a generated straight-line kernel; wall = whole process;")
    print("the op's lower bound must equal the packer's (same intervals); peaks may differ a")
    print("little because the op sees program points, not the generator's times, and ties")
    print("in the greedy orders break differently; avg live = buffers live per point)")
    print(f"{'scenario':<9} {'allocs':>7} {'avg live':>8} {'packer ms':>10} {'op ms':>9} "
          f"{'wall ms':>9} {'packer peak':>12} {'op peak':>10} {'LB same':>8}")
    for kind in ("random", "loops"):
        for n in (100, 1000, 10000):
            if kind == "random":
                bufs = scenarios.random_intervals(n, 4242 + n)
            else:
                bufs = scenarios.nested_loops(n, 4242 + n)
            span = max(b[1] for b in bufs) + 1
            avg_live = sum(b[1] - b[0] + 1 for b in bufs) / span
            r = run_packer(packer, [(f"t{n}", bufs)])[f"t{n}"]
            if args.no_op_timing:
                print(f"{kind:<9} {n:>7} {avg_live:>8.1f} {r['ms']:>10.2f} {'-':>9} {'-':>9} "
                      f"{r['peak']:>12} {'-':>10} {'-':>8}")
                continue
            (peak, lb), op_ms, wall = time_op(opt, bufs, spec)
            op_text = f"{op_ms:>9.1f}" if op_ms is not None else f"{'?':>9}"
            print(f"{kind:<9} {n:>7} {avg_live:>8.1f} {r['ms']:>10.2f} {op_text} {wall:>9.1f} "
                  f"{r['peak']:>12} {peak:>10} {'yes' if lb == r['lb'] else 'NO':>8}")
    return 0 if (gap <= 2.0 and not worse and not bad) else 1


if __name__ == "__main__":
    sys.exit(main())
