#!/usr/bin/env python3
"""Allocation problems we did not write: MiniMalloc's eleven "challenging"
benchmarks, and random perfect packings.

Part 1 reads the CSVs of MiniMalloc's challenging set (Moffitt, ASPLOS 2023;
google/minimalloc, benchmarks/challenging/) from --data and, per problem,
runs
  - the packer (packAllocations through hwsched-pack-bench, capacity
    1,048,576 B and the library's default budgets) on the CSV's own times;
  - transform.smem.merge_allocations (@hwsched_merge_smem_1mib of
    transform-scripts/smem.mlir: smem_limit_bytes = 1048576, default budget)
    in hwsched-opt on a generated payload: one straight-line function, a
    store at each buffer's first time point and a load at its last;
and prints buffers, lower bound, our peak, the optimum (from the data's
README), the ratio, times, whether the op accepted, and MiniMalloc's own
time from the same README.

Part 2 cuts a time x bytes rectangle (1,000 points x 1 MiB) into 100 and 200
buffers (utils/allocation_problems.py cut_rectangle), so the optimum is the
rectangle's height, and packs each with the capacity set to it.

Part 3 prints how run time grows with buffers and overlaps: rectangles cut
into 100 to 400 buffers, and MiniMalloc problems repeated in time.

Timings are wall-clock on this machine; the packer's answers do not depend on
them (the search budget counts steps). Exit status 0 when every target holds.

usage: bench/smem/minimalloc.py [--data DIR] [--build DIR] [--seeds N]
                                [--no-op] [--no-scaling] [--only A,C,...]
                                [--no-time-targets]
"""

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "utils"))
import allocation_problems as problems  # noqa: E402
from hwsched_tools import cpu_name  # noqa: E402

CAPACITY = 1 << 20
DATA_HELP = """\
MiniMalloc's benchmark CSVs are not in this repository. Get them from
https://github.com/google/minimalloc (folder benchmarks/challenging/, files
A.1048576.csv ... K.1048576.csv, Apache License 2.0) into
../shared/bench-data/minimalloc/ relative to the repository root, or pass
--data DIR. The optima this bench compares with are read from a README.md
beside them (a table: | problem | buffers | LB | optimum | time |); without it
the optimum column reads '?'."""


def load_average():
    try:
        return "%.2f %.2f %.2f" % os.getloadavg()
    except OSError:
        return "?"


def read_optima(data):
    """problem -> (optimum or None, upper bound, MiniMalloc time text) from
    the data README's table."""
    table = {}
    path = os.path.join(data, "README.md")
    if not os.path.exists(path):
        return table
    num = re.compile(r"\d[\d,]*")
    with open(path) as f:
        for line in f:
            cells = [c.strip() for c in line.strip().strip("|").split("|")]
            if len(cells) < 5 or not re.fullmatch(r"[A-Z]", cells[0]):
                continue
            values = [int(v.replace(",", "")) for v in num.findall(cells[3])]
            if not values:
                continue
            exact = "open" not in cells[3] and "between" not in cells[3]
            table[cells[0]] = (values[0] if exact else None, max(values),
                               cells[4])
    return table


def write_cases(cases):
    f = tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False)
    with f:
        for name, bufs in cases:
            f.write(f"case {name} {len(bufs)}\n")
            for b in bufs:
                f.write(f"{b[0]} {b[1]} {b[2]} {b[3]}\n")
    return f.name


def run_packer(binary, cases, capacity):
    """One hwsched-pack-bench run per case (one run each: the search is
    deterministic, and some cases take seconds)."""
    rows = {}
    for name, bufs in cases:
        path = write_cases([(name, bufs)])
        try:
            out = subprocess.run([binary, "--capacity", str(capacity), path, "1"],
                                 check=True, capture_output=True, text=True).stdout
        finally:
            os.unlink(path)
        f = out.split()
        rows[name] = dict(n=int(f[1]), lb=int(f[2]), peak=int(f[3]),
                          strategy=f[4], optimal=f[6] == "1", ok=f[7] == "1",
                          ms=float(f[8]), steps=int(f[9]), proven=int(f[10]),
                          fits=f[11] == "1")
    return rows


PEAK_RE = re.compile(r"peak (\d+) B \(buffer")


def run_op(opt, bufs):
    """merge_allocations on the straight-line payload of `bufs`: (accepted,
    peak or None, interpreter ms, wall ms, first error line)."""
    with tempfile.NamedTemporaryFile("w", suffix=".mlir", delete=False) as f:
        f.write(problems.straight_line_kernel(bufs))
        path = f.name
    lib = os.path.join(ROOT, "transform-scripts", "smem.mlir")
    try:
        t0 = time.perf_counter()
        proc = subprocess.run(
            [opt, path, f"--transform-preload-library=transform-library-paths={lib}",
             "--transform-interpreter=entry-point=hwsched_merge_smem_1mib",
             "-o", os.devnull, "--mlir-print-op-on-diagnostic=false", "--mlir-timing"],
            capture_output=True, text=True)
        wall = (time.perf_counter() - t0) * 1000.0
    finally:
        os.unlink(path)
    interp = None
    for line in proc.stderr.splitlines():
        if line.strip().endswith("InterpreterPass"):
            interp = float(line.split()[0]) * 1000.0
    m = PEAK_RE.search(proc.stderr)
    error = next((line for line in proc.stderr.splitlines() if "error:" in line), "")
    accepted = proc.returncode == 0 and m is not None
    return accepted, int(m.group(1)) if m else None, interp, wall, error


def op_columns(args, opt, name, bufs, failures):
    """The op's table columns for `bufs` (accepted, peak, time), "-" with
    --no-op; a refusal is a failure."""
    if args.no_op:
        return "-", "-", "-"
    accepted, peak, interp, wall, error = run_op(opt, bufs)
    if not accepted:
        failures.append(f"{name}: op refused: {error.strip()[:200]}")
    return ("yes" if accepted else "no", peak if peak else "-",
            fmt_ms(interp if interp is not None else wall))


def live_stats(bufs):
    """(average, maximum) buffers live per time point."""
    events = {}
    for s, e, _, _ in bufs:
        events[s] = events.get(s, 0) + 1
        events[e + 1] = events.get(e + 1, 0) - 1
    live = peak = 0
    for t in sorted(events):
        live += events[t]
        peak = max(peak, live)
    span = max(b[1] for b in bufs) - min(b[0] for b in bufs) + 1
    return sum(b[1] - b[0] + 1 for b in bufs) / span, peak


def fmt_ms(ms):
    return "-" if ms is None else (f"{ms / 1000:.2f} s" if ms >= 1000 else f"{ms:.0f} ms")


def check_packer_time(args, what, r, failures):
    """The packer's per-problem target, 10 s (unless --no-time-targets)."""
    if r["ms"] > 10000 and not args.no_time_targets:
        failures.append(f"{what} {r['ms'] / 1000:.1f} s > 10 s")


def table_head(title, hdr):
    """Prints a table's title, its column header `hdr` and a rule under it;
    returns `hdr` (a closing rule has its width)."""
    print(title)
    print(hdr)
    print("-" * len(hdr))
    return hdr


def minimalloc_part(args, packer, opt, data):
    names = [n for n in "ABCDEFGHIJK" if not args.only or n in args.only.split(",")]
    cases = []
    for name in names:
        path = os.path.join(data, f"{name}.{CAPACITY}.csv")
        if os.path.exists(path):
            cases.append((name, problems.read_minimalloc_csv(path)))
    optima = read_optima(data)
    hdr = table_head(
        "== MiniMalloc challenging set (capacity 1,048,576 B) ==\n"
        "packer = packAllocations on the CSV times (hwsched-pack-bench --capacity "
        "1048576); op = merge_allocations with smem_limit_bytes = 1048576 on the "
        "straight-line payload (--mlir-timing, interpreter); MiniMalloc = its own "
        "solver, time to a packing within 1,048,576 B (data README)",
        f"{'':2} {'bufs':>5} {'LB B':>9} {'ours B':>9} {'optimum B':>10} "
        f"{'ours/opt':>8} {'packer':>8} {'op':>4} {'op B':>9} {'op time':>8} "
        f"{'MiniMalloc':>10}")
    failures = []
    times = []
    rows = run_packer(packer, cases, CAPACITY)
    for name, bufs in cases:
        r = rows[name]
        opt_bytes, upper, mm_time = optima.get(name, (None, None, "?"))
        if not r["ok"]:
            failures.append(f"{name}: packing failed verification")
        if opt_bytes is not None:
            ratio = f"{r['peak'] / opt_bytes:.4f}"
            if r["peak"] != opt_bytes:
                failures.append(f"{name}: peak {r['peak']} != optimum {opt_bytes}")
            opt_text = f"{opt_bytes}"
        else:
            ratio = "-"
            opt_text = f"<={upper}" if upper else "?"
            if r["peak"] > CAPACITY:
                failures.append(f"{name}: peak {r['peak']} > {CAPACITY}")
        times.append(r["ms"])
        check_packer_time(args, f"{name}: packer", r, failures)
        op = op_columns(args, opt, name, bufs, failures)
        print(f"{name:2} {len(bufs):>5} {r['lb']:>9} {r['peak']:>9} {opt_text:>10} "
              f"{ratio:>8} {fmt_ms(r['ms']):>8} {op[0]:>4} {op[1]:>9} {op[2]:>8} "
              f"{mm_time:>10}")
    print("-" * len(hdr))
    if times:
        print(f"packer time: median {fmt_ms(statistics.median(times))}, "
              f"max {fmt_ms(max(times))}")
        if statistics.median(times) >= 2000 and not args.no_time_targets:
            failures.append("median packer time >= 2 s")
    return failures


def rectangle_part(args, packer, opt):
    print()
    table_head("== Random perfect packings: a 1,000-point x 1 MiB rectangle cut into "
               "n buffers (optimum = 1 MiB) ==",
               f"{'case':<12} {'bufs':>5} {'avg live':>8} {'max live':>8} {'ours B':>9} "
               f"{'= opt':>5} {'packer':>8} {'steps':>12} {'op':>4} {'op time':>8}")
    failures = []
    for n in (100, 200):
        for seed in range(args.seeds):
            name = f"rect-{n}-s{seed}"
            bufs = problems.cut_rectangle(n, seed)
            r = run_packer(packer, [(name, bufs)], CAPACITY)[name]
            avg, peak_live = live_stats(bufs)
            hit = r["peak"] == CAPACITY and r["ok"]
            if not hit:
                failures.append(f"{name}: peak {r['peak']} != {CAPACITY}")
            check_packer_time(args, name, r, failures)
            op = op_columns(args, opt, name, bufs, failures)
            print(f"{name:<12} {n:>5} {avg:>8.1f} {peak_live:>8} {r['peak']:>9} "
                  f"{'yes' if hit else 'NO':>5} {fmt_ms(r['ms']):>8} {r['steps']:>12} "
                  f"{op[0]:>4} {op[2]:>8}")
    return failures


def scaling_part(args, packer, data):
    print()
    table_head("== Run time against buffers and overlaps (packer only, capacity = "
               "optimum or 1 MiB) ==",
               f"{'case':<22} {'bufs':>5} {'avg live':>8} {'max live':>8} {'groups':>6} "
               f"{'ours B':>9} {'LB B':>9} {'packer':>8} {'steps':>12}")
    cases = []
    for n in (100, 200, 300, 400):
        for seed in range(3):
            cases.append((f"rect-{n}-s{100 + seed}", problems.cut_rectangle(n, 100 + seed)))
    # Narrower rectangles: the same buffers over fewer points overlap more.
    for points in (250, 500, 2000):
        cases.append((f"rect-200-p{points}", problems.cut_rectangle(200, 7, points=points)))
    if data:
        a = os.path.join(data, f"A.{CAPACITY}.csv")
        if os.path.exists(a):
            bufs = problems.read_minimalloc_csv(a)
            span = max(b[1] for b in bufs) + 1
            cases.append(("A-x4-in-time", [(s + k * span, e + k * span, z, al)
                                           for k in range(4) for s, e, z, al in bufs]))
        side = []
        offset = 0
        for name in "ABCDEFGHIJK":
            path = os.path.join(data, f"{name}.{CAPACITY}.csv")
            if not os.path.exists(path):
                continue
            bufs = problems.read_minimalloc_csv(path)
            side += [(s + offset, e + offset, z, al) for s, e, z, al in bufs]
            offset += max(b[1] for b in bufs) + 1
        if side:
            cases.append(("A-to-K-in-sequence", side))
    for name, bufs in cases:
        r = run_packer(packer, [(name, bufs)], CAPACITY)[name]
        avg, peak_live = live_stats(bufs)
        groups = len(components(bufs))
        print(f"{name:<22} {len(bufs):>5} {avg:>8.1f} {peak_live:>8} {groups:>6} "
              f"{r['peak']:>9} {r['lb']:>9} {fmt_ms(r['ms']):>8} {r['steps']:>12}")


def components(bufs):
    order = sorted(range(len(bufs)), key=lambda i: bufs[i][0])
    groups = []
    reach = None
    for i in order:
        if reach is None or bufs[i][0] > reach:
            groups.append([])
            reach = bufs[i][1]
        groups[-1].append(i)
        reach = max(reach, bufs[i][1])
    return groups


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "bench-data",
                                                   "minimalloc"))
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--seeds", type=int, default=5)
    ap.add_argument("--no-op", action="store_true")
    ap.add_argument("--no-scaling", action="store_true")
    ap.add_argument("--only", default="")
    ap.add_argument("--no-time-targets", action="store_true",
                    help="judge peaks and acceptance only, not run times "
                         "(a sanitized build, a loaded host)")
    args = ap.parse_args()
    packer = os.path.join(args.build, "bin", "hwsched-pack-bench")
    opt = os.path.join(args.build, "bin", "hwsched-opt")
    print(f"CPU: {cpu_name()}, {os.cpu_count()} logical cores; load average at start: "
          f"{load_average()}")
    failures = []
    data = os.path.abspath(args.data)
    if not os.path.isdir(data) or not any(f.endswith(".csv") for f in os.listdir(data)):
        print(f"no MiniMalloc data in {data}:\n{DATA_HELP}\n(skipping part 1)")
        data = None
    else:
        failures += minimalloc_part(args, packer, opt, data)
    failures += rectangle_part(args, packer, opt)
    if not args.no_scaling:
        scaling_part(args, packer, data)
    print()
    print(f"load average at end: {load_average()}")
    if failures:
        print("targets MISSED:")
        for f in failures:
            print("  " + f)
        return 1
    print("targets: all met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
