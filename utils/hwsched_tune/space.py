"""The candidate space: what the model enumerates and the script exposes.

One run of the script over the payload with $HWSCHED_TUNING_CANDIDATES set
makes every transform.cost_model.select_tile_config write its decision (the
problem key, the feasible candidates ranked by the model with their
predicted times and constraint figures) and every
transform.cost_model.tuned_knob its knob (name, options, value) as JSON
lines. The space of a problem is its feasible candidates (the spec's rules
already pruned the rest) times the options of the knobs of that problem.
"""

import itertools
import json
import math
import os
import time

from . import paths, tasks


class Candidate:
    """One point of the space: a tile configuration and knob values."""

    def __init__(self, config, knobs, model):
        self.config = config        # as a database entry spells it, or None
        self.knobs = dict(knobs)    # {name: value}
        self.model = model          # the export's candidate record (or {})

    @property
    def predicted_ns(self):
        return self.model.get("predicted_ns")

    @property
    def rank(self):
        return self.model.get("rank")

    def ident(self):
        """A stable name: block_inner_stages_split + knobs."""
        parts = []
        if self.config:
            c = self.config
            parts.append("b%s-i%s-s%d-k%d" % ("x".join(map(str, c["block"])),
                                              "x".join(map(str, c["inner"])),
                                              c["stages"], c.get("split_k", 1)))
        parts += [f"{k}={v}" for k, v in sorted(self.knobs.items())]
        return "|".join(parts) or "default"

    def describe(self):
        if not self.config:
            text = "model's configuration"
        else:
            c = self.config
            text = "block %s, inner %s, %d stages" % (
                "x".join(map(str, c["block"])), "x".join(map(str, c["inner"])),
                c["stages"])
            if c.get("split_k", 1) != 1:
                text += f", split_k {c['split_k']}"
        for k, v in sorted(self.knobs.items()):
            text += f", {k}={v}"
        return text

    def features(self):
        """Log-scale coordinates for distances between candidates."""
        f = []
        if self.config:
            c = self.config
            f += [math.log2(max(v, 1)) for v in c["block"]]
            f += [math.log2(max(v, 1)) for v in c["inner"]]
            f += [math.log2(max(c["stages"], 1)), math.log2(max(c.get("split_k", 1), 1))]
        f += [float(v) for _, v in sorted(self.knobs.items())]
        return f


class Problem:
    """One select_tile_config decision (and the knobs sharing its key)."""

    def __init__(self, record):
        self.key = record["key"]
        self.record = record
        self.kind = record.get("kind", "cpu")
        self.knobs = {}             # name -> {"options": [...], "value": v}

    @property
    def model_candidates(self):
        return self.record.get("candidates", [])

    def model_pick(self):
        return self.record.get("chosen")


class Exploration:
    def __init__(self):
        self.problems = {}          # key -> Problem
        self.knob_only = {}         # key -> {name: knob} for knobs without a decision
        self.select_ms = []         # select_tile_config's own times (ms, wall)
        self.seconds = 0.0          # the whole exploration run
        self.stderr = ""


def explore(opt, program, library, entry, target, workdir, timeout=600):
    """Runs the script once with the export on and no database; returns an
    Exploration. Raises RuntimeError when the script fails (the model's own
    schedule must compile before anything is tuned)."""
    os.makedirs(workdir, exist_ok=True)
    src = os.path.join(workdir, "explore.mlir")
    with open(src, "w") as f:
        f.write(program)
    export = os.path.join(workdir, "candidates.jsonl")
    if os.path.exists(export):
        os.remove(export)
    env = dict(os.environ)
    env.pop("HWSCHED_TUNING_DB", None)
    env["HWSCHED_TUNING_CANDIDATES"] = export
    # select_tile_config's own time: the library's enumeration-and-pruning
    # event in a time trace (the op times nothing itself).
    trace = os.path.join(workdir, "time-trace.json")
    if os.path.exists(trace):
        os.remove(trace)
    cmd = [opt, src, "--mlir-print-op-on-diagnostic=false",
           f"--hwsched-time-trace={trace}",
           *tasks.transform_args(library, entry, target), "-o", os.devnull]
    start = time.time()
    rc, _, err = paths.hwsched_tools().run_tool(cmd, timeout=timeout, env=env)
    result = Exploration()
    result.seconds = time.time() - start
    result.stderr = err
    if rc != 0:
        raise RuntimeError("the script fails on the payload with the model's own "
                           f"choices (exit {rc}):\n{err[-3000:]}")
    if os.path.exists(trace):
        result.select_ms = [us / 1e3 for _, us in paths.hwsched_tools().time_trace_events(
            trace, "hwsched::selectTileConfig")]
    if not os.path.exists(export):
        raise RuntimeError("the script made no tuning decision: no "
                           "transform.cost_model.select_tile_config or tuned_knob "
                           f"ran on the payload (entry point @{entry})")
    pending_knobs = []
    with open(export) as f:
        for n, line in enumerate(f, 1):
            line = line.strip()
            if not line:
                continue
            try:
                record = json.loads(line)
            except ValueError as e:
                raise RuntimeError(f"{export}:{n}: not JSON: {e}")
            if "hwsched_tuning_candidates" in record:
                # The same problem decided twice (e.g. two sequences ask):
                # one problem, the first record.
                result.problems.setdefault(record["key"], Problem(record))
            elif "hwsched_tuning_knob" in record:
                pending_knobs.append(record)
    for knob in pending_knobs:
        info = {"options": knob["options"] or [knob["value"]], "value": knob["value"]}
        if knob["key"] in result.problems:
            result.problems[knob["key"]].knobs.setdefault(knob["knob"], info)
        else:
            result.knob_only.setdefault(knob["key"], {}).setdefault(knob["knob"], info)
    return result


def build_space(problem, limit=0, fixed_knobs=None):
    """The candidates of one problem: the model's feasible configurations,
    best predicted first (the first `limit` when limit > 0), times every
    combination of the knob options not fixed by the user. Returns
    (candidates, default) where default is the untuned choice (the model's
    pick with the script's knob values)."""
    fixed_knobs = fixed_knobs or {}
    configs = problem.model_candidates
    if limit > 0:
        configs = configs[:limit]
    knob_names = sorted(problem.knobs)
    choices = []
    for name in knob_names:
        if name in fixed_knobs:
            choices.append([fixed_knobs[name]])
        else:
            choices.append(problem.knobs[name]["options"])
    defaults = {n: fixed_knobs.get(n, problem.knobs[n]["value"]) for n in knob_names}
    space = []
    for model in configs:
        for combo in itertools.product(*choices) if choices else [()]:
            space.append(Candidate(model["config"], dict(zip(knob_names, combo)), model))
    pick = problem.model_pick()
    default = Candidate(pick["config"], defaults, pick)
    return space, default
