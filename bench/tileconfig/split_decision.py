#!/usr/bin/env python3
"""The split-K decision of transform-scripts/gpu-matmul.mlir (@gpu_matmul_auto,
@gpu_matmul_split_k: @gpu_matmul_split_k_config) against the A/B-only pick it
used to be taken on, on the GPU specs (no ptxas, no lowering).

For each spec and matmul shape, runs in one hwsched-opt call the shipped
query @gpu_measure_split_decision (transform-scripts/gpu-measure.mlir):
  - select_tile_config with six results, A/B stages only (the old decision,
    and still the first question of the shipped one);
  - the shipped @gpu_matmul_split_k_config (the A/B-only pick, asked again
    with accumulator_in_smem and static_smem when it does not split);
  - select_tile_config with five results, accumulator_in_smem and
    static_smem (what @gpu_matmul_smem_pipelined asks).
Prints the shapes where the split decision differs from the A/B-only pick's
(block tile x BK, thread tile, split factor s of each; --all also lists the
unsplit decisions whose sizes differ from the A/B-only pick, i.e. are the
shared-memory schedule's own) and checks that an unsplit decision is exactly
the shared-memory schedule's own pick (all five sizes): "checked N shapes,
M split changed, K inconsistent" at the end (K must be 0; exit status 1
otherwise).

Usage: bench/tileconfig/split_decision.py [--build build]
           [--specs nvidia-a100,nvidia-h100,nvidia-rtx4090]
           [--sizes 64,96,128,...] [--ks 64,128,...]
"""

import argparse
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
# The query is a shipped sequence (transform-scripts/gpu-measure.mlir's
# @gpu_measure_split_decision), loaded with the files it calls into.
LIBRARY = ["matmul-frontend.mlir", "gpu-matmul.mlir", "gpu-dispatch.mlir", "gpu-measure.mlir",
           "gpu-matmul-tensorcore.mlir"]


def payload(m, n, k):
    return f"""func.func @mm(%a: tensor<{m}x{k}xf32>, %b: tensor<{k}x{n}xf32>, %c: tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32> {{
  %r = linalg.matmul ins(%a, %b : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>) outs(%c : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  return %r : tensor<{m}x{n}xf32>
}}
"""


def values(text):
    return [int(v) for v in re.findall(r"(-?\d+) : i64", text)]


def describe(v):
    # tile_sizes(3) thread_tile_sizes(3) reduction_tile_sizes(3) num_stages
    # num_threads(3) [split_k]
    s = f"{v[0]}x{v[1]}x{v[8]} {v[3]}x{v[4]}"
    return s + (f" s={v[13]}" if len(v) > 13 else "")


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--specs", default="nvidia-a100,nvidia-h100,nvidia-rtx4090")
    ap.add_argument("--sizes", default="64,96,128,192,256,384,512,1024,2048",
                    help="M and N values (N >= M)")
    ap.add_argument("--ks", default="64,128,256,512,1024,2048,4096")
    ap.add_argument("--all", action="store_true",
                    help="also list the unsplit decisions whose sizes are the "
                    "shared-memory schedule's, not the A/B-only pick's (the "
                    "schedule always asked for those)")
    args = ap.parse_args()
    all_rows = args.all
    opt = os.path.join(args.build, "bin", "hwsched-opt")
    lib = ",".join(os.path.join(ROOT, "transform-scripts", f) for f in LIBRARY)
    sizes = [int(x) for x in args.sizes.split(",")]
    ks = [int(x) for x in args.ks.split(",")]
    checked = changed = inconsistent = 0
    print(f"{'spec':<15} {'MxNxK':<16} {'A/B-only pick':<22} {'decision':<22} "
          f"{'smem schedule (5)':<18} note")
    for spec in args.specs.split(","):
        for m in sizes:
            for n in sizes:
                if n < m:
                    continue
                for k in ks:
                    r = subprocess.run(
                        [opt, "-", f"--hwsched-target={spec}",
                         f"--transform-preload-library=transform-library-paths={lib}",
                         "--transform-interpreter=entry-point=gpu_measure_split_decision",
                         "-o", os.devnull],
                        input=payload(m, n, k), capture_output=True, text=True)
                    found = dict(re.findall(r"remark: (AB|DECISION|SMEM) (.*)",
                                            r.stderr))
                    if r.returncode or len(found) != 3:
                        print(f"{spec:<15} {m}x{n}x{k}: FAILED "
                              f"{r.stderr.strip()[-200:]}")
                        inconsistent += 1
                        continue
                    checked += 1
                    ab, dec, sm = (values(found[x]) for x in
                                   ("AB", "DECISION", "SMEM"))
                    notes = []
                    if dec[13] != ab[13]:
                        changed += 1
                        notes.append("split changed")
                    elif dec != ab and all_rows:
                        notes.append("unsplit, schedule's sizes")
                    if dec[13] == 1 and dec[:13] != sm:
                        inconsistent += 1
                        notes.append("INCONSISTENT")
                    if notes:
                        print(f"{spec:<15} {f'{m}x{n}x{k}':<16} "
                              f"{describe(ab):<22} {describe(dec):<22} "
                              f"{describe(sm):<18} {' '.join(notes)}")
    print(f"checked {checked} shapes, {changed} split changed, "
          f"{inconsistent} inconsistent")
    return 1 if inconsistent else 0


if __name__ == "__main__":
    sys.exit(main())
