"""One candidate's work, as functions an executor runs (locally or on a
Dask worker): they take plain data, return plain data and never raise for a
candidate's own failure (failures are data).

compile_candidate  the payload + driver through the transform script with a
                   one-entry tuning database naming the candidate, then the
                   CPU lowering (bench/cpu-matmul/run.py's LOWERING); or,
                   for GPU targets, through utils/ptxas-report.py
run_program        one mlir-runner process of a compiled candidate: the
                   per-call CPU times of its timed runs and its checksums
"""

import json
import os
import subprocess
import threading
import time

from . import paths

# The remark a database hit produces (select_tile_config): proof that the
# candidate, not the model's pick, was compiled.
HIT = "select_tile_config: from tuning database"


def _run(cmd, env=None, timeout=None):
    return paths.hwsched_tools().run_tool(cmd, timeout=timeout, env=env)


def _crash(rc, err):
    return paths.hwsched_tools().crashed(rc, err)


def _tail(text, n=1500):
    """The first error diagnostic of a tool's output (what a report line can
    show), else its end."""
    lines = text.strip().splitlines()
    for i, line in enumerate(lines):
        if "error:" in line:
            first = line[line.index("error:"):]
            return first if len(first) <= n else first[:n] + "..."
    text = "\n".join(lines)
    return text if len(text) <= n else "..." + text[-n:]


def candidate_database(key, config, knobs, schedule=None):
    """The one-entry database that makes the script compile a candidate
    (`schedule`: the problem's schedule record, when the export gave one)."""
    entry = {"knobs": dict(knobs)}
    if config is not None:
        entry["config"] = config
    if schedule is not None:
        entry["schedule"] = schedule
    return {"hwsched_tuning_db": 1, "entries": {key: entry}}


def transform_args(library, entry, target):
    args = [f"--transform-preload-library=transform-library-paths={library}",
            f"--transform-interpreter=entry-point={entry}"]
    if target:
        args.insert(0, f"--hwsched-target={target}")
    return args


def _step(out, stage, cmd, env, timeout, start):
    """Runs one tool of a compilation; on failure fills `out` (the stage and
    the tool's first error) and returns None, else the tool's stderr."""
    rc, _, err = _run(cmd, env, timeout)
    out["stage"] = stage
    crash = _crash(rc, err)
    if crash or rc != 0:
        out["reason"] = f"{stage} {'crashed: ' + crash if crash else 'failed'}: {_tail(err)}"
        out["seconds"] = time.time() - start
        return None
    return err


def compile_candidate(job):
    """job: {opt, program (payload + driver text), library, entry, target,
    database (dict or None), workdir, kind ("cpu"/"gpu"), timeout,
    ptxas_arch, expect_hit}. Returns {ok, stage, reason, seconds} plus, CPU:
    lowered (text), GPU: ptxas (figures per kernel); transformed (text)."""
    start = time.time()
    out = {"ok": False, "stage": "", "reason": "", "seconds": 0.0}
    os.makedirs(job["workdir"], exist_ok=True)
    src = os.path.join(job["workdir"], "program.mlir")
    with open(src, "w") as f:
        f.write(job["program"])
    env = dict(os.environ)
    env.pop("HWSCHED_TUNING_CANDIDATES", None)
    env.pop("HWSCHED_TUNING_DB", None)
    if job.get("database") is not None:
        db = os.path.join(job["workdir"], "candidate-db.json")
        with open(db, "w") as f:
            json.dump(job["database"], f)
        env["HWSCHED_TUNING_DB"] = db
    timeout = job.get("timeout", 600)

    # 1. The script, with the candidate's one-entry database.
    transformed = os.path.join(job["workdir"], "transformed.mlir")
    err = _step(out, "transform",
                [job["opt"], src, "--mlir-print-op-on-diagnostic=false",
                 *transform_args(job["library"], job["entry"], job["target"]),
                 "-o", transformed], env, timeout, start)
    if err is None:
        return out
    if job.get("database") is not None and job.get("expect_hit", True) and HIT not in err:
        out["reason"] = ("the script did not apply the candidate (no select_tile_config "
                         "read the tuning database for this problem)")
        out["seconds"] = time.time() - start
        return out
    with open(transformed) as f:
        out["transformed"] = f.read()

    if job["kind"] == "gpu":
        # 2. GPU, as examples/gpu-matmul does it: workgroup allocations as
        # memref.globals, then utils/ptxas-report.py lowers through NVVM and
        # assembles with ptxas (registers, spills, shared memory per kernel).
        text = out["transformed"]
        gpu_example = paths.gpu_example()
        if gpu_example is not None:
            text, _ = gpu_example.allocs_to_globals(text)
        globals_path = os.path.join(job["workdir"], "transformed-globals.mlir")
        with open(globals_path, "w") as f:
            f.write(text)
        report = os.path.join(paths.utils_dir(), "ptxas-report.py")
        rc, stdout, err = _run(["python3", report, globals_path, "--opt", job["opt"],
                                "--arch", job.get("ptxas_arch", "sm_80"),
                                "--format", "json"], None, timeout)
        out["stage"] = "ptxas"
        try:
            data = json.loads(stdout) if rc == 0 else None
        except ValueError:
            data = None
        if data is None:
            out["reason"] = f"ptxas-report failed: {_tail(err or stdout)}"
            out["seconds"] = time.time() - start
            return out
        out["ptxas"] = data.get("kernels", [])
    else:
        # 2. CPU: bench/cpu-matmul's lowering.
        lowered = os.path.join(job["workdir"], "lowered.mlir")
        if _step(out, "lowering", [paths.mlir_opt(), transformed,
                                   "--pass-pipeline=" + paths.cpu_bench().LOWERING,
                                   "-o", lowered], None, timeout, start) is None:
            return out
        with open(lowered) as f:
            out["lowered"] = f.read()
    out.update(ok=True, stage="compiled", seconds=time.time() - start)
    return out


def run_program(job):
    """job: {lowered (text) or lowered_path, workdir, cputime_lib,
    timeout}. One mlir-runner process. Returns {ok, reason, per_call
    (seconds), checks, seconds}."""
    start = time.time()
    path = job.get("lowered_path")
    if path is None:
        os.makedirs(job["workdir"], exist_ok=True)
        path = os.path.join(job["workdir"], "lowered.mlir")
        with open(path, "w") as f:
            f.write(job["lowered"])
    cputime = job.get("cputime_lib")
    if not cputime or not os.path.exists(cputime):
        # A worker on another machine builds its own.
        cputime = build_cputime(job["workdir"])
    with open(path) as f:
        threaded = paths.uses_openmp(f.read())
    if threaded:
        if not os.path.isfile(paths.openmp_lib()):
            return {"ok": False, "seconds": time.time() - start,
                    "reason": f"the program uses OpenMP and {paths.openmp_lib()} "
                              "is missing (Debian: apt-get install libomp-22-dev)"}
        # Several threads: the calling thread's CPU time would leave out the
        # others' work and count its waits at their barrier; wall clock.
        cputime = build_cputime(os.path.dirname(cputime), wall=True)
    libs = paths.runner_libs() + [cputime]
    if threaded:
        libs.append(paths.openmp_lib())
    cmd = [paths.mlir_runner(), "-O3", path, "-e", "hwsched_tune_main",
           "-entry-point-result=void", "-shared-libs=" + ",".join(libs)]
    rc, stdout, err = _run(cmd, None, job.get("timeout", 600))
    from . import harness
    out = {"ok": False, "reason": "", "seconds": time.time() - start}
    crash = _crash(rc, err)
    if rc == "timeout":
        out["reason"] = f"timed out after {job.get('timeout', 600)} s"
        return out
    if crash or rc != 0:
        out["reason"] = f"run {'crashed: ' + crash if crash else 'failed'} (exit {rc}): {_tail(err)}"
        return out
    per_call, checks = harness.parse_run(stdout)
    out.update(ok=True, per_call=per_call, checks={str(k): v for k, v in checks.items()})
    return out


def build_cputime(workdir, wall=False):
    """bench/cpu-matmul/cputime.c as a shared library: thread CPU time, or
    with `wall` the monotonic wall clock (for multi-threaded programs)."""
    lib = os.path.join(workdir, "libwalltime.so" if wall else "libcputime.so")
    if not os.path.exists(lib):
        src = os.path.join(paths.cpu_bench_dir(), "cputime.c")
        tmp = lib + f".{os.getpid()}.{threading.get_ident()}.tmp"
        subprocess.run(["gcc", "-O2", "-shared", "-fPIC"]
                       + (["-DHWSCHED_WALL_CLOCK"] if wall else []) + [src, "-o", tmp],
                       check=True)
        os.replace(tmp, lib)
    return lib
