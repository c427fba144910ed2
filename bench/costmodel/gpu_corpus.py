#!/usr/bin/env python3
"""GPU register corpus: the cost model's registers-per-thread estimate vs ptxas.

For every kernel of kernels/*.mlir and every per-thread tile (tm x tn outputs
per thread, reduction step kt) the script
  1. tiles the kernel to 16x16-thread blocks the way the mapping does and asks
     `transform.cost_model.estimate {metric = "registers_per_thread", explain}`
     on the thread-level op (hwsched-opt), parsing the remark for the terms;
  2. maps the same tiling to gpu.launch, lowers it to PTX and runs ptxas at
     an unconstrained cap (255: the register demand) and at --cap (spills),
     through utils/ptxas-report.py.
The schedules are transform-scripts/gpu-measure.mlir's sequences, called
with the case's sizes as params (see SCHEDULES and wrapper()).
It prints one row per kernel and the two validation figures:
  - spill prediction at the cap (the model's register floor > cap, vs
    ptxas spill bytes at that cap);
  - |predicted - ptxas@255| / ptxas@255 <= 20%.
--json FILE writes the rows (with the estimate's terms) for calibrate.py.
Kernels: matmul-like producers (kernels/mm_*, mmtb_*, bmm_*) and true
convolutions (kernels/conv2d_*: conv_2d_nhwc_hwcf, decomposed to conv_1d
after tiling for the ptxas run; see SCHEDULES).

Usage: python3 bench/costmodel/gpu_corpus.py [--cap 128] [--arch sm_80]
           [--spec nvidia-a100] [--build build] [--json out.json] [--only REGEX]
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
# hwsched-opt runs the schedules (transform-scripts/gpu-measure.mlir); the
# stock mlir-opt lowers the mapped kernel to PTX: it has the NVPTX target
# that gpu-module-to-binary needs (hwsched-opt does not initialise it).
sys.path.insert(0, os.path.join(ROOT, "utils"))
from hwsched_tools import toolchain, transform_calls  # noqa: E402

MLIR_OPT = toolchain.mlir_opt()

# (kernel, tm, tn, kt): kernels with epilogues are fused into the matmul's
# thread tile; mm_only is the unfused producer kernel.
CORPUS = [
    ("mm_bias_relu", 2, 2, 4), ("mm_bias_relu", 4, 4, 4),
    ("mm_bias_relu", 4, 8, 4), ("mm_bias_relu", 8, 8, 4),
    ("mm_bias_relu", 4, 4, 8), ("mm_bias_relu", 8, 4, 2),
    ("mm_bias_relu", 2, 8, 4), ("mm_bias_relu", 8, 8, 8),
    ("mm_only", 2, 4, 4), ("mm_only", 4, 4, 4), ("mm_only", 4, 8, 8),
    ("mm_only", 8, 8, 4), ("mm_only", 8, 8, 8),
    ("mm_bias_residual", 4, 4, 4), ("mm_bias_residual", 4, 8, 4),
    ("mm_bias_residual", 8, 8, 4),
    ("mm_transpose_out", 4, 4, 4), ("mm_transpose_out", 4, 8, 2),
    ("mm_transpose_out", 8, 8, 4),
    ("mmtb_bias_gelu", 4, 4, 4), ("mmtb_bias_gelu", 8, 8, 4),
    ("mmtb_bias_gelu", 2, 4, 8),
    ("bmm_batchsum", 2, 2, 4), ("bmm_batchsum", 4, 4, 4),
    ("bmm_batchsum", 2, 4, 8),
    ("conv2d_bias_relu", 2, 2, 4), ("conv2d_bias_relu", 4, 4, 4),
    ("conv2d_bias_relu", 4, 8, 4), ("conv2d_bias_relu", 8, 8, 4),
    ("conv2d_bias_relu", 2, 4, 8),
    ("conv2d_only", 4, 4, 4), ("conv2d_only", 8, 4, 2),
    ("conv2d_only", 8, 8, 8),
]

# The schedules are transform-scripts/gpu-measure.mlir's sequences; a case
# is a small @__transform_main calling them with its sizes (blocks of
# THREADS x THREADS threads, each tm x tn outputs, reduction step kt).
LIBRARY = ["gpu-measure.mlir", "gpu-matmul.mlir", "gpu-dispatch.mlir"]
THREADS = 16

# kernel -> (tiling, K tiling, vector lowering), gpu-measure.mlir sequences
# without their gpu_measure_ prefix. Default: a matmul producer fused into
# its 2-D epilogue ("chain": the estimate is asked on the thread-level
# epilogue); "alone": the producer is the kernel's root (asked on it). The
# convolutions (NHWC x HWCF) are tiled over (oh, ow, f), one output row
# per block, their window loops by 1, and decomposed to conv_1d after
# tiling for the ptxas run. The vector lowering: the matmul kernels apply
# all pattern sets in one greedy rewrite; on the decomposed convolutions
# that rewrite does not terminate (mlir-opt 22.1.8 still running after 10
# minutes; each set alone finishes in well under a second), so they apply
# the same sets one at a time, in the same order.
DEFAULT_SCHEDULE = ("chain_2d", "k_tile_matmul", "lower_vectors")
SCHEDULES = {
    "mm_only": ("alone_2d", "k_tile_matmul", "lower_vectors"),
    "bmm_batchsum": ("chain_2d", "k_tile_batch_matmul", "lower_vectors"),
    "conv2d_bias_relu": ("chain_conv", "k_tile_conv", "lower_vectors_by_set"),
    "conv2d_only": ("alone_conv", "k_tile_conv", "lower_vectors_by_set"),
}


REMARK = re.compile(
    r"registers=(\d+) \(acc=(\d+) frag=(\d+) epi=(\d+) tmp=(\d+) addr=(\d+) "
    r"(?:staged=\d+ inflight=\d+ )?step=(\d+) floor=(\d+)")


def wrapper(kernel, tm, tn, kt, mapped):
    """The @__transform_main of one case: the tiling, then the register
    estimate (`mapped` False) or the GPU mapping and vector lowering."""
    tile, k_tile, lower = SCHEDULES.get(kernel, DEFAULT_SCHEDULE)
    w = transform_calls.Wrapper(LIBRARY, "consumed" if mapped else "readonly")
    sizes = [w.param(v) for v in (THREADS * tm, THREADS * tn, tm, tn)]
    tiled = w.include("gpu_measure_" + tile, w.root, *sizes)
    if tile.startswith("chain"):
        thread_op, producer = tiled
        op_k = w.include("gpu_measure_" + k_tile, producer, w.param(kt))
    else:
        op_k = thread_op = w.include("gpu_measure_" + k_tile, tiled, w.param(kt))
    if not mapped:
        w.include("gpu_measure_registers", thread_op)
        return w
    if tile.endswith("conv"):
        w.include("gpu_measure_decompose", op_k)
    func = w.include("gpu_measure_to_gpu", w.root, w.params([THREADS, THREADS, 1]))
    w.include("gpu_measure_" + lower, func)
    return w


def write_library(path, kernel, tm, tn, kt):
    """Writes PATH (the estimate's wrapper) and PATH.map.mlir (the mapping's);
    returns their preload options."""
    options = []
    for p, mapped in ((path, False), (path + ".map.mlir", True)):
        w = wrapper(kernel, tm, tn, kt, mapped)
        with open(p, "w") as f:
            f.write(w.text())
        options.append(w.preload_option(p))
    return options


def transform_cmd(opt, kernel_file, option, spec, out=os.devnull):
    """hwsched-opt running a case's wrapper (preload `option`) on the kernel
    for the spec `spec` (the driver's target: the scripts name none)."""
    return [opt, kernel_file, option, f"--hwsched-target={spec}",
            "--transform-interpreter", "-o", out]


def predict(opt, kernel_file, option, spec):
    cmd = transform_cmd(opt, kernel_file, option, spec)
    p = subprocess.run(cmd, capture_output=True, text=True)
    m = REMARK.search(p.stderr)
    if not m:
        raise SystemExit(f"predict failed: {' '.join(cmd)}\n{p.stderr}")
    vals = [int(x) for x in m.groups()]
    return {"predicted": vals[0], "acc": vals[1], "frag": vals[2],
            "epi": vals[3], "tmp": vals[4], "addr": vals[5], "step": vals[6],
            "floor": vals[7]}


def map_kernel(opt, kernel_file, option, spec, mapped):
    """Writes the case's gpu.launch kernel to `mapped`."""
    cmd = transform_cmd(opt, kernel_file, option, spec, mapped)
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"mapping failed: {' '.join(cmd)}\n{p.stderr}")


def ptxas(mapped, cap, arch):
    cmd = [sys.executable, os.path.join(ROOT, "utils", "ptxas-report.py"),
           mapped, "--opt", MLIR_OPT, "--maxrregcount", str(cap),
           "--arch", arch, "--format", "json"]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit(f"ptxas-report failed: {' '.join(cmd)}\n{p.stderr}")
    k = json.loads(p.stdout)["kernels"][0]
    return k["registers"], k["spill_store_bytes"], k["spill_load_bytes"]


def run_corpus(opt, spec, arch, cap, corpus):
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for kernel, tm, tn, kt in corpus:
            kfile = os.path.join(HERE, "kernels", kernel + ".mlir")
            lib = os.path.join(tmp, f"{kernel}_{tm}x{tn}x{kt}.mlir")
            predict_option, map_option = write_library(lib, kernel, tm, tn, kt)
            row = {"kernel": kernel, "tm": tm, "tn": tn, "kt": kt}
            row.update(predict(opt, kfile, predict_option, spec))
            mapped = lib + ".mapped.mlir"
            map_kernel(opt, kfile, map_option, spec, mapped)
            row["ptxas255"], _, _ = ptxas(mapped, 255, arch)
            regs, st, ld = ptxas(mapped, cap, arch)
            row.update({"cap": cap, "ptxas_cap": regs, "spill_store": st,
                        "spill_load": ld})
            rows.append(row)
            print(f"  measured {kernel} {tm}x{tn}x{kt}", file=sys.stderr)
    return rows


def report(rows, cap):
    print(f"{'kernel':18} {'tile':>7} {'pred':>5} {'ptxas@255':>9} {'err%':>6} "
          f"{'floor':>5} {'ptxas@' + str(cap):>9} {'spill st/ld':>12} "
          f"{'pred spill':>10} {'ok':>3}")
    spill_ok = within = 0
    for r in rows:
        err = (r["predicted"] - r["ptxas255"]) / r["ptxas255"] * 100
        pred_spill = r["floor"] > cap
        real_spill = r["spill_store"] > 0 or r["spill_load"] > 0
        ok = pred_spill == real_spill
        spill_ok += ok
        within += abs(err) <= 20
        tile = f"{r['tm']}x{r['tn']}x{r['kt']}"
        print(f"{r['kernel']:18} {tile:>7} {r['predicted']:5} {r['ptxas255']:9} "
              f"{err:6.1f} {r['floor']:5} {r['ptxas_cap']:9} "
              f"{str(r['spill_store']) + '/' + str(r['spill_load']):>12} "
              f"{'yes' if pred_spill else 'no':>10} {'Y' if ok else 'N':>3}")
    n = len(rows)
    print(f"\nkernels: {n}")
    print(f"spill prediction at cap {cap}: {spill_ok}/{n} = "
          f"{100.0 * spill_ok / n:.1f}% (target >= 90%)")
    print(f"register estimate within 20% of ptxas@255: {within}/{n} = "
          f"{100.0 * within / n:.1f}% (target >= 80%)")


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--cap", type=int, default=128)
    ap.add_argument("--arch", default="sm_80")
    ap.add_argument("--spec", default="nvidia-a100")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--opt", help="hwsched-opt for the estimate "
                    "(default: BUILD/bin/hwsched-opt)")
    ap.add_argument("--only", help="regex on '<kernel> <tm>x<tn>x<kt>'")
    ap.add_argument("--json")
    ap.add_argument("--from-json", help="re-print rows from a --json file "
                    "(re-running the estimate only)")
    args = ap.parse_args()
    opt = args.opt or os.path.join(args.build, "bin", "hwsched-opt")
    corpus = [c for c in CORPUS if not args.only or
              re.search(args.only, f"{c[0]} {c[1]}x{c[2]}x{c[3]}")]
    if args.from_json:
        rows = json.load(open(args.from_json))
        with tempfile.TemporaryDirectory() as tmp:
            for r in rows:
                lib = os.path.join(tmp, "lib.mlir")
                option, _ = write_library(lib, r["kernel"], r["tm"], r["tn"],
                                          r["kt"])
                r.update(predict(opt, os.path.join(
                    HERE, "kernels", r["kernel"] + ".mlir"), option, args.spec))
        args.cap = rows[0]["cap"]
    else:
        rows = run_corpus(opt, args.spec, args.arch, args.cap, corpus)
    if args.json:
        json.dump(rows, open(args.json, "w"), indent=1)
    report(rows, args.cap)


if __name__ == "__main__":
    main()
