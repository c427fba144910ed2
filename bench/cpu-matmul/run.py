#!/usr/bin/env python3
"""bench/cpu-matmul/run.py: end-to-end CPU performance of the hwsched matmul schedule.

For f32 C = A x B (M = N = K = size) and the chain relu(A x B + bias), prints
GFLOP/s (median of repeated timed runs) for

  loops     the unscheduled program lowered with convert-linalg-to-loops
  hwsched   transform-scripts/cpu-matmul.mlir, entry point
            hwsched_cpu_matmul_main (tiles derived from the spec, default
            x86-avx512; see --target)
  peak      the single-core AVX-512 FMA peak (fma_peak.c, gcc -O2 -mavx512f)
  blas      OpenBLAS through Debian's numpy, single-threaded, with the kernel
            it picks by itself
  blas-skx  the same with OPENBLAS_CORETYPE=SkylakeX forced for that run only

plus the ratios hwsched/peak, hwsched/blas-skx and, for the chain, the chain's
time over the bare matmul's, paired by round. Every MLIR result is checked against a
reference computed here (exact: the inputs are small integers, so every
partial sum is an exactly representable f32): a strided sample of C and the
sum of all of C.

Timing: inside the MLIR program, around a loop of calls, after JIT
compilation and one warm-up call; each run prints rtclock() (wall) and the
thread CPU time (cputime(), from cputime.c, built here). The machines this
runs on are shared (2 cores, other jobs), so GFLOP/s are computed from CPU
time; the wall-clock figure of our schedule is printed beside it. numpy is
timed the same way (time.thread_time), the peak program too.

Needs: gcc, /usr/lib/llvm-22 (mlir-opt, mlir-runner, runner utils),
hwsched-opt ($HWSCHED_OPT, else build/bin/hwsched-opt, else PATH) and for
the OpenBLAS columns Debian's numpy + OpenBLAS + threadpoolctl:
  apt-get install python3-numpy libopenblas0-pthread python3-threadpoolctl
(--install runs that). Without them those columns print "n/a".

Measurement: --rounds rounds, each running every contender once in its own
process (--runs timed runs each), interleaved; GFLOP/s are medians over all
runs, ratios are formed per round and their median and range printed (see
README.md, "Method").

Usage: bench/cpu-matmul/run.py [--sizes 256,512,1024,2048] [--rounds 5] [--runs 3]
       [--target x86-avx512] [--min-time 0.3] [--loops-max-size 2048]
       [--tiles MC,NC,KC,MR,NR] [--skip-blas] [--keep DIR] [--install]
"""

import argparse
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LLVM = "/usr/lib/llvm-22"
MLIR_OPT = os.path.join(LLVM, "bin", "mlir-opt")
RUNNER = os.path.join(LLVM, "bin", "mlir-runner")
SYSTEM_PYTHON = "/usr/bin/python3"  # Debian's, with Debian's numpy
SCRIPT = ",".join(os.path.join(ROOT, "transform-scripts", f)
                  for f in ("matmul-frontend.mlir", "cpu-matmul.mlir"))
ENTRY = "hwsched_cpu_matmul_main"
APT_PACKAGES = ["python3-numpy", "libopenblas0-pthread", "python3-threadpoolctl"]

# The lowering of utils/exec-check.py (LOWERING_PIPELINE), for both sides.
LOWERING = ("builtin.module(one-shot-bufferize{bufferize-function-boundaries "
            "function-boundary-type-conversion=identity-layout-map},"
            "convert-linalg-to-loops,convert-vector-to-scf,lower-affine,"
            "convert-scf-to-cf,expand-strided-metadata,lower-affine,"
            "finalize-memref-to-llvm,convert-vector-to-llvm,convert-math-to-llvm,"
            "convert-arith-to-llvm,convert-index-to-llvm,convert-ub-to-llvm,"
            "convert-cf-to-llvm,convert-func-to-llvm,reconcile-unrealized-casts)")

SAMPLE_STRIDE = 31  # rows/columns of C printed for the check (coprime to tiles)

# --tiles: the script's sequences with the five knobs given by hand instead of
# select_tile_config (for tile experiments; the table then measures those).
KNOBS_ENTRY = "bench_cpu_matmul_fixed_tiles"
KNOBS_LIBRARY = """module attributes {{transform.with_named_sequence}} {{
  transform.named_sequence private @hwsched_cpu_match_epilogue(
      !transform.any_op {{transform.readonly}}) -> !transform.any_op
  transform.named_sequence private @hwsched_cpu_match_bare_matmul(
      !transform.any_op {{transform.readonly}}) -> !transform.any_op
  transform.named_sequence private @hwsched_cpu_matmul_tile(
      !transform.any_op {{transform.consumed}},
      !transform.param<i64> {{transform.readonly}}, !transform.param<i64> {{transform.readonly}},
      !transform.param<i64> {{transform.readonly}}, !transform.param<i64> {{transform.readonly}},
      !transform.param<i64> {{transform.readonly}})
  transform.named_sequence private @hwsched_cpu_bufferize_and_lower(
      !transform.any_op {{transform.consumed}})
  transform.named_sequence @{entry}(%module: !transform.any_op {{transform.consumed}}) {{
    %mc = transform.param.constant {mc} : i64 -> !transform.param<i64>
    %nc = transform.param.constant {nc} : i64 -> !transform.param<i64>
    %kc = transform.param.constant {kc} : i64 -> !transform.param<i64>
    %mr = transform.param.constant {mr} : i64 -> !transform.param<i64>
    %nr = transform.param.constant {nr} : i64 -> !transform.param<i64>
    // Chains first: their matmuls are fused into the epilogue's loops, so
    // the bare matmuls collected afterwards are the others.
    %e = transform.collect_matching @hwsched_cpu_match_epilogue in %module
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %e : !transform.any_op {{
    ^bb0(%epilogue: !transform.any_op):
      %root = transform.fusion.epilogue_in_place %epilogue
          : (!transform.any_op) -> !transform.any_op
      transform.include @hwsched_cpu_matmul_tile failures(propagate)
          (%root, %mc, %nc, %kc, %mr, %nr)
          : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
             !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    }}
    %m = transform.collect_matching @hwsched_cpu_match_bare_matmul in %module
        : (!transform.any_op) -> !transform.any_op
    transform.foreach %m : !transform.any_op {{
    ^bb0(%root: !transform.any_op):
      transform.include @hwsched_cpu_matmul_tile failures(propagate)
          (%root, %mc, %nc, %kc, %mr, %nr)
          : (!transform.any_op, !transform.param<i64>, !transform.param<i64>,
             !transform.param<i64>, !transform.param<i64>, !transform.param<i64>) -> ()
    }}
    transform.include @hwsched_cpu_bufferize_and_lower failures(propagate) (%module)
        : (!transform.any_op) -> ()
    transform.yield
  }}
}}
"""


def die(msg):
    print(f"run.py: error: {msg}", file=sys.stderr)
    sys.exit(1)


def run(cmd, env=None, timeout=3600):
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, env=env, timeout=timeout)
    if proc.returncode != 0:
        die(f"command failed ({proc.returncode}): {shlex.join(cmd)}\n"
            f"{proc.stderr[-3000:]}")
    return proc.stdout


# ---------------------------------------------------------------------------
# The payload
# ---------------------------------------------------------------------------

def payload(size, chain, reps, runs):
    """An MLIR module with @kernel (the computation, on tensors) and @main
    (inputs, warm-up, `runs` timed loops of `reps` calls, check output)."""
    M = N = K = size
    t = lambda *d: "x".join(map(str, d)) + "xf32"
    a, b, c, v = t(M, K), t(K, N), t(M, N), t(N)
    if chain:
        tail = f"""
  %bv = bufferization.to_tensor %Bias restrict : memref<{v}> to tensor<{v}>
  %e2 = tensor.empty() : tensor<{c}>
  %r = linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>,
                        affine_map<(i, j) -> (j)>, affine_map<(i, j) -> (i, j)>],
                       iterator_types = ["parallel", "parallel"]}}
      ins(%mm, %bv : tensor<{c}>, tensor<{v}>) outs(%e2 : tensor<{c}>) {{
  ^bb0(%x: f32, %y: f32, %o: f32):
    %s = arith.addf %x, %y : f32
    %m = arith.maximumf %s, %zero : f32
    linalg.yield %m : f32
  }} -> tensor<{c}>
  bufferization.materialize_in_destination %r in restrict writable %C
      : (tensor<{c}>, memref<{c}>) -> ()"""
    else:
        tail = f"""
  bufferization.materialize_in_destination %mm in restrict writable %C
      : (tensor<{c}>, memref<{c}>) -> ()"""
    rows = (M + SAMPLE_STRIDE - 1) // SAMPLE_STRIDE
    cols = (N + SAMPLE_STRIDE - 1) // SAMPLE_STRIDE
    sig = f"memref<{a}>, memref<{b}>, memref<{v}>, memref<{c}>"

    def init(name, shape, rank, body):
        idx = ", ".join("ij"[:rank])
        return f"""  linalg.generic {{indexing_maps = [affine_map<({idx}) -> ({idx})>],
                  iterator_types = [{", ".join(['"parallel"'] * rank)}]}}
      outs(%{name} : memref<{shape}>) {{
  ^bb0(%o: f32):
{body}
    linalg.yield %w : f32
  }}"""

    int_to_f32 = """    %ii = arith.index_cast %r : index to i32
    %w0 = arith.sitofp %ii : i32 to f32"""
    init_a = init("A", a, 2, f"""    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %s = arith.addi %i, %j : index
    %c7 = arith.constant 7 : index
    %r = arith.remui %s, %c7 : index
{int_to_f32}
    %c3 = arith.constant 3.0 : f32
    %w = arith.subf %w0, %c3 : f32""")
    init_b = init("B", b, 2, f"""    %i = linalg.index 0 : index
    %j = linalg.index 1 : index
    %c2 = arith.constant 2 : index
    %i2 = arith.muli %i, %c2 : index
    %s = arith.addi %i2, %j : index
    %c5 = arith.constant 5 : index
    %r = arith.remui %s, %c5 : index
{int_to_f32}
    %c2f = arith.constant 2.0 : f32
    %w = arith.subf %w0, %c2f : f32""")
    init_bias = init("Bias", v, 1, f"""    %j = linalg.index 0 : index
    %c3 = arith.constant 3 : index
    %r = arith.remui %j, %c3 : index
{int_to_f32}
    %c4f = arith.constant 4.0 : f32
    %w = arith.subf %w0, %c4f : f32""")
    return f"""// Generated by bench/cpu-matmul/run.py: size {size}, chain {chain}.
module {{
func.func @kernel(%A: memref<{a}>, %B: memref<{b}>, %Bias: memref<{v}>, %C: memref<{c}>) {{
  %ta = bufferization.to_tensor %A restrict : memref<{a}> to tensor<{a}>
  %tb = bufferization.to_tensor %B restrict : memref<{b}> to tensor<{b}>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{c}>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<{c}>) -> tensor<{c}>
  %mm = linalg.matmul ins(%ta, %tb : tensor<{a}>, tensor<{b}>)
                      outs(%f : tensor<{c}>) -> tensor<{c}>{tail}
  return
}}
func.func private @rtclock() -> f64
func.func private @cputime() -> f64
func.func private @printMemrefF32(memref<*xf32>) attributes {{llvm.emit_c_interface}}
func.func @main() {{
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %reps = arith.constant {reps} : index
  %runs = arith.constant {runs} : index
  %A = memref.alloc() {{alignment = 64 : i64}} : memref<{a}>
  %B = memref.alloc() {{alignment = 64 : i64}} : memref<{b}>
  %Bias = memref.alloc() {{alignment = 64 : i64}} : memref<{v}>
  %C = memref.alloc() {{alignment = 64 : i64}} : memref<{c}>
{init_a}
{init_b}
{init_bias}
  func.call @kernel(%A, %B, %Bias, %C) : ({sig}) -> ()
  scf.for %run = %c0 to %runs step %c1 {{
    %t0 = func.call @rtclock() : () -> f64
    %u0 = func.call @cputime() : () -> f64
    scf.for %it = %c0 to %reps step %c1 {{
      func.call @kernel(%A, %B, %Bias, %C) : ({sig}) -> ()
    }}
    %u1 = func.call @cputime() : () -> f64
    %t1 = func.call @rtclock() : () -> f64
    %dt = arith.subf %t1, %t0 : f64
    %du = arith.subf %u1, %u0 : f64
    vector.print str "TIME "
    vector.print %dt : f64
    vector.print str "CPU "
    vector.print %du : f64
  }}
  // Check output: the sum of C (exact in f64 for these integer inputs) ...
  %sum0 = memref.alloc() : memref<f64>
  %zd = arith.constant 0.0 : f64
  memref.store %zd, %sum0[] : memref<f64>
  linalg.generic {{indexing_maps = [affine_map<(i, j) -> (i, j)>, affine_map<(i, j) -> ()>],
                  iterator_types = ["reduction", "reduction"]}}
      ins(%C : memref<{c}>) outs(%sum0 : memref<f64>) {{
  ^bb0(%x: f32, %acc: f64):
    %xd = arith.extf %x : f32 to f64
    %s = arith.addf %acc, %xd : f64
    linalg.yield %s : f64
  }}
  %sum = memref.load %sum0[] : memref<f64>
  %sumi = arith.fptosi %sum : f64 to i64
  vector.print str "SUM "
  vector.print %sumi : i64
  // ... and every {SAMPLE_STRIDE}th row and column of it.
  %sample = memref.subview %C[0, 0] [{rows}, {cols}] [{SAMPLE_STRIDE}, {SAMPLE_STRIDE}]
      : memref<{c}> to memref<{rows}x{cols}xf32, strided<[{N * SAMPLE_STRIDE}, {SAMPLE_STRIDE}]>>
  %u = memref.cast %sample : memref<{rows}x{cols}xf32, strided<[{N * SAMPLE_STRIDE}, {SAMPLE_STRIDE}]>> to memref<*xf32>
  call @printMemrefF32(%u) : (memref<*xf32>) -> ()
  return
}}
}}
"""


def reference(size, chain):
    """(sum of C, sampled rows of C) for the payload's inputs, exact."""
    M = N = K = size
    a = lambda i, k: (i + k) % 7 - 3
    b = lambda k, j: (2 * k + j) % 5 - 2
    bias = lambda j: j % 3 - 4
    rows = range(0, M, SAMPLE_STRIDE)
    cols = range(0, N, SAMPLE_STRIDE)
    try:
        import numpy as np
        # float64 BLAS is exact here (integer partial sums far below 2**53)
        # and fast, unlike numpy's integer matmul.
        A = np.fromfunction(lambda i, k: (i + k) % 7 - 3, (M, K), dtype=np.float64)
        B = np.fromfunction(lambda k, j: (2 * k + j) % 5 - 2, (K, N), dtype=np.float64)
        C = (A @ B).astype(np.int64)
        if chain:
            C = np.maximum(C + (np.arange(N) % 3 - 4)[None, :], 0)
        return int(C.sum()), [[int(C[i, j]) for j in cols] for i in rows]
    except ImportError:
        pass
    # Pure Python: the samples directly; the sum of a bare matmul through
    # column sums of A and row sums of B; the chain's sum needs all of C.
    sample = []
    for i in rows:
        arow = [a(i, k) for k in range(K)]
        line = []
        for j in cols:
            x = sum(arow[k] * b(k, j) for k in range(K))
            line.append(max(x + bias(j), 0) if chain else x)
        sample.append(line)
    if chain:
        return None, sample
    colsum_a = [sum(a(i, k) for i in range(M)) for k in range(K)]
    rowsum_b = [sum(b(k, j) for j in range(N)) for k in range(K)]
    return sum(x * y for x, y in zip(colsum_a, rowsum_b)), sample


def parse_output(text):
    times, cpus, total, sample = [], [], None, []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("TIME "):
            times.append(float(line.split()[1]))
        elif line.startswith("CPU "):
            cpus.append(float(line.split()[1]))
        elif line.startswith("SUM "):
            total = int(line.split()[1])
        elif line.startswith("["):
            nums = line.replace("[", " ").replace("]", " ").replace(",", " ").split()
            if nums:
                sample.append([float(x) for x in nums])
    return times, cpus, total, sample


def check(label, got_sum, got_sample, want_sum, want_sample):
    flat_got = [x for row in got_sample for x in row]
    flat_want = [x for row in want_sample for x in row]
    if len(flat_got) != len(flat_want) or any(
            g != w for g, w in zip(flat_got, flat_want)):
        bad = next((k for k, (g, w) in enumerate(zip(flat_got, flat_want)) if g != w),
                   None)
        die(f"{label}: WRONG RESULT: sample differs from the reference "
            f"({len(flat_got)} vs {len(flat_want)} values, first mismatch at {bad})")
    if want_sum is not None and got_sum != want_sum:
        die(f"{label}: WRONG RESULT: sum of C {got_sum}, reference {want_sum}")


# ---------------------------------------------------------------------------
# Runners
# ---------------------------------------------------------------------------

class Bench:
    def __init__(self, args, work):
        self.args = args
        self.work = work
        self.opt = self.find_opt()
        self.cputime_lib = os.path.join(work, "libcputime.so")
        self.refs = {}
        run(["gcc", "-O2", "-shared", "-fPIC", os.path.join(HERE, "cputime.c"),
             "-o", self.cputime_lib])

    def find_opt(self):
        for cand in (os.environ.get("HWSCHED_OPT"),
                     os.path.join(ROOT, "build", "bin", "hwsched-opt"),
                     shutil.which("hwsched-opt")):
            if cand and os.path.isfile(cand) and os.access(cand, os.X_OK):
                return cand
        die("hwsched-opt not found: build it (scripts/build.sh) or set HWSCHED_OPT")

    def prepare(self, size, chain, scheduled, expected_gflops):
        """Writes, schedules and lowers one program; returns (lowered file,
        calls per timed run, timed runs per process)."""
        flops = 2.0 * size ** 3
        reps = max(1, int(self.args.min_time * expected_gflops * 1e9 / flops))
        # The unscheduled program needs seconds to minutes per call at 1024+.
        runs = self.args.runs if scheduled or size <= 512 else 1
        tag = f"{'chain' if chain else 'matmul'}-{size}-{'hwsched' if scheduled else 'loops'}"
        src = os.path.join(self.work, tag + ".mlir")
        with open(src, "w") as f:
            f.write(payload(size, chain, reps, runs))
        ir = src
        if scheduled:
            ir = os.path.join(self.work, tag + ".scheduled.mlir")
            library, entry = SCRIPT, ENTRY
            if self.args.tiles:
                knobs = os.path.join(self.work, "fixed-tiles.mlir")
                mc, nc, kc, mr, nr = self.args.tiles
                with open(knobs, "w") as f:
                    f.write(KNOBS_LIBRARY.format(entry=KNOBS_ENTRY, mc=mc, nc=nc,
                                                 kc=kc, mr=mr, nr=nr))
                library, entry = f"{SCRIPT},{knobs}", KNOBS_ENTRY
            run([self.opt, src, f"--hwsched-target={self.args.target}",
                 f"--transform-preload-library=transform-library-paths={library}",
                 f"--transform-interpreter=entry-point={entry}", "-o", ir])
        lowered = os.path.join(self.work, tag + ".llvm.mlir")
        run([MLIR_OPT, ir, "--pass-pipeline=" + LOWERING, "-o", lowered])
        return {"file": lowered, "reps": reps, "size": size, "chain": chain,
                "tag": tag}

    def execute(self, prog):
        """Runs one prepared program in one process; checks its result;
        returns (cpu seconds per call list, wall seconds per call list)."""
        libs = [os.path.join(LLVM, "lib", "libmlir_c_runner_utils.so"),
                os.path.join(LLVM, "lib", "libmlir_runner_utils.so"), self.cputime_lib]
        out = run([RUNNER, "-O3", prog["file"], "-e", "main",
                   "-entry-point-result=void", "-shared-libs=" + ",".join(libs)])
        times, cpus, total, sample = parse_output(out)
        key = (prog["size"], prog["chain"])
        if key not in self.refs:
            self.refs[key] = reference(*key)
        want_sum, want_sample = self.refs[key]
        check(prog["tag"], total, sample, want_sum, want_sample)
        reps = prog["reps"]
        return [c / reps for c in cpus], [t / reps for t in times]

    def peak(self):
        """GFLOP/s of every repeat of one fma_peak process."""
        exe = os.path.join(self.work, "fma_peak")
        if not os.path.exists(exe):
            run(["gcc", "-O2", "-mavx512f", os.path.join(HERE, "fma_peak.c"), "-o", exe])
        out = run([exe, "100000000", str(max(3, self.args.runs))])
        return [float(line.split()[1]) for line in out.splitlines()
                if line.startswith("sample ")]

    def numpy(self, sizes, forced):
        """{"times": {"size,chain": [seconds per call of each timed run]},
        "kernel": ...} from OpenBLAS through numpy, one process; None when
        numpy is missing."""
        env = dict(os.environ)
        env["OPENBLAS_NUM_THREADS"] = "1"
        if forced:
            # For this run only: unset both (README of the env notes), then
            # force the AVX-512 kernel.
            env.pop("OPENBLAS_CORETYPE", None)
            env.pop("OPENBLAS_L2_SIZE", None)
            env["OPENBLAS_CORETYPE"] = "SkylakeX"
        code = f"""
import json, statistics, sys, time
try:
    import numpy as np
except ImportError:
    print(json.dumps(None)); sys.exit(0)
try:
    from threadpoolctl import threadpool_info
except ImportError:
    threadpool_info = None
res = {{}}
for n in {sizes!r}:
    A = np.fromfunction(lambda i, k: (i + k) % 7 - 3, (n, n), dtype=np.float32)
    B = np.fromfunction(lambda k, j: (2 * k + j) % 5 - 2, (n, n), dtype=np.float32)
    bias = (np.arange(n) % 3 - 4).astype(np.float32)
    ref = (A.astype(np.float64) @ B.astype(np.float64)).astype(np.int64)  # exact
    for chain in (False, True):
        f = (lambda: np.maximum(A @ B + bias, 0.0)) if chain else (lambda: A @ B)
        C = f()
        want = np.maximum(ref + bias.astype(np.int64), 0) if chain else ref
        if not np.array_equal(C.astype(np.int64), want):
            print(json.dumps({{"error": f"numpy result wrong at {{n}}"}})); sys.exit(0)
        reps = max(1, int({self.args.min_time} * 100e9 / (2.0 * n ** 3)))
        samples = []
        for _ in range({self.args.runs}):
            t0 = time.thread_time()
            for _ in range(reps):
                f()
            samples.append((time.thread_time() - t0) / reps)
        res[f"{{n}},{{int(chain)}}"] = samples
kernel = None
if threadpool_info:
    info = [i for i in threadpool_info() if i.get("internal_api") == "openblas"]
    if info:
        kernel = f"{{info[0].get('architecture')}} (OpenBLAS {{info[0].get('version')}}, " \\
                 f"{{info[0].get('num_threads')}} thread)"
else:
    kernel = "unknown (no threadpoolctl)"
print(json.dumps({{"times": res, "kernel": kernel}}))
"""
        if not os.path.exists(SYSTEM_PYTHON):
            return None
        out = run([SYSTEM_PYTHON, "-c", code], env=env)
        data = json.loads(out.strip().splitlines()[-1])
        if data and "error" in data:
            die(data["error"])
        return data


def fmt(x, digits=1):
    return "n/a" if x is None else f"{x:.{digits}f}"


def reexec_with_system_python():
    """The reference check wants numpy; Debian's python3 has it when another
    python3 (e.g. a pyenv one first on PATH) does not."""
    try:
        import numpy  # noqa: F401
        return
    except ImportError:
        pass
    if (os.path.exists(SYSTEM_PYTHON) and os.path.realpath(sys.executable) !=
            os.path.realpath(SYSTEM_PYTHON) and "HWSCHED_BENCH_REEXEC" not in os.environ):
        probe = subprocess.run([SYSTEM_PYTHON, "-c", "import numpy"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        if probe.returncode == 0:
            os.environ["HWSCHED_BENCH_REEXEC"] = "1"
            os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON, os.path.abspath(__file__)] + sys.argv[1:])


def main():
    reexec_with_system_python()
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sizes", default="256,512,1024,2048")
    p.add_argument("--runs", type=int, default=3,
                   help="timed runs per process (per contender and round)")
    p.add_argument("--rounds", type=int, default=5,
                   help="rounds; each runs every contender once, in its own "
                        "process (interleaved)")
    p.add_argument("--min-time", type=float, default=0.3,
                   help="approximate seconds per timed run")
    p.add_argument("--target", default="x86-avx512", help="spec for the schedule")
    p.add_argument("--loops-max-size", type=int, default=2048,
                   help="largest size for the (slow) unscheduled program")
    p.add_argument("--tiles", metavar="MC,NC,KC,MR,NR",
                   help="fixed tiles for every size instead of the spec's "
                        "(select_tile_config); for tile experiments")
    p.add_argument("--skip-blas", action="store_true",
                   help="no OpenBLAS columns (faster experiments)")
    p.add_argument("--keep", metavar="DIR", help="keep the generated files")
    p.add_argument("--install", action="store_true",
                   help="apt-get install " + " ".join(APT_PACKAGES) + " first")
    args = p.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    if args.tiles:
        try:
            args.tiles = [int(t) for t in args.tiles.split(",")]
        except ValueError:
            args.tiles = []
        if len(args.tiles) != 5 or min(args.tiles) <= 0:
            die("--tiles wants five positive integers MC,NC,KC,MR,NR")
    if args.install:
        run(["apt-get", "install", "-y", "-q"] + APT_PACKAGES)

    work = args.keep or tempfile.mkdtemp(prefix="cpu-matmul-bench-")
    os.makedirs(work, exist_ok=True)
    bench = Bench(args, work)
    try:
        load = open("/proc/loadavg").read().split()[:3]
    except OSError:
        load = ["?"]
    print(f"# CPU matmul benchmark: spec {args.target}, script transform-scripts/cpu-matmul.mlir (+ matmul-frontend.mlir)")
    print(f"# host load average at the start {' '.join(load)}; GFLOP/s from "
          f"thread CPU time; {args.rounds} rounds of one process per contender, "
          f"{args.runs} timed runs each")

    if args.tiles:
        print("# fixed tiles MC,NC,KC,MR,NR = " + ",".join(map(str, args.tiles)) +
              " (--tiles), not the spec's")

    # Compile everything first; the rounds then only run processes.
    progs = {}
    for size in sizes:
        for chain in (False, True):
            progs[("hwsched", size, chain)] = bench.prepare(size, chain, True, 120.0)
            if size <= args.loops_max_size:
                progs[("loops", size, chain)] = bench.prepare(size, chain, False, 1.0)

    # samples[contender][(size, chain)] = list (per round) of lists of
    # seconds per call (one list per process); peak: GFLOP/s per round.
    samples = {"hwsched": {}, "wall": {}, "loops": {}, "blas": {}, "blas-skx": {}}
    peak_rounds = []
    kernels = {}
    for rnd in range(args.rounds):
        # One process per contender and size; the order rotates with the
        # round so that no contender always runs first or last.
        jobs = [("peak", None)]
        for size in sizes:
            jobs.append(("hwsched", size))
            if not args.skip_blas:
                jobs += [("blas-skx", size), ("blas", size)]
        shift = rnd % len(jobs)
        jobs = jobs[shift:] + jobs[:shift]
        for name, size in jobs:
            if name == "peak":
                peak_rounds.append(bench.peak())
            elif name == "hwsched":
                for chain in (False, True):
                    cpu, wall = bench.execute(progs[("hwsched", size, chain)])
                    samples["hwsched"].setdefault((size, chain), []).append(cpu)
                    samples["wall"].setdefault((size, chain), []).append(wall)
            else:
                data = bench.numpy([size], forced=(name == "blas-skx"))
                if data is None:
                    continue
                kernels[name] = data["kernel"]
                for chain in (False, True):
                    samples[name].setdefault((size, chain), []).append(
                        data["times"][f"{size},{int(chain)}"])
        print(f"# round {rnd + 1}/{args.rounds} done, load "
              f"{' '.join(open('/proc/loadavg').read().split()[:3])}",
              file=sys.stderr, flush=True)
    # The unscheduled program once (minutes at 2048; not a ratio anyone reads).
    for key, prog in progs.items():
        if key[0] == "loops":
            cpu, _ = bench.execute(prog)
            samples["loops"][key[1:]] = [cpu]

    flat = lambda rounds: [x for r in rounds for x in r]
    peak_all = flat(peak_rounds)
    peak = statistics.median(peak_all)
    print(f"# single-core AVX-512 FMA peak (fma_peak.c): {peak:.1f} GFLOP/s "
          f"(median of {len(peak_all)}, {min(peak_all):.1f}-{max(peak_all):.1f})")
    if args.skip_blas:
        print("# OpenBLAS skipped (--skip-blas)")
    elif "blas" not in kernels:
        print("# numpy/OpenBLAS not available: install with "
              f"`apt-get install {' '.join(APT_PACKAGES)}` (or run with --install)")
    else:
        print(f"# OpenBLAS default kernel: {kernels['blas']}")
        print(f"# OpenBLAS forced kernel:  {kernels['blas-skx']} "
              "(OPENBLAS_CORETYPE=SkylakeX for that run only)")
    try:
        load_end = " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        load_end = "?"
    print(f"# host load average at the end {load_end}")

    def paired(f):
        """Median and range of f(round) over the rounds where it is defined."""
        vals = [v for v in (f(r) for r in range(args.rounds)) if v is not None]
        if not vals:
            return "n/a"
        return (f"{statistics.median(vals):.2f} "
                f"({min(vals):.2f}-{max(vals):.2f})")

    header = ("| problem | loops | hwsched | hwsched wall | peak | blas | blas-skx "
              "| hwsched/peak | hwsched/blas-skx | chain/matmul time |")
    print()
    print(header)
    print("|" + "---|" * (header.count("|") - 1))
    for size in sizes:
        flops = 2.0 * size ** 3
        g = lambda secs: flops / secs / 1e9
        for chain in (False, True):
            key = (size, chain)
            ours = samples["hwsched"][key]
            g_ours = g(statistics.median(flat(ours)))
            g_wall = g(statistics.median(flat(samples["wall"][key])))
            g_loops = (g(statistics.median(flat(samples["loops"][key])))
                       if key in samples["loops"] else None)
            med = lambda name: (g(statistics.median(flat(samples[name][key])))
                                if key in samples[name] else None)
            g_blas, g_skx = med("blas"), med("blas-skx")
            # Paired ratios: contenders of the same round, each the median of
            # its process's runs.
            r_peak = paired(lambda r: g(statistics.median(ours[r])) /
                            statistics.median(peak_rounds[r]))
            r_skx = paired(lambda r: g(statistics.median(ours[r])) /
                           g(statistics.median(samples["blas-skx"][key][r]))
                           if key in samples["blas-skx"] else None)
            r_chain = "1" if not chain else paired(
                lambda r: statistics.median(ours[r]) /
                statistics.median(samples["hwsched"][(size, False)][r]))
            spread = lambda vals: f" ({g(max(vals)):.0f}-{g(min(vals)):.0f})"
            name = f"{'matmul+bias+relu' if chain else 'matmul'} {size}"
            print(f"| {name} | {fmt(g_loops, 2)} | {fmt(g_ours)}{spread(flat(ours))} "
                  f"| {fmt(g_wall)} | {fmt(peak)} | {fmt(g_blas)} "
                  f"| {fmt(g_skx)}{spread(flat(samples['blas-skx'][key])) if g_skx else ''} "
                  f"| {r_peak} | {r_skx} | {r_chain} |", flush=True)
    print()
    print(f"GFLOP/s: median over all timed runs ({args.rounds} rounds x "
          f"{args.runs} runs), (min-max) of single runs. Ratios: per round, "
          "each contender the median of its process's runs, then the median "
          "over the rounds (min-max over the rounds).")
    print()
    print("All MLIR results checked against the reference (sum of C and every "
          f"C[i][j] with i, j multiples of {SAMPLE_STRIDE}, exact).")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
