#!/usr/bin/env python3
"""bench/cpu-matmul/run.py: end-to-end CPU performance of the hwsched matmul schedule.

For f32 C = A x B (M = N = K = size) and the chain relu(A x B + bias), on the
machine it runs on, prints GFLOP/s (medians of repeated timed runs) of

  hwsched 1t  transform-scripts/cpu-matmul.mlir (@hwsched_cpu_matmul_main),
              tiles from the spec, built for one thread: with no --target the
              `host` spec as detected with hwsched-opt pinned to one CPU
              (cpu.cores = 1, no OpenMP); with --target NAME a copy of that
              spec with cpu.cores = 1
  hwsched Nt  the same built for all N cores (host: every core this process
              may use; --target: the spec's copy with cpu.cores = N): column
              panels on N OpenMP threads (LLVM's libomp)
  peak        the single-core FMA peak of the ISA the schedule uses
              (fma_peak.c: one binary, the ISA chosen at run time)
  blas 1t/Nt  OpenBLAS through Debian's numpy with 1 and N threads, the kernel
              it picks by itself; where that kernel does not use the host's
              widest FMA (Debian's OpenBLAS 0.3.21 predates Zen 4 and 5), also
              the right one forced with OPENBLAS_CORETYPE ("forced")
  loops       the unscheduled program (once, up to --loops-max-size)

and, paired by round, hwsched 1t / peak, hwsched 1t / blas 1t, hwsched Nt /
blas Nt (same thread count), hwsched Nt / hwsched 1t and the chain's time
over the bare matmul's. Every MLIR result is checked against a reference
computed here (exact: the inputs are small integers): a strided sample of C
and the sum of all of C.

Timing: inside the MLIR program, around a loop of calls, after JIT
compilation and one warm-up call; each run prints rtclock() (wall) and the
thread CPU time (cputime(), from cputime.c). One-thread figures use thread
CPU time (the machines this runs on are shared); N-thread figures can only
use wall-clock time, and so does the N-thread / 1-thread speedup (wall over
wall). numpy is timed the same way (time.thread_time / time.perf_counter).

--isa avx2 on an AVX-512 host measures an AVX2 machine by proxy: `host`
detection without AVX-512 (HWSCHED_HOST_FEATURES=-avx512f: 256-bit vectors,
16 registers), the MLIR programs compiled without it (mlir-runner
--mattr=-avx512f), the AVX2 FMA peak, and OpenBLAS forced to its Haswell
kernel. It is a proxy (same caches, same core), and the output says so.

Needs: gcc, LLVM/MLIR 22 (mlir-opt, mlir-runner, runner utils, llc for the
CPU name; found by utils/hwsched_tools/toolchain.py), LLVM's OpenMP runtime
for the N-thread programs (libomp-22-dev), hwsched-opt ($HWSCHED_OPT,
else PATH, else build/bin/hwsched-opt) and for the OpenBLAS columns Debian's
numpy + OpenBLAS + threadpoolctl:
  apt-get install python3-numpy libopenblas0-pthread python3-threadpoolctl
(--install runs that). Without them those columns print "n/a".

Usage: bench/cpu-matmul/run.py [--sizes 256,512,1024,2048] [--rounds 5] [--runs 3]
       [--target NAME] [--isa avx2] [--threads N] [--min-time 0.3]
       [--loops-max-size 512] [--tiles MC,NC,KC,MR,NR] [--skip-blas]
       [--keep DIR] [--install]
"""

import argparse
import json
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "utils"))
from hwsched_tools import lowering, spec_variant, toolchain  # noqa: E402
from hwsched_tools.transform_calls import Wrapper  # noqa: E402

MLIR_OPT = toolchain.mlir_opt()
RUNNER = toolchain.mlir_runner()
SYSTEM_PYTHON = "/usr/bin/python3"  # Debian's, with Debian's numpy
SCRIPT = ",".join(os.path.join(ROOT, "transform-scripts", f)
                  for f in ("matmul-frontend.mlir", "cpu-matmul.mlir"))
ENTRY = "hwsched_cpu_matmul_main"
# @hwsched_describe_cpu_target: the spec figures the schedule reads.
TARGET_SCRIPT = os.path.join(ROOT, "transform-scripts", "target.mlir")
APT_PACKAGES = ["python3-numpy", "libopenblas0-pthread", "python3-threadpoolctl"]
OPENMP_LIB = toolchain.openmp_lib()

# OpenBLAS kernels (threadpoolctl's "architecture", lower case) that use each
# ISA's widest FMA, and the one to force when the default is not among them.
BLAS_KERNELS = {
    "avx512": ({"skylakex", "cooperlake", "sapphirerapids"}, "SkylakeX"),
    "avx2": ({"haswell", "zen", "skylakex", "cooperlake", "sapphirerapids"},
             "Haswell"),
    "neon": ({"neoversen1", "neoversen2", "neoversev1", "armv8sve",
              "thunderx2t99", "a64fx"}, "NeoverseN1"),
}

# The lowering utils/exec-check.py checks with, for both sides.
LOWERING = lowering.cpu_lowering_pipeline()

SAMPLE_STRIDE = 31  # rows/columns of C printed for the check (coprime to tiles)

# --tiles: the shipped @hwsched_cpu_matmul_main_with_tiles with the five
# tile sizes as fixed params instead of select_tile_config's (for tile
# experiments; the table then measures those).
TILES_ENTRY = "hwsched_cpu_matmul_main_with_tiles"


def fixed_tiles_schedule(path, tiles):
    """Writes to `path` a @__transform_main that calls the shipped
    @hwsched_cpu_matmul_main_with_tiles with `tiles` (MC, NC, KC, MR, NR) as
    fixed params; returns (library, entry) for the interpreter."""
    wrapper = Wrapper(SCRIPT.split(","))
    wrapper.include(TILES_ENTRY, wrapper.root, *(wrapper.param(int(v)) for v in tiles))
    with open(path, "w") as f:
        f.write(wrapper.text())
    return f"{path},{SCRIPT}", "__transform_main"


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

def kernel(M, N, K, chain):
    """@kernel(%A, %B, %Bias, %C) on memrefs: C = A x B, or with `chain`
    relu(A x B + bias) (the matmul and the epilogue on tensors, written into
    C with materialize_in_destination, so the schedule bufferizes into C
    itself). bench/tuning tunes this function too."""
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
    return f"""func.func @kernel(%A: memref<{a}>, %B: memref<{b}>, %Bias: memref<{v}>, %C: memref<{c}>) {{
  %ta = bufferization.to_tensor %A restrict : memref<{a}> to tensor<{a}>
  %tb = bufferization.to_tensor %B restrict : memref<{b}> to tensor<{b}>
  %zero = arith.constant 0.0 : f32
  %e = tensor.empty() : tensor<{c}>
  %f = linalg.fill ins(%zero : f32) outs(%e : tensor<{c}>) -> tensor<{c}>
  %mm = linalg.matmul ins(%ta, %tb : tensor<{a}>, tensor<{b}>)
                      outs(%f : tensor<{c}>) -> tensor<{c}>{tail}
  return
}}
"""


def payload(size, chain, reps, runs):
    """An MLIR module with @kernel (the computation, on tensors) and @main
    (inputs, warm-up, `runs` timed loops of `reps` calls, check output)."""
    M = N = K = size
    t = lambda *d: "x".join(map(str, d)) + "xf32"
    a, b, c, v = t(M, K), t(K, N), t(M, N), t(N)
    rows = (M + SAMPLE_STRIDE - 1) // SAMPLE_STRIDE
    cols = (N + SAMPLE_STRIDE - 1) // SAMPLE_STRIDE
    sig = f"memref<{a}>, memref<{b}>, memref<{v}>, memref<{c}>"

    def init(name, shape, dims, modulus, offset):
        """Fills `name` with ((sum of coefficient * index) mod `modulus`) -
        `offset`: small integers, so sums stay exact in f32. `dims`: the name
        and coefficient of each loop index, in loop order."""
        rank = len(dims)
        idx = ", ".join("ij"[:rank])
        lines = [f"    %{v} = linalg.index {d} : index"
                 for d, (v, _) in enumerate(dims)]
        terms = []
        for v, coefficient in dims:
            if coefficient == 1:
                terms.append(f"%{v}")
                continue
            lines += [f"    %c{coefficient} = arith.constant {coefficient} : index",
                      f"    %{v}{coefficient} = arith.muli %{v}, %c{coefficient} : index"]
            terms.append(f"%{v}{coefficient}")
        total = terms[0]
        for k, term in enumerate(terms[1:]):
            lines.append(f"    %s{k or ''} = arith.addi {total}, {term} : index")
            total = f"%s{k or ''}"
        lines += [f"    %c{modulus} = arith.constant {modulus} : index",
                  f"    %r = arith.remui {total}, %c{modulus} : index",
                  "    %ii = arith.index_cast %r : index to i32",
                  "    %w0 = arith.sitofp %ii : i32 to f32",
                  f"    %c{offset}f = arith.constant {offset}.0 : f32",
                  f"    %w = arith.subf %w0, %c{offset}f : f32"]
        body = "\n".join(lines)
        return f"""  linalg.generic {{indexing_maps = [affine_map<({idx}) -> ({idx})>],
                  iterator_types = [{", ".join(['"parallel"'] * rank)}]}}
      outs(%{name} : memref<{shape}>) {{
  ^bb0(%o: f32):
{body}
    linalg.yield %w : f32
  }}"""

    init_a = init("A", a, [("i", 1), ("j", 1)], 7, 3)
    init_b = init("B", b, [("i", 2), ("j", 1)], 5, 2)
    init_bias = init("Bias", v, [("j", 1)], 3, 4)
    return f"""// Generated by bench/cpu-matmul/run.py: size {size}, chain {chain}.
module {{
{kernel(M, N, K, chain)}func.func private @rtclock() -> f64
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
# The host
# ---------------------------------------------------------------------------

def cpuinfo_field(name):
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key.strip() == name:
                    return value.strip()
    except OSError:
        pass
    return None


def host_cpu_name():
    """'AMD EPYC (LLVM: znver5)': the vendor's name and LLVM's."""
    model = cpuinfo_field("model name") or cpuinfo_field("CPU part") or "unknown CPU"
    llvm = "?"
    try:
        out = subprocess.run([toolchain.llvm_tool("llc"), "--version"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                             text=True).stdout
        llvm = next((line.split(":", 1)[1].strip() for line in out.splitlines()
                     if "Host CPU:" in line), "?")
    except OSError:
        pass
    return f"{model} (LLVM: {llvm})"


def host_isa():
    """The widest vector FMA ISA of this CPU: avx512, avx2, neon or None."""
    flags = set((cpuinfo_field("flags") or cpuinfo_field("Features") or "").split())
    if "avx512f" in flags:
        return "avx512"
    if "avx2" in flags and "fma" in flags:
        return "avx2"
    if "asimd" in flags:
        return "neon"
    return None


REMARK_RE = re.compile(r"remark: spec '([^']*)' (\S+) = (\S+)(?: : \S+)?"
                       r"(?: \(source: (.*)\))?$")
TILE_RE = re.compile(r"remark: hwsched cpu matmul: (\w+) \([^)]*\) = (\d+)")


def pin_to_one_cpu():
    """preexec_fn: run on the first CPU of this process's affinity mask, so
    that `host` detection sees one core."""
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


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
        # One peak binary for every ISA, the kernel chosen at run time.
        self.peak_exe = os.path.join(work, "fma_peak")
        run(["gcc", "-O2", os.path.join(HERE, "fma_peak.c"), "-o", self.peak_exe])
        self.native_isa = host_isa()
        self.isa = args.isa or self.native_isa
        if self.isa is None:
            die("no vector FMA ISA found in /proc/cpuinfo (x86 AVX2+FMA or "
                "AVX-512, AArch64 ASIMD)")
        # AVX2 measured on an AVX-512 host: everything built without AVX-512.
        self.proxy = self.isa == "avx2" and self.native_isa == "avx512"
        if self.isa != self.native_isa and not self.proxy:
            die(f"--isa {self.isa} on a {self.native_isa} host: only avx2 on "
                "an avx512 host is supported (a proxy)")
        self.env = dict(os.environ)
        self.runner_flags = []
        if self.proxy:
            features = self.env.get("HWSCHED_HOST_FEATURES", "")
            self.env["HWSCHED_HOST_FEATURES"] = ",".join(
                x for x in (features, "-avx512f") if x)
            self.runner_flags = ["--mattr=-avx512f"]
        # The thread count: the cores of `host` (this process's CPUs).
        host = self.spec_figures("host", one_cpu=False)
        self.threads = args.threads or int(host["cpu.cores"][0])
        self.targets = self.make_targets()

    def find_opt(self):
        opt = toolchain.find_hwsched_opt()
        if opt:
            return opt
        die("hwsched-opt not found: build it (scripts/build.sh) or set HWSCHED_OPT")

    def make_targets(self):
        """{"1t": (hwsched-opt args, env, preexec), "Nt": ...}."""
        if not self.args.target or self.args.target == "host":
            return {"1t": ([], self.env, pin_to_one_cpu),
                    "Nt": ([], self.env, None)}
        # A file spec: copies with cpu.cores = 1 and = N, found first on
        # HWSCHED_SPEC_PATH under the spec's own name.
        name = self.args.target
        path = name if ("/" in name or name.endswith(".json")) else None
        if path is None:
            dirs = [d for d in os.environ.get("HWSCHED_SPEC_PATH", "").split(":") if d]
            dirs.append(os.path.join(ROOT, "hw-specs"))
            path = next((os.path.join(d, name + ".json") for d in dirs
                         if os.path.isfile(os.path.join(d, name + ".json"))), None)
            if path is None:
                die(f"--target {name}: no {name}.json in {dirs}")
        stem = os.path.splitext(os.path.basename(path))[0]
        with open(path) as f:
            spec = json.load(f)
        if spec.get("kind") != "cpu":
            die(f"--target {name}: not a CPU spec")
        targets = {}
        # The cores the spec describes keep their share of its bandwidth.
        socket_cores = spec["cpu"]["cores"]
        socket_bw = spec["offchip"]["bandwidth_gb_per_s"]
        for variant, cores in (("1t", 1), ("Nt", self.threads)):
            d = os.path.join(self.work, "spec-" + variant)
            spec_variant(path, {"cpu.cores": cores,
                                "offchip.bandwidth_gb_per_s": socket_bw * cores / socket_cores},
                         d, {"cpu.cores": f"bench/cpu-matmul/run.py: {cores} "
                                          "thread(s) on this host",
                             "offchip.bandwidth_gb_per_s":
                                 f"bench/cpu-matmul/run.py: {cores} of the spec's "
                                 f"{socket_cores} cores' share of {socket_bw} GB/s"})
            env = dict(self.env)
            env["HWSCHED_SPEC_PATH"] = d + ":" + env.get("HWSCHED_SPEC_PATH", "")
            targets[variant] = ([f"--hwsched-target={stem}"], env, None)
        return targets

    def spec_figures(self, target, one_cpu, target_args=None, env=None):
        """{key: (value, source)} of the spec the schedule would use: the
        remarks of the shipped @hwsched_describe_cpu_target (one per figure
        the CPU schedule reads, with its source) on an empty function."""
        src = os.path.join(self.work, "describe-target.mlir")
        with open(src, "w") as f:
            f.write("func.func @f() { return }\n")
        args = target_args if target_args is not None else (
            [] if target == "host" else [f"--hwsched-target={target}"])
        proc = subprocess.run([self.opt, src, *args,
                               "--transform-preload-library=transform-library-paths="
                               + TARGET_SCRIPT,
                               "--transform-interpreter=entry-point="
                               "hwsched_describe_cpu_target"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                              text=True, env=env or self.env,
                              preexec_fn=pin_to_one_cpu if one_cpu else None)
        if proc.returncode != 0:
            die(f"hwsched-opt cannot resolve the spec:\n{proc.stderr[-2000:]}")
        figures = {}
        for line in proc.stderr.splitlines():
            m = REMARK_RE.search(line)
            if m:
                figures[m.group(2)] = (m.group(3), m.group(4) or "")
        return figures

    def prepare(self, size, chain, variant, expected_gflops):
        """Writes, schedules and lowers one program (variant "1t", "Nt" or
        "loops"); returns its description and the tiles the script chose."""
        flops = 2.0 * size ** 3
        reps = max(1, int(self.args.min_time * expected_gflops * 1e9 / flops))
        # The unscheduled program needs seconds to minutes per call at 1024+.
        runs = self.args.runs if variant != "loops" or size <= 512 else 1
        tag = f"{'chain' if chain else 'matmul'}-{size}-{variant}"
        src = os.path.join(self.work, tag + ".mlir")
        with open(src, "w") as f:
            f.write(payload(size, chain, reps, runs))
        ir, tiles = src, {}
        if variant != "loops":
            ir = os.path.join(self.work, tag + ".scheduled.mlir")
            library, entry = SCRIPT, ENTRY
            if self.args.tiles:
                library, entry = fixed_tiles_schedule(
                    os.path.join(self.work, "fixed-tiles.mlir"), self.args.tiles)
            target_args, env, preexec = self.targets[variant]
            cmd = [self.opt, src, *target_args,
                   f"--transform-preload-library=transform-library-paths={library}",
                   f"--transform-interpreter=entry-point={entry}", "-o", ir]
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                  text=True, env=env, preexec_fn=preexec)
            if proc.returncode != 0:
                die(f"command failed ({proc.returncode}): {shlex.join(cmd)}\n"
                    f"{proc.stderr[-3000:]}")
            tiles = {m.group(1): int(m.group(2)) for m in TILE_RE.finditer(proc.stderr)}
        lowered = os.path.join(self.work, tag + ".llvm.mlir")
        run([MLIR_OPT, ir, "--pass-pipeline=" + LOWERING, "-o", lowered])
        with open(lowered) as f:
            openmp = "omp.parallel" in f.read()
        return {"file": lowered, "reps": reps, "size": size, "chain": chain,
                "tag": tag, "openmp": openmp, "tiles": tiles}

    def execute(self, prog):
        """Runs one prepared program in one process; checks its result;
        returns (cpu seconds per call list, wall seconds per call list)."""
        libs = [*toolchain.runner_libs(), self.cputime_lib]
        if prog["openmp"]:
            if not os.path.isfile(OPENMP_LIB):
                die(f"{OPENMP_LIB} missing: apt-get install libomp-22-dev")
            libs.append(OPENMP_LIB)
        out = run([RUNNER, "-O3", *self.runner_flags, prog["file"], "-e", "main",
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
        """GFLOP/s of every repeat of one fma_peak process (self.isa)."""
        out = run([self.peak_exe, "100000000", str(max(3, self.args.runs)), self.isa])
        return [float(line.split()[1]) for line in out.splitlines()
                if line.startswith("sample ")]

    def numpy(self, sizes, threads, coretype):
        """{"times": {"size,chain": [seconds per call of each timed run]},
        "kernel": ...} from OpenBLAS through numpy, one process, `threads`
        threads (one: thread CPU time; more: wall clock), the kernel forced
        to `coretype` when given; None when numpy is missing."""
        env = dict(os.environ)
        env["OPENBLAS_NUM_THREADS"] = str(threads)
        # For this run only: unset both (README of the env notes), then
        # force the kernel if asked.
        env.pop("OPENBLAS_CORETYPE", None)
        env.pop("OPENBLAS_L2_SIZE", None)
        if coretype:
            env["OPENBLAS_CORETYPE"] = coretype
        clock = "thread_time" if threads == 1 else "perf_counter"
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
        reps = max(1, int({self.args.min_time} * 100e9 * {threads} / (2.0 * n ** 3)))
        samples = []
        for _ in range({self.args.runs}):
            t0 = time.{clock}()
            for _ in range(reps):
                f()
            samples.append((time.{clock}() - t0) / reps)
        res[f"{{n}},{{int(chain)}}"] = samples
kernel = None
if threadpool_info:
    info = [i for i in threadpool_info() if i.get("internal_api") == "openblas"]
    if info:
        kernel = {{"architecture": info[0].get("architecture"),
                  "version": info[0].get("version"),
                  "threads": info[0].get("num_threads")}}
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


def loadavg():
    try:
        return " ".join(open("/proc/loadavg").read().split()[:3])
    except OSError:
        return "?"


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
    p.add_argument("--target", default=None,
                   help="spec for the schedule (default: none named, so the "
                        "script's own default, `host`: this machine)")
    p.add_argument("--isa", choices=["avx512", "avx2", "neon"],
                   help="vector ISA (default: the widest this CPU has); avx2 "
                        "on an AVX-512 host is a proxy for an AVX2 machine")
    p.add_argument("--threads", type=int, default=0,
                   help="threads of the multi-threaded runs (default: the "
                        "cores of `host`)")
    p.add_argument("--loops-max-size", type=int, default=512,
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
    N = bench.threads
    target = args.target or "host"
    print(f"# CPU matmul benchmark: script transform-scripts/cpu-matmul.mlir (+ matmul-frontend.mlir), "
          f"spec {target}{'' if args.target else ' (no --target: the script default)'}")
    print(f"# CPU: {host_cpu_name()}; ISA used: {bench.isa}"
          + (" -- AVX2 PROXY on an AVX-512 host: host detection without "
             "AVX-512 (HWSCHED_HOST_FEATURES=-avx512f), programs compiled with "
             "--mattr=-avx512f, the AVX2 FMA peak, OpenBLAS forced to Haswell; "
             "same core and caches, so not a real AVX2 machine"
             if bench.proxy else ""))
    print(f"# threads: 1 and {N} (same count for OpenBLAS); host load average "
          f"at the start {loadavg()}; {args.rounds} rounds of one process per "
          f"contender, {args.runs} timed runs each")
    for variant, (targs, env, preexec) in bench.targets.items():
        figs = bench.spec_figures(target, preexec is not None, targs, env)
        print(f"# spec for {variant}: " + ", ".join(
            f"{k.split('.', 1)[1]}={v[0]}" for k, v in figs.items()))
        if variant == "Nt":
            for k, (v, source) in figs.items():
                print(f"#   {k} = {v}: {source}")
    if args.tiles:
        print("# fixed tiles MC,NC,KC,MR,NR = " + ",".join(map(str, args.tiles)) +
              " (--tiles), not the spec's")

    # OpenBLAS: which kernel it picks, and the one to force besides when
    # that kernel does not use the ISA's widest FMA (or always, as a proxy).
    blas = {}  # contender -> (threads, coretype)
    kernels = {}
    if not args.skip_blas:
        good, best = BLAS_KERNELS[bench.isa]
        if bench.proxy:
            blas = {"blas 1t": (1, best), "blas Nt": (N, best)}
        else:
            probe = bench.numpy([64], 1, None)
            if probe is None:
                print("# numpy/OpenBLAS not available: install with "
                      f"`apt-get install {' '.join(APT_PACKAGES)}` (or run with --install)")
            else:
                arch = ((probe.get("kernel") or {}).get("architecture") or "?")
                blas = {"blas 1t": (1, None), "blas Nt": (N, None)}
                if arch.lower() not in good:
                    blas.update({"forced 1t": (1, best), "forced Nt": (N, best)})

    # Compile everything first; the rounds then only run processes.
    progs = {}
    for size in sizes:
        for chain in (False, True):
            for variant in ("1t", "Nt"):
                progs[(variant, size, chain)] = bench.prepare(
                    size, chain, variant, 120.0 * (N if variant == "Nt" else 1))
            if size <= args.loops_max_size:
                progs[("loops", size, chain)] = bench.prepare(size, chain, "loops", 1.0)
        t1 = progs[("1t", size, False)]["tiles"]
        tn = progs[("Nt", size, False)]["tiles"]
        show = lambda t: ",".join(str(t.get(k, "?")) for k in ("MC", "NC", "KC", "MR", "NR"))
        print(f"# {size}: tiles MC,NC,KC,MR,NR 1t {show(t1)}, Nt {show(tn)} "
              f"(OpenMP: {'yes' if progs[('Nt', size, False)]['openmp'] else 'no'})")

    # samples[contender][(size, chain)] = per round, a list of seconds per
    # call (one per timed run); peak: GFLOP/s per round.
    samples = {name: {} for name in ("1t", "1t wall", "Nt", "loops", *blas)}
    peak_rounds = []
    for rnd in range(args.rounds):
        # One process per contender and size; the order rotates with the
        # round so that no contender always runs first or last.
        jobs = [("peak", None)]
        for size in sizes:
            jobs += [("1t", size), ("Nt", size)] + [(name, size) for name in blas]
        shift = rnd % len(jobs)
        jobs = jobs[shift:] + jobs[:shift]
        for name, size in jobs:
            if name == "peak":
                peak_rounds.append(bench.peak())
            elif name in ("1t", "Nt"):
                for chain in (False, True):
                    cpu, wall = bench.execute(progs[(name, size, chain)])
                    if name == "1t":
                        samples["1t"].setdefault((size, chain), []).append(cpu)
                        samples["1t wall"].setdefault((size, chain), []).append(wall)
                    else:
                        samples["Nt"].setdefault((size, chain), []).append(wall)
            else:
                threads, coretype = blas[name]
                data = bench.numpy([size], threads, coretype)
                if data is None:
                    continue
                k = data.get("kernel") or {}
                kernels[name] = (f"{k.get('architecture')} (OpenBLAS {k.get('version')}, "
                                 f"{k.get('threads')} thread(s))"
                                 + (f", OPENBLAS_CORETYPE={coretype}" if coretype else ""))
                for chain in (False, True):
                    samples[name].setdefault((size, chain), []).append(
                        data["times"][f"{size},{int(chain)}"])
        print(f"# round {rnd + 1}/{args.rounds} done, load {loadavg()}",
              file=sys.stderr, flush=True)
    # The unscheduled program once (minutes at 2048; not a ratio anyone reads).
    for key, prog in progs.items():
        if key[0] == "loops":
            cpu, _ = bench.execute(prog)
            samples["loops"][key[1:]] = [cpu]

    flat = lambda rounds: [x for r in rounds for x in r]
    peak_all = flat(peak_rounds)
    peak = statistics.median(peak_all)
    print(f"# single-core {bench.isa} FMA peak (fma_peak.c): {peak:.1f} GFLOP/s "
          f"(median of {len(peak_all)}, {min(peak_all):.1f}-{max(peak_all):.1f})")
    for name in blas:
        if name in kernels:
            print(f"# OpenBLAS {name}: {kernels[name]}")
    print(f"# host load average at the end {loadavg()}")

    def paired(f):
        """Median and range of f(round) over the rounds where it is defined."""
        vals = [v for v in (f(r) for r in range(args.rounds)) if v is not None]
        if not vals:
            return "n/a"
        return (f"{statistics.median(vals):.2f} "
                f"({min(vals):.2f}-{max(vals):.2f})")

    forced = "forced 1t" in blas
    cols = ["problem", "loops", "hwsched 1t", "peak", "blas 1t"]
    cols += ["forced 1t"] if forced else []
    cols += ["1t/peak", "1t/blas 1t"] + (["1t/forced 1t"] if forced else [])
    cols += [f"hwsched {N}t", f"blas {N}t"] + ([f"forced {N}t"] if forced else [])
    cols += [f"{N}t/blas {N}t"] + ([f"{N}t/forced {N}t"] if forced else [])
    cols += [f"{N}t/1t (wall)", "chain/matmul time (1t)"]
    print()
    print("| " + " | ".join(cols) + " |")
    print("|" + "---|" * len(cols))
    for size in sizes:
        flops = 2.0 * size ** 3
        g = lambda secs: flops / secs / 1e9
        for chain in (False, True):
            key = (size, chain)
            med = lambda name: (g(statistics.median(flat(samples[name][key])))
                                if key in samples.get(name, {}) else None)
            spread = lambda name: (
                f" ({g(max(flat(samples[name][key]))):.0f}-"
                f"{g(min(flat(samples[name][key]))):.0f})"
                if key in samples.get(name, {}) else "")
            rmed = lambda name, r: (statistics.median(samples[name][key][r])
                                    if key in samples.get(name, {}) else None)

            def ratio(a, b):
                """Paired GFLOP/s ratio a/b (seconds b/a) per round."""
                return paired(lambda r: rmed(b, r) / rmed(a, r)
                              if rmed(a, r) and rmed(b, r) else None)
            g_loops = (g(statistics.median(flat(samples["loops"][key])))
                       if key in samples["loops"] else None)
            row = [f"{'matmul+bias+relu' if chain else 'matmul'} {size}",
                   fmt(g_loops, 2), fmt(med("1t")) + spread("1t"), fmt(peak),
                   fmt(med("blas 1t"))]
            if forced:
                row.append(fmt(med("forced 1t")))
            row.append(paired(lambda r: g(rmed("1t", r)) /
                              statistics.median(peak_rounds[r])))
            row.append(ratio("1t", "blas 1t"))
            if forced:
                row.append(ratio("1t", "forced 1t"))
            row += [fmt(med("Nt")) + spread("Nt"), fmt(med("blas Nt"))]
            if forced:
                row.append(fmt(med("forced Nt")))
            row.append(ratio("Nt", "blas Nt"))
            if forced:
                row.append(ratio("Nt", "forced Nt"))
            row.append(ratio("Nt", "1t wall"))
            row.append("1" if not chain else paired(
                lambda r: statistics.median(samples["1t"][key][r]) /
                statistics.median(samples["1t"][(size, False)][r])))
            print("| " + " | ".join(row) + " |", flush=True)
    print()
    print(f"GFLOP/s: median over all timed runs ({args.rounds} rounds x "
          f"{args.runs} runs), (min-max) of single runs; 1t from thread CPU "
          f"time, {N}t from wall-clock time. Ratios: per round, each contender "
          "the median of its process's runs, then the median over the rounds "
          f"(min-max over the rounds); {N}t/1t compares wall-clock times.")
    print()
    print("All MLIR results checked against the reference (sum of C and every "
          f"C[i][j] with i, j multiples of {SAMPLE_STRIDE}, exact).")
    if not args.keep:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
