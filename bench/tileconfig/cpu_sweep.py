#!/usr/bin/env python3
"""CPU validation of transform.cost_model.select_tile_config.

For each problem (square matmuls, skinny matmuls, a conv-like contraction),
compiles and runs with mlir-runner:
  - the configuration select_tile_config picks for the CPU spec (read from
    its remark: @hwsched_cpu_measure_tile_decision), and
  - an exhaustive sweep over a grid of (cache tile, K tile, register tile)
    configurations,
each tiled by its sizes and lowered by @hwsched_cpu_measure_lower
(transform-scripts/cpu-measure.mlir: the schedule the op's own measurement
mode compiles),
and prints our pick's GFLOP/s, the sweep's best, their ratio (target >= 0.9)
and the op's own selection time (target < 10 ms).

Every timing is measured inside the program around a loop of
kernel calls (about 1 GFLOP per sample, so small sizes are timed over
milliseconds), with libc clock() (process CPU time, default: robust when
other jobs share the machine) or rtclock (wall time, --timer rtclock). Both
the best-of-samples and the median of --repeats samples (after one warm-up
sample) are reported. Single-threaded.

Usage: bench/tileconfig/cpu_sweep.py [--build build] [--spec x86-avx512]
           [--sizes 128,256,...] [--repeats 5] [--quick]
"""

import argparse
import itertools
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "utils"))
from hwsched_tools import lowering, toolchain  # noqa: E402

LIBS = ",".join(toolchain.runner_libs())
H = "!transform.any_op"

# The shared CPU lowering; the sweep's script bufferizes itself.
LOWER = lowering.cpu_lowering_pipeline(bufferize=False)


class Problem:
    """A contraction given as a linalg op over tensors."""

    def __init__(self, name, m, n, k, conv=None):
        self.name, self.m, self.n, self.k, self.conv = name, m, n, k, conv

    def flops(self):
        return 2.0 * self.m * self.n * self.k

    def kernel(self):
        if self.conv is None:
            a, b, c = (f"tensor<{self.m}x{self.k}xf32>", f"tensor<{self.k}x{self.n}xf32>",
                       f"tensor<{self.m}x{self.n}xf32>")
            op = (f"linalg.matmul ins(%A, %B : {a}, {b}) outs(%C : {c}) -> {c}")
            return a, b, c, op
        # Conv-like contraction: 1x1 convolution over an NHWC image, written
        # as a generic (n, h, w, f, c) contraction.
        nb, h, w, f, ch = self.conv
        a = f"tensor<{nb}x{h}x{w}x{ch}xf32>"
        b = f"tensor<{ch}x{f}xf32>"
        c = f"tensor<{nb}x{h}x{w}x{f}xf32>"
        op = (
            "linalg.generic {indexing_maps = ["
            "affine_map<(n, h, w, f, c) -> (n, h, w, c)>, "
            "affine_map<(n, h, w, f, c) -> (c, f)>, "
            "affine_map<(n, h, w, f, c) -> (n, h, w, f)>], iterator_types = "
            "[\"parallel\", \"parallel\", \"parallel\", \"parallel\", \"reduction\"]} "
            f"ins(%A, %B : {a}, {b}) outs(%C : {c}) {{\n"
            "  ^bb0(%x: f32, %y: f32, %z: f32):\n"
            "    %p = arith.mulf %x, %y : f32\n"
            "    %s = arith.addf %z, %p : f32\n"
            "    linalg.yield %s : f32\n"
            f"  }} -> {c}")
        return a, b, c, op

    def rank(self):
        return 3 if self.conv is None else 5


def inner_calls(problem):
    """Kernel calls per timed sample: about a GFLOP, so small problems are
    timed over milliseconds rather than microseconds."""
    return max(1, int(1e9 // problem.flops()))


def payload(problem, repeats, timer="clock"):
    a, b, c, op = problem.kernel()
    return f"""
func.func private @rtclock() -> f64
func.func @rtclock_s() -> f64 {{
  %t = func.call @rtclock() : () -> f64
  return %t : f64
}}
// Process CPU time (libc clock(), microseconds on glibc): unlike wall time
// it does not count the time other processes on a shared machine take.
func.func private @clock() -> i64
func.func @clock_s() -> f64 {{
  %t = func.call @clock() : () -> i64
  %f = arith.sitofp %t : i64 to f64
  %us = arith.constant 1.0e-6 : f64
  %s = arith.mulf %f, %us : f64
  return %s : f64
}}
func.func private @printF64(f64)
func.func private @printNewline()
func.func @kernel(%A: {a}, %B: {b}, %C: {c}) -> {c} {{
  %r = {op}
  return %r : {c}
}}
func.func @main() {{
  %one = arith.constant 1.0 : f32
  %half = arith.constant 0.5 : f32
  %z = arith.constant 0.0 : f32
  %ea = tensor.empty() : {a}
  %eb = tensor.empty() : {b}
  %ec = tensor.empty() : {c}
  %A = linalg.fill ins(%one : f32) outs(%ea : {a}) -> {a}
  %B = linalg.fill ins(%half : f32) outs(%eb : {b}) -> {b}
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %reps = arith.constant {repeats + 1} : index
  %inner = arith.constant {inner_calls(problem)} : index
  %innerf = arith.constant {float(inner_calls(problem))} : f64
  scf.for %i = %c0 to %reps step %c1 {{
    %C = linalg.fill ins(%z : f32) outs(%ec : {c}) -> {c}
    %t0 = func.call @{timer}_s() : () -> f64
    // The result feeds the next call (in place: no copies of C).
    %last = scf.for %j = %c0 to %inner step %c1 iter_args(%acc = %C) -> ({c}) {{
      %r = func.call @kernel(%A, %B, %acc) : ({a}, {b}, {c}) -> {c}
      scf.yield %r : {c}
    }}
    %t1 = func.call @{timer}_s() : () -> f64
    %dt = arith.subf %t1, %t0 : f64
    %d = arith.divf %dt, %innerf : f64
    func.call @printF64(%d) : (f64) -> ()
    func.call @printNewline() : () -> ()
  }}
  return
}}
"""


# The schedule after tiling is shipped (transform-scripts/cpu-measure.mlir,
# the one select_tile_config's measurement mode compiles too); this script
# writes only the tiling of the configuration being measured.
MEASURE_SCRIPT = os.path.join(ROOT, "transform-scripts", "cpu-measure.mlir")


def tiling_script(problem, config):
    """The schedule of `config` (per-loop lists tile/red/reg): cache tiles, K
    tile, register tile, K step 1, then the shipped
    @hwsched_cpu_measure_lower (vectorize, hoist the accumulators,
    bufferize, lower contractions to FMAs)."""
    r = problem.rank()

    def tile(src, dst, sizes):
        n = sum(1 for v in sizes if v)
        outs = ", ".join([H] * (n + 1))
        loops = f", %{dst}_loops:{n}" if n > 1 else (f", %{dst}_loops" if n == 1 else "")
        return (f"    %{dst}{loops} = transform.structured.tile_using_for"
                f" %{src} tile_sizes [{', '.join(str(v) for v in sizes)}] : ({H}) -> ({outs})")

    kstep = [0] * (r - 1) + [1]
    body = "\n".join([tile("mm", "l1", config["tile"]), tile("l1", "l2", config["red"]),
                      tile("l2", "l3", config["reg"]), tile("l3", "l4", kstep)])
    return f"""
module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence private @hwsched_cpu_measure_lower({H} {{transform.consumed}})
  transform.named_sequence @__transform_main(%root: {H} {{transform.consumed}}) {{
    %kf = transform.structured.match ops{{["func.func"]}} attributes{{sym_name = "kernel"}} in %root : ({H}) -> {H}
    %mm = transform.structured.match interface{{LinalgOp}} in %kf : ({H}) -> {H}
{body}
    transform.include @hwsched_cpu_measure_lower failures(propagate) (%root) : ({H}) -> ()
    transform.yield
  }}
}}
"""


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def measure(problem, config, args, tmp):
    src = os.path.join(tmp, "in.mlir")
    lib = os.path.join(tmp, "schedule.mlir")
    with open(src, "w") as f:
        f.write(payload(problem, args.repeats, args.timer))
    with open(lib, "w") as f:
        f.write(tiling_script(problem, config))
    opt = os.path.join(args.build, "bin", "hwsched-opt")
    t = run([opt, f"--transform-preload-library=transform-library-paths={lib},{MEASURE_SCRIPT}",
             "--transform-interpreter=entry-point=__transform_main", src])
    if t.returncode:
        return None, t.stderr[-2000:]
    low = run([opt, f"--pass-pipeline={LOWER}"], input=t.stdout)
    if low.returncode:
        return None, low.stderr[-2000:]
    r = run([toolchain.mlir_runner(), "-e", "main", "-entry-point-result=void",
             "-O3", f"-shared-libs={LIBS}"], input=low.stdout, timeout=600)
    if r.returncode:
        return None, r.stderr[-2000:]
    times = [float(x) for x in r.stdout.split()][1:]  # first run warms up
    return (min(times), statistics.median(times)), ""


def pick(problem, spec, args, tmp):
    """Runs the op alone (with explain) to read its decision, and times the
    model alone (hwsched-select-bench: thread CPU time of the first
    selectTileConfig call, which is what the op pays; the op times nothing)."""
    a, b, c, op = problem.kernel()
    kernel = os.path.join(tmp, "pick-kernel.mlir")
    with open(kernel, "w") as f:
        f.write(f"func.func @kernel(%A: {a}, %B: {b}, %C: {c}) -> {c} {{\n  %r = {op}\n"
                f"  return %r : {c}\n}}\n")
    opt = os.path.join(args.build, "bin", "hwsched-opt")
    res = run([opt, kernel, f"--transform-preload-library=transform-library-paths={MEASURE_SCRIPT}",
               "--transform-interpreter=entry-point=hwsched_cpu_measure_tile_decision",
               f"--hwsched-target={spec}", "-o", "/dev/null"])
    m = re.search(r"tile_sizes (\[[^\]]*\]), thread_tile_sizes (\[[^\]]*\]), "
                  r"reduction_tile_sizes (\[[^\]]*\])", res.stderr)
    if not m:
        sys.exit("select_tile_config failed:\n" + res.stderr)
    lists = [eval(g) for g in m.groups()]
    timed = run([os.path.join(args.build, "bin", "hwsched-select-bench"),
                 "--target", spec, kernel])
    t = re.search(r"first_ms ([0-9.]+) .* tile_sizes (\[[^\]]*\])", timed.stdout)
    if not t:
        sys.exit("hwsched-select-bench failed:\n" + timed.stderr)
    if eval(t.group(2)) != lists[0]:
        sys.exit(f"hwsched-select-bench timed another decision ({t.group(2)}, "
                 f"the op picked {lists[0]})")
    return lists, float(t.group(1))


def grid(problem, full=False):
    """Exhaustive grid over cache tile x K tile x register tile."""
    r = problem.rank()
    m, n, k = problem.m, problem.n, problem.k
    small = m * n * k <= 256 ** 3
    # Conv: M runs over image rows of 56 pixels, so register tiles over the
    # divisors of the row are natural too (the sweep is cheap: 0.1 GFLOP).
    mrs = (4, 6, 8) + ((7, 14, 16, 28) if problem.conv is not None else ())
    regs = [(mr, nr) for mr in mrs for nr in (16, 32, 64)
            if m % mr == 0 and n % nr == 0 and mr * nr // 16 + nr // 16 + 1 <= 32
            and mr * nr >= 128]
    if problem.conv is not None:
        # A register tile over image columns must divide the row (or be whole
        # rows): a partial one cannot be vectorized with static shapes.
        w = problem.conv[2]
        regs = [(mr, nr) for mr, nr in regs if w % mr == 0 or mr % w == 0]
    if not small and not full and problem.conv is None:
        # Larger problems: the register tiles that lead on the small ones.
        regs = [r for r in regs if r in ((4, 32), (8, 32), (4, 64))]
    mcs = sorted({min(v, m) for v in ((64, 256) if small or full else (256,))})
    if problem.conv is not None:
        # M runs over output rows of 56 pixels: whole rows.
        mcs = [problem.conv[2], 8 * problem.conv[2]]
    ncs = sorted({min(v, n) for v in ((256, 1024) if small or full else (256,))})
    kcs = sorted({min(v, k) for v in (128, 512)})
    out = []
    for (mr, nr), mc, nc, kc in itertools.product(regs, mcs, ncs, kcs):
        if mc % mr or nc % nr or m % mc or n % nc or k % kc:
            continue
        out.append(expand(problem, (mc, nc, kc), (mr, nr)))
    return out


def expand(problem, cache, reg):
    """Per-loop lists for a GEMM-view config (conv: M over n, h, w)."""
    mc, nc, kc = cache
    mr, nr = reg
    if problem.conv is None:
        return {"tile": [mc, nc, 0], "red": [0, 0, kc], "reg": [mr, nr, 0]}
    nb, h, w, f, ch = problem.conv

    def spread(t):  # innermost first over (n, h, w)
        out = [1, 1, 1]
        rem = t
        for i, e in ((2, w), (1, h), (0, nb)):
            out[i] = min(e, rem) if rem >= 1 else 1
            rem = max(rem // e, 1) if e < rem else 1
        return out
    tile = spread(mc)
    # As the op expands its register tile: 1 on an image loop the cache tile
    # spans but the register tile does not (a 0 there would leave a whole
    # multi-row block inside the register kernel), 0 where both are 1.
    reg = [0 if t == 1 and r <= 1 else r for t, r in zip(tile, spread(mr))]
    return {"tile": tile + [nc, 0], "red": [0, 0, 0, 0, kc], "reg": reg + [nr, 0]}


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--spec", default="x86-avx512")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--problems", default="")
    ap.add_argument("--quick", action="store_true", help="128..512 only")
    ap.add_argument("--cache", default="",
                    help="JSON file memoizing sweep timings (reruns measure only the pick)")
    ap.add_argument("--timer", choices=("clock", "rtclock"), default="clock",
                    help="clock: process CPU time (robust on a shared machine); "
                         "rtclock: wall time")
    ap.add_argument("--full-grid", action="store_true",
                    help="the full grid for every size (slow on a shared machine)")
    ap.add_argument("--verbose", action="store_true", help="print every config")
    args = ap.parse_args()
    problems = [Problem(f"mm{s}", s, s, s) for s in (128, 256, 512, 1024, 2048)]
    problems += [Problem("skinny 4096x64x4096", 4096, 64, 4096),
                 Problem("skinny 64x4096x4096", 64, 4096, 4096),
                 Problem("conv1x1 1x56x56x256<-64", 56 * 56, 256, 64,
                         conv=(1, 56, 56, 256, 64))]
    if args.quick:
        problems = [p for p in problems if p.m * p.n * p.k <= 512 ** 3]
    if args.problems:
        keep = args.problems.split(",")
        problems = [p for p in problems if p.name in keep]
    print(f"spec {args.spec}, {args.repeats} samples per config ({args.timer}), "
          f"single thread", flush=True)
    print(f"{'problem':26} {'pick (tile/red/reg)':38} {'pick GF/s':>9} {'best GF/s':>9} "
          f"{'ratio':>5} | {'med pick':>8} {'med best':>8} {'ratio':>5} | "
          f"{'best config (tile/red/reg)':38} {'grid':>4} {'op ms':>6}")
    ratios, med_ratios = [], []
    cache = {}
    if args.cache and os.path.exists(args.cache):
        with open(args.cache) as f:
            cache = json.load(f)
    with tempfile.TemporaryDirectory() as tmp:
        for p in problems:
            lists, op_ms = pick(p, args.spec, args, tmp)
            # The op's pick, measured as tiled by its own sizes.
            t_pick, err = measure(p, {"tile": lists[0], "red": lists[2], "reg": lists[1]},
                                  args, tmp)
            if t_pick is None:
                print(f"{p.name}: pick failed to run:\n{err}")
                continue
            best, best_med, best_cfg = None, None, None
            configs = grid(p, args.full_grid)
            for cfg in configs:
                key = f"{args.spec}|{p.name}|{cfg}|{args.repeats}x{inner_calls(p)}|{args.timer}"
                if key in cache:
                    t, err = tuple(cache[key]), ""
                else:
                    t, err = measure(p, cfg, args, tmp)
                    if t is not None and args.cache:
                        cache[key] = list(t)
                        with open(args.cache, "w") as f:
                            json.dump(cache, f, indent=0)
                if t is None:
                    # Reported and left out of the sweep (e.g. a configuration
                    # mlir-runner cannot JIT).
                    print(f"  {cfg}: failed: {err.splitlines()[:3]}", file=sys.stderr)
                    continue
                if args.verbose:
                    print(f"  {cfg}: {p.flops() / t[0] / 1e9:.1f} GF/s (min), "
                          f"{p.flops() / t[1] / 1e9:.1f} (median)",
                          file=sys.stderr, flush=True)
                if best is None or t[0] < best:
                    best, best_cfg = t[0], cfg
                if best_med is None or t[1] < best_med:
                    best_med = t[1]
            gf = lambda t: p.flops() / t / 1e9
            # The pick counts as a configuration of the sweep too.
            best = min(best, t_pick[0]) if best else t_pick[0]
            best_med = min(best_med, t_pick[1]) if best_med else t_pick[1]
            ratio, med_ratio = best / t_pick[0], best_med / t_pick[1]
            ratios.append(ratio)
            med_ratios.append(med_ratio)
            pick_s = f"{lists[0]}/{lists[2]}/{lists[1]}"
            best_s = "pick" if best == t_pick[0] else \
                f"{best_cfg['tile']}/{best_cfg['red']}/{best_cfg['reg']}"
            print(f"{p.name:26} {pick_s:38} {gf(t_pick[0]):9.1f} {gf(best):9.1f} {ratio:5.2f} | "
                  f"{gf(t_pick[1]):8.1f} {gf(best_med):8.1f} {med_ratio:5.2f} | "
                  f"{best_s:38} {len(configs):4} {op_ms:6.2f}", flush=True)
    if ratios:
        print(f"ratio (best-of-samples): min {min(ratios):.2f}, geomean "
              f"{statistics.geometric_mean(ratios):.2f}; ratio (medians): min "
              f"{min(med_ratios):.2f}, geomean {statistics.geometric_mean(med_ratios):.2f} "
              f"(target >= 0.90 each)")


if __name__ == "__main__":
    main()
