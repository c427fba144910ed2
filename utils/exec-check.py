#!/usr/bin/env python3
"""exec-check.py: check by CPU execution that a transformation preserves semantics.

Usage:
  python3 utils/exec-check.py INPUT.mlir [options] -- <transform args>
  python3 utils/exec-check.py --print-pipeline

INPUT.mlir is an executable payload: `func.func @main()` (no arguments, no
results) builds its inputs deterministically, calls the kernels and prints the
results, e.g. with

  func.func private @printMemrefF32(memref<*xf32>) attributes {llvm.emit_c_interface}

(printMemrefI32, printMemrefF64, ..., vector.print work too).

Steps (each runs in a temporary directory, see --keep-temps):
  BEFORE  INPUT -> [pre-lower] -> lower (--lower-opt) -> run (--runner)
  AFTER   INPUT -> transform (--opt <transform args>) -> [pre-lower] -> lower -> run
  compare the two outputs.

Everything after `--` is handed verbatim to the --opt tool for the AFTER
transform step, typically
  --transform-preload-library=transform-library-paths=LIB.mlir
  --transform-interpreter=entry-point=NAME
or plain pass flags (`--canonicalize`, `--hwsched-...`). With no transform
arguments AFTER is a round trip through the --opt tool (a smoke test that the
payload runs).

The optional pre-lower step runs the --opt tool on both sides with
`--hwsched-emulate-gpu-launch` (if --emulate-gpu-launch: first, since it finds
workgroup memory by its memory space), then `--hwsched-emulate-async-copies`
(if --emulate-async-copies: before the erasure, since nvgpu.device_async_copy
does not verify without its shared-memory space), then
`--hwsched-erase-memory-spaces` (if --erase-memory-spaces), then
`--hwsched-emulate-npu-sync` (if --emulate-npu-sync), then the
--pre-lower-pass-args, in that order.

Lowering (--lower-opt) uses the single pipeline in LOWERING_PIPELINE; print it
with --print-pipeline. Its first entry (one-shot-bufferize) only runs when the
IR still contains tensor types.

Running: `mlir-runner FILE -e main -entry-point-result=void
-shared-libs=<dir>/libmlir_c_runner_utils.so,<dir>/libmlir_runner_utils.so`.

Comparison: the run's stdout, with the `base@ = 0x...` addresses printed by
printMemref* replaced by `base@ = <addr>` (they differ between runs) and with
trailing whitespace stripped. Exact textual comparison by default. With --rtol
and/or --atol, numbers are parsed out of each line and compared with
|after - before| <= atol + rtol * |before| (NaN matches NaN, infinities must be
equal); the text between the numbers must match up to whitespace.

Verdict on stdout:
  EXEC-CHECK: PASS (<N> output lines identical)                      exit 0
  EXEC-CHECK: PASS (<N> output lines match within rtol=.. atol=..)   exit 0
  EXEC-CHECK: FAIL (<reason>) + unified diff (first 40 lines)        exit 1
Outputs that differ on a payload that reads an uninitialized tensor (a
Linalg op accumulating into a tensor.empty: its values are undefined) FAIL as
an "invalid instance", not as "outputs differ" (hwsched_tools/
undefined_reads.py). It also FAILs when any step fails (the step and command
are named, stderr shown), when BEFORE prints nothing (a check that cannot fail is not a
check), and with --expect-changed when the transformed IR equals the original
IR as printed by the --opt tool. Usage errors exit 2. An opt-tool step also
fails when it prints an `error:` diagnostic despite exit code 0 (partial
conversions do that, e.g. an unconvertible memref memory space) or writes no
output file (mlir-opt prints --help and exits 0 for some unknown flags), and
the lowering step fails when ops other than llvm.* / builtin.* remain.

Precision: printMemrefF32 prints 6 significant digits, so "identical" means
identical to 6 digits, not bit-identical. For bit-exact checks choose inputs
whose results are exactly representable (as test/Harness/Inputs/matmul-exec.mlir
does) or print the bits (arith.bitcast to i32, printMemrefI32).

Options:
  --opt PATH             tool for the transform and pre-lower steps. Default:
                         $HWSCHED_OPT, else `hwsched-opt` on PATH, else the
                         build tree's, else LLVM's mlir-opt. LLVM's tools are
                         those of $HWSCHED_LLVM_DIR, else of llvm-config-22,
                         else of /usr/lib/llvm-22 (hwsched_tools.toolchain).
  --lower-opt PATH       tool for lowering (default: LLVM's mlir-opt).
  --runner PATH          default: LLVM's mlir-runner.
  --shared-lib-dir DIR   where the runner utils libraries are (default: LLVM's
                         lib/).
  --pre-lower-pass-args "ARGS"  extra --opt arguments (shell-split) for the
                         pre-lower step on both sides.
  --erase-memory-spaces  run --hwsched-erase-memory-spaces (needs hwsched-opt as
                         --opt) on both sides before lowering, so that payloads
                         with GPU / string memory spaces can run on the CPU.
  --emulate-npu-sync     run --hwsched-emulate-npu-sync (needs hwsched-opt as
                         --opt) on both sides before lowering: hwsched_npu
                         set_flag / wait_flag become checked bookkeeping, and
                         a run aborts (FAIL, message on stderr) on a wait
                         without a set, a flag set twice, or a flag left set.
  --emulate-async-copies run --hwsched-emulate-async-copies (needs hwsched-opt
                         as --opt) on both sides before lowering, and load its
                         runtime into the runner: nvgpu async copies are
                         deferred until a device_async_wait completes their
                         group, so a too-permissive wait count leaves the
                         on-chip buffer stale (FAIL), and a function returning
                         with copies pending aborts (FAIL).
  --emulate-gpu-launch   run --hwsched-emulate-gpu-launch (needs hwsched-opt as
                         --opt) on both sides before lowering: every
                         gpu.launch with constant block sizes runs its blocks
                         one after the other, each as an OpenMP team of as
                         many real threads as the block has (ids from the
                         OpenMP thread number, x fastest), gpu.barrier as
                         omp.barrier, workgroup allocations shared by the
                         block's threads. So a missing barrier is a data race
                         the run shows (outputs differ: FAIL). The runner
                         then loads libomp.so and runs with
                         OMP_WAIT_POLICY=passive (threads waiting at a barrier
                         sleep instead of spinning: 128 threads on 2 cores),
                         OMP_DYNAMIC=false and OMP_THREAD_LIMIT=4096; a team
                         smaller than its block aborts the run (FAIL). Use
                         with --emulate-async-copies (per-thread copy groups)
                         and --erase-memory-spaces; not with
                         --erase-gpu-barriers or --thread-ids-from.
  --async-emu-lib PATH   the runtime library for --emulate-async-copies.
                         Default: $HWSCHED_ASYNC_EMU_LIB, else
                         libhwsched_async_emu.so in ../lib next to --opt.
  --erase-gpu-barriers   delete `gpu.barrier` ops (a line-based edit of the IR)
                         on both sides before pre-lowering: a single-threaded
                         CPU run needs no workgroup barrier, and gpu.barrier
                         has no CPU lowering.
  --thread-ids-from PREFIX  replace every `%v = gpu.thread_id D` line (a
                         line-based edit, both sides, after --erase-gpu-barriers)
                         by `%v = func.call @PREFIX_D() : () -> index`: the
                         payload defines those functions (e.g. reading a global
                         that @main sets while it runs the kernel once per
                         emulated thread, one thread after the other).
  --keep-temps DIR       keep all intermediate files in DIR (created if needed):
                         {before,after}.{prelowered,lowered}.mlir,
                         after.transformed.mlir, {before,after}.output.txt and
                         commands.sh (every command run, to reproduce by hand).
  --rtol R, --atol A     numeric tolerance (default: exact comparison).
  --expect-changed       FAIL if the transform left the IR textually unchanged.
  --print-ir-after       print the transformed IR (before lowering) on stdout.
  --add-main             the payload has no @main (frontend-style functions on
                         tensors or memrefs): append the one utils/exec_harness.py
                         writes (deterministic small-integer inputs, every
                         public function called, every result printed) before
                         both sides; the transform then sees it too (it holds
                         no Linalg op). Kept as input.with-main.mlir.
  --dynamic-extent N     with --add-main: the extent of a dynamic dimension
                         (default 24). Argument dimensions that Linalg ops
                         read get extents that fit those ops instead
                         (hwsched_tools/dynamic_extents.py: e.g. a
                         convolution's input rows from its output rows,
                         window and stride), solved on the payload with its
                         named ops generalized (--opt).
  --reduce-above N       with --add-main: a payload whose largest Linalg op
                         runs more than N loop iterations is checked on a
                         smaller instance of itself (the same ops, maps,
                         windows and element types; large loops cut down,
                         their remainder mod 16 kept:
                         hwsched_tools/reduced_instance.py), since its
                         unscheduled reference would run for hours. The
                         schedule then decides for the smaller shapes; the
                         PASS line says "reduced instance". Off by default.
  --timeout SECONDS      per-step time limit (default 600).
  --print-pipeline       print the lowering pipeline (pass-pipeline syntax) and exit.
  -v, --verbose          print every command and its run time on stderr.

Limitations: ops without a CPU lowering (gpu.barrier, nvgpu/nvvm ops, gpu.launch
without --emulate-gpu-launch, ...) make the lowering step fail; so does a
transform script embedded in the payload (keep scripts in a library passed with
--transform-preload-library). Runs are JIT executions: scf.forall /
scf.parallel run sequentially unless the transform already turned them into
OpenMP (omp.parallel, which then runs on LLVM's libomp, added to the runner's
libraries). With --emulate-gpu-launch the threads of a block run concurrently,
but on the CPU's memory model and scheduling: a race shows only when the
threads happen to interleave badly (a missing barrier between a write and
another thread's read usually does), and warp-synchronous code (lanes relying
on lockstep, shuffles) is refused or not modelled.
"""

import argparse
import difflib
import math
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hwsched_tools import lowering, toolchain  # noqa: E402

STOCK_OPT = toolchain.mlir_opt()
STOCK_RUNNER = toolchain.mlir_runner()
STOCK_LIB_DIR = os.path.join(toolchain.llvm_dir(), "lib")
RUNNER_LIBS = list(toolchain.RUNNER_LIB_NAMES)
ERASE_MEMORY_SPACES_FLAG = "--hwsched-erase-memory-spaces"
EMULATE_NPU_SYNC_FLAG = "--hwsched-emulate-npu-sync"
EMULATE_ASYNC_COPIES_FLAG = "--hwsched-emulate-async-copies"
EMULATE_GPU_LAUNCH_FLAG = "--hwsched-emulate-gpu-launch"
# The OpenMP settings of an emulated gpu.launch's run: a block's team has up
# to 1024 threads on a machine of a few cores, so waiting threads must sleep
# (passive) rather than spin, and the runtime must neither shrink a team
# (OMP_DYNAMIC) nor cap it below the block size (OMP_THREAD_LIMIT, above any
# GPU's 1024 threads per block). The program also checks its team sizes.
GPU_LAUNCH_ENV = {"OMP_WAIT_POLICY": "passive", "OMP_DYNAMIC": "false",
                  "OMP_THREAD_LIMIT": "4096"}
ASYNC_EMU_LIB = "libhwsched_async_emu.so"
# A whole line holding a gpu.barrier (it has no operands or results).
GPU_BARRIER_LINE_RE = re.compile(r"^[ \t]*gpu\.barrier[ \t]*(\{[^}\n]*\})?[ \t]*\n",
                                 re.MULTILINE)
# `%v = gpu.thread_id x` (optionally with an upper bound), for --thread-ids-from.
GPU_THREAD_ID_RE = re.compile(r"(%[\w.$-]+) = gpu\.thread_id\s+([xyz])(\s+upper_bound\s+\d+)?")

# The lowering pipeline (hwsched_tools.lowering, shared with the CPU
# benches), one pass per entry, run as
#   --pass-pipeline='builtin.module(<entries joined by ",">)'.
# The first entry is dropped when no tensor type remains in the IR.
BUFFERIZE_PASS = lowering.BUFFERIZE_PASS
LOWERING_PIPELINE = lowering.cpu_lowering_passes()

TENSOR_TYPE_RE = re.compile(r"\btensor<")
DYNAMIC_TYPE_RE = re.compile(r"\b(?:tensor|memref)<[^>]*\?")
RUNTIME_CHECK_FAILED = "Runtime op verification failed"
ADDRESS_RE = re.compile(r"base@ = 0x[0-9a-fA-F]+")
NUMBER_RE = re.compile(
    r"(?<![\w.])([-+]?(?:(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|inf|nan))(?![\w.])",
    re.IGNORECASE)
DIFF_LINES = 40
ERROR_DIAG_RE = re.compile(r"(^|\W)error:|Unknown command line argument", re.MULTILINE)
# Operation names at the start of a statement (`%x = foo.bar`, `foo.bar`,
# `"foo.bar"(...)`): after lowering, only llvm.* and builtin.* may remain.
OP_NAME_RE = re.compile(
    r'^\s*(?:%[^=]*=\s*)?"?([A-Za-z_][\w$]*\.[\w$.]+)', re.MULTILINE)
LOWERED_DIALECTS = ("llvm", "builtin", "omp")
# LLVM's OpenMP runtime (Debian: libomp-22-dev), loaded into mlir-runner when
# the lowered program has omp ops.
OPENMP_LIB = "libomp.so"
OMP_OP_RE = re.compile(r"^\s*(?:%[^=]*=\s*)?\"?omp\.", re.MULTILINE)


def pipeline_string(with_bufferize=True):
    passes = [p for p in LOWERING_PIPELINE if with_bufferize or p != BUFFERIZE_PASS]
    return "builtin.module(" + ",".join(passes) + ")"


def excerpt(text, head=15, tail=25):
    """The first `head` and last `tail` lines of text (errors come first,
    IR dumps of failed transforms come after them)."""
    lines = text.rstrip().splitlines()
    if len(lines) <= head + tail:
        return "\n".join(lines) if lines else "(empty)"
    return "\n".join(lines[:head] + [f"... ({len(lines) - head - tail} lines) ..."]
                     + lines[-tail:])


class CheckFailure(Exception):
    """A failed step or comparison: reported as EXEC-CHECK: FAIL."""


class Runner:
    def __init__(self, workdir, timeout, verbose):
        self.workdir = workdir
        self.timeout = timeout
        self.verbose = verbose
        self.times = []
        self.commands = []

    def run(self, step, cmd, stdout_path=None, output_file=None, env=None):
        """Runs cmd; returns its stdout text. Raises CheckFailure on failure.

        env: variables set for this command (on top of the environment).

        output_file: the file an opt tool step must produce. Such steps also
        fail on any `error:` diagnostic, even with exit code 0 (a partial
        dialect conversion can report an error and still succeed), and when
        the file is missing (mlir-opt prints --help and exits 0 on an unknown
        command-line flag).
        """
        cmd_text = shlex.join(cmd)
        if env:
            cmd_text = shlex.join(["env"] + [f"{k}={v}" for k, v in env.items()]
                                  ) + " " + cmd_text
        self.commands.append((step, cmd_text))
        for stale in (output_file, stdout_path):  # left by an earlier --keep-temps run
            if stale and os.path.exists(stale):
                os.remove(stale)
        if self.verbose:
            print(f"exec-check: [{step}] {cmd_text}", file=sys.stderr)
        start = time.monotonic()
        try:
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  timeout=self.timeout,
                                  env={**os.environ, **env} if env else None)
        except subprocess.TimeoutExpired:
            raise CheckFailure(f"step '{step}' timed out after {self.timeout} s\n"
                               f"  command: {cmd_text}")
        except OSError as err:
            raise CheckFailure(f"step '{step}' could not start: {err}\n"
                               f"  command: {cmd_text}")
        elapsed = time.monotonic() - start
        self.times.append((step, elapsed))
        out = proc.stdout.decode("utf-8", errors="replace")
        err = proc.stderr.decode("utf-8", errors="replace")
        if self.verbose:
            print(f"exec-check: [{step}] exit {proc.returncode} in {elapsed:.2f} s",
                  file=sys.stderr)
        if proc.returncode != 0:
            tail = excerpt(err)
            how = (f"was killed by signal {-proc.returncode}" if proc.returncode < 0
                   else f"failed with exit code {proc.returncode}")
            raise CheckFailure(f"step '{step}' {how}\n  command: {cmd_text}\n"
                               f"  stderr:\n{tail}")
        if output_file is not None:
            problem = None
            if ERROR_DIAG_RE.search(err):
                problem = "reported an error (exit code 0)"
            elif not os.path.isfile(output_file):
                problem = ("produced no output file (an unknown flag? mlir-opt then "
                           "prints its --help and exits 0)")
            if problem:
                tail = excerpt(err)
                raise CheckFailure(f"step '{step}' {problem}\n  command: {cmd_text}\n"
                                   f"  stderr:\n{tail}")
        if err.strip():
            # Warnings and remarks of a successful step: keep them visible,
            # but off stdout so that they cannot confuse FileCheck.
            for line in err.rstrip().splitlines():
                print(f"exec-check: [{step}] stderr: {line}", file=sys.stderr)
        if stdout_path:
            with open(stdout_path, "w") as f:
                f.write(out)
        return out


def default_opt():
    return toolchain.find_hwsched_opt(fallback_to_mlir_opt=True) or STOCK_OPT


def async_emu_lib(args, opt):
    """The runtime of --hwsched-emulate-async-copies (see --async-emu-lib)."""
    lib = args.async_emu_lib or os.environ.get("HWSCHED_ASYNC_EMU_LIB")
    if not lib:
        tool = opt if os.sep in opt else (shutil.which(opt) or opt)
        lib = os.path.join(os.path.dirname(os.path.realpath(tool)), os.pardir, "lib",
                           ASYNC_EMU_LIB)
    lib = os.path.normpath(lib)
    if not os.path.isfile(lib):
        raise CheckFailure(f"async copy emulation runtime not found: {lib} "
                           "(build the hwsched_async_emu target or pass --async-emu-lib)")
    return lib


def check_tool(name, path):
    if os.sep in path:
        ok = os.path.isfile(path) and os.access(path, os.X_OK)
    else:
        ok = shutil.which(path) is not None
    if not ok:
        raise CheckFailure(f"{name} tool not found or not executable: {path}")


def normalize_output(text):
    return [ADDRESS_RE.sub("base@ = <addr>", line).rstrip()
            for line in text.splitlines()]


def unified_diff(before, after):
    diff = list(difflib.unified_diff(before, after, "BEFORE", "AFTER", lineterm=""))
    shown = diff[:DIFF_LINES]
    if len(diff) > DIFF_LINES:
        shown.append(f"... ({len(diff) - DIFF_LINES} more diff lines)")
    return "\n".join(shown)


def split_numbers(line):
    """Returns (text parts with whitespace collapsed, list of number strings)."""
    parts = NUMBER_RE.split(line)
    texts = [" ".join(p.split()) for p in parts[0::2]]
    return texts, parts[1::2]


def numbers_close(a_str, b_str, rtol, atol):
    a, b = float(a_str), float(b_str)
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    if math.isinf(a) or math.isinf(b):
        return a == b
    return abs(b - a) <= atol + rtol * abs(a)


def compare_with_tolerance(before, after, rtol, atol):
    """Returns (first mismatch description or None, max abs diff, max rel diff)."""
    if len(before) != len(after):
        return (f"line counts differ: BEFORE {len(before)}, AFTER {len(after)}",
                0.0, 0.0)
    max_abs = max_rel = 0.0
    for lineno, (lb, la) in enumerate(zip(before, after), 1):
        if lb == la:
            continue
        tb, nb = split_numbers(lb)
        ta, na = split_numbers(la)
        if tb != ta or len(nb) != len(na):
            return (f"line {lineno}: text or number count differs", max_abs, max_rel)
        for col, (xb, xa) in enumerate(zip(nb, na), 1):
            if not numbers_close(xb, xa, rtol, atol):
                return (f"line {lineno}, number {col}: BEFORE {xb}, AFTER {xa} "
                        f"(allowed |diff| <= atol + rtol*|BEFORE|)", max_abs, max_rel)
            fb, fa = float(xb), float(xa)
            if math.isfinite(fb) and math.isfinite(fa):
                d = abs(fa - fb)
                max_abs = max(max_abs, d)
                if fb != 0:
                    max_rel = max(max_rel, d / abs(fb))
    return None, max_abs, max_rel


def plugin_args(transform_args):
    """Tool arguments that the plain round trip of the input also needs."""
    keep = ("--load-dialect-plugin", "--load-pass-plugin", "-load-dialect-plugin",
            "-load-pass-plugin", "--allow-unregistered-dialect",
            "-allow-unregistered-dialect")
    return [a for a in transform_args if a.split("=", 1)[0] in keep]


def parse_args(argv):
    if "--" in argv:
        idx = argv.index("--")
        own, transform_args = argv[:idx], argv[idx + 1:]
    else:
        own, transform_args = argv, []
    p = argparse.ArgumentParser(
        prog="exec-check.py",
        usage="%(prog)s INPUT.mlir [options] -- <transform args>",
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("input", nargs="?", help="payload .mlir with func.func @main()")
    p.add_argument("--opt", default=None)
    p.add_argument("--lower-opt", default=STOCK_OPT)
    p.add_argument("--runner", default=STOCK_RUNNER)
    p.add_argument("--shared-lib-dir", default=STOCK_LIB_DIR)
    p.add_argument("--pre-lower-pass-args", default="")
    p.add_argument("--erase-memory-spaces", action="store_true")
    p.add_argument("--emulate-npu-sync", action="store_true")
    p.add_argument("--emulate-async-copies", action="store_true")
    p.add_argument("--emulate-gpu-launch", action="store_true")
    p.add_argument("--async-emu-lib", default=None)
    # --erase-barriers is the older spelling, kept for existing tests.
    p.add_argument("--erase-gpu-barriers", "--erase-barriers",
                   dest="erase_gpu_barriers", action="store_true")
    p.add_argument("--thread-ids-from", metavar="PREFIX", default=None)
    p.add_argument("--keep-temps", metavar="DIR", default=None)
    p.add_argument("--rtol", type=float, default=None)
    p.add_argument("--atol", type=float, default=None)
    p.add_argument("--expect-changed", action="store_true")
    p.add_argument("--print-ir-after", action="store_true")
    p.add_argument("--timeout", type=float, default=600.0)
    p.add_argument("--print-pipeline", action="store_true")
    p.add_argument("--add-main", action="store_true")
    p.add_argument("--dynamic-extent", type=int, default=24)
    p.add_argument("--reduce-above", type=int, default=None, metavar="N")
    p.add_argument("-v", "--verbose", action="store_true")
    args = p.parse_args(own)
    if not args.print_pipeline and not args.input:
        p.error("INPUT.mlir is required")
    for name in ("rtol", "atol"):
        value = getattr(args, name)
        if value is not None and (value < 0 or math.isnan(value)):
            p.error(f"--{name} must be a non-negative number")
    if args.reduce_above is not None and (args.reduce_above < 1 or not args.add_main):
        p.error("--reduce-above needs --add-main and a positive iteration count")
    if args.emulate_gpu_launch and (args.erase_gpu_barriers or args.thread_ids_from):
        p.error("--emulate-gpu-launch runs the threads concurrently: it needs the "
                "barriers and thread ids that --erase-gpu-barriers and "
                "--thread-ids-from take away")
    args.transform_args = transform_args
    args.reduction = None
    return args


def lower_and_run(r, side, ir_path, args, opt, pre_lower_args, libs):
    """Pre-lowers, lowers and runs one side; returns normalized output lines."""
    base = os.path.join(r.workdir, side.lower())
    if args.erase_gpu_barriers:
        with open(ir_path, errors="replace") as f:
            text = f.read()
        out = base + ".nobarriers.mlir"
        with open(out, "w") as f:
            f.write(GPU_BARRIER_LINE_RE.sub("", text))
        ir_path = out
    if args.thread_ids_from:
        with open(ir_path, errors="replace") as f:
            text = f.read()
        out = base + ".threadids.mlir"
        with open(out, "w") as f:
            f.write(GPU_THREAD_ID_RE.sub(
                lambda m: f"{m.group(1)} = func.call @{args.thread_ids_from}_{m.group(2)}() "
                          ": () -> index", text))
        ir_path = out
    if pre_lower_args:
        out = base + ".prelowered.mlir"
        r.run(f"{side}: pre-lower", [opt, ir_path, *pre_lower_args, "-o", out],
              output_file=out)
        ir_path = out
    with open(ir_path, errors="replace") as f:
        has_tensors = bool(TENSOR_TYPE_RE.search(f.read()))
    lowered = base + ".lowered.mlir"
    lower_cmd = [args.lower_opt, ir_path,
                 "--pass-pipeline=" + pipeline_string(has_tensors), "-o", lowered]
    r.run(f"{side}: lower", lower_cmd, output_file=lowered)
    with open(lowered, errors="replace") as f:
        lowered_text = f.read()
    leftovers = sorted({name for name in OP_NAME_RE.findall(lowered_text)
                        if name.split(".", 1)[0] not in LOWERED_DIALECTS})
    if leftovers:
        raise CheckFailure(f"step '{side}: lower' left ops that have no CPU lowering "
                           f"in this pipeline: {', '.join(leftovers)}\n"
                           f"  command: {shlex.join(lower_cmd)}")
    if OMP_OP_RE.search(lowered_text):
        omp = os.path.join(args.shared_lib_dir, OPENMP_LIB)
        if not os.path.isfile(omp):
            raise CheckFailure(f"step '{side}: run': the program uses OpenMP and "
                               f"{omp} is missing (Debian: apt-get install "
                               "libomp-22-dev)")
        libs = libs + [omp]
    out = r.run(f"{side}: run", [args.runner, lowered, "-e", "main",
                                 "-entry-point-result=void",
                                 "-shared-libs=" + ",".join(libs)],
                stdout_path=base + ".output.txt",
                env=GPU_LAUNCH_ENV if args.emulate_gpu_launch else None)
    return normalize_output(out)


def check(args, workdir):
    opt = args.opt or default_opt()
    check_tool("--opt", opt)
    check_tool("--lower-opt", args.lower_opt)
    check_tool("--runner", args.runner)
    libs = [os.path.join(args.shared_lib_dir, name) for name in RUNNER_LIBS]
    for lib in libs:
        if not os.path.isfile(lib):
            raise CheckFailure(f"runner library not found: {lib}")
    if not os.path.isfile(args.input):
        raise CheckFailure(f"input not found: {args.input}")
    input_path = os.path.abspath(args.input)
    if args.add_main:
        input_path = with_main(input_path, workdir, args, opt)
    pre_lower_args = ([ERASE_MEMORY_SPACES_FLAG] if args.erase_memory_spaces else [])
    if args.emulate_npu_sync:
        pre_lower_args.append(EMULATE_NPU_SYNC_FLAG)
    if args.emulate_async_copies:
        pre_lower_args.insert(0, EMULATE_ASYNC_COPIES_FLAG)
        libs.append(async_emu_lib(args, opt))
    if args.emulate_gpu_launch:
        pre_lower_args.insert(0, EMULATE_GPU_LAUNCH_FLAG)
    pre_lower_args += shlex.split(args.pre_lower_pass_args)

    r = Runner(workdir, args.timeout, args.verbose)
    try:
        return run_steps(args, r, opt, input_path, pre_lower_args, libs)
    finally:
        if args.keep_temps:
            with open(os.path.join(workdir, "commands.sh"), "w") as f:
                f.write("#!/bin/sh\n# Commands run by exec-check.py, in order.\n")
                for step, cmd_text in r.commands:
                    f.write(f"\n# {step}\n{cmd_text}\n")


def with_main(input_path, workdir, args, opt):
    """The payload with the @main of utils/exec_harness.py, in `workdir`
    (first reduced to a smaller instance with --reduce-above)."""
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    import exec_harness
    from hwsched_tools import dynamic_extents, reduced_instance
    extent = args.dynamic_extent
    with open(input_path, errors="replace") as f:
        text = f.read()
    if args.reduce_above is not None:
        try:
            text, args.reduction = reduced_instance.reduce_payload(
                text, args.reduce_above, opt)
        except reduced_instance.ReduceError as e:
            raise CheckFailure(f"step 'reduce': the payload's largest op runs more "
                               f"than {args.reduce_above} loop iterations and {e}")
        if args.reduction:
            print(f"exec-check: reduced instance: {args.reduction}", file=sys.stderr)
    # Extents that fit the ops, solved on the payload generalized by the
    # tool that reads it (--opt: our dialects too); where that fails, the
    # one extent stays.
    arg_extents = dynamic_extents.solve_payload(text, extent, opt)
    try:
        text = exec_harness.add_main(text, extent, arg_extents)
    except exec_harness.HarnessError as e:
        raise CheckFailure(f"step 'add main': {e}")
    out = os.path.join(workdir, "input.with-main.mlir")
    with open(out, "w") as f:
        f.write(text)
    return out


def undefined_reads_of(input_path, opt):
    """hwsched_tools.undefined_reads on the payload, its named ops
    generalized with `opt`; [] when that tool cannot read it."""
    from hwsched_tools import undefined_reads
    proc = subprocess.run([opt, input_path, "--linalg-generalize-named-ops"],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    if proc.returncode != 0:
        return []
    return undefined_reads.uninitialized_reads(proc.stdout)


def run_steps(args, r, opt, input_path, pre_lower_args, libs):
    workdir = r.workdir

    # A payload with dynamic shapes runs with the extents the harness (or
    # its own @main) gives, which need not fit the ops (a convolution's
    # image smaller than its filter): the reference then reads out of
    # bounds and no comparison means anything. The reference runs with
    # upstream's runtime op verification, which stops such an instance.
    with open(input_path, errors="replace") as f:
        dynamic = bool(DYNAMIC_TYPE_RE.search(f.read()))
    verified = pre_lower_args
    if dynamic:
        verified = ["--generate-runtime-verification", *pre_lower_args]
    try:
        before = lower_and_run(r, "BEFORE", input_path, args, opt, verified, libs)
    except CheckFailure as failure:
        # (The verification's message, printed with puts, is lost in the
        # abort's unflushed stdout.) An abort that the verification alone
        # causes is an invalid instance; one the plain reference also has
        # (an emulated deadlock, the payload's own assert) is reported as
        # it is.
        if not (dynamic and ("killed by signal 6" in failure.args[0]
                             or RUNTIME_CHECK_FAILED in failure.args[0])):
            raise
        try:
            lower_and_run(r, "BEFORE-plain", input_path, args, opt,
                          pre_lower_args, libs)
        except CheckFailure:
            raise failure
        raise CheckFailure("invalid instance: the dynamic extents of this run "
                           "do not fit the payload's ops (upstream's runtime "
                           "op verification stopped the reference); give the "
                           "payload an @main with extents that fit",
                           failure.args[0])
    if not any(line.strip() for line in before):
        raise CheckFailure("BEFORE run printed nothing: the payload must print its "
                           "results (e.g. printMemrefF32), or the check cannot fail")

    transformed = os.path.join(workdir, "after.transformed.mlir")
    r.run("AFTER: transform", [opt, input_path, *args.transform_args, "-o", transformed],
          output_file=transformed)
    with open(transformed, errors="replace") as f:
        transformed_ir = f.read()
    if args.print_ir_after:
        print("// ----- exec-check: IR after transform -----")
        print(transformed_ir.rstrip())
        print("// ----- end of IR after transform -----")
    if args.expect_changed:
        original = os.path.join(workdir, "original.roundtrip.mlir")
        r.run("original: round trip (--expect-changed)",
              [opt, input_path, *plugin_args(args.transform_args), "-o", original],
              output_file=original)
        with open(original, errors="replace") as f:
            if f.read() == transformed_ir:
                raise CheckFailure("--expect-changed: the transformed IR equals the "
                                   "original IR (the transform did nothing)")

    after = lower_and_run(r, "AFTER", transformed, args, opt, pre_lower_args, libs)

    if args.verbose:
        total = sum(t for _, t in r.times)
        print(f"exec-check: total tool time {total:.2f} s", file=sys.stderr)

    n = len(before)
    # Which instance passed: the payload as given, or a reduced one.
    on = f"; reduced instance: {args.reduction.short()}" if args.reduction else ""
    if before == after:
        print(f"EXEC-CHECK: PASS ({n} output lines identical{on})")
        return 0
    diff = unified_diff(before, after)
    # A payload that reads an uninitialized tensor (an accumulation into a
    # tensor.empty, as test payloads that check only a configuration have)
    # prints undefined values: two correct lowerings may differ.
    undefined = undefined_reads_of(input_path, opt)
    if undefined:
        raise CheckFailure("invalid instance: the payload reads an "
                           "uninitialized tensor, so its results are "
                           "undefined and outputs that differ prove nothing ("
                           + "; ".join(undefined) + "); initialize it (e.g. "
                           "with linalg.fill) to check this rewrite", diff)
    if args.rtol is None and args.atol is None:
        raise CheckFailure("outputs differ", diff)
    rtol, atol = args.rtol or 0.0, args.atol or 0.0
    mismatch, max_abs, max_rel = compare_with_tolerance(before, after, rtol, atol)
    if mismatch:
        raise CheckFailure(f"outputs differ beyond rtol={rtol:g} atol={atol:g}: "
                           f"{mismatch}", diff)
    print(f"EXEC-CHECK: PASS ({n} output lines match within rtol={rtol:g} "
          f"atol={atol:g}; max abs diff {max_abs:g}, max rel diff {max_rel:g}{on})")
    return 0


def main(argv):
    args = parse_args(argv)
    if args.print_pipeline:
        print(pipeline_string())
        return 0
    try:
        if args.keep_temps:
            os.makedirs(args.keep_temps, exist_ok=True)
            return check(args, os.path.abspath(args.keep_temps))
        with tempfile.TemporaryDirectory(prefix="exec-check-") as workdir:
            return check(args, workdir)
    except CheckFailure as failure:
        reason = failure.args[0]
        head, _, rest = reason.partition("\n")
        print(f"EXEC-CHECK: FAIL ({head})")
        if rest:
            print(rest)
        if len(failure.args) > 1 and failure.args[1]:
            print(failure.args[1])
        sys.stdout.flush()
        return 1


if __name__ == "__main__":
    try:
        status = main(sys.argv[1:])
        sys.stdout.flush()
    except BrokenPipeError:
        # The reader (e.g. FileCheck) stopped early: do not add a traceback.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        status = 1
    sys.exit(status)
