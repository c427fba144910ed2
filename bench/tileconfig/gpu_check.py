#!/usr/bin/env python3
"""GPU validation of transform.cost_model.select_tile_config (no GPU needed).

For each matmul shape and GPU spec, asks select_tile_config for its pick
(with explain, to read the estimated registers, shared memory, blocks and
waves), then lowers that exact configuration through MLIR's NVVM path with
utils/ptxas-report.py at the register cap the pick assumed
(gpu.max_registers_per_thread) and prints ptxas registers and spill bytes.
Also checks the model's shared memory against onchip.capacity_bytes and
prints waves over the SMs.

The lowering is the pick fed as params: tile_using_forall with tile_sizes
(blocks), tile_using_for with reduction_tile_sizes (K tile), tile_using_forall
with thread_tile_sizes (threads), K step 1 (the register model's
assumption), vectorize, hoist the accumulator, bufferize, map to gpu.launch
with block_dims = num_threads. The shared-memory staging is not part of this
lowering (no promotion), so ptxas reports no shared memory: the smem column
is the model's figure checked against the spec.

Usage: bench/tileconfig/gpu_check.py [--build build] [--specs nvidia-a100,nvidia-h100]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
P = "!transform.param<i64>"
H = "!transform.any_op"
ARCH = {"nvidia-a100": "sm_80", "nvidia-h100": "sm_90", "nvidia-rtx4090": "sm_89"}


def payload(m, n, k):
    a, b, c = f"tensor<{m}x{k}xf32>", f"tensor<{k}x{n}xf32>", f"tensor<{m}x{n}xf32>"
    return f"""func.func @matmul(%A: {a}, %B: {b}, %out: {c}) -> {c} {{
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%out : {c}) -> {c}
  %mm = linalg.matmul ins(%A, %B : {a}, {b}) outs(%init : {c}) -> {c}
  return %mm : {c}
}}
"""


def pick_script(spec):
    return f"""module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @__transform_main(%root: {H} {{transform.readonly}}) {{
    %mm = transform.structured.match ops{{["linalg.matmul"]}} in %root : ({H}) -> {H}
    %t:5 = transform.cost_model.select_tile_config %mm {{ target = "{spec}", explain }} : ({H}) -> ({P}, {P}, {P}, {P}, {P})
    transform.yield
  }}
}}
"""


def lowering_script(spec, block_dims):
    # block_dims of map_nested_forall_to_threads is a static attribute
    # upstream, so the script is instantiated with the op's num_threads.
    return f"""module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence @lower(%root: {H} {{transform.consumed}}) {{
    %matmul = transform.structured.match ops{{["linalg.matmul"]}} in %root : ({H}) -> {H}
    %fill = transform.structured.match ops{{["linalg.fill"]}} in %root : ({H}) -> {H}
    %t:5 = transform.cost_model.select_tile_config %matmul {{ target = "{spec}" }} : ({H}) -> ({P}, {P}, {P}, {P}, {P})
    %mm_b, %forall_b = transform.structured.tile_using_forall %matmul tile_sizes *(%t#0)
        (mapping = [#gpu.block<y>, #gpu.block<x>]) : ({H}, {P}) -> ({H}, {H})
    %fill_b, %forall_b2 = transform.structured.fuse_into_containing_op %fill into %forall_b : ({H}, {H}) -> ({H}, {H})
    %r:3 = transform.split_handle %t#2 : ({P}) -> ({P}, {P}, {P})
    %mm_k, %loop_k:3 = transform.structured.tile_using_for %mm_b tile_sizes [%r#0, %r#1, %r#2]
        : ({H}, {P}, {P}, {P}) -> ({H}, {H}, {H}, {H})
    %mm_t, %forall_t = transform.structured.tile_using_forall %mm_k tile_sizes *(%t#1)
        (mapping = [#gpu.thread<y>, #gpu.thread<x>]) : ({H}, {P}) -> ({H}, {H})
    %fill_t, %forall_t2 = transform.structured.tile_using_forall %fill_b tile_sizes *(%t#1)
        (mapping = [#gpu.thread<y>, #gpu.thread<x>]) : ({H}, {P}) -> ({H}, {H})
    %mm_1, %loop_1 = transform.structured.tile_using_for %mm_t tile_sizes [0, 0, 1] : ({H}) -> ({H}, {H})
    %func = transform.structured.match ops{{["func.func"]}} in %root : ({H}) -> {H}
    %func_v = transform.structured.vectorize_children_and_apply_patterns %func : ({H}) -> {H}
    transform.apply_patterns to %func_v {{
      transform.apply_patterns.canonicalization
      transform.apply_patterns.tensor.fold_tensor_subset_ops_into_vector_transfers
    }} : {H}
    transform.apply_cse to %func_v : {H}
    %loops = transform.structured.match ops{{["scf.for"]}} in %func_v : ({H}) -> {H}
    transform.loop.hoist_loop_invariant_subsets %loops : {H}
    transform.apply_patterns to %func_v {{
      transform.apply_patterns.tensor.fold_tensor_empty
    }} : {H}
    %root_b = transform.bufferization.one_shot_bufferize %root
        {{bufferize_function_boundaries = true, function_boundary_type_conversion = 1 : i32}} : ({H}) -> {H}
    %func_b = transform.structured.match ops{{["func.func"]}} in %root_b : ({H}) -> {H}
    transform.apply_patterns to %func_b {{
      transform.apply_patterns.canonicalization
    }} : {H}
    transform.apply_cse to %func_b : {H}
    transform.memref.erase_dead_alloc_and_stores %func_b : ({H}) -> ()
    %launch = transform.gpu.map_forall_to_blocks %func_b {{generate_gpu_launch}} : ({H}) -> {H}
    %mapped = transform.gpu.map_nested_forall_to_threads %launch
        block_dims = [{block_dims[0]}, {block_dims[1]}, {block_dims[2]}] : ({H}) -> {H}
    %func_m = transform.structured.match ops{{["func.func"]}} in %root_b : ({H}) -> {H}
    transform.apply_patterns to %func_m {{
      transform.apply_patterns.vector.lower_contraction lowering_strategy = "outerproduct"
      transform.apply_patterns.vector.lower_outerproduct
      transform.apply_patterns.vector.transfer_permutation_patterns
      transform.apply_patterns.vector.lower_transfer max_transfer_rank = 1
      transform.apply_patterns.vector.lower_transpose
      transform.apply_patterns.vector.lower_broadcast
      transform.apply_patterns.vector.lower_shape_cast
      transform.apply_patterns.vector.cast_away_vector_leading_one_dim
      transform.apply_patterns.canonicalization
    }} : {H}
    transform.apply_cse to %func_m : {H}
    transform.yield
  }}
}}
"""


def spec_value(spec, key):
    with open(os.path.join(ROOT, "hw-specs", spec + ".json")) as f:
        d = json.load(f)
    for part in key.split("."):
        d = d[part]
    return d


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--specs", default="nvidia-a100,nvidia-h100")
    ap.add_argument("--shapes", default="128x128x128,256x256x256,512x512x512,"
                    "1024x1024x1024,2048x2048x2048,4096x64x4096,3136x256x64")
    ap.add_argument("--no-ptxas", action="store_true",
                    help="only print the picks (no lowering)")
    args = ap.parse_args()
    opt = os.path.join(args.build, "bin", "hwsched-opt")
    print(f"{'spec':12} {'MxNxK':16} {'tile':12} {'thread':8} {'K':4} {'st':3} "
          f"{'threads':8} {'est regs':8} {'cap':4} {'ptxas regs':10} {'spill B':7} {'spill@128':9} "
          f"{'smem B':8} {'<= cap':6} {'blocks':6} {'waves':6} {'SMs busy':8}")
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for spec in args.specs.split(","):
            cap = spec_value(spec, "gpu.max_registers_per_thread")
            smem_cap = spec_value(spec, "onchip.capacity_bytes")
            sms = spec_value(spec, "gpu.sm_count")
            for shape in args.shapes.split(","):
                m, n, k = (int(x) for x in shape.split("x"))
                src = os.path.join(tmp, "in.mlir")
                with open(src, "w") as f:
                    f.write(payload(m, n, k))
                lib = os.path.join(tmp, "pick.mlir")
                with open(lib, "w") as f:
                    f.write(pick_script(spec))
                r = subprocess.run(
                    [opt, f"--transform-preload-library=transform-library-paths={lib}",
                     "--transform-interpreter", src, "-o", "/dev/null"],
                    capture_output=True, text=True)
                d = re.search(r"tile_sizes (\[[^\]]*\]), thread_tile_sizes (\[[^\]]*\]), "
                              r"reduction_tile_sizes (\[[^\]]*\]), num_stages (\d+), "
                              r"num_threads (\[[^\]]*\])", r.stderr)
                c = re.search(r"candidate #1: .*?(\d+) threads: (\d+) registers/thread, "
                              r"(\d+) shared bytes, .*?(\d+) blocks, ([0-9.]+) waves",
                              r.stderr)
                if not d or not c:
                    print(f"{spec} {shape}: no pick\n{r.stderr[-1500:]}")
                    bad += 1
                    continue
                tile, thread, red, stages, threads = (eval(g) for g in d.groups())
                est, smem, blocks, waves = int(c.group(2)), int(c.group(3)), \
                    int(c.group(4)), float(c.group(5))
                regs, spill, spill_budget = "-", "-", "-"
                if not args.no_ptxas:
                    lower = os.path.join(tmp, "lower.mlir")
                    with open(lower, "w") as f:
                        f.write(lowering_script(spec, threads))
                    # hwsched-opt runs the schedule (it knows our op); the
                    # stock mlir-opt lowers to PTX (hwsched-opt does not
                    # register the LLVM translations gpu-module-to-binary needs).
                    mapped = os.path.join(tmp, "mapped.mlir")
                    tr = subprocess.run(
                        [opt, f"--transform-preload-library=transform-library-paths={lower}",
                         "--transform-interpreter=entry-point=lower", src, "-o", mapped],
                        capture_output=True, text=True)
                    if tr.returncode:
                        print(tr.stderr[:3000], file=sys.stderr)
                    def ptxas(limit):
                        return subprocess.run(
                            [sys.executable, os.path.join(ROOT, "utils", "ptxas-report.py"),
                             mapped, "--opt", "/usr/lib/llvm-22/bin/mlir-opt",
                             "--arch", ARCH.get(spec, "sm_80"),
                             "--maxrregcount", str(limit), "--format", "json"],
                            capture_output=True, text=True)

                    def spills(rep):
                        ks = json.loads(rep.stdout)["kernels"]
                        return max(kk["spill_store_bytes"] + kk["spill_load_bytes"] for kk in ks)
                    # The pick also prefers the occupancy budget: check spills
                    # at that cap too when the estimate is within it.
                    budget = spec_value(spec, "gpu.occupancy_register_budget")
                    if est <= budget:
                        rb = ptxas(budget)
                        spill_budget = spills(rb) if rb.returncode == 0 else "fail"
                        bad += 0 if spill_budget == 0 else 1
                    else:
                        spill_budget = "n/a"
                    rep = ptxas(cap)
                    if rep.returncode:
                        regs = "fail"
                        print(rep.stderr[:3000], file=sys.stderr)
                        bad += 1
                    else:
                        kernels = json.loads(rep.stdout)["kernels"]
                        regs = max(kk["registers"] for kk in kernels)
                        spill = max(kk.get("spill_store_bytes", 0) + kk.get("spill_load_bytes", 0)
                                    for kk in kernels)
                        if spill:
                            bad += 1
                fits = smem <= smem_cap
                bad += 0 if fits else 1
                busy = min(blocks, sms)
                print(f"{spec:12} {shape:16} {tile[0]}x{tile[1]:<9} {thread[0]}x{thread[1]:<6} "
                      f"{red[2]:<4} {stages:<3} {threads[0]}x{threads[1]:<5} {est:<8} {cap:<4} "
                      f"{regs!s:10} {spill!s:7} {spill_budget!s:9} {smem:<8} {str(fits):6} {blocks:<6} "
                      f"{waves:<6.2f} {busy}/{sms}", flush=True)
    print("all picks: no spills at the assumed cap, smem within capacity"
          if not bad else f"{bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
