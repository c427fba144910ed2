#!/usr/bin/env python3
"""bench/gpu-runner/model_check.py: does select_tile_config's ranking hold
on a real GPU?

For each shape, the model's candidate list for the shipped schedule (what
`hwsched-tune` explores: $HWSCHED_TUNING_CANDIDATES, every feasible
configuration ranked by predicted time) is sampled: the model's first
`--top` picks and `--spread` more evenly spaced over the rest of the list.
Each sampled configuration is forced through a one-entry tuning database
(as the tuner does), scheduled and lowered by examples/gpu-matmul/run.py,
and its PTX launched by hwsched-gpu-run against cuBLAS. The report per
shape: each candidate's predicted and measured time, the measured rank of
the model's pick, how much slower the pick is than the fastest candidate
measured, and Kendall's tau between predicted and measured times.

Two phases, so the GPU machine needs no LLVM:
  model_check.py --prepare DIR [--shapes ...] [--target T] [--entry E]
                 [--top N] [--spread N]      (here: hwsched-opt, ptxas)
  model_check.py --run DIR --runner PATH [--reps N] [--json FILE]
                                             (there: a GPU, cuBLAS)
bench/gpu-runner/on-gpu.sh runs `--run` for a folder `--prepare` wrote.
Without a GPU `--run` says so and prints the predicted column only.
Split-K candidates are left out: they launch two kernels, and the runner
launches one.
"""

import argparse
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "utils"))
import run as sweep  # noqa: E402  (bench/gpu-runner/run.py)
from hwsched_tools import cpu_name  # noqa: E402
from hwsched_tune.search import kendall_tau  # noqa: E402  (the tuner's)

RECIPE = "model_check.json"
# Where examples/gpu-matmul/run.py --keep-temps puts the kernel's PTX.
PTX = os.path.join("ptxas-cap255", "matmul_bias_relu_kernel.ptx")


def sample(candidates, top, spread):
    """The first `top` candidates and `spread` evenly spaced ones after."""
    chosen = list(candidates[:top])
    rest = candidates[top:]
    if spread > 0 and rest:
        step = len(rest) / float(spread)
        picks = sorted({int(i * step) for i in range(spread)})
        chosen += [rest[i] for i in picks if i < len(rest)]
    return chosen


def prepare(args):
    # The tuner's own exploration and candidate databases, and the
    # example's script list, so this checks exactly what they schedule.
    from hwsched_tune import paths, space, tasks
    opt = os.environ.get("HWSCHED_OPT") or os.path.join(args.build, "bin",
                                                         "hwsched-opt")
    library = ",".join(paths.gpu_example().SCRIPTS)
    work = args.prepare
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, RECIPE), "w") as f:
        json.dump({"target": args.target, "entry": args.entry}, f)
    env = dict(os.environ, HWSCHED_OPT=opt)
    env.pop("HWSCHED_TUNING_DB", None)
    for m, n, k in sweep.parse_shapes(args.shapes):
        name = "%dx%dx%d" % (m, n, k)
        folder = os.path.join(work, name)
        os.makedirs(folder, exist_ok=True)
        program = sweep.PAYLOAD.format(m=m, n=n, k=k)
        payload = os.path.join(folder, "input.mlir")
        with open(payload, "w") as f:
            f.write(program)
        found = space.explore(opt, program, library, args.entry, args.target,
                              os.path.join(folder, "explore"))
        if len(found.problems) != 1:
            raise SystemExit("model_check.py: %s: expected one tile decision "
                             "in @%s, found %d" % (name, args.entry,
                                                   len(found.problems)))
        problem = next(iter(found.problems.values()))
        single = [c for c in problem.model_candidates
                  if c["config"].get("split_k", 1) == 1]
        chosen = sample(single, args.top, args.spread)
        print("%s: %d feasible candidates (%d without split-K), preparing %d"
              % (name, len(problem.model_candidates), len(single),
                 len(chosen)), flush=True)
        for cand in chosen:
            rank = cand["rank"]
            sub = os.path.join(folder, "rank%04d" % rank)
            os.makedirs(sub, exist_ok=True)
            db = tasks.candidate_database(problem.key, cand["config"], {},
                                          problem.record.get("schedule"))
            db_path = os.path.join(sub, "db.json")
            with open(db_path, "w") as f:
                json.dump(db, f)
            proc = subprocess.run(
                [sys.executable, sweep.EXAMPLE_RUN, "--target", args.target,
                 "--entry", args.entry, "--input", payload, "--keep-temps",
                 os.path.join(sub, "lowering")],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                env=dict(env, HWSCHED_TUNING_DB=db_path))
            record = {"rank": rank, "config": cand["config"],
                      "predicted_ns": cand.get("predicted_ns"),
                      "model_pick": rank == problem.model_pick().get("rank"),
                      "ok": proc.returncode == 0}
            if proc.returncode != 0:
                record["reason"] = proc.stdout.strip()[-600:]
            else:
                lowering = os.path.join(sub, "lowering")
                with open(os.path.join(lowering, "scheduled.mlir")) as f:
                    record["grid"], record["block"] = sweep.launch_dims(
                        f.read())
                if not args.keep_all:
                    slim(lowering)
            with open(os.path.join(sub, "candidate.json"), "w") as f:
                json.dump(record, f, indent=1)
            print("  rank %-4d %-40s %s" % (
                rank, describe(cand["config"]),
                "ok" if record["ok"] else "failed: "
                + record["reason"].splitlines()[-1]), flush=True)
    return 0


def slim(lowering):
    """Leaves only the PTX the runner launches in `lowering`, so a folder
    of many candidates stays small enough to carry to a GPU machine."""
    for top, dirs, files in os.walk(lowering, topdown=False):
        for name in files:
            path = os.path.join(top, name)
            if os.path.relpath(path, lowering) != PTX:
                os.remove(path)
        for name in dirs:
            path = os.path.join(top, name)
            if not os.listdir(path):
                os.rmdir(path)


def describe(config):
    return "block %s inner %s %d stages" % (
        "x".join(map(str, config["block"])),
        "x".join(map(str, config["inner"])), config["stages"])


def run(args):
    work = args.run
    try:
        with open(os.path.join(work, RECIPE)) as f:
            recipe = json.load(f)
    except (OSError, ValueError) as err:
        raise SystemExit("model_check.py: --run %s: no %s (%s); model_check.py "
                         "--prepare %s writes it" % (work, RECIPE, err, work))
    runner = args.runner or os.path.join(args.build, "bin", "hwsched-gpu-run")
    print("host CPU: %s" % cpu_name())
    print("schedule: transform-scripts/gpu-matmul.mlir @%s, target %s, f32 "
          "relu(A x B + bias); candidates forced through a tuning database"
          % (recipe["entry"], recipe["target"]))
    dry_run = False
    device = None
    summary, reports = [], []
    for name in sorted((d for d in os.listdir(work)
                        if os.path.isdir(os.path.join(work, d))),
                       key=lambda d: tuple(int(p) for p in d.split("x"))):
        m, n, k = (int(p) for p in name.split("x"))
        folder = os.path.join(work, name)
        rows, measured = [], []
        for sub in sorted(d for d in os.listdir(folder) if d.startswith("rank")):
            with open(os.path.join(folder, sub, "candidate.json")) as f:
                cand = json.load(f)
            label = "%s%-5d %-34s" % ("*" if cand["model_pick"] else " ",
                                      cand["rank"], describe(cand["config"]))
            pred = cand.get("predicted_ns")
            pred_ms = "%9.3f" % (pred / 1e6) if pred else "%9s" % "-"
            if not cand["ok"]:
                rows.append("%s %s  not compiled: %s" % (
                    label, pred_ms, cand["reason"].splitlines()[-1][:60]))
                continue
            temps = os.path.join(folder, sub, "lowering")
            grid, block = cand["grid"], cand["block"]
            ptx = os.path.join(temps, PTX)
            report_path = os.path.join(folder, sub, "report.json")
            proc, dry_run = sweep.launch_example_kernel(
                runner, ptx, (m, n, k), grid, block, report_path,
                args.warmup, args.reps, dry_run,
                "(no GPU: predicted times only)")
            if proc.returncode not in (0, 1):
                rows.append("%s %s  runner failed: %s" % (
                    label, pred_ms, proc.stderr.strip()[-200:]))
                continue
            with open(report_path) as f:
                report = json.load(f)
            report["candidate"] = cand
            reports.append(report)
            device = report.get("device", device)
            kt = report.get("kernel_time")
            check = report.get("check")
            regs = report.get("ptxas", {}).get("registers", "-")
            if kt and check and check["passed"]:
                measured.append((pred, kt["median_ms"], cand))
            rows.append("%s %s %9s %8s %5s  %s" % (
                label, pred_ms, "%.3f" % kt["median_ms"] if kt else "-",
                "%.2f" % kt["tflops_median"] if kt else "-", regs,
                "-" if check is None else
                ("PASS" if check["passed"] else "FAIL")))
        print("\n%s" % name)
        print("%-41s %9s %9s %8s %5s  %s" % ("  rank configuration",
                                             "pred ms", "meas ms", "TFLOP/s",
                                             "regs", "check"))
        for row in rows:
            print(row)
        if measured:
            best = min(measured, key=lambda t: t[1])
            picks = [t for t in measured if t[2]["model_pick"]]
            by_time = sorted(measured, key=lambda t: t[1])
            line = ("%s: fastest measured: rank %d (%s), %.3f ms"
                    % (name, best[2]["rank"], describe(best[2]["config"]),
                       best[1]))
            if picks:
                pick = picks[0]
                line += ("; model's pick measured #%d of %d, %.2fx the "
                         "fastest" % (by_time.index(pick) + 1, len(measured),
                                      pick[1] / best[1]))
            with_pred = [t for t in measured if t[0]]
            if len(with_pred) > 2:
                line += "; Kendall tau (predicted vs measured) %.2f" % (
                    kendall_tau([t[0] for t in with_pred],
                                [t[1] for t in with_pred]))
            summary.append(line)
    if device:
        print("\ndevice: %s (median of %d launches after %d warm-up, CUDA "
              "events; * = the model's pick)" % (device, args.reps,
                                                  args.warmup))
    for line in summary:
        print(line)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(reports, f, indent=1)
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--prepare", metavar="DIR",
                      help="schedule and lower the sampled candidates into DIR")
    mode.add_argument("--run", metavar="DIR",
                      help="launch what --prepare wrote into DIR")
    ap.add_argument("--shapes", default="1024x1024x1024,4096x4096x4096")
    ap.add_argument("--target", default="nvidia-h100")
    ap.add_argument("--entry", default="gpu_matmul_smem_pipelined")
    ap.add_argument("--top", type=int, default=6,
                    help="the model's first N candidates (default 6)")
    ap.add_argument("--spread", type=int, default=6,
                    help="N more, evenly spaced over the rest (default 6)")
    ap.add_argument("--keep-all", action="store_true",
                    help="--prepare: keep every lowering file, not only "
                         "the PTX (a folder to read, not to carry)")
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--runner", help="hwsched-gpu-run to use")
    ap.add_argument("--reps", type=int, default=10)
    ap.add_argument("--warmup", type=int, default=3)
    ap.add_argument("--json", help="--run: write every report to this file")
    args = ap.parse_args()
    return prepare(args) if args.prepare else run(args)


if __name__ == "__main__":
    sys.exit(main())
