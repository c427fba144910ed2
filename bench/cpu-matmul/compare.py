#!/usr/bin/env python3
"""bench/cpu-matmul/compare.py: A/B comparison of schedule variants, paired by round.

  compare.py --size 512 [--rounds 8] [--chain] VARIANT...

A VARIANT is
  - a transform library with the entry point hwsched_cpu_matmul_main (e.g.
    transform-scripts/cpu-matmul.mlir, or an edited copy of it),
  - tiles:MC,NC,KC,MR,NR: the repository's script with those five knobs
    instead of the spec's (as run.py --tiles), or
  - a file NAME.scheduled.mlir: an already scheduled payload, e.g. one
    written by an earlier call (kept in --work) and edited by hand; it must
    come from the same --size/--chain/--min-time (same calls per timed run).

Variants are built single-threaded (`host` detected with hwsched-opt pinned
to one CPU; with --target, give a spec with cpu.cores = 1): the figures are
thread CPU time. Each round runs the FMA peak once and every variant once, each in its own
process (5 timed runs per process), the order rotated per round. Prints per
round the GFLOP/s (median of the process's runs), then per variant the
median over the rounds, its ratio to the round's peak and to the first
variant's figure of the same round (median and min-max over the rounds),
and the best single run of each process (median / max over the rounds):
the host here switches between a fast and a slow phase (see README.md,
"Method"); the best run per process shows the fast phase. Every result is
checked against run.py's reference.
"""

import argparse
import os
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run as R  # noqa: E402  (the payload, lowering, reference and checks)


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--size", type=int, required=True)
    p.add_argument("--rounds", type=int, default=8)
    p.add_argument("--chain", action="store_true", help="matmul + bias + ReLU")
    p.add_argument("--min-time", type=float, default=0.1,
                   help="seconds per timed run (at 150 GFLOP/s)")
    p.add_argument("--target", default=None,
                   help="spec (default: none named, so the script's `host`)")
    p.add_argument("--work", help="keep the generated files in this directory")
    p.add_argument("variants", nargs="+")
    args = p.parse_args()

    work = args.work or tempfile.mkdtemp(prefix="cpu-matmul-compare-")
    os.makedirs(work, exist_ok=True)
    opt = R.toolchain.find_hwsched_opt() or os.path.join(R.ROOT, "build", "bin", "hwsched-opt")
    cputime = os.path.join(work, "libcputime.so")
    R.run(["gcc", "-O2", "-shared", "-fPIC", os.path.join(R.HERE, "cputime.c"), "-o", cputime])
    peak_exe = os.path.join(work, "fma_peak")
    # The ISA is chosen at run time (fma_peak.c): no -mavx512f SIGILL on AVX2.
    R.run(["gcc", "-O2", os.path.join(R.HERE, "fma_peak.c"), "-o", peak_exe])
    libs = [*R.toolchain.runner_libs(), cputime]
    if R.OPENMP_LIB and os.path.isfile(R.OPENMP_LIB):
        libs.append(R.OPENMP_LIB)  # multi-threaded variants

    flops = 2.0 * args.size ** 3
    reps = max(1, int(args.min_time * 150e9 / flops))
    tag = f"{'chain' if args.chain else 'matmul'}-{args.size}"
    src = os.path.join(work, tag + ".mlir")
    with open(src, "w") as f:
        f.write(R.payload(args.size, args.chain, reps, 5))

    lowered = []
    for i, v in enumerate(args.variants):
        if v.endswith(".scheduled.mlir"):
            sched = v
        else:
            sched = os.path.join(work, f"v{i}-{tag}.scheduled.mlir")
            # The script's companions (matmul-frontend.mlir) come with an
            # edited copy of cpu-matmul.mlir, as run.py preloads them.
            companions = [f for f in R.SCRIPT.split(",")
                          if os.path.basename(f) != "cpu-matmul.mlir"]
            library, entry = ",".join([os.path.abspath(v), *companions]), R.ENTRY
            if v.startswith("tiles:"):
                library, entry = R.fixed_tiles_schedule(
                    os.path.join(work, f"tiles{i}.mlir"), v[len("tiles:"):].split(","))
            target = [f"--hwsched-target={args.target}"] if args.target else []
            # Single-threaded, as the figures are thread CPU time: `host`
            # detected with hwsched-opt on one CPU (cpu.cores = 1, no
            # OpenMP); a --target spec's own cpu.cores applies.
            cmd = [opt, src, *target,
                   f"--transform-preload-library=transform-library-paths={library}",
                   f"--transform-interpreter=entry-point={entry}", "-o", sched]
            proc = R.subprocess.run(cmd, stdout=R.subprocess.PIPE,
                                    stderr=R.subprocess.PIPE, text=True,
                                    preexec_fn=R.pin_to_one_cpu)
            if proc.returncode != 0:
                R.die(f"command failed: {R.shlex.join(cmd)}\n{proc.stderr[-3000:]}")
        low = os.path.join(work, f"v{i}-{tag}.llvm.mlir")
        R.run([R.MLIR_OPT, sched, "--pass-pipeline=" + R.LOWERING, "-o", low])
        lowered.append(low)

    ref = R.reference(args.size, args.chain)
    n = len(args.variants)
    med = [[] for _ in range(n)]
    best = [[] for _ in range(n)]
    peaks = []
    print(f"# {tag}, {args.rounds} rounds, {reps} calls per timed run, 5 runs per process")
    for r in range(args.rounds):
        out = R.run([peak_exe, "100000000", "3"])
        peaks.append(float(next(line.split()[1] for line in out.splitlines()
                                if line.startswith("peak_gflops"))))
        for i in [(r + k) % n for k in range(n)]:
            out = R.run([R.RUNNER, "-O3", lowered[i], "-e", "main",
                         "-entry-point-result=void", "-shared-libs=" + ",".join(libs)])
            _, cpus, total, sample = R.parse_output(out)
            R.check(args.variants[i], total, sample, *ref)
            med[i].append(flops * reps / statistics.median(cpus) / 1e9)
            best[i].append(flops * reps / min(cpus) / 1e9)
        print(f"round {r}: peak {peaks[-1]:.1f} " +
              " ".join(f"v{i}={med[i][-1]:.1f}" for i in range(n)), flush=True)

    def rng(vals):
        return f"{statistics.median(vals):.3f} ({min(vals):.3f}-{max(vals):.3f})"

    print()
    print("| variant | GFLOP/s | /peak | /v0 | best run per process (median, max) |")
    print("|---|---|---|---|---|")
    for i, v in enumerate(args.variants):
        to_peak = [med[i][r] / peaks[r] for r in range(args.rounds)]
        to_v0 = [med[i][r] / med[0][r] for r in range(args.rounds)]
        print(f"| v{i} {v} | {statistics.median(med[i]):.1f} | {rng(to_peak)} "
              f"| {rng(to_v0)} | {statistics.median(best[i]):.1f}, {max(best[i]):.1f} |")
    print()
    print("All results checked against the reference.")


if __name__ == "__main__":
    main()
