#!/usr/bin/env python3
"""Picks of transform.cost_model.select_tile_config on the GPU specs with and
without the SM-fill rule (no ptxas; bench/tileconfig/gpu_check.py lowers the
picks). The query is the shipped one (transform-scripts/gpu-measure.mlir's
@gpu_measure_pick and @gpu_measure_pick_split_k, called as gpu_check.py
calls them); the rule is turned off in a copy of the spec
(cost_weights.sm_fill_threshold = 0), not by an op attribute.

For each spec and matmul shape, asks select_tile_config (explain) twice: with
the spec's cost_weights.sm_fill_threshold and with it overridden to 0 (the
rule off, i.e. the score's pick), with the split_k result (six results) and
without (five). Prints per pick the block tile x BK, thread tile, split
factor s, SMs busy / SMs, wave efficiency (the share of the SM time the grid
keeps busy), waves (blocks / (SMs x resident blocks per SM)) and what the
rule did: "rule" (it replaced the best-scored pick), "none" (the best-scored
pick is below the threshold but no candidate reaches it), "-" (not applied).

Usage: bench/tileconfig/sm_fill.py [--build build]
           [--specs nvidia-a100,nvidia-h100,nvidia-rtx4090] [--shapes MxNxK,...]
"""

import argparse
import os
import re
import shutil
import subprocess
import tempfile

from gpu_check import DEFAULT_SHAPES, DEFAULT_SPECS, payload, pick_cmd
from hwsched_tools import spec_variant  # noqa: E402  (gpu_check puts utils/ on the path)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


def spec_with_threshold(spec, threshold, work):
    """The shipped spec as a file; with `threshold`, a copy whose
    cost_weights.sm_fill_threshold is that value (the rule off at 0), so the
    query stays the shipped sequence (transform-scripts/gpu-measure.mlir's
    @gpu_measure_pick / _split_k) and only the spec differs."""
    if threshold is None:
        return os.path.join(ROOT, "hw-specs", f"{spec}.json")
    return spec_variant(spec, {"cost_weights.sm_fill_threshold": threshold},
                        os.path.join(work, f"sm-fill-{threshold:g}"),
                        "bench/tileconfig/sm_fill.py: the SM-fill rule on or off")


def pick(opt, m, n, k, spec_path, nres, work):
    src = os.path.join(work, f"mm-{m}x{n}x{k}.mlir")
    with open(src, "w") as f:
        f.write(payload(m, n, k))
    cmd = pick_cmd(opt, spec_path, src, os.path.join(work, "pick.mlir"), nres == 6)
    r = subprocess.run(cmd, capture_output=True, text=True)
    w = re.search(r"winner: (\d+x\d+x\d+) tile, (\d+x\d+) inner tile, \d+ stages"
                  r"(?:, split-K (\d+))?.*?; (\d+) of (\d+) SMs busy, ([\d.]+) waves",
                  r.stderr)
    e = re.search(r"candidate #1: .*?\(efficiency ([0-9.]+)\)", r.stderr)
    if not w or not e:
        return None
    fill = ("rule" if "picked the fastest candidate at or above" in r.stderr
            else "none" if "no candidate reaches it" in r.stderr else "-")
    tile, thread, s, busy, sms, waves = w.groups()
    return (f"{tile} {thread}", s or "1", f"{busy}/{sms}", e.group(1), waves, fill)


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--specs", default=DEFAULT_SPECS)
    ap.add_argument("--shapes", default=DEFAULT_SHAPES)
    args = ap.parse_args()
    opt = os.path.join(args.build, "bin", "hwsched-opt")
    work = tempfile.mkdtemp(prefix="sm-fill-")
    changed = 0
    for nres in (6, 5):
        print(f"{nres} results ({'with' if nres == 6 else 'without'} split_k): "
              "rule off (threshold 0) | spec's threshold")
        print(f"{'spec':15} {'MxNxK':15} | {'tile':14} {'s':2} {'SMs':8} {'eff':4} "
              f"{'waves':5} | {'tile':14} {'s':2} {'SMs':8} {'eff':4} {'waves':5} fill")
        for spec in args.specs.split(","):
            for shape in args.shapes.split(","):
                m, n, k = (int(x) for x in shape.split("x"))
                off = pick(opt, m, n, k, spec_with_threshold(spec, 0.0, work), nres, work)
                on = pick(opt, m, n, k, spec_with_threshold(spec, None, work), nres, work)
                if not off or not on:
                    print(f"{spec:15} {shape:15} | no pick")
                    continue
                diff = off[:2] != on[:2]
                changed += diff
                print(f"{spec:15} {shape:15} | {off[0]:14} {off[1]:2} {off[2]:8} {off[3]:4} "
                      f"{off[4]:5} | {on[0]:14} {on[1]:2} {on[2]:8} {on[3]:4} {on[4]:5} "
                      f"{on[5]}{'  changed' if diff else ''}", flush=True)
        print()
    print(f"{changed} pick(s) changed by the fill rule")
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
