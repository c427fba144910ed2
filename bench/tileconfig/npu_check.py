#!/usr/bin/env python3
"""NPU validation of transform.cost_model.select_tile_config.

For each matmul shape, element type and unified-buffer size (the shipped
ascend-910b spec and copies of it with another onchip.capacity_bytes), asks
the op for its pick (with explain; the shipped query sequence
@npu_measure_pick of transform-scripts/npu.mlir) and recomputes the UB constraint independently from the spec:

  (align(BM*BK*in) + align(BK*BN*in) + align(BM*BN*acc)) * ping_pong_factor
      <= capacity, every tile rounded up to onchip.alignment_bytes,

checks that the op's reported bytes equal this figure exactly, that it fits,
and that every tile is a multiple of the cube fractal.

Usage: bench/tileconfig/npu_check.py [--build build]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LIBRARY = os.path.join(ROOT, "transform-scripts", "npu.mlir")
sys.path.insert(0, os.path.join(ROOT, "utils"))
from hwsched_tools import spec_variant  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    args = ap.parse_args()
    with open(os.path.join(ROOT, "hw-specs", "ascend-910b.json")) as f:
        spec = json.load(f)
    align = spec["onchip"]["alignment_bytes"]
    ppf = spec["npu"]["ping_pong_factor"]
    cube = spec["npu"]["cube_tile"]
    shipped = spec["onchip"]["capacity_bytes"]
    opt = os.path.join(args.build, "bin", "hwsched-opt")
    shapes = [(128, 128, 128), (256, 256, 256), (512, 512, 512), (1024, 1024, 1024),
              (2048, 2048, 2048), (4096, 64, 4096), (3136, 256, 576), (100, 60, 30)]
    ubs = [shipped, 131072, 65536, 32768, 16384]
    print(f"ascend-910b: alignment {align} B, ping_pong_factor {ppf}, cube {cube}")
    print(f"{'MxNxK':16} {'in':4} {'UB cap':7} {'tile BMxBNxBK':14} {'op bytes':9} "
          f"{'recomputed':10} {'fits':5} {'cube-aligned':12} {'blocks':6} {'waves':6}")
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for (m, n, k) in shapes:
            for el, inb in (("f16", 2), ("f32", 4)):
                for ub in ubs:
                    src = os.path.join(tmp, "in.mlir")
                    a, b, c = f"tensor<{m}x{k}x{el}>", f"tensor<{k}x{n}x{el}>", f"tensor<{m}x{n}xf32>"
                    with open(src, "w") as f:
                        f.write(f"""func.func @mm(%a: {a}, %b: {b}, %c: {c}) -> {c} {{
  %r = linalg.matmul ins(%a, %b : {a}, {b}) outs(%c : {c}) -> {c}
  return %r : {c}
}}
""")
                    target = (os.path.join(ROOT, "hw-specs", "ascend-910b.json") if ub == shipped
                              else spec_variant("ascend-910b", {"onchip.capacity_bytes": ub},
                                                os.path.join(tmp, f"ub-{ub}"),
                                                "bench/tileconfig/npu_check.py: a smaller UB"))
                    r = subprocess.run(
                        [opt, src, f"--hwsched-target={target}",
                         f"--transform-preload-library=transform-library-paths={LIBRARY}",
                         "--transform-interpreter=entry-point=npu_measure_pick",
                         "-o", os.devnull], capture_output=True, text=True)
                    w = re.search(r"candidate #1: tile (\d+)x(\d+)x(\d+), inner \d+x\d+, "
                                  r"\d+ stages: (\d+) UB bytes.*?(\d+) blocks, ([0-9.]+) waves",
                                  r.stderr)
                    if not w:
                        err = re.search(r"error: (.*)", r.stderr)
                        print(f"{m}x{n}x{k:<8} {el:4} {ub:<7} no pick: "
                              f"{err.group(1) if err else r.stderr[-300:]}")
                        continue
                    bm, bn, bk, op_bytes, blocks = (int(w.group(i)) for i in range(1, 6))
                    waves = float(w.group(6))
                    rnd = lambda x: (x + align - 1) // align * align
                    recomputed = (rnd(bm * bk * inb) + rnd(bk * bn * inb) + rnd(bm * bn * 4)) * ppf
                    fits = recomputed <= ub
                    cube_ok = bm % cube[0] == 0 and bn % cube[1] == 0 and bk % cube[2] == 0
                    ok = fits and cube_ok and recomputed == op_bytes
                    bad += 0 if ok else 1
                    print(f"{m}x{n}x{k:<8} {el:4} {ub:<7} {bm}x{bn}x{bk:<8} {op_bytes:<9} "
                          f"{recomputed:<10} {str(fits):5} {str(cube_ok):12} {blocks:<6} {waves:<6.2f}"
                          + ("" if ok else "  <-- MISMATCH"))
    print("every pick satisfies the UB constraint exactly as computed" if not bad
          else f"{bad} mismatch(es)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
