#!/usr/bin/env python3
"""bench/tuning/run.py: hwsched-tune against an exhaustive sweep of the same space.

For CPU f32 matmul and matmul + bias + ReLU at several shapes (default: the
squares 256, 512, 1024, 2048 and the skinny 4096x256x1024, M x N x K), with
transform-scripts/cpu-matmul.mlir (@hwsched_cpu_matmul_main) on a CPU spec:

  1. the space: the model's `--space` best feasible tile configurations of
     select_tile_config (the knob cpu_matmul.pipelined fixed to 0 unless
     --tune-knobs: the pipelined micro-kernel is a known 0.87x here);
  2. the sweep: every candidate of the space measured (hwsched-tune's own
     machinery in exhaustive mode: paired rounds against the untuned
     default, every result checked against the reference output);
  3. the tuner: hwsched-tune as a user runs it (default budget: 10% of the
     space, its stopping rule), on a fresh database;
  4. confirmation: the untuned default, the sweep's best and the tuner's
     pick measured together in `--confirm-rounds` more paired rounds (the
     sweep's minimum of many noisy times is biased low; the confirmation
     compares the two picks head to head); besides the ratio of their
     medians, the median of the per-round ratio tuned / best (the same
     round) and two standard errors of it, which say how far the verdict
     itself can be trusted at this host's noise;
  5. the model's Kendall tau (predicted vs the sweep's measured times, over
     the space) and the tool's overhead: select_tile_config's enumeration
     and pruning (ms, thread CPU time) and the space construction.

Targets (issue 21): tuned within 2% of the sweep's best, measuring at most
10% of the space, on every problem.

Usage (about 1-2 hours on 2 idle cores at the defaults; see README.md):
  python3 bench/tuning/run.py [--shapes 256x256x256,...] [--ops matmul,chain]
      [--problems matmul-512x512x512,...] [--space 40] [--target host]
      [--rounds 3] [--confirm-rounds 5] [--playoff-max-rounds 9]
      [--work DIR] [--scheduler ADDRESS] [--tune-knobs]

A sweep database already in --work (DIR/NAME-sweep.json, finished) is
resumed, that is reused without measuring again: the tuner and the
confirmation then run alone (a search rule compared on the same sweeps).
"""

import argparse
import json
import math
import os
import statistics
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "utils"))

from hwsched_tune import database, executor, paths, search, tasks, tuner  # noqa: E402
from hwsched_tune import space as space_mod  # noqa: E402
from hwsched_tools import cpu_name  # noqa: E402

SCRIPT = ",".join(os.path.join(ROOT, "transform-scripts", f)
                  for f in ("matmul-frontend.mlir", "cpu-matmul.mlir"))
ENTRY = "hwsched_cpu_matmul_main"
DEFAULT_SHAPES = "256x256x256,512x512x512,1024x1024x1024,2048x2048x2048,4096x256x1024"


def kernel(m, n, k, chain):
    """The payload: bench/cpu-matmul's @kernel on memrefs (the schedule
    bufferizes into C itself: no copies around the call)."""
    return (f"// bench/tuning: {'matmul + bias + ReLU' if chain else 'matmul'} "
            f"{m}x{n}x{k} (M x N x K)\n" + paths.cpu_bench().kernel(m, n, k, chain))


def loadavg():
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


def options(args, payload, db, exhaustive, workdir):
    return tuner.Options(
        payload=payload, library=SCRIPT, entry=ENTRY, target=args.target, db=db,
        scheduler=args.scheduler, space=args.space, rounds=args.rounds, runs=args.runs,
        min_time=args.min_time, exhaustive=exhaustive, workdir=workdir,
        fixed_knobs={} if args.tune_knobs else {"cpu_matmul.pipelined": 0},
        playoff_rounds=0 if exhaustive else 3, playoff_max_rounds=args.playoff_max_rounds,
        quiet=args.quiet, timeout=args.timeout)


def confirm(sweep, problem_key, idents, rounds):
    """Paired rounds of the default (reference) and `idents`: {ident: ratio
    to the default}, and [per-round log(second / first)] where both ran."""
    t = sweep["tuner"]
    problem = t._current_problem
    cands = [sweep["search"].by_ident[i] for i in idents]
    compiled = t.exec.wait(t.exec.compile(
        tasks.compile_candidate, t._compile_jobs(problem, [sweep["default"]] + cands,
                                                 {}, t._current_program)))
    if not all(r["ok"] for r in compiled):
        return {}, []
    jobs = [{"lowered": r["lowered"], "workdir": os.path.join(t.workdir, "confirm"),
             "cputime_lib": t.cputime, "timeout": t.opts.timeout} for r in compiled]
    ratios, failed, _ = t._paired_rounds(jobs[0], jobs[1:], rounds)
    # Both ran in every round unless one failed (then nothing is paired).
    paired = ([math.log(b / a) for a, b in zip(ratios[0], ratios[1])]
              if len(idents) == 2 and not failed else [])
    return ({ident: statistics.median(ratios[i]) for i, ident in enumerate(idents)
             if i not in failed and ratios[i]}, paired)


class SweepTuner(tuner.Tuner):
    """A Tuner that keeps its search object for the bench."""

    def tune_problem(self, problem, others, program):
        self.last_problem = problem
        return super().tune_problem(problem, others, program)


def run_one(args, name, m, n, k, chain, work):
    payload = os.path.join(work, f"{name}.mlir")
    with open(payload, "w") as f:
        f.write(kernel(m, n, k, chain))
    # 1-2: the exhaustive sweep.
    sweep_db = os.path.join(work, f"{name}-sweep.json")
    t = SweepTuner(options(args, payload, sweep_db, True, os.path.join(work, f"{name}-work")))
    sweep_report = t.run()
    p = sweep_report["problems"][0]
    entry = database.load(sweep_db)["entries"][p["key"]]
    measured = {i: r for i, r in entry["tuning"]["candidates"].items()
                if r.get("status") == "ok"}
    failed = len(entry["tuning"]["candidates"]) - len(measured)
    best_ident = min(measured, key=lambda i: measured[i]["measured_ns"])
    tau = search.kendall_tau([r["predicted_ns"] for r in measured.values()],
                             [r["measured_ns"] for r in measured.values()])
    # 3: the tuner as a user runs it (fresh database, its own measurements).
    tuned_db = os.path.join(work, f"{name}-tuned.json")
    if os.path.exists(tuned_db):
        os.remove(tuned_db)
    t2 = tuner.Tuner(options(args, payload, tuned_db, False, os.path.join(work, f"{name}-work")))
    tuned_report = t2.run()
    q = tuned_report["problems"][0]
    tentry = database.load(tuned_db)["entries"][q["key"]]
    # The database's winner: the playoff's leader, which need not have the
    # lowest median (a candidate outside the playoff may, on fewer rounds).
    tcands = tentry["tuning"]["candidates"]
    won = [i for i, r in tcands.items() if r.get("status") == "ok"
           and r.get("config") == tentry.get("config") and r.get("knobs") == tentry.get("knobs")]
    tuned_ident = won[0] if won else min(
        (i for i, r in tcands.items() if r.get("status") == "ok"),
        key=lambda i: tcands[i]["measured_ns"])
    # 4: confirmation, head to head.
    cands, default = space_mod.build_space(t.last_problem, args.space,
                                           {} if args.tune_knobs else {"cpu_matmul.pipelined": 0})
    srch = search.Search(cands, default, len(cands) + 1)
    # The sweep's executor closed with its run; the confirmation gets its own.
    t.exec = executor.make(args.scheduler)
    pair = [best_ident] + ([tuned_ident] if tuned_ident != best_ident else [])
    confirmed, paired = confirm({"tuner": t, "search": srch, "default": default}, p["key"],
                                pair, args.confirm_rounds)
    t.exec.close()
    sweep_ratio = measured[tuned_ident]["measured_ns"] / measured[best_ident]["measured_ns"] \
        if tuned_ident in measured else float("nan")
    conf_ratio = (confirmed.get(tuned_ident, float("nan")) / confirmed[best_ident]
                  if best_ident in confirmed else float("nan"))
    default_ident = default.ident()
    gain_sweep = (measured[default_ident]["measured_ns"] / measured[tuned_ident]["measured_ns"]
                  if default_ident in measured and tuned_ident in measured else float("nan"))
    gain_conf = 1.0 / confirmed[tuned_ident] if tuned_ident in confirmed else float("nan")
    if len(paired) >= 2:
        pmed = math.exp(statistics.median(paired))
        # Two standard errors of the median, as a factor on the ratio.
        p2se = math.exp(2 * 1.25 * statistics.stdev(paired) / math.sqrt(len(paired))) - 1
    elif tuned_ident == best_ident:
        pmed, p2se = 1.0, 0.0  # the tuner picked the sweep's best
    else:
        pmed, p2se = float("nan"), float("nan")  # the confirmation failed
    playoff = q.get("playoff") or {}
    return {
        "paired_confirmed": pmed, "paired_2se": p2se,
        "noise_sigma": playoff.get("noise_sigma"), "playoff_rounds": playoff.get("rounds", 0),
        "playoff_contenders": len(playoff.get("contenders", [])),
        "playoff_stop": playoff.get("stop", ""),
        "problem": name, "space": p["space_size"], "sweep_failed": failed,
        "tuner_measured": q["measured"], "tuner_stop": q["stop_reason"],
        "sweep_best": measured[best_ident]["candidate"],
        "tuned": tentry["tuning"]["candidates"][tuned_ident]["candidate"],
        "default": default.describe(),
        "tuned_vs_best_sweep": sweep_ratio, "tuned_vs_best_confirmed": conf_ratio,
        "gain_sweep": gain_sweep, "gain_confirmed": gain_conf, "kendall_tau": tau,
        "select_ms": sweep_report.get("select_tile_config_ms", []),
        "space_ms": p.get("space_construction_ms"),
        "sweep_s": sweep_report["seconds"], "tuner_s": tuned_report["seconds"],
        "best_ms": measured[best_ident]["measured_ns"] / 1e6,
        "load": [l for l in sweep_report.get("load", []) + tuned_report.get("load", [])
                 if l is not None],
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--shapes", default=DEFAULT_SHAPES, help="MxNxK list")
    ap.add_argument("--ops", default="matmul,chain",
                    help="matmul and/or chain (matmul + bias + ReLU)")
    ap.add_argument("--space", type=int, default=40,
                    help="the model's N best configurations form the space (default 40)")
    ap.add_argument("--target", default="host")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--min-time", type=float, default=0.05)
    ap.add_argument("--confirm-rounds", type=int, default=5)
    ap.add_argument("--playoff-max-rounds", type=int, default=9,
                    help="the tuner's playoff: at most N paired rounds (default 9)")
    ap.add_argument("--problems", help="NAME list (matmul-512x512x512,...): only these; "
                                       "overrides --shapes and --ops")
    ap.add_argument("--tune-knobs", action="store_true",
                    help="let the space include cpu_matmul.pipelined = 1")
    ap.add_argument("--scheduler", help="Dask scheduler address (compilation)")
    ap.add_argument("--work", help="keep databases and reports here")
    ap.add_argument("--timeout", type=int, default=1800)
    ap.add_argument("--json", help="also write the results as JSON")
    ap.add_argument("--quiet", action="store_true")
    args = ap.parse_args()
    work = args.work or tempfile.mkdtemp(prefix="hwsched-tuning-bench-")
    os.makedirs(work, exist_ok=True)
    print(f"# hwsched-tune vs exhaustive sweep: {cpu_name()}, spec {args.target}, "
          f"script transform-scripts/cpu-matmul.mlir (+ matmul-frontend.mlir) @{ENTRY}")
    print(f"# space: the model's {args.space} best configurations"
          f"{'' if args.tune_knobs else ' (knob cpu_matmul.pipelined = 0)'}; "
          f"paired rounds: {args.rounds} x {args.runs} runs >= {args.min_time} s (thread CPU time, wall time on several threads); "
          f"confirmation {args.confirm_rounds} rounds")
    print(f"# host load average at the start: {loadavg()}")
    rows = []
    if args.problems:
        todo = [tuple(x.split("-", 1)) for x in args.problems.split(",")]
        bad = [x for x in todo if len(x) != 2]
        if bad:
            ap.error(f"--problems takes KIND-MxNxK names (matmul-512x512x512), got "
                     f"{'-'.join(bad[0])!r}")
    else:
        todo = [(op, shape) for op in args.ops.split(",") for shape in args.shapes.split(",")]
    for op, shape in todo:
        if op not in ("matmul", "chain"):
            ap.error(f"unknown problem kind '{op}' (matmul or chain)")
        m, n, k = (int(x) for x in shape.split("x"))
        name = f"{op}-{m}x{n}x{k}"
        print(f"# {name} ...", file=sys.stderr, flush=True)
        rows.append(run_one(args, name, m, n, k, op == "chain", work))
    print(f"# host load average at the end: {loadavg()}")
    loads = [l for r in rows for l in r["load"]]
    if loads:
        print(f"# load average during the measurements: {min(loads):.2f}-{max(loads):.2f}")
    print()
    print("| problem | space | tuner measured | stop | playoff | tuned / sweep best (sweep) "
          "| tuned / sweep best (confirmed) | paired, +-2 SE | within 2% "
          "| gain over default (confirmed) | Kendall tau | enum+prune ms | space ms |")
    print("|" + "---|" * 13)
    ok_all = True
    for r in rows:
        within = r["tuned_vs_best_confirmed"] <= 1.02
        frac = r["tuner_measured"] / max(r["space"], 1)
        ok_all &= within and frac <= 0.10 + 1e-9
        po = (f"{r['playoff_contenders']} x {r['playoff_rounds']} rounds, "
              f"noise {r['noise_sigma'] or 0:.0%}" if r["playoff_contenders"] else "none")
        print(f"| {r['problem']} | {r['space']} | {r['tuner_measured']} ({frac:.0%}) "
              f"| {r['tuner_stop'].split(':')[0]} | {po} | {r['tuned_vs_best_sweep']:.3f} "
              f"| {r['tuned_vs_best_confirmed']:.3f} "
              f"| {r['paired_confirmed']:.3f} +-{r['paired_2se']:.1%} | {'yes' if within else 'NO'} "
              f"| {r['gain_confirmed']:.3f}x (sweep {r['gain_sweep']:.3f}x) "
              f"| {r['kendall_tau']:.2f} | {', '.join(f'{x:.1f}' for x in r['select_ms'])} "
              f"| {r['space_ms']:.1f} |")
    print()
    for r in rows:
        print(f"- {r['problem']}: sweep best {r['sweep_best']} ({r['best_ms']:.3f} ms); "
              f"tuned {r['tuned']}; default {r['default']}; sweep {r['sweep_s']:.0f} s, "
              f"tuner {r['tuner_s']:.0f} s")
    print()
    print("Ratios are times (lower is better): tuned / sweep best <= 1.02 is the target; "
          "'gain' is default time / tuned time. 'within 2%' is judged on the confirmation "
          "(the same pair measured head to head, without the selection bias of the sweep's "
          "minimum over many noisy times); the sweep's ratio is shown beside it. 'paired' "
          "is the median over the confirmation's rounds of tuned / best in the same round, "
          "with two standard errors: a verdict whose interval straddles 1.02 is noise.")
    print(f"All targets met: {'yes' if ok_all else 'NO'}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)


if __name__ == "__main__":
    main()
