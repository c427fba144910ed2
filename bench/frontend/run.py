#!/usr/bin/env python3
"""Every hwsched op and every entry point on a corpus of frontend IR.

    python3 bench/frontend/run.py [--corpus DIR]... [--quick] [--jobs N]

A corpus is a folder of .mlir payloads (files split at `// -----`), written
the way frontends write them: functions on tensors or memrefs, no `@main`
(utils/exec_harness.py adds one, so that every rewrite runs on the CPU).
Default: the committed corpus test/Corpus/frontend/. The foreign corpus
(upstream MLIR and IREE test payloads) is built outside the repository:
see bench/frontend/README.md.

Two parts, each printing progress:

ops      every hwsched transform op on every candidate payload op of the
         kind it works on, with every shipped spec (utils/robustness/run.py,
         the robustness driver: success, clean refusal, or a bug: crash,
         verifier failure, payload changed on failure, failure without a
         diagnostic), and every successful rewrite exec-checked on the CPU.
entries  every entry point of transform-scripts/ that schedules matmul-class
         ops (ENTRIES below) on every payload: how many of the payload's
         matmul-class ops (contractions and convolutions) it scheduled (no
         longer at the nesting depth it had: tiled into loops, put in a
         gpu.launch or replaced by vectors), and the rewrite
         exec-checked on the CPU (the `_sequential` twin for GPU schedules,
         which keeps the schedule but not the GPU mapping).

Every refusal (an `error:` diagnostic of a failed application) is counted
by reason, and classified by who phrased it: one of our ops (its location is
a hwsched op: transform.cost_model / pipeline / smem / hwsched / fusion),
or an upstream op or a library internal (any other location: an upstream
transform op in a script, a payload op). The second kind must not happen:
a refusal is always in the user's terms.

The summary ends with one line per headline entry point and
  FRONTEND-BENCH: <crashes> crashes, <miscompiles> miscompiles, <n> refusals phrased as an upstream error
exit status 1 when crashes or miscompiles are not 0 (and with
--require-targets, when a headline entry point schedules less than
--target-share of the matmul-class ops or a refusal is phrased upstream).
"""

import argparse
import collections
import concurrent.futures
import glob
import importlib.util
import json
import os
import re
import shutil
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
UTILS = os.path.join(ROOT, "utils")
sys.path.insert(0, UTILS)
sys.path.insert(0, os.path.join(UTILS, "robustness"))
import exec_harness  # noqa: E402
from hwsched_tools import dynamic_extents  # noqa: E402
from hwsched_tools import EXEC_CHECK, crashed, default_hwsched_opt, run_tool  # noqa: E402


def load_robustness():
    spec = importlib.util.spec_from_file_location(
        "hwsched_robustness", os.path.join(UTILS, "robustness", "run.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


# Entry points: (entry point, its CPU-checkable twin, target, exec-check
# options, headline). Headline entry points carry the target figures.
GPU_EXEC = ["--erase-memory-spaces", "--erase-gpu-barriers"]
ENTRIES = [
    ("gpu_matmul_auto", "gpu_matmul_auto_sequential", "nvidia-a100", GPU_EXEC, True),
    ("gpu_matmul_smem_pipelined", "gpu_matmul_smem_sequential", "nvidia-a100", GPU_EXEC, False),
    ("gpu_matmul_split_k", "gpu_matmul_split_k_sequential", "nvidia-a100", GPU_EXEC, False),
    ("hwsched_cpu_matmul_main", "hwsched_cpu_matmul_main", "x86-avx512", [], True),
    ("hwsched_cpu_matmul_main_pipelined", "hwsched_cpu_matmul_main_pipelined", "x86-avx512", [], False),
]

OUR_OPS = ("transform.cost_model.", "transform.pipeline.", "transform.smem.",
           "transform.hwsched.", "transform.fusion.")

# Matmul-class ops: named contractions and convolutions, and generic /
# contract ops with a reduction loop whose body multiplies.
NAMED = re.compile(r"\blinalg\.(matmul|batch_matmul|batch_reduce_matmul|matvec|vecmat|"
                   r"batch_matvec|batch_vecmat|dot|conv_[0-9a-z_]+|depthwise_conv_[0-9a-z_]+|"
                   r"mmt4d|batch_mmt4d|quantized_matmul|quantized_batch_matmul|contract)\b")
OP_LINE = re.compile(r"^(\s*)(?:%[\w.$#:-]+(?:, %[\w.$#-]+)*\s*=\s*)?\"?(linalg\.[\w.]+)")


IN_SCOPE_CONV = re.compile(r"^linalg\.conv_2d_(nhwc_hwcf|nhwc_fhwc|nchw_fchw)$")


def op_kind(name, text, maps):
    """The kind of one matmul-class op: "contraction" (named matmul family,
    or a generic whose maps are projected permutations), "conv-2d" (the
    NHWC/HWCF, NHWC/FHWC and NCHW/FCHW 2-D convolutions the issue names) or
    "conv-other" (depthwise, grouped, quantized, 1-D/3-D named convolutions,
    generic convolutions: an index map with a sum or a stride)."""
    if name == "linalg.generic":
        used = re.search(r"indexing_maps\s*=\s*\[([^\]]*)\]", text)
        exprs = []
        for ref in re.findall(r"#[\w$.-]+|affine_map<[^>]*>", used.group(1) if used else ""):
            exprs.append(maps.get(ref, ref))
        results = [e.split("->", 1)[-1] for e in exprs]
        return "conv-other" if any(re.search(r"[+*]", r) for r in results) else "contraction"
    if name.startswith("linalg.conv") or name.startswith("linalg.depthwise"):
        return "conv-2d" if IN_SCOPE_CONV.match(name) else "conv-other"
    return "contraction"


KINDS = ("contraction", "conv-2d", "conv-other")


def matmul_class(printed):
    """Counts of matmul-class ops in the functions of a printed module:
    (total, depths, kinds) where depths is a Counter of their nesting
    depths (indentation) and kinds maps a kind (op_kind) to a Counter of
    the depths of its ops. (The exec harness has no Linalg op.)"""
    total = 0
    depths = collections.Counter()
    kinds = {k: collections.Counter() for k in KINDS}
    lines = printed.split("\n")
    maps = dict(re.findall(r"^(#[\w$.-]+) = (affine_map<.*>)$", printed, re.M))
    func_indent = None
    i = 0
    while i < len(lines):
        line = lines[i]
        m = re.match(r"^(\s*)func\.func\s+(?:\w+\s+)?@([\w$.-]+)", line)
        if m:
            func_indent = len(m.group(1))
            i += 1
            continue
        m = OP_LINE.match(line)
        if m and func_indent is not None:
            name = m.group(2)
            is_mm = bool(NAMED.search(name))
            body = line
            if name == "linalg.generic":
                # The op's text up to its region's end: iterator types and
                # body ops.
                depth, j, text = 0, i, []
                while j < len(lines):
                    text.append(lines[j])
                    depth += lines[j].count("{") - lines[j].count("}")
                    if depth <= 0 and j > i:
                        break
                    j += 1
                body = "\n".join(text)
                is_mm = "reduction" in body and re.search(r"arith\.mul[fi]\b", body) is not None
            if is_mm:
                kind = op_kind(name, body, maps)
                depth = len(m.group(1))
                total += 1
                depths[depth] += 1
                kinds[kind][depth] += 1
        i += 1
    return total, depths, kinds


def unscheduled(before, after):
    """How many ops of `before` (a Counter of nesting depths) are still at
    their depth in `after`: a schedule nests an op in its tile loops or a
    gpu.launch (deeper) or replaces it (vectors); an op at its original
    depth was not scheduled (an op in the payload's own loop included)."""
    return sum(min(n, after.get(d, 0)) for d, n in before.items())


def strip_marks(printed):
    """The printed module without hwsched.* marks the scripts leave on ops
    they did not rewrite (hwsched.contraction): the rewrite check compares
    the rest."""
    text = re.sub(r" \{hwsched\.[\w.]+( = [^,}]*)?(, hwsched\.[\w.]+( = [^,}]*)?)*\}", "", printed)
    return re.sub(r"hwsched\.[\w.]+( = [^,}]*)?, ", "", text)


def classify_error(location, message, read_line):
    """"ours" when the diagnostic's location is one of our ops, else
    "upstream"."""
    m = re.match(r"^(.*):(\d+):\d+$", location)
    if not m:
        return "upstream"
    text = read_line(m.group(1), int(m.group(2)))
    return "ours" if text and any(op in text for op in OUR_OPS) else "upstream"


def line_reader():
    cache = {}

    def read(path, n):
        if path not in cache:
            try:
                with open(path, errors="replace") as f:
                    cache[path] = f.read().split("\n")
            except OSError:
                cache[path] = []
        lines = cache[path]
        return lines[n - 1] if 0 < n <= len(lines) else ""
    return read


def reason_of(message):
    """A refusal's reason, with the figures and names of one payload taken
    out so that equal reasons group."""
    text = re.sub(r"'[^']*\.mlir'", "'FILE'", message)
    text = re.sub(r"@[\w$.-]+", "@F", text)
    text = re.sub(r"\b\d+(\.\d+)?\b", "N", text)
    text = re.sub(r"(N(, |x))+N", "N..", text)
    return text[:150]


class Payload:
    def __init__(self, name, text):
        self.name = name
        self.text = text
        self.raw = None           # the chunk as read (no @main added)
        self.path = None          # the payload (with @main when possible)
        self.executable = False
        self.matmuls = 0
        self.kinds = {k: 0 for k in KINDS}
        self.depths = collections.Counter()
        self.kind_depths = {k: collections.Counter() for k in KINDS}
        self.printed = ""         # the payload with @main as hwsched-opt prints it


def collect(corpora, work, opt, jobs):
    """Payload chunks of the corpus folders: parsed and verified by
    hwsched-opt, with @main added where the harness can call them."""
    chunks = []
    for corpus in corpora:
        files = sorted(glob.glob(os.path.join(corpus, "**", "*.mlir"), recursive=True))
        for f in files:
            with open(f, errors="replace") as fh:
                text = fh.read()
            rel = os.path.relpath(f, corpus)
            parts = re.split(r"^// -----$", text, flags=re.M)
            for n, c in enumerate(parts):
                if c.strip():
                    name = f"{os.path.basename(os.path.normpath(corpus))}/{rel}" + \
                        (f"#{n}" if len(parts) > 1 else "")
                    chunks.append(Payload(name, c))

    def prepare(k_p):
        k, p = k_p
        raw = os.path.join(work, f"p{k}.raw.mlir")
        with open(raw, "w") as f:
            f.write(p.text)
        p.raw = raw
        rc, out, err = run_tool([opt, raw, "--mlir-print-op-on-diagnostic=false"], 300)
        if rc != 0 or not out.strip():
            return p, "does not parse or verify: " + (err.strip().split("\n") or [""])[0][:200]
        p.matmuls, p.depths, p.kind_depths = matmul_class(out)
        p.kinds = {kind: sum(c.values()) for kind, c in p.kind_depths.items()}
        try:
            # Dynamic argument extents that fit the ops (a convolution's
            # input from its output and window), solved with this hwsched-opt.
            text = exec_harness.add_main(
                p.text, arg_extents=dynamic_extents.solve_payload(p.text, opt=opt))
            p.executable = True
        except exec_harness.HarnessError:
            text = p.text
        p.path = os.path.join(work, f"p{k}.mlir")
        with open(p.path, "w") as f:
            f.write(text)
        rc, out, err = run_tool([opt, p.path, "--mlir-print-op-on-diagnostic=false"], 300)
        p.printed = out if rc == 0 else ""
        return p, None

    valid, skipped = [], []
    with concurrent.futures.ThreadPoolExecutor(jobs) as ex:
        for p, why in ex.map(prepare, enumerate(chunks)):
            if why:
                skipped.append((p.name, why))
            else:
                valid.append(p)
    return valid, skipped


def run_entry(p, entry, args):
    """One entry point on one payload: a dict with the verdict."""
    name, twin, target, options, _ = entry
    lib = os.path.join(ROOT, "transform-scripts")
    cmd = [args.hwsched_opt, p.path, f"--hwsched-target={target}",
           f"--transform-preload-library=transform-library-paths={lib}",
           f"--transform-interpreter=entry-point={name}",
           "--mlir-print-op-on-diagnostic=false"]
    rc, out, err = run_tool(cmd, args.timeout)
    r = {"payload": p.name, "entry": name, "matmuls": p.matmuls, "scheduled": 0,
         "kinds": dict(p.kinds), "scheduled_kinds": {k: 0 for k in KINDS},
         "status": None, "errors": [], "exec": None, "exec_detail": "",
         "left": re.findall(r"remark: hwsched: not scheduled: (.*)$", err, re.M)}
    why = crashed(rc, err)
    errors = re.findall(r"^(\S+?:\d+:\d+): error: (.*)$", err, re.M)
    r["errors"] = errors
    if why == "timeout":
        r["status"] = "timeout"
        r["detail"] = f"hwsched-opt ran over {args.timeout} s"
        return r
    if why:
        r["status"] = "crash"
        r["detail"] = why
        return r
    if rc != 0 or errors or not out.strip():
        r["status"] = "refused"
        return r
    total, depths, kinds = matmul_class(out)
    # An op left behind is one still at its depth, or one the entry
    # reported ("not scheduled" remark: it may have been moved into a loop,
    # e.g. a batch or chunk loop, and left there). (A Linalg op inside a
    # kernel or a schedule's loops is scheduled: the split-K kernel's
    # per-thread partial tile stays a scalar linalg.generic, say.)
    left = max(unscheduled(p.depths, depths), len(r["left"]))
    r["scheduled"] = max(0, p.matmuls - left)
    for k in KINDS:
        r["scheduled_kinds"][k] = p.kinds[k] - unscheduled(p.kind_depths[k], kinds[k])
    # Remarks name no kind: where they count more ops left than the kinds
    # do (a payload of several kinds), the excess comes off the kinds from
    # the last, so that the kinds add up to the total.
    excess = sum(r["scheduled_kinds"].values()) - r["scheduled"]
    for k in reversed(KINDS):
        cut = min(excess, r["scheduled_kinds"][k]) if excess > 0 else 0
        r["scheduled_kinds"][k] -= cut
        excess -= cut
    r["status"] = "success"
    if not p.executable or args.no_exec:
        return r
    if strip_marks(out) == strip_marks(p.printed):
        # Nothing rewritten: there is nothing to check.
        r["exec"] = "unchanged"
        return r
    # With --reduce-above, exec-check adds the same @main itself, after
    # reducing a payload too large for its unscheduled reference.
    source = ([p.raw, "--add-main", "--reduce-above", str(args.reduce_above)]
              if args.reduce_above else [p.path])
    ecmd = [sys.executable, EXEC_CHECK, *source, "--opt", args.hwsched_opt,
            *options, "--timeout", str(args.exec_timeout or args.timeout), "--",
            f"--hwsched-target={target}",
            f"--transform-preload-library=transform-library-paths={lib}",
            f"--transform-interpreter=entry-point={twin}"]
    rc, eout, eerr = run_tool(ecmd, args.timeout * 4)
    verdict = (eout.strip().split("\n") or [""])[0]
    if rc == 0:
        r["exec"] = "pass"
        r["exec_reduced"] = "reduced instance" in verdict
    elif "outputs differ" in verdict:
        r["exec"] = "miscompile"
    elif "invalid instance" in verdict:
        # The harness's one dynamic extent does not fit the ops (the
        # reference itself stopped): neither a pass nor a miscompile.
        r["exec"] = "invalid-instance"
    elif "AFTER: transform" in verdict:
        r["exec"] = "twin-refused"
    elif "timed out" in verdict:
        r["exec"] = "timeout"
    else:
        r["exec"] = "not-run"
    r["exec_detail"] = verdict[:200]
    if r["exec"] != "pass" and args.out:
        d = os.path.join(args.out, f"{r['exec']}-{name}-{re.sub(r'[^A-Za-z0-9_.-]', '_', p.name)}")
        os.makedirs(d, exist_ok=True)
        # What exec-check read: the chunk as written (it adds the @main)
        # with --reduce-above, else the chunk with the bench's @main.
        shutil.copy(p.raw if args.reduce_above else p.path, os.path.join(d, "payload.mlir"))
        with open(os.path.join(d, "exec-check.txt"), "w") as f:
            f.write(" ".join(ecmd) + "\n\n" + eout + eerr)
    return r


def report_entries(results, entries, read, reduce_above=None):
    print("\nentries (per entry point: payloads, matmul-class ops, scheduled, "
          "exec-checked, miscompiles, refusals ours/upstream, crashes):")
    summary = {}
    for entry in entries:
        name = entry[0]
        rs = [r for r in results if r["entry"] == name]
        mm = sum(r["matmuls"] for r in rs)
        sched = sum(r["scheduled"] for r in rs)
        checked = sum(r["scheduled"] for r in rs if r["exec"] == "pass")
        mis = sum(1 for r in rs if r["exec"] == "miscompile")
        crashes = sum(1 for r in rs if r["status"] == "crash")
        timeouts = sum(1 for r in rs if r["status"] == "timeout")
        ours = upstream = 0
        reasons = collections.Counter()
        upstream_examples = []
        for r in rs:
            if r["status"] != "refused":
                continue
            if not r["errors"]:
                upstream += 1
                reasons["(failed without an error diagnostic)"] += 1
                continue
            loc, msg = r["errors"][0]
            who = classify_error(loc, msg, read)
            if who == "ours":
                ours += 1
            else:
                upstream += 1
                upstream_examples.append((r["payload"], loc, msg))
            reasons[f"[{who}] {reason_of(msg)}"] += 1
        share = 100.0 * sched / mm if mm else 100.0
        summary[name] = dict(payloads=len(rs), matmuls=mm, scheduled=sched,
                             exec_checked=checked, miscompiles=mis,
                             refusals_ours=ours, refusals_upstream=upstream,
                             crashes=crashes, timeouts=timeouts, share=share)
        print(f"  {name:36} {len(rs):4} payloads {mm:4} matmul-class ops "
              f"{sched:4} scheduled ({share:5.1f}%) {checked:4} exec-checked "
              f"{mis} miscompiles, refusals {ours} ours / {upstream} upstream, "
              f"{crashes} crashes, {timeouts} over the time limit")
        for r in [r for r in rs if r["status"] in ("crash", "timeout")][:5]:
            print(f"      {r['status']}: {r['payload']}: {r.get('detail', '')}")
        for reason, n in reasons.most_common(8):
            print(f"      {n:4} x {reason}")
        for payload, loc, msg in upstream_examples[:3]:
            print(f"      upstream-phrased: {payload}: {os.path.basename(loc)}: {msg[:140]}")
        by_kind = {}
        for k in KINDS:
            n = sum(r["kinds"][k] for r in rs)
            got = sum(r["scheduled_kinds"][k] for r in rs)
            by_kind[k] = [got, n]
        summary[name]["kinds"] = by_kind
        scope_n = by_kind["contraction"][1] + by_kind["conv-2d"][1]
        scope_got = by_kind["contraction"][0] + by_kind["conv-2d"][0]
        summary[name]["in_scope"] = [scope_got, scope_n]
        print("      by kind: " + ", ".join(f"{k} {g}/{n}" for k, (g, n) in by_kind.items())
              + f"; contractions + 2-D NHWC/NCHW convolutions {scope_got}/{scope_n}")
        left = collections.Counter()
        silent = []
        for r in rs:
            if r["status"] != "success":
                continue
            for why in r["left"]:
                left[reason_of(why)[:110]] += 1
            if r["matmuls"] - r["scheduled"] > len(r["left"]):
                silent.append(r)
        if left:
            print("      left with a remark (op count by reason):")
            for reason, n in left.most_common(8):
                print(f"      {n:4} x {reason}")
        summary[name]["left_with_remark"] = sum(left.values())
        summary[name]["left_silently"] = sum(r["matmuls"] - r["scheduled"] - len(r["left"])
                                             for r in silent)
        for r in silent[:5]:
            print(f"      left without a remark: {r['payload']} ({r['matmuls'] - r['scheduled']} of "
                  f"{r['matmuls']} left where they were, {len(r['left'])} remarks)")
        statuses = collections.Counter(r["exec"] for r in rs if r["status"] == "success")
        summary[name]["exec_status"] = dict(statuses)
        summary[name]["exec_timeout_ops"] = sum(r["scheduled"] for r in rs if r["exec"] == "timeout")
        reduced = [r for r in rs if r.get("exec_reduced")]
        summary[name]["exec_reduced"] = len(reduced)
        print("      exec-check verdicts (payloads): " + ", ".join(
            f"{k or 'not checked'} {n}" for k, n in sorted(statuses.items(), key=lambda x: str(x[0])))
            + (f" ({len(reduced)} of the passes on a reduced instance: their largest op runs "
               f"over {reduce_above} loop iterations)" if reduced else ""))
        for r in reduced[:5]:
            print(f"      reduced: {r['payload']}: {r['exec_detail']}")
        for r in [r for r in rs if r["exec"] not in (None, "pass", "unchanged")][:5]:
            print(f"      exec {r['exec']}: {r['payload']}: {r['exec_detail']}")
    return summary


def report_ops(driver, apps, read):
    print("\nops (per op: applications, successes, clean refusals ours/upstream, "
          "bugs, rewrites exec-checked pass/fail):")
    summary = {}
    by_op = collections.defaultdict(list)
    for a in apps:
        by_op[a.op].append(a)
    for op in sorted(by_op):
        rs = by_op[op]
        ok = sum(a.status == "success" for a in rs)
        clean = [a for a in rs if a.status == "clean_failure"]
        bugs = sum(a.status not in ("success", "clean_failure") for a in rs)
        ours = upstream = 0
        reasons = collections.Counter()
        for a in clean:
            if not a.errors:
                continue
            loc, msg = a.errors[0]
            who = classify_error(loc, msg, read)
            ours += who == "ours"
            upstream += who == "upstream"
            reasons[f"[{who}] {reason_of(msg)}"] += 1
        ep = sum(a.exec_status == "pass" for a in rs)
        ef = sum(a.exec_status == "fail" for a in rs)
        summary[op] = dict(applications=len(rs), successes=ok, refusals_ours=ours,
                           refusals_upstream=upstream, bugs=bugs, exec_pass=ep,
                           exec_fail=ef)
        print(f"  {op:28} {len(rs):6} applications {ok:6} successes "
              f"{ours:5}/{upstream} refusals {bugs} bugs, exec {ep} pass {ef} fail")
        for reason, n in reasons.most_common(4):
            print(f"      {n:5} x {reason}")
    return summary


def main():
    ap = argparse.ArgumentParser(description="hwsched ops and entry points on a frontend corpus")
    ap.add_argument("--corpus", action="append", default=[],
                    help="payload folder (repeatable; default test/Corpus/frontend)")
    ap.add_argument("--hwsched-opt", default=default_hwsched_opt())
    ap.add_argument("--parts", default="ops,entries")
    ap.add_argument("--entries", default="",
                    help="comma-separated entry points (default: all of ENTRIES)")
    ap.add_argument("--specs", default="",
                    help="specs for the ops part (default: every shipped spec)")
    ap.add_argument("--max-candidates", type=int, default=4)
    ap.add_argument("--quick", action="store_true",
                    help="headline entry points only; ops with two specs, two candidates")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--exec-timeout", type=int, default=0,
                    help="seconds per exec-check step (default --timeout); a payload "
                    "too large to run in it is reported as exec 'timeout'")
    ap.add_argument("--reduce-above", type=int, default=1 << 28,
                    help="exec-check a payload whose largest Linalg op runs more "
                    "loop iterations on a reduced instance of itself (exec-check.py "
                    "--reduce-above; 0: never; default 2^28)")
    ap.add_argument("--no-exec", action="store_true")
    ap.add_argument("--out", help="keep reproducers of failures here")
    ap.add_argument("--json", help="write the figures as JSON")
    ap.add_argument("--require-targets", action="store_true")
    ap.add_argument("--target-share", type=float, default=90.0)
    ap.add_argument("--keep-temps", action="store_true")
    args = ap.parse_args()
    args.hwsched_opt = shutil.which(args.hwsched_opt) or args.hwsched_opt
    if not os.path.exists(args.hwsched_opt):
        print(f"frontend-bench: no hwsched-opt at {args.hwsched_opt} (build first: "
              f"scripts/build.sh)", file=sys.stderr)
        return 2
    corpora = args.corpus or [os.path.join(ROOT, "test", "Corpus", "frontend")]
    for c in corpora:
        if not os.path.isdir(c):
            print(f"frontend-bench: corpus folder {c} not found; the foreign corpus is "
                  f"built by bench/frontend/gather_foreign.py (see bench/frontend/README.md)",
                  file=sys.stderr)
            return 2
    parts = args.parts.split(",")
    entries = ENTRIES
    if args.quick:
        entries = [e for e in ENTRIES if e[4]]
    if args.entries:
        entries = [e for e in ENTRIES if e[0] in args.entries.split(",")]
    scripts = "\n".join(open(f).read() for f in glob.glob(os.path.join(ROOT, "transform-scripts", "*.mlir")))
    missing = [e[0] for e in entries if f"@{e[0]}(" not in scripts or f"@{e[1]}(" not in scripts]
    entries = [e for e in entries if e[0] not in missing]
    t0 = time.time()
    work = tempfile.mkdtemp(prefix="hwsched-frontend-bench-")
    read = line_reader()
    payloads, skipped = collect(corpora, work, args.hwsched_opt, args.jobs)
    print(f"frontend-bench: {len(payloads)} payloads from {', '.join(corpora)} "
          f"({sum(p.executable for p in payloads)} executable with the harness, "
          f"{sum(p.matmuls for p in payloads)} matmul-class ops; {len(skipped)} chunks "
          f"skipped as not valid), hwsched-opt {args.hwsched_opt}", flush=True)
    for name, why in skipped[:10]:
        print(f"  skipped {name}: {why}")
    if missing:
        print(f"  entry points not in transform-scripts/: {', '.join(missing)}")
    figures = {"corpora": corpora, "payloads": len(payloads), "skipped": len(skipped)}
    crashes = miscompiles = upstream = 0

    if "entries" in parts and entries:
        jobs = [(p, e) for e in entries for p in payloads]
        results = []
        done = 0
        with concurrent.futures.ThreadPoolExecutor(args.jobs) as ex:
            futures = {ex.submit(run_entry, p, e, args): (p, e) for p, e in jobs}
            for fut in concurrent.futures.as_completed(futures):
                r = fut.result()
                results.append(r)
                done += 1
                mark = r["status"] if r["status"] != "success" else \
                    f"scheduled {r['scheduled']}/{r['matmuls']}" + \
                    (f", exec {r['exec']}" if r["exec"] else "")
                print(f"  [{done}/{len(jobs)}] {r['entry']} on {r['payload']}: {mark}",
                      flush=True)
        results.sort(key=lambda r: (r["entry"], r["payload"]))
        figures["entries"] = report_entries(results, entries, read, args.reduce_above)
        for s in figures["entries"].values():
            crashes += s["crashes"]
            miscompiles += s["miscompiles"]
            upstream += s["refusals_upstream"]

    if "ops" in parts:
        rob = load_robustness()
        specs = args.specs
        if args.quick and not specs:
            specs = "nvidia-a100,x86-avx512"
        ns = argparse.Namespace(
            hwsched_opt=args.hwsched_opt, specs=os.path.join(ROOT, "hw-specs"),
            spec_filter=specs, ops="", seed=1, generated=0, corpus=corpora,
            no_repo_ir=True, repo_specs=0,
            max_candidates=2 if args.quick else args.max_candidates,
            exec_limit=0, exec_sample=0, determinism=0, jobs=args.jobs,
            timeout=args.timeout, out=args.out, keep_temps=args.keep_temps)
        driver = rob.Driver(ns)
        ps = driver.probe(driver.canonicalize(driver.collect()))
        print(f"\nops: {len(ps)} payloads, specs {', '.join(driver.specs)}", flush=True)
        apps = []
        for k, p in enumerate(ps):
            got = driver.classify(p)
            apps += got
            print(f"  [{k + 1}/{len(ps)}] {p.name}: {len(got)} applications, "
                  f"{sum(a.status == 'success' for a in got)} successes", flush=True)
        driver.reparse(apps)
        driver.exec_checks(apps)
        figures["ops"] = report_ops(driver, apps, read)
        for s in figures["ops"].values():
            miscompiles += s["exec_fail"]
            upstream += s["refusals_upstream"]
        crashes += driver.stats.get("crash", 0)
        bugs = len(driver.bugs)
        figures["op_bugs"] = bugs
        if bugs:
            print(f"  robustness bugs: {bugs} ({', '.join(sorted(set(b[0] for b in driver.bugs)))})")
        if not args.keep_temps:
            shutil.rmtree(driver.work, ignore_errors=True)

    print()
    ok = crashes == 0 and miscompiles == 0
    for name, s in figures.get("entries", {}).items():
        if any(e[0] == name and e[4] for e in ENTRIES):
            met = s["share"] >= args.target_share and s["refusals_upstream"] == 0 and \
                s["exec_checked"] == s["scheduled"]
            print(f"HEADLINE {name}: {s['scheduled']}/{s['matmuls']} matmul-class ops "
                  f"scheduled ({s['share']:.1f}%), {s['exec_checked']} exec-checked; "
                  f"target {'met' if met else 'NOT met'}")
            if args.require_targets and not met:
                ok = False
    if args.require_targets and upstream:
        ok = False
    print(f"FRONTEND-BENCH: {crashes} crashes, {miscompiles} miscompiles, "
          f"{upstream} refusals phrased as an upstream error ({time.time() - t0:.0f} s)")
    figures.update(crashes=crashes, miscompiles=miscompiles, upstream_refusals=upstream)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(figures, f, indent=1)
    if args.keep_temps:
        print(f"frontend-bench: temporaries kept in {work}")
    else:
        shutil.rmtree(work, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
