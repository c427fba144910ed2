"""Drives hwsched_tune's search and bookkeeping with fake compile and run
steps, to check what no real schedule produces on demand: a candidate that
fails to compile, one that crashes, one that computes a wrong result, an
interrupted run that resumes from its database.

fake-tuner.py UTILS_DIR WORKDIR PHASE   (PHASE: first | resume)

The space: 12 configurations (block_m 1..12) whose "time" is block_m
microseconds. The model's pick (the default, the reference) is block_m 2;
it ranks block_m 1 sixth. Three are broken and ranked high: block_m 3
fails to compile, 5 crashes, 7 prints a wrong checksum. The fastest healthy
one is block_m 1.
"""

import json
import os
import sys

sys.path.insert(0, sys.argv[1])
from hwsched_tune import database, space, tasks, tuner  # noqa: E402

work, phase = sys.argv[2], sys.argv[3]
db_path = os.path.join(work, "db.json")
calls = {"compile": 0, "run": 0}
interrupt_after = int(os.environ.get("FAKE_INTERRUPT_AFTER_RUNS", "0"))


def config(m):
    return {"block": [m, 16, 16], "inner": [1, 1], "stages": 1, "split_k": 1}


# The model's ranking: close to the truth but it misjudges block_m 1 (rank
# 5) and puts the broken ones high, so the search meets them early.
order = [2, 3, 5, 4, 7, 1, 6, 8, 9, 10, 11, 12]
record = {
    "key": "linalg.matmul 16x16x16 ppr f32,f32,f32 on fake#0",
    "kind": "cpu", "signature": {"op": "linalg.matmul"},
    "schedule": {"packed_operands": []},
    "candidates": [{"rank": i, "config": config(m), "predicted_ns": 1000.0 * (i + 2)}
                   for i, m in enumerate(order)],
}
record["chosen"] = record["candidates"][0]
problem = space.Problem(record)


def fake_compile(job):
    calls["compile"] += 1
    entry = next(iter(job["database"]["entries"].values()))
    m = entry["config"]["block"][0]
    if m == 3:
        return {"ok": False, "stage": "transform", "reason": "transform failed: injected",
                "seconds": 0.0}
    return {"ok": True, "stage": "compiled", "reason": "", "seconds": 0.0,
            "lowered": json.dumps({"m": m})}


def fake_run(job):
    calls["run"] += 1
    if interrupt_after and calls["run"] > interrupt_after:
        raise KeyboardInterrupt
    m = json.loads(job["lowered"])["m"]
    if m == 5:
        return {"ok": False, "reason": "run crashed: injected (exit -11)", "seconds": 0.0}
    checks = {"0": (7.0 if m == 7 else 1.0, 2.0)}
    return {"ok": True, "per_call": [m * 1e-6] * 3, "checks": checks, "seconds": 0.0}


tasks.compile_candidate = fake_compile
tasks.run_program = fake_run


class FakeTuner(tuner.Tuner):
    def __init__(self, opts):
        self.opts = opts
        self.workdir = work
        self.load = []
        self.cputime = "unused"
        self.reference = {"0": (1.0, 2.0)}
        from hwsched_tune import executor
        self.exec = executor.LocalExecutor(1)
        self._others = {}
        self._current_problem = problem
        self._current_program = ""
        self.opt = "unused"


opts = tuner.Options(payload="unused", library="unused", entry="unused", db=db_path,
                     budget=10, batch=3, patience=4, rounds=2, quiet=True)
t = FakeTuner(opts)
try:
    summary = t.tune_problem(problem, {}, "")
except KeyboardInterrupt:
    entry = database.load(db_path)["entries"][record["key"]]
    print(f"interrupted: {len(entry['tuning']['candidates'])} candidates recorded, "
          f"finished {entry['tuning']['finished']}")
    sys.exit(0)
entry = database.load(db_path)["entries"][record["key"]]
print(f"phase {phase}: compiled {calls['compile']}")
for ident, rec in sorted(entry["tuning"]["candidates"].items(),
                         key=lambda kv: kv[1]["config"]["block"][0]):
    print(f"block_m {rec['config']['block'][0]}: {rec['status']}"
          + (f" ({rec['reason']})" if rec["status"] != "ok" else
             f" {rec['measured_ns']:.0f} ns"))
print(f"winner block_m {entry['config']['block'][0]}, measured_ns {entry['measured_ns']:.0f}")
print(f"stop: {entry['tuning']['stop_reason']}")
print(f"finished: {entry['tuning']['finished']}")
