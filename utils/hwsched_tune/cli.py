"""hwsched-tune PAYLOAD.mlir --library FILE_OR_DIR --entry-point NAME
                [--target SPEC] --db DB.json [--budget N] [--scheduler ADDRESS]

Measures schedule candidates of a transform script on a payload and records
the fastest in a tuning database, which the script's ops then read
(HWSCHED_TUNING_DB=DB.json, or `tuning_db` on the op, or the spec's
`tuning.database`): the tuned schedule needs neither this tool nor a rebuild.
See docs/tuning.md.
"""

import argparse
import json
import sys

from . import database, tuner


def parse_knob(text):
    name, _, value = text.partition("=")
    try:
        return name, int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"--knob wants NAME=INTEGER, got '{text}'")


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="hwsched-tune",
        description="Tune a transform script's choices on a payload by measurement "
                    "and record them in a tuning database.",
        epilog="Stopping rule: after every batch, stop when the budget is spent, when the "
               "last --patience candidates improved the best by less than --min-gain, when "
               "no unmeasured candidate's model estimate (corrected by the measurements "
               "nearest to it) beats the best by --min-gain, or when the space is exhausted. "
               "Then a playoff (CPU) re-measures, without measuring new candidates, the "
               "ones the search's rounds cannot tell from the best (the default included): "
               "chunks of --playoff-rounds paired rounds, dropping a contender once it is "
               "slower than the leader by two standard errors of the paired ratios, until "
               "one is left, the rest are within --min-gain of the leader, or "
               "--playoff-max-rounds rounds; the leader wins (docs/tuning.md).")
    p.add_argument("payload", help="MLIR file with the function to tune (static shapes)")
    p.add_argument("--library", required=True,
                   help="transform script file(s) or directory, as for "
                        "--transform-preload-library (comma separated)")
    p.add_argument("--entry-point", required=True, help="named sequence to run")
    p.add_argument("--target", help="hardware spec (name or .json path); default: the "
                                     "driver's default ($HWSCHED_TARGET, then nvidia-a100)")
    p.add_argument("--db", required=True, help="tuning database to write (created, or "
                                                "updated and resumed)")
    p.add_argument("--budget", type=int, default=0,
                   help="at most N candidates measured per problem (default: 10%% of "
                        "the space, at least 4)")
    p.add_argument("--scheduler", help="Dask distributed scheduler address "
                                        "(tcp://host:port); default: local threads")
    p.add_argument("--function", help="the payload function to run (default: the only "
                                       "public one)")
    p.add_argument("--space", type=int, default=0,
                   help="keep the N best-predicted configurations of the model (default: "
                        "every feasible one)")
    p.add_argument("--knob", action="append", type=parse_knob, default=[],
                   metavar="NAME=VALUE", help="fix a script knob instead of tuning it")
    p.add_argument("--batch", type=int, default=4, help="candidates per batch (default 4)")
    p.add_argument("--patience", type=int, default=6,
                   help="stop after N measured candidates without a gain (default 6)")
    p.add_argument("--min-gain", type=float, default=0.01,
                   help="relative gain that counts (default 0.01)")
    p.add_argument("--rounds", type=int, default=3, help="paired rounds per batch (default 3)")
    p.add_argument("--runs", type=int, default=5,
                   help="timed runs per process, the fastest counts (default 5)")
    p.add_argument("--min-time", type=float, default=0.05,
                   help="CPU seconds per timed run (default 0.05)")
    p.add_argument("--playoff-rounds", type=int, default=3,
                   help="playoff: paired rounds per chunk, after which clearly slower "
                        "contenders leave (default 3; 0: no playoff)")
    p.add_argument("--playoff-max-rounds", type=int, default=9,
                   help="playoff: at most N paired rounds in all (default 9)")
    p.add_argument("--playoff-margin", type=float, default=0.03,
                   help="playoff: contenders are within this share of the best, or within "
                        "the measured noise of a difference of two medians if that is "
                        "wider (default 0.03)")
    p.add_argument("--playoff-size", type=int, default=4,
                   help="playoff: at most N contenders, the fastest (default 4; at "
                        "least 2)")
    p.add_argument("--exhaustive", action="store_true",
                   help="measure the whole space (benchmarks)")
    p.add_argument("--jobs", type=int, help="local compile threads (default: CPU count)")
    p.add_argument("--parallel-measurements", type=int, default=1,
                   help="measurements at once (default 1: they disturb each other)")
    p.add_argument("--opt", help="hwsched-opt to use")
    p.add_argument("--workdir", help="scratch directory (default: beside the database)")
    p.add_argument("--report", help="write the report here (text; JSON beside it as "
                                     "REPORT.json); default: stdout")
    p.add_argument("--ptxas-arch", default="sm_80", help="GPU targets: ptxas -arch")
    p.add_argument("--timeout", type=int, default=900, help="seconds per tool run")
    p.add_argument("--quiet", action="store_true", help="no progress output")
    a = p.parse_args(argv)
    if a.playoff_size < 2:
        p.error("--playoff-size must be at least 2 (a playoff needs two "
                "contenders; --playoff-rounds 0 turns it off)")
    opts = tuner.Options(
        payload=a.payload, library=a.library, entry=a.entry_point, target=a.target,
        db=a.db, budget=a.budget, scheduler=a.scheduler, opt=a.opt, function=a.function,
        space=a.space, batch=a.batch, patience=a.patience, min_gain=a.min_gain,
        rounds=a.rounds, runs=a.runs, min_time=a.min_time,
        playoff_rounds=a.playoff_rounds, playoff_max_rounds=a.playoff_max_rounds,
        playoff_margin=a.playoff_margin, playoff_size=a.playoff_size, jobs=a.jobs,
        parallel_measurements=a.parallel_measurements, workdir=a.workdir,
        report=a.report, fixed_knobs=dict(a.knob), timeout=a.timeout, quiet=a.quiet,
        ptxas_arch=a.ptxas_arch, exhaustive=a.exhaustive)
    try:
        report = tuner.Tuner(opts).run()
    except (RuntimeError, OSError, ValueError, database.DatabaseError) as e:
        print(f"hwsched-tune: error: {e}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"hwsched-tune: interrupted; rerun the same command to resume from {a.db}",
              file=sys.stderr)
        return 130
    text = tuner.format_report(report)
    if a.report:
        with open(a.report, "w") as f:
            f.write(text)
        with open(a.report + ".json", "w") as f:
            json.dump(report, f, indent=1, default=str)
    else:
        sys.stdout.write(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
