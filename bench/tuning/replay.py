#!/usr/bin/env python3
"""bench/tuning/replay.py: the tuner's search rule replayed on measured sweeps.

`bench/tuning/run.py --work DIR` keeps, per problem, the database of its
exhaustive sweep (DIR/NAME-sweep.json): every candidate of the space with
the model's predicted time and its measured time relative to the untuned
default (paired rounds). Measuring a space takes minutes to hours; replaying
the search on those figures takes milliseconds, so a change to the search
rule (utils/hwsched_tune/search.py) can be judged on every recorded space
before a new measurement run:

  for each sweep, the rule runs as hwsched-tune runs it (same budget: 10% of
  the space, same batches and stopping rule), each "measurement" answered
  from the sweep; printed: candidates measured, the pick's time over the
  sweep's best, the default's, and the chance that the default plus
  budget-1 candidates drawn at random get within 2% (the baseline a rule
  must beat), then how many problems the rule gets within 2%.

The sweep's own figures are measurements: where it ran on a loaded host its
best is partly a lucky draw (run.py's confirmation step exists for that), so
a replay ranks rules, it does not replace the confirmed figures.

usage: bench/tuning/replay.py DIR [--budget-share 0.1] [--seeds 2000]
"""

import argparse
import glob
import json
import os
import random
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "utils"))
from hwsched_tune import search, space  # noqa: E402


def load_sweep(path):
    """(candidates, relative time per ident, the default candidate) of one
    sweep database; failed candidates are left out."""
    with open(path) as f:
        db = json.load(f)
    tuning = next(iter(db["entries"].values()))["tuning"]
    candidates, times = [], {}
    for record in tuning["candidates"].values():
        if record.get("status") != "ok":
            continue
        c = space.Candidate(record["config"], record["knobs"],
                            {"predicted_ns": record["predicted_ns"],
                             "rank": record.get("model_rank")})
        candidates.append(c)
        times[c.ident()] = record["ratio_to_default"]
    default = next((c for c in candidates if c.describe() == tuning["default"]), None)
    return candidates, times, default


def replay(candidates, times, default, budget):
    """(the pick's time over the best, candidates measured) of the search."""
    s = search.Search(candidates, default, budget)
    while True:
        batch = s.next_batch()
        if not batch:
            break
        for c in batch:
            s.observe(c.ident(), times[c.ident()])
    pick, _ = s.best()
    return times[pick] / min(times.values()), s.measured_count(), s.stop_reason


def random_baseline(candidates, times, default, budget, seeds):
    """The chance that the default plus budget-1 random candidates reach
    within 2% of the best."""
    best = min(times.values())
    others = [c for c in candidates if c is not default]
    hits = 0
    for seed in range(seeds):
        draw = random.Random(seed).sample(others, min(budget - 1, len(others)))
        hits += min(times[c.ident()] for c in [default] + draw) <= 1.02 * best
    return hits / seeds


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("work", help="a bench/tuning/run.py --work folder")
    ap.add_argument("--budget-share", type=float, default=0.1)
    ap.add_argument("--seeds", type=int, default=2000)
    args = ap.parse_args()
    paths = sorted(glob.glob(os.path.join(args.work, "*-sweep.json")))
    if not paths:
        sys.exit(f"no *-sweep.json in {args.work}: run bench/tuning/run.py --work "
                 f"{args.work} first")
    print(f"{'problem':28} {'space':>5} {'measured':>8} {'pick/best':>9} "
          f"{'default/best':>12} {'P(random)':>9}  stop")
    ratios = []
    for path in paths:
        candidates, times, default = load_sweep(path)
        if default is None:
            print(f"{os.path.basename(path)}: the default is not in the sweep, skipped")
            continue
        budget = max(1, round(len(candidates) * args.budget_share))
        ratio, measured, stop = replay(candidates, times, default, budget)
        ratios.append(ratio)
        best = min(times.values())
        print(f"{os.path.basename(path)[:-len('-sweep.json')]:28} {len(candidates):5} "
              f"{measured:8} {ratio:9.3f} {times[default.ident()] / best:12.3f} "
              f"{random_baseline(candidates, times, default, budget, args.seeds):9.2f}"
              f"  {(stop or '').split(':')[0]}")
    if ratios:
        print(f"\nwithin 2% of the sweep's best: {sum(r <= 1.02 for r in ratios)} / "
              f"{len(ratios)}; pick/best geomean {statistics.geometric_mean(ratios):.3f}, "
              f"worst {max(ratios):.3f}")


if __name__ == "__main__":
    main()
