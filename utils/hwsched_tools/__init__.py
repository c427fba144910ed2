"""hwsched's Python toolbox: the one package the scripts, benches and
hwsched-tune import (`sys.path.insert(0, <repo>/utils)`, then
`import hwsched_tools`; scripts in utils/ find it without that).

Modules:
  toolchain   where the tools are: the LLVM/MLIR install (llvm_dir,
              mlir_opt, mlir_runner, runner_libs, openmp_lib), ptxas,
              hwsched-opt (find_hwsched_opt)
  lowering    the one CPU lowering pipeline (cpu_lowering_pipeline)
  transform_calls
              a small @__transform_main calling transform-scripts/
              sequences with fixed params (Wrapper, preload_option)

and here, for the scripts that drive hwsched-opt as a subprocess:

  run_tool(cmd, timeout, env)       one subprocess: (rc, stdout, stderr);
                                    rc is "timeout" when it timed out
  crashed(rc, stderr)               why a run counts as a crash, or None
  spec_variant(name, updates, dir, why)  a spec (shipped, or a file) with figures changed, as a file
  Runner                            hwsched-opt on `// -----` chunks of one
                                    file, the transform interpreter with its
                                    expensive checks on
  exec_check_command(...)           the utils/exec-check.py command comparing
                                    CPU results before/after a transform
  op_application(op, handle, ...)   the script lines applying one hwsched op
  time_trace_events(path, name)     the (detail, microseconds) of the events
                                    `name` in a `hwsched-opt
                                    --hwsched-time-trace=FILE` trace
"""

import itertools
import json
import os
import platform
import subprocess
import sys

from . import lowering, toolchain, transform_calls  # noqa: F401  (re-exported modules)
from .toolchain import ROOT, UTILS, find_hwsched_opt  # noqa: F401

EXEC_CHECK = os.path.join(UTILS, "exec-check.py")

# What a crash looks like on stderr (signals and odd exit codes aside).
CRASH_MARKERS = ["PLEASE submit a bug report", "LLVM ERROR",
                 "ERROR: AddressSanitizer", "ERROR: LeakSanitizer",
                 "runtime error:", "Stack dump:", "Assertion `",
                 "UNREACHABLE executed"]

# The payload module of a chunk is the nested module with this tag.
TAG = "rob_payload"


def cpu_name():
    """The host CPU's model name, for the header line of a bench's output."""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine() or "unknown CPU"


def default_hwsched_opt():
    """$HWSCHED_OPT, else the build tree's hwsched-opt (the robustness
    harnesses test this checkout's build, not one found on PATH)."""
    return os.environ.get("HWSCHED_OPT",
                          os.path.join(ROOT, "build", "bin", "hwsched-opt"))


def spec_variant(name, updates, folder, why):
    """A copy of a spec with `updates` ({"cost_weights.sm_fill_threshold":
    0.0, ...}, dotted key paths), each changed figure's source saying `why`
    (one text for all, or {key: text}), written as FOLDER/NAME.json (a spec
    file is named for its `name`: pass the path, or FOLDER on
    HWSCHED_SPEC_PATH with the name). `name` is a shipped spec
    (hw-specs/NAME.json) or the path of a spec file. A bench that varies a
    figure asks the shipped query sequences with this spec instead of an op
    override."""
    path = name if name.endswith(".json") else os.path.join(ROOT, "hw-specs", f"{name}.json")
    with open(path) as f:
        data = json.load(f)
    for key, value in updates.items():
        *parents, leaf = key.split(".")
        node = data
        for part in parents:
            node = node.setdefault(part, {})
        node[leaf] = value
        data.setdefault("sources", {})[key] = why[key] if isinstance(why, dict) else why
    os.makedirs(folder, exist_ok=True)
    out = os.path.join(folder, os.path.splitext(os.path.basename(path))[0] + ".json")
    with open(out, "w") as f:
        json.dump(data, f, indent=1)
    return out


def run_tool(cmd, timeout=None, env=None):
    """Runs `cmd`; returns (rc, stdout, stderr), rc "timeout" on a timeout."""
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout,
                           env=env, errors="replace")
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "timeout", "", f"TIMEOUT after {timeout}s"


def crashed(rc, err):
    """The reason a run counts as a crash, or None (exit 0/1 is a verdict)."""
    if rc == "timeout":
        return "timeout"
    for m in CRASH_MARKERS:
        if m in err:
            return m
    if isinstance(rc, int) and (rc < 0 or rc > 1):
        return f"exit status {rc}"
    return None


class Runner:
    """Runs hwsched-opt on the `// -----` chunks of one temporary file."""

    def __init__(self, hwsched_opt, workdir, timeout=600):
        self.opt = hwsched_opt
        self.work = workdir
        self.timeout = timeout
        # The spec a run uses must come from the script, not the caller's
        # environment.
        self.env = dict(os.environ)
        self.env.pop("HWSCHED_TARGET", None)
        self.env.pop("HWSCHED_SPEC_PATH", None)
        # File names stay distinct when threads share the runner (the
        # robustness driver runs its batches two at a time).
        self.seq = itertools.count(1)

    def base_args(self):
        return ["--split-input-file", "--mlir-print-local-scope",
                "--mlir-print-op-on-diagnostic=false"]

    def interp_args(self, entry="__rob_main"):
        return [f"--transform-interpreter=entry-point={entry} "
                f"debug-payload-root-tag={TAG} disable-expensive-checks=false",
                "--mlir-print-ir-after-failure"]

    def run(self, chunks, extra, env=None, name="batch"):
        """Returns (path, cmd, rc, stdout, stderr) for the chunks."""
        path = os.path.join(self.work, f"{name}-{next(self.seq)}.mlir")
        with open(path, "w") as f:
            f.write("\n// -----\n".join(chunks))
        cmd = [self.opt, path] + self.base_args() + extra
        rc, out, err = run_tool(cmd, self.timeout, env or self.env)
        return path, cmd, rc, out, err


def exec_check_command(payload, hwsched_opt, library, entry,
                       options=("--erase-memory-spaces", "--erase-gpu-barriers")):
    """exec-check.py on `payload`, transformed by the named sequence `entry`
    of the script file `library`; exit status 0 iff the CPU results agree.
    By default GPU/NPU memory spaces and gpu.barrier (a no-op for the one
    CPU thread; pipelining inserts it for GPU specs) are erased first."""
    return [sys.executable, EXEC_CHECK, payload, "--opt", hwsched_opt,
            *options, "--",
            f"--transform-preload-library=transform-library-paths={library}",
            f"--transform-interpreter=entry-point={entry}"]


# How each hwsched op is spelled, by short name: (op, result types).
# None: no result; "handle": one handle; "param": one param; "params5".
OPS = {
    "filter_fusable_consumers": ("transform.cost_model.filter_fusable_consumers", "handle"),
    "estimate": ("transform.cost_model.estimate", "param"),
    "select_tile_config": ("transform.cost_model.select_tile_config", "params5"),
    "schedule_stages": ("transform.pipeline.schedule_stages", "handle"),
    "merge_allocations": ("transform.smem.merge_allocations", "handle"),
    "eliminate_redundant_copies": ("transform.smem.eliminate_redundant_copies", None),
    "attach_target_spec": ("transform.hwsched.attach_target_spec", None),
    "query_spec": ("transform.hwsched.query_spec", "param"),
    "epilogue_in_place": ("transform.fusion.epilogue_in_place", "handle"),
    "split_k": ("transform.hwsched.split_k", "split3"),
    "rewrite_matmul_as_wgmma": ("transform.hwsched.rewrite_matmul_as_wgmma", "handle"),
    "match_wgmma_matmuls": ("transform.hwsched.match_wgmma_matmuls", "handle2"),
    "match_mma_sync_matmuls": ("transform.hwsched.match_mma_sync_matmuls", "handle2"),
    "outline_kernel_function": ("transform.hwsched.outline_kernel_function", "handle2"),
    "split_accumulation": ("transform.hwsched.split_accumulation", "handle"),
    "avoid_bank_conflicts": ("transform.smem.avoid_bank_conflicts", None),
    "epilogue_into_stores": ("transform.fusion.epilogue_into_stores", None),
}


def op_application(op, handle, handle_type, attrs, count_handles=False,
                   all_params=False, split_factor=2):
    """Script lines applying the hwsched op `op` (a short name) to `handle`.

    Params are emitted as "ROB-RESULT" remarks (select_tile_config: the first,
    or with `all_params` all five as "ROB-RESULT i"); with `count_handles` a
    handle result's size is emitted too. split_k takes its factor from a
    param constant `split_factor`."""
    full, results = OPS[op]
    p, any_op = "!transform.any_param", "!transform.any_op"
    if results == "split3":
        pi = "!transform.param<i64>"
        lines = [f"%sk = transform.param.constant {split_factor} : i64 -> {pi}",
                 f"%r:3 = {full} {handle} by %sk {attrs} : ({handle_type}, {pi}) -> "
                 f"({any_op}, {any_op}, {any_op})"]
        if count_handles:
            lines += [f"%n = transform.num_associations %r#1 : ({any_op}) -> {pi}",
                      f'transform.debug.emit_param_as_remark %n, "ROB-RESULT" : {pi}']
        return lines
    if results is None:
        return [f"{full} {handle} {attrs} : {handle_type}"]
    if results == "handle":
        lines = [f"%r = {full} {handle} {attrs} : ({handle_type}) -> {any_op}"]
        if count_handles:
            lines += [f"%n = transform.num_associations %r : ({any_op}) -> !transform.param<i64>",
                      'transform.debug.emit_param_as_remark %n, "ROB-RESULT" : !transform.param<i64>']
        return lines
    if results == "handle2":
        lines = [f"%r:2 = {full} {handle} {attrs} : ({handle_type}) -> ({any_op}, {any_op})"]
        if count_handles:
            lines += [f"%n = transform.num_associations %r#0 : ({any_op}) -> !transform.param<i64>",
                      'transform.debug.emit_param_as_remark %n, "ROB-RESULT" : !transform.param<i64>']
        return lines
    if results == "param":
        return [f"%r = {full} {handle} {attrs} : ({handle_type}) -> {p}",
                f'transform.debug.emit_param_as_remark %r, "ROB-RESULT" : {p}']
    lines = [f"%t:5 = {full} {handle} {attrs} : ({handle_type}) -> ({', '.join([p] * 5)})"]
    if all_params:
        lines += [f'transform.debug.emit_param_as_remark %t#{i}, "ROB-RESULT {i}" : {p}'
                  for i in range(5)]
    else:
        lines.append(f'transform.debug.emit_param_as_remark %t#0, "ROB-RESULT" : {p}')
    return lines


def time_trace_events(path, name):
    """The events called `name` (e.g. "hwsched::selectTileConfig") in the
    Chrome trace that `hwsched-opt --hwsched-time-trace=path` wrote, in the
    order they began: a list of (detail, microseconds). The durations are
    wall-clock (LLVM's time profiler); the detail is the payload location the
    library gave the event, or "". The profiler's "Total <name>" summaries
    are not events of one call and are left out."""
    with open(path) as f:
        trace = json.load(f)
    events = [e for e in trace.get("traceEvents", [])
              if e.get("ph") == "X" and e.get("name") == name]
    events.sort(key=lambda e: e.get("ts", 0))
    return [(e.get("args", {}).get("detail", ""), float(e.get("dur", 0)))
            for e in events]
