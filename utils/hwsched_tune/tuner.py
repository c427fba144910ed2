"""A whole tuning run: explore, measure, record, report.

For every problem the script decides on the payload (one per
select_tile_config decision, in script order):

  1. the space: the model's feasible candidates (the spec's rules pruned
     the rest; `space_limit` keeps the best-predicted ones) times the
     options of the problem's knobs;
  2. batches chosen by hwsched_tune.search, each compiled in parallel (the
     script runs with a one-entry tuning database naming the candidate, so
     the measured schedule is exactly what the ops produce from the
     database later), then measured in paired rounds: every round runs the
     untuned default and each candidate of the batch once, in rotated
     order, one process each; a candidate's time is the median over the
     rounds of its time relative to the default's in the same round, times
     the default's median time (the bench/cpu-matmul method: ratios within
     a round cancel the load of a shared host);
  3. every measured candidate is checked against the reference output (the
     untransformed payload); a candidate that fails to compile, crashes,
     times out or computes a wrong result is recorded with the reason and
     never chosen;
  4. a playoff (CPU): more paired rounds of candidates already measured
     (the budget counts candidates, so it spends none), because on a shared
     or virtual host one process's time varies far more than the 2% a user
     cares about (bench/tuning/RESULTS.md: 8-22% per round on a 2-vCPU VM)
     and three rounds cannot order candidates within that spread. The noise
     of one round, sigma, is estimated from the rounds themselves (each
     candidate's per-round log ratios about their mean, pooled). The
     contenders: every measured candidate, the untuned default included,
     whose time is within max(`playoff_margin`, 2 x the noise of a
     difference of two medians of r rounds, 2 x 1.25 sigma sqrt(2/r)) of
     the best, at most `playoff_size` of them (the fastest). They run
     together in chunks of `playoff_rounds` paired rounds; after each chunk
     the leader is the one with the lowest median over all its rounds, and
     a contender leaves when its per-round ratio to the leader (the same
     round, so slow drifts of the host cancel) has a median above 0 by more
     than two standard errors (of the larger of the ratios' own spread and
     sigma). The playoff stops at the first of: one
     contender left; every remaining contender within `min_gain` of the
     leader with two standard errors to spare (more rounds would not pay);
     `playoff_max_rounds` rounds. The leader wins;
  5. the database entry (the winner's configuration and knobs, its time,
     every measurement) is written after every batch, so an interrupted run
     resumes where it stopped.

GPU targets: each candidate is compiled to PTX and assembled by ptxas
(utils/ptxas-report.py): registers, spills and shared memory per kernel; a
candidate that spills or does not assemble is a failure. Without a GPU
runtime the winner is the model's best candidate ptxas accepts (run times
are not measured; the report says so).
"""

import hashlib
import json
import math
import os
import statistics
import sys
import time

from . import database, executor, harness, paths, progress, search, space, tasks


class Options:
    """Everything a run needs (the command line's values)."""

    def __init__(self, **kw):
        self.payload = kw["payload"]
        self.library = kw["library"]
        self.entry = kw["entry"]
        self.target = kw.get("target")
        self.db = kw["db"]
        self.budget = kw.get("budget")
        self.scheduler = kw.get("scheduler")
        self.opt = kw.get("opt")
        self.function = kw.get("function")
        self.space_limit = kw.get("space", 0)
        self.batch = kw.get("batch", 4)
        self.patience = kw.get("patience", 6)
        self.min_gain = kw.get("min_gain", 0.01)
        self.rounds = kw.get("rounds", 3)
        self.runs = kw.get("runs", 5)
        self.min_time = kw.get("min_time", 0.05)
        self.playoff_margin = kw.get("playoff_margin", 0.03)
        self.playoff_rounds = kw.get("playoff_rounds", 3)
        self.playoff_max_rounds = kw.get("playoff_max_rounds", 9)
        self.playoff_size = kw.get("playoff_size", 4)
        self.jobs = kw.get("jobs")
        self.parallel_measurements = kw.get("parallel_measurements", 1)
        self.workdir = kw.get("workdir")
        self.report = kw.get("report")
        self.fixed_knobs = kw.get("fixed_knobs", {})
        self.timeout = kw.get("timeout", 900)
        self.quiet = kw.get("quiet", False)
        self.ptxas_arch = kw.get("ptxas_arch", "sm_80")
        self.exhaustive = kw.get("exhaustive", False)


def _log(opts, text):
    if not opts.quiet:
        print(text, file=sys.stderr, flush=True)


def _median(xs):
    return statistics.median(xs) if xs else None


def round_noise(records):
    """sigma: the standard deviation of one paired round's log ratio, pooled
    over the candidates measured in two rounds or more (each about its own
    mean), or None. The rounds themselves say how far apart two medians
    can be by chance on this host at this moment, so the playoff needs no
    host-specific constant."""
    ss, dof = 0.0, 0
    for rec in records:
        xs = [math.log(r) for r in rec.get("round_ratios", []) if r and r > 0]
        if rec.get("status") != "ok" or len(xs) < 2:
            continue
        mean = sum(xs) / len(xs)
        ss += sum((x - mean) ** 2 for x in xs)
        dof += len(xs) - 1
    return math.sqrt(ss / dof) if dof else None


def paired_verdict(diffs, min_gain, sigma=None):
    """diffs: per-round log(time / leader's time) of one contender, from
    rounds where both ran. 'slower' when the median is above 0 by more than
    two standard errors (1.25 s / sqrt(n): the median's), 'equal' when it is
    within log(1 + min_gain) of 0 with two standard errors to spare, else
    None (undecided). s is the larger of the diffs' own standard deviation
    and `sigma` (the search's pooled one-round noise, a difference of two
    processes as a diff is): three rounds that happen to agree say little
    about the spread, and a verdict on them alone dropped a contender on
    noise (bench/tuning/RESULTS.md, 2026-11-27 late)."""
    if len(diffs) < 2:
        return None
    med = statistics.median(diffs)
    spread = max(statistics.stdev(diffs), sigma or 0.0)
    se = 1.25 * spread / math.sqrt(len(diffs))
    if med - 2 * se > 0:
        return "slower"
    if abs(med) + 2 * se < math.log(1 + min_gain):
        return "equal"
    return None


class Tuner:
    def __init__(self, opts):
        self.opts = opts
        self.opt = paths.find_hwsched_opt(opts.opt)
        if not self.opt:
            raise RuntimeError("hwsched-opt not found: build it, pass --opt or set HWSCHED_OPT")
        with open(opts.payload) as f:
            self.payload_text = f.read()
        digest = hashlib.sha1(self.payload_text.encode()).hexdigest()[:12]
        self.workdir = opts.workdir or os.path.join(
            os.path.dirname(os.path.abspath(opts.db)), f".hwsched-tune-{digest}")
        os.makedirs(self.workdir, exist_ok=True)
        self.exec = executor.make(opts.scheduler, opts.jobs)
        self.report = {"payload": os.path.abspath(opts.payload), "entry_point": opts.entry,
                       "library": opts.library, "target": opts.target,
                       "database": os.path.abspath(opts.db),
                       "executor": self.exec.description, "problems": []}
        self.load = []

    # -- programs ------------------------------------------------------------

    def _program(self, timing):
        sig = harness.parse_signature(self.payload_text, self.opts.function)
        return harness.with_driver(self.payload_text, sig, timing,
                                   self.opts.runs, self.opts.min_time)

    def _reference(self):
        """Checksums of the untransformed payload (lowered as is)."""
        cache = os.path.join(self.workdir, "reference.json")
        program = self._program(timing=False)
        digest = hashlib.sha1(program.encode()).hexdigest()
        if os.path.exists(cache):
            with open(cache) as f:
                data = json.load(f)
            if data.get("digest") == digest:
                return {k: tuple(v) for k, v in data["checks"].items()}
        ref_dir = os.path.join(self.workdir, "reference")
        os.makedirs(ref_dir, exist_ok=True)
        src = os.path.join(ref_dir, "program.mlir")
        with open(src, "w") as f:
            f.write(program)
        lowered = os.path.join(ref_dir, "lowered.mlir")
        rc, _, err = paths.hwsched_tools().run_tool(
            [paths.mlir_opt(), src, "--pass-pipeline=" + paths.cpu_bench().LOWERING,
             "-o", lowered], timeout=self.opts.timeout)
        if rc != 0:
            raise RuntimeError(f"the reference (untransformed payload) does not lower:\n{err[-2000:]}")
        result = tasks.run_program({"lowered_path": lowered, "workdir": ref_dir,
                                    "cputime_lib": self.cputime,
                                    "timeout": max(self.opts.timeout, 3600)})
        if not result["ok"]:
            raise RuntimeError("the reference (untransformed payload) does not run: "
                               + result["reason"])
        with open(cache, "w") as f:
            json.dump({"digest": digest, "checks": result["checks"]}, f)
        return {k: tuple(v) for k, v in result["checks"].items()}

    # -- one problem ---------------------------------------------------------

    def _candidate_db(self, problem, cand, others):
        db = tasks.candidate_database(problem.key, cand.config, cand.knobs,
                                      problem.record.get("schedule"))
        # Problems tuned before this one keep their winners.
        for key, other in others.items():
            if key != problem.key:
                db["entries"][key] = other
        return db

    def _compile_jobs(self, problem, cands, others, program):
        jobs = []
        for cand in cands:
            safe = hashlib.sha1((problem.key + cand.ident()).encode()).hexdigest()[:16]
            jobs.append({"opt": self.opt, "program": program, "library": self.opts.library,
                         "entry": self.opts.entry, "target": self.opts.target,
                         "database": self._candidate_db(problem, cand, others),
                         "workdir": os.path.join(self.workdir, "candidates", safe),
                         "kind": problem.kind, "timeout": self.opts.timeout,
                         "ptxas_arch": self.opts.ptxas_arch,
                         # A knob-only candidate has no configuration to hit.
                         "expect_hit": cand.config is not None})
        return jobs

    def _paired_rounds(self, ref_job, jobs, rounds, first_round=0, per_round=None):
        """{index: [per-round ratio]}, {index: failure}, [ref per-round s].
        `first_round` continues the rotation of an earlier call; `per_round`
        (a list) receives {index: ratio} per round, for paired comparisons."""
        ratios = {i: [] for i in range(len(jobs))}
        failed = {}
        ref_times = []
        for rnd in range(first_round, first_round + rounds):
            live = [i for i in range(len(jobs)) if i not in failed]
            order = [None] + live
            shift = rnd % len(order)
            order = order[shift:] + order[:shift]
            run_jobs = [ref_job if i is None else jobs[i] for i in order]
            results = self.exec.measure(tasks.run_program, run_jobs,
                                        self.opts.parallel_measurements)
            self.load.append(_loadavg())
            times = {}
            for i, res in zip(order, results):
                if not res["ok"]:
                    if i is None:
                        raise RuntimeError("the untuned default failed to run: " + res["reason"])
                    failed[i] = res["reason"]
                    continue
                checks = {k: tuple(v) for k, v in res["checks"].items()}
                wrong = harness.compare(checks, self.reference)
                if wrong:
                    if i is None:
                        raise RuntimeError("the untuned default computes a wrong result: " + wrong)
                    failed[i] = "wrong result: " + wrong
                    continue
                # The fastest timed run of the process: interference from
                # other jobs only ever adds time.
                times[i] = min(res["per_call"])
            ref = times.pop(None)
            ref_times.append(ref)
            for i, t in times.items():
                ratios[i].append(t / ref)
            if per_round is not None:
                per_round.append({i: t / ref for i, t in times.items()})
        return ratios, failed, ref_times

    def tune_problem(self, problem, others, program):
        opts = self.opts
        t0 = time.process_time()
        cands, default = space.build_space(problem, opts.space_limit, opts.fixed_knobs)
        space_ms = (time.process_time() - t0) * 1e3
        n = len(cands)
        budget = opts.budget if opts.budget else max(4, -(-n // 10))
        if opts.exhaustive:
            budget = n + 1
        entry = database.Entry(opts.db, problem.key)
        done = {}
        for ident, rec in entry.measured.items():
            if rec.get("status") != "ok":
                done[ident] = None
            elif "ranked_by" in rec:  # GPU: a rank, not a time
                done[ident] = 1.0 + (rec.get("model_rank") or 0)
            else:
                done[ident] = rec.get("measured_ns")
        if done:
            _log(opts, f"hwsched-tune: resuming '{problem.key}': {len(done)} candidates "
                       f"already measured in {opts.db}")
        srch = search.Search(cands, default, budget, opts.batch, opts.patience,
                             opts.min_gain, done)
        if opts.exhaustive:
            srch.patience = n + 1
            srch.min_gain = -1.0
        gpu = problem.kind == "gpu"
        ref_ns = entry.tuning.get("default_ns")
        ref_job = None
        bar = progress.Progress(min(budget, n), f"tuning {problem.record['signature']['op']}",
                                quiet=opts.quiet)
        bar.update(srch.measured_count())
        # The default's compiled program, re-run in every batch as reference.
        if not gpu:
            ref_res = self.exec.wait(self.exec.compile(
                tasks.compile_candidate, self._compile_jobs(problem, [default], others, program)))[0]
            if not ref_res["ok"]:
                raise RuntimeError("the untuned default does not compile: " + ref_res["reason"])
            ref_job = {"lowered": ref_res["lowered"], "workdir": os.path.join(self.workdir, "ref-run"),
                       "cputime_lib": self.cputime, "timeout": opts.timeout}
        ref_samples = list(entry.tuning.get("default_samples", []))
        while True:
            batch = srch.next_batch()
            if not batch:
                break
            compiled = self.exec.wait(self.exec.compile(
                tasks.compile_candidate, self._compile_jobs(problem, batch, others, program)))
            ok_jobs, ok_cands = [], []
            for cand, res in zip(batch, compiled):
                ident = cand.ident()
                rec = {"candidate": cand.describe(), "config": cand.config, "knobs": cand.knobs,
                       "model_rank": cand.rank, "predicted_ns": cand.predicted_ns,
                       "compile_s": round(res.get("seconds", 0.0), 2)}
                if not res["ok"]:
                    rec.update(status="failed", reason=f"{res['stage']}: {res['reason']}")
                    entry.record(ident, rec)
                    srch.observe(ident, None)
                    continue
                if gpu:
                    kernels = res.get("ptxas", [])
                    rec["ptxas"] = kernels
                    spills = sum(k.get("spill_store_bytes", 0) + k.get("spill_load_bytes", 0)
                                 for k in kernels)
                    if not kernels:
                        rec.update(status="failed", reason="ptxas: no kernel")
                    elif spills:
                        rec.update(status="failed", reason=f"ptxas: {spills} spill bytes")
                    else:
                        # No run time without a GPU: the model's ranking
                        # (its score and its SM-fill rule) orders the
                        # candidates ptxas accepts.
                        rec.update(status="ok", ranked_by="model rank (ptxas accepted; no GPU run)")
                    entry.record(ident, rec)
                    srch.observe(ident, None if rec["status"] != "ok" else 1.0 + (cand.rank or 0))
                    continue
                ok_cands.append((cand, rec))
                # Each run in its own directory: measurements may run at once
                # (--parallel-measurements).
                ok_jobs.append({"lowered": res["lowered"],
                                "workdir": os.path.join(self.workdir, "run", str(len(ok_jobs))),
                                "cputime_lib": self.cputime, "timeout": opts.timeout})
            if ok_jobs:
                ratios, failed, refs = self._paired_rounds(ref_job, ok_jobs, opts.rounds)
                ref_samples += refs
                ref_ns = _median(ref_samples) * 1e9
                for i, (cand, rec) in enumerate(ok_cands):
                    ident = cand.ident()
                    if i in failed:
                        rec.update(status="failed", reason=failed[i])
                        srch.observe(ident, None)
                    else:
                        ratio = _median(ratios[i])
                        rec.update(status="ok", ratio_to_default=round(ratio, 4),
                                   round_ratios=[round(r, 4) for r in ratios[i]],
                                   measured_ns=ratio * ref_ns)
                        srch.observe(ident, ratio * ref_ns)
                    entry.record(ident, rec)
            self._write_entry(entry, problem, srch, default, ref_ns, ref_samples,
                              finished=False, space_size=n, budget=budget)
            best = srch.best()
            bar.update(srch.measured_count(),
                       f"best {best[1] / 1e6:.3f} ms" if best and best[1] else "")
        bar.finish(srch.stop_reason or "")
        if not gpu:
            self._playoff(entry, srch, ref_job, ref_samples)
        summary = self._write_entry(entry, problem, srch, default, ref_ns, ref_samples,
                                    finished=True, space_size=n, budget=budget)
        summary["space_construction_ms"] = round(space_ms, 2)
        best = srch.best()
        if best:
            winner = srch.by_ident[best[0]]
            safe = hashlib.sha1((problem.key + winner.ident()).encode()).hexdigest()[:16]
            summary["winner_dir"] = os.path.join(self.workdir, "candidates", safe)
        return summary

    def _playoff(self, entry, srch, ref_job, ref_samples):
        """More paired rounds for the candidates that the search's rounds
        cannot tell from the best (the module docstring, step 4)."""
        opts = self.opts
        done_before = entry.tuning.get("playoff") if entry.tuning.get("finished") else None
        if done_before:
            # A finished run, rerun (with any playoff options): its playoff
            # and winner are in the database and stay the answer.
            srch.playoff = done_before
            if done_before.get("winner_ident") in srch.by_ident:
                srch.chosen = done_before["winner_ident"]
            return
        best = srch.best()
        if not best or opts.playoff_rounds <= 0 or opts.playoff_max_rounds <= 0:
            return
        ok = {i: entry.measured[i] for i, ns in srch.results.items()
              if ns is not None and i in entry.measured}
        sigma = round_noise(ok.values())
        rounds = min((len(r.get("round_ratios", [])) for r in ok.values()), default=0)
        margin = opts.playoff_margin
        if sigma is not None and rounds:
            # Two medians of `rounds` rounds differ by up to twice their
            # standard error by chance alone.
            margin = max(margin, math.exp(2 * 1.25 * sigma * math.sqrt(2.0 / rounds)) - 1)
        # The untuned default is a contender like any other: it is the
        # model's pick, and its own rounds (against the reference, the same
        # program) are as noisy as anyone's; leaving it out let a
        # candidate that was lucky in three rounds beat it unopposed.
        close = sorted((i for i in ok if srch.results[i] <= best[1] * (1 + margin)),
                       key=lambda i: srch.results[i])[:max(opts.playoff_size, 2)]
        info = {"noise_sigma": round(sigma, 4) if sigma is not None else None,
                "margin": round(margin, 4), "contenders": [], "rounds": 0, "stop": ""}
        srch.playoff = info
        if len(close) < 2:
            info["stop"] = "no candidate within the margin of the best"
            return
        # Recompiled: lowered programs are not kept between batches.
        compiled = self.exec.wait(self.exec.compile(
            tasks.compile_candidate,
            self._compile_jobs(self._current_problem, [srch.by_ident[i] for i in close],
                               self._others, self._current_program)))
        run_jobs, idents = [], []
        for ident, res in zip(close, compiled):
            if res["ok"]:
                run_jobs.append({"lowered": res["lowered"],
                                 "workdir": os.path.join(self.workdir, "run", str(len(run_jobs))),
                                 "cputime_lib": self.cputime, "timeout": opts.timeout})
                idents.append(ident)
        if len(run_jobs) < 2:
            info["stop"] = "fewer than two contenders compiled"
            return
        info["contenders"] = [srch.by_ident[i].describe() for i in idents]
        _log(opts, f"hwsched-tune: playoff of {len(run_jobs)} candidates within {margin:.1%} "
                   f"of the best (one round's noise {sigma or 0:.1%}), up to "
                   f"{opts.playoff_max_rounds} rounds in chunks of {opts.playoff_rounds}")
        live = list(range(len(run_jobs)))
        per_round = []          # [{index: ratio}], playoff rounds only
        done = 0
        stop = f"{opts.playoff_max_rounds} rounds (the cap)"
        while done < opts.playoff_max_rounds:
            chunk = min(opts.playoff_rounds, opts.playoff_max_rounds - done)
            sub = []
            ratios, failed, refs = self._paired_rounds(
                ref_job, [run_jobs[i] for i in live], chunk, first_round=done, per_round=sub)
            done += chunk
            ref_samples += refs
            ref_ns = _median(ref_samples) * 1e9
            per_round += [{live[k]: r for k, r in rnd.items()} for rnd in sub]
            for k, i in enumerate(live):
                ident, rec = idents[i], entry.measured[idents[i]]
                if k in failed:
                    rec.update(status="failed", reason="playoff: " + failed[k])
                    srch.results[ident] = None
                    continue
                merged = rec.get("round_ratios", []) + [round(r, 4) for r in ratios[k]]
                ratio = _median(merged)
                rec.update(round_ratios=merged, ratio_to_default=round(ratio, 4),
                           measured_ns=ratio * ref_ns, playoff=True)
                srch.results[ident] = ratio * ref_ns
            live = [i for k, i in enumerate(live) if k not in failed]
            if len(live) < 2:
                stop = "one contender left"
                break
            leader = min(live, key=lambda i: srch.results[idents[i]])
            verdicts = {}
            for i in live:
                if i != leader:
                    diffs = [math.log(rnd[i] / rnd[leader]) for rnd in per_round
                             if i in rnd and leader in rnd]
                    verdicts[i] = paired_verdict(diffs, opts.min_gain, sigma)
            for i in live:
                if verdicts.get(i) == "slower":
                    info.setdefault("left", {})[srch.by_ident[idents[i]].describe()] = done
            live = [i for i in live if verdicts.get(i) != "slower"]
            if len(live) < 2:
                stop = "one contender left (the others clearly slower)"
                break
            if all(verdicts.get(i) == "equal" for i in live if i != leader):
                stop = (f"the remaining contenders are within {opts.min_gain:.0%} of the "
                        "leader (more rounds would not pay)")
                break
        info.update(rounds=done, stop=stop)
        if live:
            leader = min(live, key=lambda i: srch.results[idents[i]])
            srch.chosen = idents[leader]
            info.update(winner=srch.by_ident[srch.chosen].describe(), winner_ident=srch.chosen)
        _log(opts, f"hwsched-tune: playoff stopped after {done} rounds: {stop}")

    def _write_entry(self, entry, problem, srch, default, ref_ns, ref_samples, finished,
                     space_size, budget):
        best = srch.best()
        # Measured times relative to the reference's median so far.
        if ref_ns:
            for ident, rec in entry.measured.items():
                if rec.get("status") == "ok" and "ratio_to_default" in rec:
                    rec["measured_ns"] = rec["ratio_to_default"] * ref_ns
                    if ident in srch.results:
                        srch.results[ident] = rec["measured_ns"]
            best = srch.best()
        default_ident = default.ident()
        default_rec = entry.measured.get(default_ident, {})
        default_ns = default_rec.get("measured_ns") if default_rec.get("status") == "ok" else ref_ns
        winner = srch.by_ident.get(best[0]) if best else None
        measured_ok = [(i, r) for i, r in entry.measured.items() if r.get("status") == "ok"]
        tau = float("nan")
        if len(measured_ok) >= 3:
            tau = search.kendall_tau([r["predicted_ns"] for _, r in measured_ok],
                                     [r["measured_ns"] for _, r in measured_ok])
        summary = {
            "space_size": space_size, "budget": budget,
            "measured": srch.measured_count(),
            "failed": sum(1 for r in entry.measured.values() if r.get("status") != "ok"),
            "stop_reason": srch.stop_reason or ("interrupted" if not finished else ""),
            "default": default.describe(), "default_ns": ref_ns,
            "default_samples": ref_samples,
            "winner": winner.describe() if winner else None,
            "winner_ns": best[1] if best else None,
            "model_pick_slower_by": (default_ns / best[1] - 1.0) if best and default_ns else None,
            "kendall_tau_measured": tau,
            "playoff": srch.playoff or entry.tuning.get("playoff"),
            "measurement": (f"paired rounds: {self.opts.rounds} rounds, one process per "
                            f"candidate and round, the fastest of {self.opts.runs} timed runs of "
                            f">= {self.opts.min_time} s CPU time; ratios to the untuned default "
                            "in the same round"
                            if problem.kind != "gpu" else
                            "ptxas figures (no GPU run time)"),
        }
        if problem.kind == "gpu":
            # Ranks, not times: nothing was run.
            summary.update(winner_ns=None, model_pick_slower_by=None, default_ns=None)
        if winner is not None:
            entry.set_winner(winner.config, winner.knobs, problem.record.get("schedule"),
                             summary["winner_ns"], summary, finished)
        else:
            entry.tuning.update(summary)
            entry.tuning["finished"] = finished
        entry.flush()
        return summary

    # -- the run -------------------------------------------------------------

    def run(self):
        opts = self.opts
        start = time.time()
        self.cputime = tasks.build_cputime(self.workdir)
        explored = space.explore(self.opt, self.payload_text, opts.library, opts.entry,
                                 opts.target, os.path.join(self.workdir, "explore"),
                                 opts.timeout)
        problems = list(explored.problems.values())
        if not problems:
            raise RuntimeError("no select_tile_config decision on the payload: nothing to tune "
                               "(the knobs found: %s)" % (
                                   ", ".join(sorted(n for k in explored.knob_only.values() for n in k)) or "none"))
        kinds = {p.kind for p in problems}
        self.report["explore_s"] = round(explored.seconds, 3)
        self.report["select_tile_config_ms"] = explored.select_ms
        _log(opts, f"hwsched-tune: {len(problems)} problem(s); model enumeration and pruning "
                   f"(select_tile_config) " + ", ".join(f"{ms:.1f} ms" for ms in explored.select_ms)
                   + f"; the script's exploration run {explored.seconds:.2f} s; {self.exec.description}")
        program = self.payload_text
        if "cpu" in kinds:
            program = self._program(timing=True)
            self.reference = self._reference()
        others = {}
        for problem in problems:
            self._current_problem = problem
            self._others = others
            self._current_program = program
            summary = self.tune_problem(problem, others, program)
            summary["key"] = problem.key
            summary["select_tile_config_ms"] = explored.select_ms
            entry = database.load(opts.db)["entries"][problem.key]
            summary["candidates"] = entry["tuning"]["candidates"]
            self.report["problems"].append(summary)
            others[problem.key] = {k: v for k, v in entry.items() if k != "tuning"}
        self.report["seconds"] = round(time.time() - start, 1)
        self.report["load"] = self.load
        self.exec.close()
        return self.report


def _loadavg():
    try:
        return float(open("/proc/loadavg").read().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def format_report(report):
    """The human-readable report: every candidate measured, predicted vs
    measured, the winner and how far the model's pick is from it."""
    lines = [f"# hwsched-tune report: {report['payload']}",
             f"# entry point @{report['entry_point']}, target {report['target'] or '(driver default)'}, "
             f"database {report['database']}",
             f"# executor: {report['executor']}; {report.get('seconds', 0)} s",
             "# model enumeration + pruning (select_tile_config): "
             + ", ".join(f"{ms:.1f} ms" for ms in report.get("select_tile_config_ms", [])),
             ]
    load = [l for l in report.get("load", []) if l is not None]
    if load:
        lines.append(f"# host load average during measurements: {min(load):.2f}-{max(load):.2f}")
    for p in report["problems"]:
        lines.append("")
        lines.append(f"## {p['key']}")
        lines.append(f"space {p['space_size']} candidates (space construction "
                     f"{p.get('space_construction_ms', 0):.1f} ms), budget {p['budget']}, "
                     f"measured {p['measured']} ({p['failed']} failed); stopped: {p['stop_reason']}")
        lines.append(f"measurement: {p['measurement']}")
        lines.append("")
        lines.append("| candidate | model rank | predicted ms | measured ms | vs default | status |")
        lines.append("|---|---|---|---|---|---|")
        cands = sorted(p["candidates"].values(),
                       key=lambda r: (r.get("status") != "ok", r.get("measured_ns") or 0))
        for r in cands:
            pred = r.get("predicted_ns")
            meas = r.get("measured_ns")
            ratio = r.get("ratio_to_default")
            status = r.get("status", "?")
            if "ptxas" in r:
                # GPU without a GPU: ptxas figures, no run time.
                meas = None
                status += " (ptxas: " + "; ".join(
                    f"{k.get('registers')} registers, {k.get('spill_store_bytes', 0)}+"
                    f"{k.get('spill_load_bytes', 0)} spill bytes, {k.get('smem_bytes')} smem bytes"
                    for k in r["ptxas"]) + ")"
            if r.get("status") != "ok":
                status = "FAILED: " + (r.get("reason", "")[:140].replace("\n", " ").replace("|", "/"))
            cells = [r.get("candidate"), r.get("model_rank"),
                     f"{pred / 1e6:.3f}" if pred else "-",
                     f"{meas / 1e6:.3f}" if meas else "-",
                     f"{ratio:.3f}" if ratio else "-", status]
            lines.append("| " + " | ".join(str(c) for c in cells) + " |")
        lines.append("")
        if not p["winner"]:
            lines.append("winner: none (no candidate compiled, ran and checked correctly)")
            continue
        if "ptxas" in p["measurement"]:
            lines.append(f"winner: {p['winner']} (the model's best candidate ptxas accepts "
                         "without spills; run time not measured: no GPU runtime here)")
            continue
        lines.append(f"winner: {p['winner']} ({(p['winner_ns'] or 0) / 1e6:.3f} ms)")
        lines.append(f"untuned default (the model's pick): {p['default']} "
                     f"({(p['default_ns'] or 0) / 1e6:.3f} ms)")
        if p.get("model_pick_slower_by") is not None:
            lines.append(f"the model's pick is {p['model_pick_slower_by'] * 100:.1f}% slower than the winner")
        po = p.get("playoff")
        if po and po.get("contenders"):
            lines.append(f"playoff: {len(po['contenders'])} contenders within "
                         f"{po['margin']:.1%} of the best (one round's noise "
                         f"{(po.get('noise_sigma') or 0):.1%}), {po['rounds']} more rounds; "
                         f"stopped: {po['stop']}")
            for cand, rounds in po.get("left", {}).items():
                lines.append(f"playoff: {cand} left after {rounds} rounds (clearly slower)")
        elif po:
            lines.append(f"playoff: none ({po['stop']})")
        tau = p.get("kendall_tau_measured")
        if tau == tau:
            lines.append(f"Kendall tau (predicted vs measured, measured candidates): {tau:.2f}")
    return "\n".join(lines) + "\n"
