#!/usr/bin/env python3
"""GPU validation of transform.cost_model.select_tile_config (no GPU needed).

For each matmul shape and GPU spec, asks select_tile_config for its pick
(with explain, to read the estimated registers, shared memory, blocks and
waves), then lowers that exact configuration through MLIR's NVVM path with
utils/ptxas-report.py at the register cap the pick assumed
(gpu.max_registers_per_thread) and prints ptxas registers and spill bytes.
Also checks the model's shared memory against onchip.capacity_bytes and
prints waves over the SMs, how many SMs the grid keeps busy, its wave
efficiency (eff: the share of the SM time it keeps busy) and whether the
SM-fill rule (cost_weights.sm_fill_threshold) decided the pick (fill: rule;
none: it applied but no candidate reached the threshold).

The pick is asked for with the split_k result (six results), so the model
may split K across blocks (split-K, s > 1) when the output tiles alone leave
SMs idle; --no-split-k asks for five results (the unsplit picks). A split
pick is lowered by the shipped split-K schedule (transform-scripts/
gpu-matmul.mlir @gpu_matmul_split_k: transform.hwsched.split_k, the partial
kernel over (s, M/BM, N/BN) blocks and the reduction kernel, two
gpu.launch ops); the ptxas columns are then the larger figure of the two
kernels.

The lowering is the pick fed as params to transform-scripts/
gpu-measure.mlir's sequences (see pick_cmd and lower_cmd): tile_using_forall
with tile_sizes (blocks), tile_using_for with reduction_tile_sizes (K tile),
tile_using_forall with thread_tile_sizes (threads), K step 1 (the register
model's assumption), vectorize, hoist the accumulator, bufferize, map to
gpu.launch with block_dims = num_threads, then the vector lowering one
pattern set at a time. ptxas runs at the assumed cap, at the occupancy
budget and at the estimate. This lowering stages nothing in shared memory,
so a second table runs the shipped shared-memory schedule
(examples/gpu-matmul/run.py) on matmul + bias + ReLU of each shape, where
ptxas reports the real kernel's shared memory.

Usage: bench/tileconfig/gpu_check.py [--build build]
           [--specs nvidia-a100,nvidia-h100,nvidia-rtx4090] [--shapes MxNxK,...]
           [--no-ptxas] [--no-flow] [--no-split-k] [--timeout SECS] [--cache FILE]
"""

import argparse
import hashlib
import json
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "utils"))
from hwsched_tools import toolchain, transform_calls  # noqa: E402

ARCH = {"nvidia-a100": "sm_80", "nvidia-h100": "sm_90", "nvidia-rtx4090": "sm_89"}

# The specs and shapes of issue 7's GPU validation (also sm_fill.py's).
DEFAULT_SPECS = "nvidia-a100,nvidia-h100,nvidia-rtx4090"
DEFAULT_SHAPES = ("128x128x128,256x256x256,512x512x512,1024x1024x1024,"
                  "2048x2048x2048,4096x64x4096,3136x256x64")


def payload(m, n, k):
    a, b, c = f"tensor<{m}x{k}xf32>", f"tensor<{k}x{n}xf32>", f"tensor<{m}x{n}xf32>"
    return f"""func.func @matmul(%A: {a}, %B: {b}, %out: {c}) -> {c} {{
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%out : {c}) -> {c}
  %mm = linalg.matmul ins(%A, %B : {a}, {b}) outs(%init : {c}) -> {c}
  return %mm : {c}
}}
"""


# The schedules: transform-scripts/gpu-measure.mlir's sequences, called by a
# small @__transform_main with the pick's sizes as params.
LIBRARY = ["gpu-measure.mlir", "gpu-matmul.mlir", "gpu-dispatch.mlir"]


def pick_cmd(opt, spec, src, lib, split_k, smem=False):
    """Writes `lib` and returns the command asking select_tile_config (with
    explain) for its pick on `src`: six results with `split_k` (the split
    factor too), else five; `smem`: five as the shipped shared-memory
    schedule asks (@gpu_matmul_smem_block_level: accumulator_in_smem,
    static_smem)."""
    w = transform_calls.Wrapper(LIBRARY, "readonly")
    w.include("gpu_measure_pick_smem" if smem else
              "gpu_measure_pick_split_k" if split_k else "gpu_measure_pick", w.root)
    with open(lib, "w") as f:
        f.write(w.text())
    return [opt, w.preload_option(lib), f"--hwsched-target={spec}",
            "--transform-interpreter", src, "-o", os.devnull]


def lower_cmd(opt, spec, src, lib, mapped, tile, thread, red, threads):
    """Writes `lib` and returns the command lowering an unsplit pick (s = 1)
    of the matmul in `src` to gpu.launch in `mapped`: blocks of
    tile_sizes, the K tile of reduction_tile_sizes, thread_tile_sizes per
    thread with K step 1 (@gpu_measure_matmul_k_blocked), num_threads as
    block_dims, then the vector lowering one pattern set per rewrite (all
    sets in one rewrite do not terminate when a thread tile has a unit
    dimension, e.g. 1x2 at 128^3 on the A100: cast_away_vector_leading_one_dim
    and the broadcast/extract folds keep rewriting each other's vector<1xN>
    ops; this was the "ptxas takes over 10 minutes per kernel" of issue 7.
    Each set alone reaches its fixpoint in well under a second and the
    kernel that reaches ptxas is the same)."""
    if tile[2] or thread[2] or red[0] or red[1] or threads[2] != 1:
        raise SystemExit(f"unexpected pick shape: tile {tile}, thread {thread}, "
                         f"reduction {red}, threads {threads}")
    w = transform_calls.Wrapper(LIBRARY)
    sizes = [w.param(v) for v in (tile[0], tile[1], red[2], thread[0], thread[1])]
    w.include("gpu_measure_matmul_k_blocked", w.root, *sizes)
    func = w.include("gpu_measure_to_gpu", w.root, w.params(threads))
    w.include("gpu_measure_lower_matmul_vectors_by_set", func)
    with open(lib, "w") as f:
        f.write(w.text())
    return [opt, w.preload_option(lib), f"--hwsched-target={spec}",
            "--transform-interpreter", src, "-o", mapped]


def flow_payload(m, n, k):
    """matmul + bias + ReLU at M x N x K, the form of examples/gpu-matmul."""
    a, b, c, v = (f"tensor<{m}x{k}xf32>", f"tensor<{k}x{n}xf32>",
                  f"tensor<{m}x{n}xf32>", f"tensor<{n}xf32>")
    return f"""#map_bias = affine_map<(d0, d1) -> (d1)>
#map_id = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_bias_relu(%A: {a}, %B: {b}, %bias: {v}, %out: {c}) -> {c} {{
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%out : {c}) -> {c}
  %mm = linalg.matmul ins(%A, %B : {a}, {b}) outs(%init : {c}) -> {c}
  %res = linalg.generic {{indexing_maps = [#map_id, #map_bias, #map_id],
                         iterator_types = ["parallel", "parallel"]}}
      ins(%mm, %bias : {c}, {v}) outs(%out : {c}) {{
  ^bb0(%acc: f32, %b: f32, %o: f32):
    %sum = arith.addf %acc, %b : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %relu : f32
  }} -> {c}
  return %res : {c}
}}
"""


def flow_check(spec, m, n, k, tmp, build, timeout):
    """Runs examples/gpu-matmul/run.py (the shipped GPU schedule: A/B tiles
    and the block accumulator in shared memory, K loop pipelined by
    schedule_stages, buffers merged, then ptxas) on matmul + bias + ReLU of
    this shape; returns the figures it prints, or a reason string."""
    src = os.path.join(tmp, "flow.mlir")
    with open(src, "w") as f:
        f.write(flow_payload(m, n, k))
    env = dict(os.environ, PATH=os.path.join(build, "bin") + os.pathsep + os.environ["PATH"])
    t0 = time.monotonic()
    try:
        r = subprocess.run([sys.executable, os.path.join(ROOT, "examples", "gpu-matmul", "run.py"),
                            "--target", spec, "--input", src],
                           capture_output=True, text=True, timeout=timeout, env=env)
    except subprocess.TimeoutExpired:
        return "timeout"
    secs = time.monotonic() - t0
    if r.returncode:
        if "48 KiB" in r.stderr:
            return "static smem > 48 KiB (ptxas limit)"
        # The schedule's own diagnostic names the reason (capacity, a
        # mapping precondition); run.py's last line only names the command.
        errs = [l.split("error: ", 1)[1] for l in r.stderr.splitlines()
                if "error: " in l and not l.startswith("run.py")]
        return "FAILED: " + (errs[0] if errs else r.stderr.strip().splitlines()[-1])[:160]
    out = r.stdout
    g = lambda pat: re.search(pat, out)
    st = g(r"schedule_stages: (\d+) stages \(limit (\d+)\).*on-chip bytes (\d+)")
    est = g(r"estimate: (\d+) registers")
    smem = g(r"schedule_stages on-chip\)\s+(\d+)\s+(\d+)")
    regs = g(r"registers per thread \(cap \d+\)\s+(\d+)\s+(\d+)")
    sp_cap = g(r"spill bytes store/load \(cap \d+\)\s+\d+\s+(\d+)/(\d+)")
    sp_est = g(r"spill bytes store/load \(cap \d+ = predicted\)\s+\d+\s+(\d+)/(\d+)")
    if not all((st, est, smem, regs, sp_cap, sp_est)):
        return "unparsed run.py output"
    # The schedule keeps the block's f32 accumulator tile (BM x BN) in shared
    # memory besides the multi-buffered A and B tiles, which are what
    # select_tile_config's shared bytes count.
    tile = re.search(r"tile_sizes \[(\d+), (\d+)", out)
    ab = int(st.group(3)) - int(tile.group(1)) * int(tile.group(2)) * 4
    return {"stages": int(st.group(1)), "limit": int(st.group(2)),
            "sched": int(st.group(3)), "ab": ab, "ptxas_smem": int(smem.group(2)),
            "est": int(est.group(1)), "regs": int(regs.group(2)),
            "spill_cap": int(sp_cap.group(1)) + int(sp_cap.group(2)),
            "spill_est": int(sp_est.group(1)) + int(sp_est.group(2)), "secs": secs}


def spec_value(spec, key):
    with open(os.path.join(ROOT, "hw-specs", spec + ".json")) as f:
        d = json.load(f)
    for part in key.split("."):
        d = d[part]
    return d


def blocks_per_sm(spec, regs, threads, smem):
    """Resident blocks per SM by the occupancy rules the op uses (registers
    rounded to the allocation unit per warp, shared memory, threads, the
    block limit), for a register count per thread."""
    warp = spec_value(spec, "gpu.warp_size")
    unit = max(spec_value(spec, "gpu.register_allocation_unit"), 1)
    warps = threads // warp
    per_warp = -(-regs * warp // unit) * unit
    by_regs = spec_value(spec, "gpu.registers_per_sm") // (per_warp * warps)
    by_smem = (spec_value(spec, "gpu.shared_memory_per_sm_bytes") // smem
               if smem else spec_value(spec, "gpu.max_blocks_per_sm"))
    by_threads = spec_value(spec, "gpu.max_threads_per_sm") // threads
    return min(by_regs, by_smem, by_threads, spec_value(spec, "gpu.max_blocks_per_sm"))


class Runner:
    """Runs a step with a timeout, records its wall time, and memoizes ptxas
    reports by the content hash of the mapped kernel + arch + cap."""

    def __init__(self, timeout, cache_path):
        self.timeout = timeout
        self.cache_path = cache_path
        self.cache = {}
        if cache_path and os.path.exists(cache_path):
            with open(cache_path) as f:
                self.cache = json.load(f)

    def run(self, cmd):
        t0 = time.monotonic()
        try:
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=self.timeout)
        except subprocess.TimeoutExpired:
            return None, time.monotonic() - t0
        return r, time.monotonic() - t0

    def ptxas(self, mapped, arch, cap):
        """The ptxas report (dict) of the mapped kernel at `cap`, or a string
        saying why there is none; and the wall seconds spent."""
        with open(mapped, "rb") as f:
            key = hashlib.sha256(f.read() + f"|{arch}|{cap}".encode()).hexdigest()
        if key in self.cache:
            return self.cache[key], 0.0
        r, secs = self.run([sys.executable, os.path.join(ROOT, "utils", "ptxas-report.py"),
                            mapped, "--opt", toolchain.mlir_opt(),
                            "--arch", arch, "--maxrregcount", str(cap), "--format", "json"])
        if r is None:
            return "timeout", secs
        if r.returncode:
            print(r.stderr[:3000], file=sys.stderr)
            return "fail", secs
        ks = json.loads(r.stdout)["kernels"]
        rep = {"registers": max(k["registers"] for k in ks),
               "spill": max(k["spill_store_bytes"] + k["spill_load_bytes"] for k in ks),
               "smem": max(k["smem_bytes"] for k in ks)}
        self.cache[key] = rep
        if self.cache_path:
            with open(self.cache_path, "w") as f:
                json.dump(self.cache, f, indent=1)
        return rep, secs


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--specs", default=DEFAULT_SPECS)
    ap.add_argument("--shapes", default=DEFAULT_SHAPES)
    ap.add_argument("--no-ptxas", action="store_true",
                    help="only print the picks (no lowering)")
    ap.add_argument("--timeout", type=float, default=600,
                    help="seconds per step (transform, each ptxas-report run)")
    ap.add_argument("--no-flow", action="store_true",
                    help="skip the second table (the shipped shared-memory schedule, "
                    "examples/gpu-matmul/run.py, per shape)")
    ap.add_argument("--no-split-k", action="store_true",
                    help="ask for five results (no split_k): the unsplit picks")
    ap.add_argument("--cache", help="JSON file memoizing ptxas reports by the "
                    "content hash of the mapped kernel, arch and cap")
    args = ap.parse_args()
    opt = os.path.join(args.build, "bin", "hwsched-opt")
    runner = Runner(args.timeout, args.cache)
    # Columns: the pick; est = the op's register estimate; ptxas at the cap
    # the op assumed (gpu.max_registers_per_thread): registers, spill bytes;
    # spill bytes at the occupancy budget and at the estimate itself (does the
    # kernel fit the registers the model predicted?); smem: the model's bytes
    # (multi-buffered A and B tiles) and what ptxas reports for the lowered
    # kernel; res: resident blocks on the busiest SM, predicted / with ptxas's
    # registers at the cap; timing: transform s / ptxas-report s (3 caps).
    print(f"{'spec':14} {'MxNxK':15} {'tile':7} {'thread':6} {'K':3} {'st':2} {'threads':7} "
          f"{'s':2} {'est':4} {'ptxas':5} {'spill':5} {'@bud':4} {'@est':4} "
          f"{'smem':6} {'ptxsm':5} {'fits':5} {'blocks':6} {'waves':5} {'SMs':8} "
          f"{'res':5} {'occ ok':6} {'eff':4} {'fill':5} {'secs':9}")
    bad = 0
    occ_capped = 0
    flows = []
    with tempfile.TemporaryDirectory() as tmp:
        for spec in args.specs.split(","):
            cap = spec_value(spec, "gpu.max_registers_per_thread")
            budget = spec_value(spec, "gpu.occupancy_register_budget")
            smem_cap = spec_value(spec, "onchip.capacity_bytes")
            sms = spec_value(spec, "gpu.sm_count")
            arch = ARCH.get(spec, "sm_80")
            for shape in args.shapes.split(","):
                m, n, k = (int(x) for x in shape.split("x"))
                src = os.path.join(tmp, "in.mlir")
                with open(src, "w") as f:
                    f.write(payload(m, n, k))
                lib = os.path.join(tmp, "pick.mlir")
                r = subprocess.run(pick_cmd(opt, spec, src, lib, not args.no_split_k),
                                   capture_output=True, text=True)
                d = re.search(r"tile_sizes (\[[^\]]*\]), thread_tile_sizes (\[[^\]]*\]), "
                              r"reduction_tile_sizes (\[[^\]]*\]), num_stages (\d+), "
                              r"num_threads (\[[^\]]*\])", r.stderr)
                c = re.search(r"candidate #1: .*?(\d+) threads: (\d+) registers/thread, "
                              r"(\d+) shared bytes, (\d+) blocks/SM, .*?(\d+) blocks, "
                              r"([0-9.]+) waves", r.stderr)
                if not d or not c:
                    print(f"{spec} {shape}: no pick\n{r.stderr[-1500:]}")
                    bad += 1
                    continue
                tile, thread, red, stages, threads = (eval(g) for g in d.groups())
                sk = re.search(r"num_threads \[[^\]]*\], split_k (\d+)", r.stderr)
                split = int(sk.group(1)) if sk else 1
                nthreads = int(c.group(1))
                est, smem, bps, blocks, waves = int(c.group(2)), int(c.group(3)), \
                    int(c.group(4)), int(c.group(5)), float(c.group(6))
                resident = min(bps, -(-blocks // sms))
                # Wave efficiency (share of the SM time the grid keeps busy)
                # and the SM-fill rule: "rule" when it replaced the
                # best-scored pick, "none" when it applied but no candidate
                # reached cost_weights.sm_fill_threshold.
                e = re.search(r"candidate #1: .*?\(efficiency ([0-9.]+)\)", r.stderr)
                eff = float(e.group(1)) if e else float("nan")
                fill = ("rule" if "picked the fastest candidate at or above" in r.stderr
                        else "none" if "no candidate reaches it" in r.stderr else "-")
                regs = spill = spill_budget = spill_est = ptx_smem = res_ptx = "-"
                occ_ok = "-"
                t_tr = t_px = 0.0
                if not args.no_ptxas:
                    # hwsched-opt runs the schedule (it knows our ops); the
                    # stock mlir-opt lowers to PTX (hwsched-opt does not
                    # register the LLVM translations gpu-module-to-binary needs).
                    mapped = os.path.join(tmp, "mapped.mlir")
                    if split > 1:
                        cmd = [opt, f"--hwsched-target={spec}",
                               transform_calls.preload_option(
                                   ["matmul-frontend.mlir", "gpu-matmul.mlir",
                                    "gpu-dispatch.mlir"]),
                               "--transform-interpreter=entry-point=gpu_matmul_split_k",
                               src, "-o", mapped]
                    else:
                        cmd = lower_cmd(opt, spec, src, os.path.join(tmp, "lower.mlir"),
                                        mapped, tile, thread, red, threads)
                    tr, t_tr = runner.run(cmd)
                    if tr is None or tr.returncode:
                        regs = "timeout" if tr is None else "fail"
                        if tr is not None:
                            print(tr.stderr[:3000], file=sys.stderr)
                        bad += 1
                    else:
                        reps = {}
                        for limit in (cap, budget, est):
                            reps[limit], secs = runner.ptxas(mapped, arch, limit)
                            t_px += secs
                        def field(limit, name):
                            rep = reps[limit]
                            return rep[name] if isinstance(rep, dict) else rep
                        regs, spill = field(cap, "registers"), field(cap, "spill")
                        ptx_smem = field(cap, "smem")
                        spill_budget = field(budget, "spill") if est <= budget else "n/a"
                        spill_est = field(est, "spill")
                        bad += 0 if spill == 0 else 1
                        bad += 0 if spill_budget in (0, "n/a") else 1
                        if isinstance(regs, int):
                            # ptxas's registers at the assumed cap are what
                            # the launch would get (.maxntid alone gives
                            # ptxas a limit of 255 for <= 256 threads).
                            res_ptx = min(blocks_per_sm(spec, regs, nthreads, smem),
                                          -(-blocks // sms))
                            occ_ok = res_ptx >= resident
                            occ_capped += 0 if occ_ok else 1
                fits = smem <= smem_cap
                bad += 0 if fits else 1
                if not args.no_ptxas and not args.no_flow:
                    # The shipped shared-memory schedule asks for five
                    # results and tells the op what its shared memory
                    # holds: its pick and shared bytes.
                    r5 = subprocess.run(pick_cmd(opt, spec, src, lib, False, smem=True),
                                        capture_output=True, text=True)
                    c5 = re.search(r"candidate #1: .*?(\d+) shared bytes", r5.stderr)
                    flow_smem = int(c5.group(1)) if c5 else -1
                    flows.append((spec, shape, flow_smem, smem_cap,
                                  flow_check(spec, m, n, k, tmp, args.build, args.timeout)))
                busy = min(blocks, sms)
                print(f"{spec:14} {shape:15} {tile[0]}x{tile[1]:<4} {thread[0]}x{thread[1]:<4} "
                      f"{red[2]:<3} {stages:<2} {threads[0]}x{threads[1]:<5} {split:<2} {est:<4} "
                      f"{regs!s:5} {spill!s:5} {spill_budget!s:4} {spill_est!s:4} "
                      f"{smem:<6} {ptx_smem!s:5} {str(fits):5} {blocks:<6} {waves:<5.2f} "
                      f"{busy:>3}/{sms:<4} {resident}/{res_ptx!s:3} {str(occ_ok):6} "
                      f"{eff:<4.2f} {fill:5} {t_tr:.1f}/{t_px:.1f}", flush=True)
        print("all picks: no spills at the assumed cap nor at the budget, smem within capacity"
              if not bad else f"{bad} problem(s)")
        if occ_capped:
            print(f"{occ_capped} pick(s) reach the predicted resident blocks only when ptxas is "
                  "capped at the estimate (see @est): uncapped, it uses more registers")
    if flows:
        # op smem: the shared bytes of the shipped schedule's own pick
        # (five results, accumulator_in_smem, static_smem: multi-buffered
        # A + B plus the block accumulator); flow A+B: the A and B buffers as
        # schedule_stages allocated them (stages it kept); sched B: all of
        # schedule_stages' on-chip bytes; ptxas smem: the whole kernel.
        print("\nshipped schedule (examples/gpu-matmul/run.py, matmul + bias + ReLU):")
        print(f"{'spec':14} {'MxNxK':15} {'st/lim':6} {'op smem':7} {'flow A+B':8} "
              f"{'sched B':7} {'ptxas smem':10} {'<= cap':6} {'est':4} {'ptxas':5} "
              f"{'spill@cap':9} {'spill@est':9} {'secs':5}")
        fbad = 0
        for spec, shape, op_smem, smem_cap, fr in flows:
            if not isinstance(fr, dict):
                # Every failure counts: the op is told the schedule's static
                # shared-memory limit, so a kernel above it is the pick's
                # fault too.
                fbad += 1
                print(f"{spec:14} {shape:15} {fr}")
                continue
            ok = (fr["ptxas_smem"] == fr["sched"] and fr["ptxas_smem"] <= smem_cap
                  and fr["spill_cap"] == 0 and fr["spill_est"] == 0
                  and (fr["sched"] == op_smem or fr["stages"] != fr["limit"]))
            fbad += 0 if ok else 1
            print(f"{spec:14} {shape:15} {fr['stages']}/{fr['limit']:<4} {op_smem:<7} "
                  f"{fr['ab']:<8} {fr['sched']:<7} {fr['ptxas_smem']:<10} "
                  f"{str(fr['ptxas_smem'] <= smem_cap):6} {fr['est']:<4} {fr['regs']:<5} "
                  f"{fr['spill_cap']:<9} {fr['spill_est']:<9} {fr['secs']:.1f}", flush=True)
        skipped = sum(1 for f in flows if isinstance(f[4], str) and "48 KiB" in f[4])
        print(("shipped schedule: every kernel compiled, smem = schedule_stages = ptxas "
               "= the op's figure, no spills" if not fbad
               else f"shipped schedule: {fbad} problem(s)")
              + f"; {skipped} kernel(s) above 48 KiB of static shared memory not compiled")
        bad += fbad
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
