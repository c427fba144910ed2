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
It prints one row per kernel and the two validation figures:
  - spill prediction at the cap (the model's register floor > cap, vs
    ptxas spill bytes at that cap);
  - |predicted - ptxas@255| / ptxas@255 <= 20%.
--json FILE writes the rows (with the estimate's terms) for calibrate.py.
Kernels: matmul-like producers (kernels/mm_*, mmtb_*, bmm_*) and true
convolutions (kernels/conv2d_*: conv_2d_nhwc_hwcf, decomposed to conv_1d
after tiling for the ptxas run; see TEMPLATES and lowering()).

Usage: python3 bench/costmodel/gpu_corpus.py [--cap 128] [--arch sm_80]
           [--spec nvidia-a100] [--build build] [--json out.json] [--quick]
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
# The mapping and lowering use only upstream ops; the stock mlir-opt also has
# the NVPTX target that gpu-module-to-binary needs (hwsched-opt does not
# initialise it).
sys.path.insert(0, os.path.join(ROOT, "utils"))
from hwsched_tools import toolchain  # noqa: E402

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

# Reduction-step tiling of the producer, per kernel (default: matmul loops).
K_TILE = {"bmm_batchsum": "[0, 0, 0, {kt}]"}

TILE_FUSED = """
    %epi = transform.structured.match attributes {{root}} in %root
        : (!transform.any_op) -> !transform.any_op
    %mm = transform.structured.match attributes {{producer}} in %root
        : (!transform.any_op) -> !transform.any_op
    %fills = transform.structured.match ops{{["linalg.fill"]}} in %root
        : (!transform.any_op) -> !transform.any_op
    %fill = transform.merge_handles %fills : !transform.any_op
    %epi_b, %forall_b = transform.structured.tile_using_forall %epi
        tile_sizes [{bm}, {bn}] (mapping = [#gpu.block<y>, #gpu.block<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_b, %fb2 = transform.structured.fuse_into_containing_op %mm into %forall_b
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_b, %fb3 = transform.structured.fuse_into_containing_op %fill into %fb2
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %epi_t, %forall_t = transform.structured.tile_using_forall %epi_b
        tile_sizes [{tm}, {tn}] (mapping = [#gpu.thread<y>, #gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_t, %ft2 = transform.structured.fuse_into_containing_op %mm_b into %forall_t
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_t, %ft3 = transform.structured.fuse_into_containing_op %fill_b into %ft2
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_k, %loop_k = transform.structured.tile_using_for %mm_t tile_sizes {ktile}
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
"""

TILE_ALONE = """
    %epi = transform.structured.match attributes {{root}} in %root
        : (!transform.any_op) -> !transform.any_op
    %fill = transform.structured.match ops{{["linalg.fill"]}} in %root
        : (!transform.any_op) -> !transform.any_op
    %mm_b, %forall_b = transform.structured.tile_using_forall %epi
        tile_sizes [{bm}, {bn}] (mapping = [#gpu.block<y>, #gpu.block<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_b, %fb3 = transform.structured.fuse_into_containing_op %fill into %forall_b
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_t, %forall_t = transform.structured.tile_using_forall %mm_b
        tile_sizes [{tm}, {tn}] (mapping = [#gpu.thread<y>, #gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_t, %ft3 = transform.structured.fuse_into_containing_op %fill_b into %forall_t
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_k, %loop_k = transform.structured.tile_using_for %mm_t tile_sizes [0, 0, {kt}]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %epi_t = transform.merge_handles %mm_k : !transform.any_op
"""

PREDICT_LIBRARY = """module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @predict(%root: !transform.any_op {{transform.readonly}}) {{
{tile}
    %regs = transform.cost_model.estimate %epi_t {{target = "{spec}",
        metric = "registers_per_thread", explain}}
        : (!transform.any_op) -> !transform.param<i64>
    transform.yield
  }}

}}
"""

MAP_LIBRARY = """module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @map(%root: !transform.any_op {{transform.consumed}}) {{
{tile}{post}
    %func = transform.structured.match ops{{["func.func"]}} in %root
        : (!transform.any_op) -> !transform.any_op
    %func_v = transform.structured.vectorize_children_and_apply_patterns %func
        : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_v {{
      transform.apply_patterns.canonicalization
      transform.apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers
    }} : !transform.any_op
    transform.apply_cse to %func_v : !transform.any_op
    %loops = transform.structured.match ops{{["scf.for"]}} in %func_v
        : (!transform.any_op) -> !transform.any_op
    transform.loop.hoist_loop_invariant_subsets %loops : !transform.any_op
    transform.apply_patterns to %func_v {{
      transform.apply_patterns.tensor.fold_tensor_empty
    }} : !transform.any_op
    %root_b = transform.bufferization.one_shot_bufferize %root
        {{bufferize_function_boundaries = true,
         function_boundary_type_conversion = 1 : i32}}
        : (!transform.any_op) -> !transform.any_op
    %func_b = transform.structured.match ops{{["func.func"]}} in %root_b
        : (!transform.any_op) -> !transform.any_op
    transform.apply_patterns to %func_b {{
      transform.apply_patterns.canonicalization
    }} : !transform.any_op
    transform.apply_cse to %func_b : !transform.any_op
    transform.memref.erase_dead_alloc_and_stores %func_b
        : (!transform.any_op) -> ()
    %launch = transform.gpu.map_forall_to_blocks %func_b {{generate_gpu_launch}}
        : (!transform.any_op) -> !transform.any_op
    %mapped = transform.gpu.map_nested_forall_to_threads %launch
        block_dims = [16, 16, 1] : (!transform.any_op) -> !transform.any_op
    %func_m = transform.structured.match ops{{["func.func"]}} in %root_b
        : (!transform.any_op) -> !transform.any_op
{lower}    transform.apply_cse to %func_m : !transform.any_op
    transform.yield
  }}
}}
"""

# Convolutions (NHWC x HWCF): blocks over (oh, ow, f) with one output row per
# block, threads over (ow, f) with tm x tn outputs each; the reduction loops
# (kh, kw, c) are tiled to 1 x 1 x kt, so each step is a 1 x 1 window.
CONV_TILE_FUSED = """
    %epi = transform.structured.match attributes {{root}} in %root
        : (!transform.any_op) -> !transform.any_op
    %mm = transform.structured.match attributes {{producer}} in %root
        : (!transform.any_op) -> !transform.any_op
    %fills = transform.structured.match ops{{["linalg.fill"]}} in %root
        : (!transform.any_op) -> !transform.any_op
    %fill = transform.merge_handles %fills : !transform.any_op
    %epi_b, %forall_b = transform.structured.tile_using_forall %epi
        tile_sizes [0, 1, {bm}, {bn}]
        (mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_b, %fb2 = transform.structured.fuse_into_containing_op %mm into %forall_b
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_b, %fb3 = transform.structured.fuse_into_containing_op %fill into %fb2
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %epi_t, %forall_t = transform.structured.tile_using_forall %epi_b
        tile_sizes [0, 0, {tm}, {tn}] (mapping = [#gpu.thread<y>, #gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_t, %ft2 = transform.structured.fuse_into_containing_op %mm_b into %forall_t
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_t, %ft3 = transform.structured.fuse_into_containing_op %fill_b into %ft2
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_k, %loop_h, %loop_w, %loop_c = transform.structured.tile_using_for %mm_t
        tile_sizes [0, 0, 0, 0, 1, 1, {kt}]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op,
                                  !transform.any_op, !transform.any_op)
"""

CONV_TILE_ALONE = """
    %epi = transform.structured.match attributes {{root}} in %root
        : (!transform.any_op) -> !transform.any_op
    %fill = transform.structured.match ops{{["linalg.fill"]}} in %root
        : (!transform.any_op) -> !transform.any_op
    %mm_b, %forall_b = transform.structured.tile_using_forall %epi
        tile_sizes [0, 1, {bm}, {bn}]
        (mapping = [#gpu.block<z>, #gpu.block<y>, #gpu.block<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_b, %fb3 = transform.structured.fuse_into_containing_op %fill into %forall_b
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_t, %forall_t = transform.structured.tile_using_forall %mm_b
        tile_sizes [0, 0, {tm}, {tn}] (mapping = [#gpu.thread<y>, #gpu.thread<x>])
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op)
    %fill_t, %ft3 = transform.structured.fuse_into_containing_op %fill_b into %forall_t
        : (!transform.any_op, !transform.any_op) -> (!transform.any_op, !transform.any_op)
    %mm_k, %loop_h, %loop_w, %loop_c = transform.structured.tile_using_for %mm_t
        tile_sizes [0, 0, 0, 0, 1, 1, {kt}]
        : (!transform.any_op) -> (!transform.any_op, !transform.any_op,
                                  !transform.any_op, !transform.any_op)
    %epi_t = transform.merge_handles %mm_k : !transform.any_op
"""

# With the window loops tiled to 1, the 2-D convolution decomposes into a
# 1-D one (oh and kh are unit dims), which the Linalg vectorizer handles
# (it has no direct vectorization of conv_2d); only the ptxas run needs it.
CONV_DECOMPOSE = """
    %conv1d = transform.structured.decompose %mm_k
        : (!transform.any_op) -> !transform.any_op
"""

# kernel -> (tile template, extra steps before vectorization in @map,
# sequential vector lowering).
TEMPLATES = {
    "conv2d_bias_relu": (CONV_TILE_FUSED, CONV_DECOMPOSE, True),
    "conv2d_only": (CONV_TILE_ALONE, CONV_DECOMPOSE, True),
}

# The vector lowering after the mapping. The matmul kernels apply all sets
# in one greedy rewrite; on the decomposed convolutions that rewrite does not
# terminate (mlir-opt 22.1.8 still running after 10 minutes; each set alone
# finishes in well under a second), so they apply the same sets one at a
# time, in the same order.
LOWER_PATTERNS = [
    'transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"',
    'transform.apply_patterns.vector.lower_outerproduct',
    'transform.apply_patterns.vector.lower_multi_reduction lowering_strategy = "innerreduction"',
    'transform.apply_patterns.vector.transfer_permutation_patterns',
    'transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1',
    'transform.apply_patterns.vector.lower_transpose',
    'transform.apply_patterns.vector.lower_broadcast',
    'transform.apply_patterns.vector.lower_shape_cast',
    'transform.apply_patterns.vector.cast_away_vector_leading_one_dim',
    'transform.apply_patterns.canonicalization',
]


def lowering(sequential):
    if not sequential:
        return ("    transform.apply_patterns to %func_m {\n" + "".join(
            f"      {p}\n" for p in LOWER_PATTERNS) +
            "    } : !transform.any_op\n")
    return "".join(f"    transform.apply_patterns to %func_m {{\n      {p}\n"
                   f"    }} : !transform.any_op\n" for p in LOWER_PATTERNS)


REMARK = re.compile(
    r"registers=(\d+) \(acc=(\d+) frag=(\d+) epi=(\d+) tmp=(\d+) addr=(\d+) "
    r"(?:staged=\d+ inflight=\d+ )?step=(\d+) floor=(\d+)")


def write_library(path, kernel, tm, tn, kt, spec):
    """Writes PATH (the @predict library, hwsched ops) and PATH.map.mlir (the
    @map library, upstream ops only)."""
    ktile = K_TILE.get(kernel, "[0, 0, {kt}]").format(kt=kt)
    template, post, sequential = TEMPLATES.get(
        kernel, (TILE_ALONE if kernel == "mm_only" else TILE_FUSED, "", False))
    tile = template.format(
        bm=16 * tm, bn=16 * tn, tm=tm, tn=tn, kt=kt, ktile=ktile)
    with open(path, "w") as f:
        f.write(PREDICT_LIBRARY.format(tile=tile, spec=spec))
    with open(path + ".map.mlir", "w") as f:
        f.write(MAP_LIBRARY.format(tile=tile, post=post,
                                   lower=lowering(sequential)))


def predict(opt, kernel_file, lib):
    cmd = [opt, kernel_file,
           f"--transform-preload-library=transform-library-paths={lib}",
           "--transform-interpreter=entry-point=predict", "-o", os.devnull]
    p = subprocess.run(cmd, capture_output=True, text=True)
    m = REMARK.search(p.stderr)
    if not m:
        raise SystemExit(f"predict failed: {' '.join(cmd)}\n{p.stderr}")
    vals = [int(x) for x in m.groups()]
    return {"predicted": vals[0], "acc": vals[1], "frag": vals[2],
            "epi": vals[3], "tmp": vals[4], "addr": vals[5], "step": vals[6],
            "floor": vals[7]}


def ptxas(opt, kernel_file, lib, cap, arch):
    cmd = [sys.executable, os.path.join(ROOT, "utils", "ptxas-report.py"),
           kernel_file, "--transform-library", lib + ".map.mlir",
           "--entry-point", "map",
           "--opt", MLIR_OPT, "--maxrregcount", str(cap), "--arch", arch,
           "--format", "json"]
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
            write_library(lib, kernel, tm, tn, kt, spec)
            row = {"kernel": kernel, "tm": tm, "tn": tn, "kt": kt}
            row.update(predict(opt, kfile, lib))
            row["ptxas255"], _, _ = ptxas(opt, kfile, lib, 255, arch)
            regs, st, ld = ptxas(opt, kfile, lib, cap, arch)
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
                write_library(lib, r["kernel"], r["tm"], r["tn"], r["kt"],
                              args.spec)
                r.update(predict(opt, os.path.join(
                    HERE, "kernels", r["kernel"] + ".mlir"), lib))
        args.cap = rows[0]["cap"]
    else:
        rows = run_corpus(opt, args.spec, args.arch, args.cap, corpus)
    if args.json:
        json.dump(rows, open(args.json, "w"), indent=1)
    report(rows, args.cap)


if __name__ == "__main__":
    main()
