#!/usr/bin/env python3
"""Deterministic mutation fuzzer for each hwsched op's entry on generated IR.

One target per op (`--target`, or `all`). Each iteration builds one
application: a payload from utils/robustness/gen_programs.py (random family,
sizes, dynamic shapes, memory spaces) or from fuzz/seeds/ops/payloads/, and
a script that applies the op with mutated attributes:

  target      shipped names, the bad specs of test/HwSpec/Inputs (by path),
              unknown names, odd paths, empty, or absent (then the target
              recorded on the payload or the default is used)
  overrides   0-3 of: the shorthands, real and invented key paths; values of
              every attribute kind (huge / negative / zero integers, floats,
              strings such as memory-space text, bools, arrays, units)
  op options  metric / key / num_stages from valid, boundary and junk values;
              explain on or off
  handle      first, second, the rest, all candidates at once, or an empty
              handle, of a category the op works on or not; sometimes a
              preceding attach_target_spec records a random target on the
              payload
and runs batches through `hwsched-opt --transform-interpreter` (expensive
checks on) as utils/robustness/run.py does. Verdicts: a crash (signal,
"LLVM ERROR", sanitizer report, ...), a verifier failure, a failure without
a diagnostic, or a single-op failure that changed the payload is a finding;
each is saved as a standalone chunk file under --crashes (default
fuzz/regressions/ops/), which `--replay` (run by CI) re-checks forever after.

Usage:
  op_fuzz.py --target estimate --seed 1 --iterations 200
  op_fuzz.py --replay fuzz/seeds/ops fuzz/regressions/ops
  op_fuzz.py --save-corpus N   (writes N sample chunks per target to fuzz/seeds/ops/)
Exit status 0 iff nothing was found.
"""

import argparse
import glob
import hashlib
import os
import random
import re
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "utils", "robustness"))
sys.path.insert(0, os.path.join(ROOT, "utils"))
import gen_programs  # noqa: E402
import run as rob  # noqa: E402
from hwsched_tools import (Runner, crashed, default_hwsched_opt,  # noqa: E402
                           op_application)

TARGETS = ["filter_fusable_consumers", "estimate", "select_tile_config",
           "schedule_stages", "merge_allocations",
           "eliminate_redundant_copies", "attach_target_spec", "query_spec",
           "epilogue_in_place", "split_k", "rewrite_matmul_as_wgmma",
           "match_wgmma_matmuls", "match_mma_sync_matmuls", "outline_kernel_function",
           "split_accumulation", "avoid_bank_conflicts", "epilogue_into_stores"]
HOME_CATEGORY = {
    "filter_fusable_consumers": "linalg", "estimate": "linalg",
    "select_tile_config": "linalg", "schedule_stages": "loops",
    "merge_allocations": "funcs", "eliminate_redundant_copies": "funcs",
    "attach_target_spec": "funcs", "query_spec": "funcs",
    "epilogue_in_place": "linalg", "split_k": "linalg",
    "rewrite_matmul_as_wgmma": "linalg", "match_wgmma_matmuls": "linalg",
    "match_mma_sync_matmuls": "linalg", "outline_kernel_function": "linalg",
    "split_accumulation": "linalg", "avoid_bank_conflicts": "funcs",
    "epilogue_into_stores": "linalg",
}
SPECS = sorted(os.path.basename(p)[:-5] for p in
               glob.glob(os.path.join(ROOT, "hw-specs", "*.json"))
               if not p.endswith("schema.json"))
BAD_SPECS = sorted(glob.glob(os.path.join(ROOT, "test", "HwSpec", "Inputs", "*.json")))
KEYS = ["onchip.capacity_bytes", "onchip.alignment_bytes", "onchip.memory_space",
        "gpu.sm_count", "gpu.max_registers_per_thread", "gpu.warp_size",
        "gpu.registers_per_sm", "npu.ping_pong_factor", "npu.cube_tile",
        "cpu.vector_width_bits", "pipeline.max_stages", "pipeline.sync",
        "pipeline.units.vector.latency_cycles", "pipeline.units",
        "cost_weights.register_pressure", "offchip.bandwidth_gb_per_s",
        "gpu", "gpu.", ".", "onchip..capacity_bytes", "gpu.no_such_figure",
        "pipeline.units.cube.count", "kind", "name", "sources.gpu"]
ALIASES = ["reg_limit", "smem_limit_bytes", "ub_limit_bytes", "l2_limit_bytes",
           "max_stages"]
METRICS = ["registers_per_thread", "onchip_bytes", "offchip_bytes", "flops",
           "estimated_time_ns", "", "FLOPS", "registers_per_thread ",
           "no_such_metric"]
INTS = ["0", "1", "-1", "2", "3", "7", "64", "1024", "49152", "65536",
        "2147483647", "9223372036854775807", "-9223372036854775808",
        "4294967296", "18446744073709551615", "18446744073709551617"]


def rand_value(r):
    kind = r.randrange(9)
    if kind < 4:
        v = r.choice(INTS)
        if v.lstrip("-").isdigit() and int(v) > 2 ** 63 - 1:
            return v + r.choice([" : i128", " : ui64"])
        return v + r.choice(["", " : i64", " : i32", " : i8", " : index", " : i128"])
    if kind == 4:
        return r.choice(["0.5", "1.0e+300", "-2.5", "0.0", "0x7FF0000000000000",
                         "0x7FF8000000000000", "0xFFF0000000000000"]) + r.choice([" : f64", " : f32"])
    if kind == 5:
        return '"' + r.choice(["#gpu.address_space<workgroup>", "ub", "3", "",
                               "#gpu.address_space<", "fractal_nz", "lots",
                               "#dlti.map<>", "\\00"]) + '"'
    if kind == 6:
        return r.choice(["true", "false", "unit"])
    if kind == 7:
        return "array<i64: " + ", ".join(r.choice(INTS[:10]) for _ in range(r.randint(0, 3))) + ">"
    return r.choice(["[1, 2]", "{a = 1}", "f32", "#gpu.address_space<workgroup>",
                     "dense<1> : tensor<2xi32>", "affine_map<(d0) -> (d0)>"])


def rand_target(r):
    k = r.randrange(10)
    if k < 5:
        return f'"{r.choice(SPECS)}"'
    if k == 5:
        return f'"{r.choice(BAD_SPECS)}"'
    if k == 6:
        return r.choice(['""', '"nvidia-a101"', '"/"', '"/dev/null"', '".json"',
                         f'"{ROOT}/hw-specs/schema.json"', f'"{ROOT}/hw-specs"',
                         '"../hw-specs/nvidia-a100.json"'])
    if k == 7:
        return r.choice(["3", "unit", "[]"])  # wrong attribute kinds
    return None


class Case:
    """One fuzzed application, rendered as a script for run.py's chunks."""

    def __init__(self, op, r, payload):
        self.op = op
        self.payload = payload
        cat = HOME_CATEGORY[op] if r.random() < 0.75 else r.choice(
            ["loops", "linalg", "funcs", "launches", "root", "empty"])
        # epilogue_into_stores also takes the call of a function holding
        # the epilogue (a draw of its own: the other targets keep theirs).
        if op == "epilogue_into_stores" and cat == "linalg" and r.random() < 0.3:
            cat = "calls"
        self.category = cat
        # Which candidates: one of them by index, or all at once. (Not
        # split_handle's overflow_result with fail_on_payload_too_small =
        # false: MLIR 22 aborts with "SmallVector unable to grow" when the
        # handle holds fewer payloads than results - 1; found by this fuzzer.)
        self.count = payload.counts.get(cat, 0)
        self.which = "all" if self.count == 0 or r.random() < 0.25 \
            else r.randrange(self.count)
        self.typed = op == "schedule_stages" and cat == "loops" and r.random() < 0.7
        # split_k's factor (a param operand), valid and invalid.
        self.factor = r.choice(["0", "1", "2", "3", "4", "8", "-1", "1024"])
        attrs = []
        t = rand_target(r)
        if t is not None:
            attrs.append(f"target = {t}")
        for _ in range(r.choice([0, 0, 0, 1, 1, 2, 3])):
            name = r.choice(ALIASES + KEYS + ["reg_limt", "target2", "foo.bar",
                                              "explain2", "metric", "key"])
            if name in ("metric", "key") and op in ("estimate", "query_spec"):
                continue
            if "." in name:
                name = f'"{name}"'
            attrs.append(f"{name} = {rand_value(r)}")
        if op == "rewrite_matmul_as_wgmma":
            for name in r.sample(["block_m", "block_n", "num_stages", "warpgroups",
                                  "raster_group", "producer_warp"], r.choice([0, 1, 2, 3])):
                # Mostly values of the right kind (tile sizes, counts), so
                # that the op itself runs; some out of range or ill-typed.
                value = r.choice(["64", "128", "192", "256", "1", "2", "3", "4",
                                  "5", "8", "0", "-1", "100000", rand_value(r)])
                attrs.append(f"{name} = {value}")
        if op == "estimate":
            attrs.append(f'metric = "{r.choice(METRICS)}"')
        if op == "outline_kernel_function" and r.random() < 0.9:
            # Mostly a usable name; some empty, clashing with the payload's
            # own symbols, or not an identifier.
            name = r.choice(["kernel", "hwsched_tensorcore_kernel", "", "main",
                             "f", "a b", "@x", "0"])
            attrs.append(f'func_name = "{name}"')
        if op == "query_spec":
            attrs.append(f'key = "{r.choice(KEYS)}"')
        if op == "schedule_stages" and r.random() < 0.6:
            attrs.append(f"num_stages = {r.choice(['1', '2', '3', '4', '8', '1000', '9223372036854775807'])}")
        if r.random() < 0.7:
            attrs.append("explain")
        # Drop duplicate attribute names (the parser rejects them).
        seen, uniq = set(), []
        for a in attrs:
            n = a.split(" = ")[0]
            if n not in seen:
                seen.add(n)
                uniq.append(a)
        self.attrs = "{" + ", ".join(uniq) + "}"
        self.pre_attach = None
        if r.random() < 0.2:
            self.pre_attach = rand_target(r) or f'"{r.choice(SPECS)}"'
            if not self.pre_attach.startswith('"'):
                self.pre_attach = f'"{r.choice(SPECS)}"'

    def script(self, k):
        prelude = []
        if self.pre_attach:
            prelude.append(f"transform.hwsched.attach_target_spec %root {{target = {self.pre_attach}}} : !transform.any_op")
        index = None if self.which == "all" else self.which
        return rob.application_script(
            k, self.category, index, self.count, self.typed,
            lambda h, hty: op_application(self.op, h, hty, self.attrs,
                                          split_factor=self.factor), prelude)


def baseline_script():
    return ("  transform.named_sequence @__rob_main(%root: !transform.any_op) {\n"
            '    transform.debug.emit_remark_at %root, "ROB-BEGIN 0" : !transform.any_op\n'
            '    transform.match.operation_name %root ["hwsched.never"] : !transform.any_op\n'
            "    transform.yield\n  }\n")


class Fuzzer:
    def __init__(self, args):
        self.args = args
        self.work = tempfile.mkdtemp(prefix="hwsched-opfuzz-")
        self.runner = Runner(args.hwsched_opt, self.work, timeout=600)
        self.findings = 0
        self.execs = 0
        self.stats = {}
        self.payloads = {}

    def payload(self, r):
        """A canonical payload (cached per generator key)."""
        files = sorted(glob.glob(os.path.join(ROOT, "fuzz", "seeds", "ops", "payloads", "*.mlir")))
        if files and r.random() < 0.3:
            key = ("file", r.choice(files))
        else:
            key = ("gen", r.randrange(10 ** 6), r.randrange(200))
        if key not in self.payloads:
            if key[0] == "file":
                text = open(key[1]).read()
                name = os.path.relpath(key[1], ROOT)
            else:
                _, text = gen_programs.generate(key[1], key[2])
                name = f"gen-{key[1]}-{key[2]}"
            p = rob.Payload(name, text, "fuzz")
            outs = SEP_RUN(self.runner, [text])
            out = outs[0].strip("\n")
            p.canonical = out + "\n" if out.startswith("module") and rob.nest(out) else None
            if p.canonical:
                self.probe(p)
            self.payloads[key] = p
        return self.payloads[key]

    def probe(self, p):
        """Candidate counts per category, as utils/robustness/run.py does."""
        rob.probe_counts(self.runner, [p])

    def check_batch(self, payload, cases, label):
        """Runs baseline + cases on one payload; returns findings."""
        chunks = [rob.chunk_text(payload, baseline_script())]
        chunks += [rob.chunk_text(payload, c.script(k + 1)) for k, c in enumerate(cases)]
        return self.check_chunks(chunks, [c.pre_attach is None for c in cases], label)

    def check_chunks(self, chunks, check_unchanged, label, save=True):
        found = []
        _, _, rc, out, err = self.runner.run(chunks, self.runner.interp_args(), name="fuzz")
        self.execs += len(chunks) - 1
        pieces = rob.SEP.split(out)
        if crashed(rc, err) or len(pieces) != len(chunks):
            results = []
            for k, c in enumerate(chunks):
                _, _, rc1, out1, err1 = self.runner.run([c], self.runner.interp_args(), name="single")
                results.append((out1, err1, crashed(rc1, err1)))
        else:
            sections = rob.split_stderr(err, chunks)
            results = [(pieces[k], sections.get(k, ""), None) for k in range(len(chunks))]
        baseline = rob.extract_payload(results[0][1])
        for k in range(1, len(chunks)):
            o, e, why = results[k]
            verdict = None
            if why:
                verdict = f"crash ({why})"
            elif re.search(rf"remark: ROB-OK {k}$", e, re.M):
                if not o.strip():
                    verdict = "verifier failure"
                else:
                    self.stats["success"] = self.stats.get("success", 0) + 1
            elif not re.search(rf"remark: ROB-BEGIN {k}$", e, re.M):
                # The chunk never ran: the script did not parse (e.g. an
                # attribute of the wrong kind rejected by the op verifier).
                if ": error: " not in e and "error:" not in e:
                    verdict = "no diagnostic for a rejected script"
                else:
                    self.stats["rejected"] = self.stats.get("rejected", 0) + 1
            elif not re.search(r": error: ", e):
                verdict = "failure without a diagnostic"
            elif check_unchanged[k - 1] and baseline is not None and \
                    rob.extract_payload(e) != baseline:
                verdict = "failure changed the payload"
            else:
                self.stats["clean_failure"] = self.stats.get("clean_failure", 0) + 1
            if verdict:
                found.append((verdict, chunks[k], e))
        # A replayed input is a file already: saving it again under
        # --crashes (by default fuzz/regressions/ops/) would write into the
        # source tree, e.g. when the self-test replays injected crashes.
        for verdict, chunk, e in found if save else []:
            self.save(verdict, chunk, e, label)
        return found

    def save(self, verdict, chunk, err, label):
        self.findings += 1
        h = hashlib.sha1(chunk.encode()).hexdigest()[:12]
        d = self.args.crashes
        os.makedirs(d, exist_ok=True)
        path = os.path.join(d, f"{label}-{h}.mlir")
        with open(path, "w") as f:
            f.write(f"// op_fuzz finding: {verdict}\n// replay: fuzz/op_fuzz.py --replay {os.path.relpath(path, ROOT)}\n")
            f.write(chunk.replace(ROOT, "@HWSCHED_SRC@"))
        print(f"FINDING {verdict}: saved {os.path.relpath(path, ROOT)}", flush=True)
        print("\n".join(err.split("\n")[:15]), flush=True)

    def fuzz(self, targets):
        t0 = time.time()
        for op in targets:
            for b in range(0, self.args.iterations, self.args.batch):
                r = random.Random(f"{self.args.seed}-{op}-{b}")
                payload = None
                for _ in range(5):
                    payload = self.payload(r)
                    if payload.canonical:
                        break
                n = min(self.args.batch, self.args.iterations - b)
                cases = [Case(op, r, payload) for _ in range(n)]
                self.check_batch(payload, cases, op)
                if self.args.max_time and time.time() - t0 > self.args.max_time:
                    break
        s = self.stats
        print(f"op_fuzz: targets {','.join(targets)}, seed {self.args.seed}: "
              f"{self.execs} executions ({s.get('success', 0)} successes, "
              f"{s.get('clean_failure', 0)} clean failures, {s.get('rejected', 0)} "
              f"scripts rejected by the op verifier), {self.findings} findings, "
              f"{time.time() - t0:.0f} s")
        return 0 if self.findings == 0 else 1

    def save_corpus(self, count):
        for op in TARGETS:
            r = random.Random(f"corpus-{op}")
            d = os.path.join(ROOT, "fuzz", "seeds", "ops", op)
            os.makedirs(d, exist_ok=True)
            for i in range(count):
                payload = self.payload(r)
                while not payload.canonical:
                    payload = self.payload(r)
                c = Case(op, r, payload)
                with open(os.path.join(d, f"seed-{i}.mlir"), "w") as f:
                    f.write(f"// op_fuzz corpus entry for {op} (replayed by CI)\n")
                    f.write(rob.chunk_text(payload, c.script(1)).replace(ROOT, "@HWSCHED_SRC@"))

    def replay(self, paths):
        files = []
        for p in paths:
            files += sorted(glob.glob(os.path.join(p, "**", "*.mlir"), recursive=True)) \
                if os.path.isdir(p) else [p]
        files = [f for f in files if os.path.basename(os.path.dirname(f)) != "payloads"]
        # Group so each process runs many chunks; baseline per file comes
        # from the chunk's own payload, so the no-change check uses a
        # baseline chunk built from the same payload text.
        bad = 0
        for f in files:
            # Paths into the source tree are stored relative to a placeholder.
            chunk = open(f).read().replace("@HWSCHED_SRC@", ROOT)
            payload_text = rob.extract_payload(re.sub(r"^//.*\n", "", chunk, flags=re.M))
            base = None
            if payload_text:
                base = ("module attributes {transform.with_named_sequence} {\n" +
                        payload_text + "\n" + baseline_script() + "}\n")
            chunk = re.sub(r'"ROB-(BEGIN|OK) \d+"', lambda m: f'"ROB-{m.group(1)} 1"', chunk)
            if base is None:
                _, _, rc, out, err = self.runner.run([chunk], self.runner.interp_args(), name="replay")
                self.execs += 1
                if crashed(rc, err):
                    bad += 1
                    print(f"REPLAY FAIL {f}: crash", flush=True)
                continue
            unchanged = "attach_target_spec %root {target" not in chunk.split("ROB-BEGIN")[1].split("\n")[1] \
                if "ROB-BEGIN" in chunk else True
            found = self.check_chunks([base, chunk], [unchanged], "replay",
                                      save=False)
            if found:
                bad += len(found)
                print(f"REPLAY FAIL {f}: {found[0][0]}", flush=True)
        print(f"op_fuzz: replayed {len(files)} inputs, {bad} failing")
        return 0 if bad == 0 else 1


def SEP_RUN(runner, texts):
    _, _, rc, out, err = runner.run(texts, [], name="canon")
    pieces = rob.SEP.split(out)
    return pieces if len(pieces) == len(texts) else [""] * len(texts)


def main():
    ap = argparse.ArgumentParser(description="Mutation fuzzer for the hwsched ops.")
    ap.add_argument("--hwsched-opt", default=default_hwsched_opt())
    ap.add_argument("--target", default="all", help="an op name or 'all'")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--iterations", type=int, default=100, help="per target")
    ap.add_argument("--batch", type=int, default=50, help="applications per process")
    ap.add_argument("--max-time", type=float, default=0, help="seconds per target run (0: none)")
    ap.add_argument("--crashes", default=os.path.join(ROOT, "fuzz", "regressions", "ops"))
    ap.add_argument("--replay", nargs="*")
    ap.add_argument("--save-corpus", type=int, default=0)
    args = ap.parse_args()
    args.hwsched_opt = shutil.which(args.hwsched_opt) or args.hwsched_opt
    if not os.path.exists(args.hwsched_opt):
        print(f"op_fuzz: no hwsched-opt at {args.hwsched_opt}", file=sys.stderr)
        return 2
    fz = Fuzzer(args)
    if args.replay is not None:
        return fz.replay(args.replay)
    if args.save_corpus:
        fz.save_corpus(args.save_corpus)
        return 0
    targets = TARGETS if args.target == "all" else args.target.split(",")
    for t in targets:
        if t not in TARGETS:
            print(f"op_fuzz: unknown target {t}; known: {', '.join(TARGETS)}", file=sys.stderr)
            return 2
    return fz.fuzz(targets)


if __name__ == "__main__":
    sys.exit(main())
