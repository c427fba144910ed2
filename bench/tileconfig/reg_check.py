#!/usr/bin/env python3
"""Register model vs ptxas on the shipped shared-memory GPU schedule.

For each (spec, matmul + bias + ReLU shape) runs examples/gpu-matmul/run.py
(transform-scripts/gpu-matmul.mlir @gpu_matmul_smem_pipelined: the pick of
select_tile_config { accumulator_in_smem, static_smem }, A/B tiles
multi-buffered in shared memory, the per-thread accumulator in registers,
K step 1) and keeps its PTX, then runs ptxas on that PTX:
  - uncapped (gpu.max_registers_per_thread, 255): `ptxas`;
  - capped at the prediction: spill bytes `sp@est`;
  - the least spill-free cap (bisection between 16 and 255): `min`.
Prints the pick (block tile, thread tile, BK, stages), the estimate of
transform.cost_model.estimate (`est`, the remark "predicted registers per
thread") and select_tile_config's own figure for the pick (`op`), the error
of `est` against uncapped ptxas, and, when given with --old FILE (a JSON
written by --json on an older build), the old figures beside them.

Usage: bench/tileconfig/reg_check.py [--build build] [--specs a,b]
           [--shapes MxNxK,...] [--json OUT] [--old OLD.json] [--timeout S]
Exit status 1 when a kernel spills at its prediction, a row's error is
above --tolerance (default 0.2) or a row does not compile. --no-ptxas only
prints the picks and both predictions and exits 1 unless they agree (the
estimate on the scheduled kernel and select_tile_config's figure come from
one function, RegisterEstimate.h evaluateRegisterModel).
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from gpu_check import flow_payload  # noqa: E402

sys.path.insert(0, os.path.join(ROOT, "utils"))
from hwsched_tools import toolchain  # noqa: E402

PTXAS = toolchain.ptxas() or toolchain.CUDA_PTXAS
ARCH = {"nvidia-a100": "sm_80", "nvidia-h100": "sm_90", "nvidia-rtx4090": "sm_89"}
# Shapes whose picks cover the per-thread tiles 1x1 .. 8x8 on the A100 and
# H100 (see RESULTS.md for the pick of each).
DEFAULT_SHAPES = ("32x32x32,64x64x64,96x96x96,128x128x128,256x256x256,"
                  "512x512x200,512x512x256,1024x1024x1024,3136x256x64,4096x64x4096")


def ptxas(ptx, arch, cap):
    r = subprocess.run([PTXAS, f"-arch={arch}", "-v", f"-maxrregcount={cap}", ptx,
                        "-o", os.devnull], capture_output=True, text=True)
    regs = re.search(r"Used (\d+) registers", r.stderr)
    sp = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", r.stderr)
    if r.returncode or not regs or not sp:
        return None
    return int(regs.group(1)), int(sp.group(1)) + int(sp.group(2))


def min_cap(ptx, arch, hi):
    """The least -maxrregcount at which the kernel does not spill."""
    lo = 16
    if ptxas(ptx, arch, lo)[1] == 0:
        return lo
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if ptxas(ptx, arch, mid)[1] == 0:
            hi = mid
        else:
            lo = mid
    return hi


def measure(spec, shape, build, tmp, timeout, no_ptxas=False):
    m, n, k = (int(x) for x in shape.split("x"))
    d = os.path.join(tmp, f"{spec}-{shape}")
    os.makedirs(d, exist_ok=True)
    src = os.path.join(d, "in.mlir")
    with open(src, "w") as f:
        f.write(flow_payload(m, n, k))
    env = dict(os.environ, PATH=os.path.join(build, "bin") + os.pathsep + os.environ["PATH"])
    try:
        r = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "gpu-matmul", "run.py"),
                            "--target", spec, "--input", src, "--keep-temps", d]
                           + (["--no-ptxas"] if no_ptxas else []),
                           capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return {"error": "timeout"}
    out = r.stdout
    pick = re.search(r"tile_sizes \[(\d+), (\d+), 0\], thread_tile_sizes \[(\d+), (\d+), 0\], "
                     r"reduction_tile_sizes \[0, 0, (\d+)\], num_stages (\d+)", out)
    est = re.search(r"estimate: (\d+) registers .*select_tile_config's pick: (\d+)", out)
    if not pick or not est:
        err = [l for l in r.stderr.splitlines() if "error" in l]
        return {"error": (err[-1] if err else "no pick")[:100]}
    row = {"tile": f"{pick.group(1)}x{pick.group(2)}", "thread": f"{pick.group(3)}x{pick.group(4)}",
           "bk": int(pick.group(5)), "stages": int(pick.group(6)),
           "est": int(est.group(1)), "op": int(est.group(2))}
    if no_ptxas:
        return row
    ptx = None
    for root, _, files in os.walk(d):
        for f in files:
            if f.endswith(".stripped.ptx") and "cap255" in root:
                ptx = os.path.join(root, f)
    if not ptx:
        row["error"] = ("static smem > 48 KiB" if "48 KiB" in r.stderr else "no PTX")
        return row
    arch = ARCH[spec]
    row["ptxas"] = ptxas(ptx, arch, 255)[0]
    row["spill_est"] = ptxas(ptx, arch, max(row["est"], 16))[1]
    row["min"] = min_cap(ptx, arch, 255)
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--specs", default="nvidia-a100,nvidia-h100")
    ap.add_argument("--shapes", default=DEFAULT_SHAPES)
    ap.add_argument("--json")
    ap.add_argument("--old")
    ap.add_argument("--tolerance", type=float, default=0.2)
    ap.add_argument("--timeout", type=float, default=300)
    ap.add_argument("--no-ptxas", action="store_true",
                    help="only the picks and the two predictions (no lowering)")
    args = ap.parse_args()
    old = {}
    if args.old:
        with open(args.old) as f:
            old = json.load(f)
    rows = {}
    bad = 0
    print(f"{'spec':12} {'MxNxK':15} {'tile':7} {'thr':4} {'BK':3} {'st':2} "
          f"{'old':4} {'oldop':5} {'est':4} {'op':4} {'ptxas':5} {'err%':6} {'olderr%':7} "
          f"{'min':4} {'sp@est':6}")
    with tempfile.TemporaryDirectory() as tmp:
        for spec in args.specs.split(","):
            for shape in args.shapes.split(","):
                key = f"{spec} {shape}"
                row = measure(spec, shape, args.build, tmp, args.timeout, args.no_ptxas)
                rows[key] = row
                o = old.get(key, {})
                if args.no_ptxas and "est" in row:
                    agree = row["est"] == row["op"]
                    bad += 0 if agree else 1
                    print(f"{spec:12} {shape:15} {row['tile']:7} {row['thread']:4} "
                          f"{row['bk']:<3} {row['stages']:<2} {o.get('est', '-')!s:4} "
                          f"{o.get('op', '-')!s:5} {row['est']:<4} {row['op']:<4} "
                          f"{'agree' if agree else 'DIFFER'}", flush=True)
                    continue
                if "ptxas" not in row:
                    bad += 1
                    print(f"{spec:12} {shape:15} {row.get('tile', '-'):7} "
                          f"{row.get('thread', '-'):4} {row.get('error')}", flush=True)
                    continue
                err = 100.0 * (row["est"] - row["ptxas"]) / row["ptxas"]
                olderr = (f"{100.0 * (o['est'] - row['ptxas']) / row['ptxas']:+.1f}"
                          if "est" in o else "-")
                bad += 1 if row["spill_est"] or abs(err) > 100 * args.tolerance else 0
                print(f"{spec:12} {shape:15} {row['tile']:7} {row['thread']:4} {row['bk']:<3} "
                      f"{row['stages']:<2} {o.get('est', '-')!s:4} {o.get('op', '-')!s:5} "
                      f"{row['est']:<4} {row['op']:<4} {row['ptxas']:<5} {err:+6.1f} "
                      f"{olderr:7} {row['min']:<4} {row['spill_est']:<6}", flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    if args.no_ptxas:
        print("estimate = select_tile_config's figure on every row" if not bad
              else f"{bad} row(s) where estimate and select_tile_config differ")
    else:
        print("all rows within tolerance, no spill at the prediction" if not bad
              else f"{bad} row(s) outside the tolerance, spilling at the prediction "
              "or not compiled")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
