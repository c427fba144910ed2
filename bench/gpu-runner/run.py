#!/usr/bin/env python3
"""bench/gpu-runner/run.py: the shipped GPU schedule against cuBLAS, per shape.

For each shape MxNxK it writes the matmul + bias + ReLU payload of
examples/gpu-matmul/input.mlir at that size, schedules and lowers it with
examples/gpu-matmul/run.py (transform-scripts/gpu-matmul.mlir, default
@gpu_matmul_smem_pipelined, --keep-temps), reads the launch grid from the
scheduled IR's gpu.launch, and hands the PTX to build/bin/hwsched-gpu-run,
which checks the kernel against cuBLAS and times both. Prints one row per
shape: grid, block, registers, shared memory, the check, TFLOP/s of both
and the ratio.

On a machine without an NVIDIA GPU (or driver) the runner says "no CUDA
device: ..."; this script then says so once and prints the dry-run columns
only (signature checked, ptxas figures), exit status 0. Exit status 1 when
a kernel's result differs from cuBLAS.

On a GPU machine without LLVM (a lent cloud box, say), schedule and lower
where LLVM is (`--keep DIR --dry-run`), carry DIR and a self-contained
runner (bench/gpu-runner/build-portable.sh) there, and run
`run.py --prepared DIR --runner PATH`: it skips the scheduling and reads
the PTX and the launch dimensions from DIR.

usage: run.py [--shapes 512x512x256,1024x1024x1024,...] [--target NAME]
              [--entry NAME] [--reps N] [--warmup N] [--build DIR]
              [--runner PATH] [--keep DIR | --prepared DIR] [--json FILE]
              [--dry-run]
"""

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
EXAMPLE_RUN = os.path.join(ROOT, "examples", "gpu-matmul", "run.py")
sys.path.insert(0, os.path.join(ROOT, "utils"))
from hwsched_tools import cpu_name  # noqa: E402

# The payload of examples/gpu-matmul/input.mlir, at any size (the schedule
# lives in transform-scripts/; this is only the program it schedules).
PAYLOAD = """\
#map_bias = affine_map<(d0, d1) -> (d1)>
#map_id = affine_map<(d0, d1) -> (d0, d1)>
func.func @matmul_bias_relu(%A: tensor<{m}x{k}xf32>, %B: tensor<{k}x{n}xf32>,
                            %bias: tensor<{n}xf32>, %out: tensor<{m}x{n}xf32>)
    -> tensor<{m}x{n}xf32> {{
  %zero = arith.constant 0.0 : f32
  %init = linalg.fill ins(%zero : f32) outs(%out : tensor<{m}x{n}xf32>)
      -> tensor<{m}x{n}xf32>
  %mm = linalg.matmul ins(%A, %B : tensor<{m}x{k}xf32>, tensor<{k}x{n}xf32>)
                      outs(%init : tensor<{m}x{n}xf32>) -> tensor<{m}x{n}xf32>
  %res = linalg.generic {{indexing_maps = [#map_id, #map_bias, #map_id],
                         iterator_types = ["parallel", "parallel"]}}
      ins(%mm, %bias : tensor<{m}x{n}xf32>, tensor<{n}xf32>)
      outs(%out : tensor<{m}x{n}xf32>) {{
  ^bb0(%acc: f32, %b: f32, %o: f32):
    %sum = arith.addf %acc, %b : f32
    %relu = arith.maximumf %sum, %zero : f32
    linalg.yield %relu : f32
  }} -> tensor<{m}x{n}xf32>
  return %res : tensor<{m}x{n}xf32>
}}
"""

LAUNCH = re.compile(r"gpu\.launch\s+blocks\([^)]*\)\s+in\s+\(([^)]*)\)\s+"
                    r"threads\([^)]*\)\s+in\s+\(([^)]*)\)")
INDEX_CONSTANT = re.compile(r"(%[\w.$-]+) = arith\.constant (\d+) : index")


def launch_dims(ir):
    """(grid, block) of the only gpu.launch in `ir`, from its constants."""
    constants = dict(INDEX_CONSTANT.findall(ir))
    launches = LAUNCH.findall(ir)
    if len(launches) != 1:
        raise ValueError("expected one gpu.launch in the scheduled IR, found %d"
                         % len(launches))

    def dims(text):
        out = []
        for binding in text.split(","):
            value = binding.split("=")[1].strip()
            if value not in constants:
                raise ValueError("launch size %s is not a constant" % value)
            out.append(int(constants[value]))
        return out

    return dims(launches[0][0]), dims(launches[0][1])


DEFAULT_SHAPES = "512x512x256,1024x1024x1024,2048x2048x2048,4096x4096x4096"


def launch_example_kernel(runner, ptx, shape, grid, block, report_path,
                          warmup, reps, dry_run, no_device_note):
    """hwsched-gpu-run on the example payload's kernel (A, B, bias, C; f32;
    bias + ReLU): the process and whether it was a dry run. Without a CUDA
    device it says so once (the runner's line, then `no_device_note`) and
    runs dry; later calls pass dry_run=True."""
    m, n, k = shape
    cmd = [runner, ptx, "--m", str(m), "--n", str(n), "--k", str(k),
           "--type", "f32", "--grid", ",".join(map(str, grid)),
           "--block", ",".join(map(str, block)), "--args", "A,B,bias,C",
           "--epilogue", "bias-relu", "--warmup", str(warmup),
           "--reps", str(reps), "--json", report_path]
    proc = subprocess.run(cmd + (["--dry-run"] if dry_run else []),
                          capture_output=True, text=True)
    if not dry_run and "no CUDA device:" in proc.stderr:
        print(proc.stderr.strip().replace("hwsched-gpu-run: error: ", ""))
        print(no_device_note)
        dry_run = True
        proc = subprocess.run(cmd + ["--dry-run"], capture_output=True,
                              text=True)
    return proc, dry_run


def parse_shapes(text):
    shapes = []
    for item in text.split(","):
        parts = item.lower().split("x")
        if len(parts) != 3 or not all(p.isdigit() and int(p) > 0 for p in parts):
            raise SystemExit("run.py: --shapes expects MxNxK[,MxNxK...], got %r"
                             % item)
        shapes.append(tuple(int(p) for p in parts))
    return shapes


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--shapes",
                    help="MxNxK[,MxNxK...] (default: 512x512x256,"
                         "1024x1024x1024,2048x2048x2048,4096x4096x4096; "
                         "with --prepared, every shape the folder holds)")
    ap.add_argument("--target", default="nvidia-a100")
    ap.add_argument("--entry", default="gpu_matmul_smem_pipelined")
    ap.add_argument("--reps", type=int, default=20)
    ap.add_argument("--warmup", type=int, default=5)
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--runner",
                    help="the hwsched-gpu-run to use (default: BUILD/bin/"
                         "hwsched-gpu-run)")
    ap.add_argument("--keep", help="keep the PTX and reports in this folder")
    ap.add_argument("--prepared",
                    help="a folder an earlier --keep run wrote: launch its "
                         "PTX without scheduling (no LLVM needed)")
    ap.add_argument("--json", help="write all reports to this file")
    ap.add_argument("--dry-run", action="store_true",
                    help="do not launch (signature and ptxas only)")
    args = ap.parse_args()
    if args.shapes is None and args.prepared and os.path.isdir(args.prepared):
        held = [d for d in os.listdir(args.prepared)
                if re.fullmatch(r"\d+x\d+x\d+", d)]
        held.sort(key=lambda d: tuple(int(p) for p in d.split("x")))
        args.shapes = ",".join(held)
    shapes = parse_shapes(args.shapes or DEFAULT_SHAPES)
    if args.keep and args.prepared:
        raise SystemExit("run.py: --keep and --prepared exclude each other "
                         "(--prepared reads what --keep wrote)")
    runner = args.runner or os.path.join(args.build, "bin", "hwsched-gpu-run")
    if not os.path.exists(runner):
        raise SystemExit("run.py: %s not found: it is built where CMake finds "
                         "the CUDA toolkit, or by bench/gpu-runner/"
                         "build-portable.sh (bench/gpu-runner/README.md)"
                         % runner)
    env = dict(os.environ)
    env.setdefault("HWSCHED_OPT", os.path.join(args.build, "bin", "hwsched-opt"))

    work = (args.keep or args.prepared
            or tempfile.mkdtemp(prefix="hwsched-gpu-bench-"))
    os.makedirs(work, exist_ok=True)
    # What the PTX in `work` was scheduled with: written by --keep, read by
    # --prepared, so the table names the schedule it actually ran.
    recipe_path = os.path.join(work, "prepared.json")
    if args.prepared:
        try:
            with open(recipe_path) as f:
                recipe = json.load(f)
            args.target, args.entry = recipe["target"], recipe["entry"]
        except (OSError, ValueError, KeyError) as err:
            raise SystemExit("run.py: --prepared %s: cannot read %s (%s); is "
                             "it a folder that run.py --keep wrote?"
                             % (work, recipe_path, err))
    elif args.keep:
        with open(recipe_path, "w") as f:
            json.dump({"target": args.target, "entry": args.entry}, f)
    print("host CPU: %s" % cpu_name())
    print("schedule: transform-scripts/gpu-matmul.mlir @%s, target %s, f32 "
          "relu(A x B + bias)%s" % (args.entry, args.target,
                                     " (prepared in %s)" % work
                                     if args.prepared else ""))
    dry_run = args.dry_run
    reports = []
    failed = False
    header = ("%-16s %-9s %-8s %5s %7s  %-5s %10s %10s %7s"
              % ("shape", "grid", "block", "regs", "smem", "check",
                 "TFLOP/s", "cuBLAS", "ratio"))
    rows = []
    for m, n, k in shapes:
        name = "%dx%dx%d" % (m, n, k)
        folder = os.path.join(work, name)
        temps = os.path.join(folder, "lowering")
        if args.prepared:
            if not os.path.exists(os.path.join(temps, "scheduled.mlir")):
                rows.append("%-16s not in --prepared %s (run.py --keep %s "
                            "--shapes %s --dry-run writes it)"
                            % (name, work, work, name))
                failed = True
                continue
        else:
            os.makedirs(folder, exist_ok=True)
            payload = os.path.join(folder, "input.mlir")
            with open(payload, "w") as f:
                f.write(PAYLOAD.format(m=m, n=n, k=k))
            proc = subprocess.run(
                [sys.executable, EXAMPLE_RUN, "--target", args.target,
                 "--entry", args.entry, "--input", payload, "--keep-temps",
                 temps],
                stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                env=env)
            if proc.returncode != 0:
                rows.append("%-16s schedule/lowering failed (examples/"
                            "gpu-matmul/run.py):\n%s"
                            % (name, proc.stdout[-2000:]))
                failed = True
                continue
        with open(os.path.join(temps, "scheduled.mlir")) as f:
            grid, block = launch_dims(f.read())
        ptx = os.path.join(temps, "ptxas-cap255", "matmul_bias_relu_kernel.ptx")
        report_path = os.path.join(folder, "report.json")
        proc, dry_run = launch_example_kernel(
            runner, ptx, (m, n, k), grid, block, report_path, args.warmup,
            args.reps, dry_run,
            "(dry run only: signature checked, ptxas figures; no timing)")
        if proc.returncode not in (0, 1):
            rows.append("%-16s hwsched-gpu-run failed: %s"
                        % (name, proc.stderr.strip()))
            failed = True
            continue
        with open(report_path) as f:
            report = json.load(f)
        reports.append(report)
        ptxas = report.get("ptxas", {})
        check = report.get("check")
        if check is not None and not check["passed"]:
            failed = True
        kt, ct = report.get("kernel_time"), report.get("cublas_time")
        rows.append("%-16s %-9s %-8s %5s %7s  %-5s %10s %10s %7s" % (
            name, "x".join(map(str, grid)), "x".join(map(str, block)),
            ptxas.get("registers", "-"), ptxas.get("smem_bytes", "-"),
            "-" if check is None else ("PASS" if check["passed"] else "FAIL"),
            "%.2f" % kt["tflops_median"] if kt else "-",
            "%.2f" % ct["tflops_median"] if ct else "-",
            "%.3f" % report["speed_vs_cublas_median"]
            if "speed_vs_cublas_median" in report else "-"))
    device = next((r["device"] for r in reports if "device" in r), None)
    if device:
        print("device: %s (timings: median of %d launches after %d warm-up, "
              "CUDA events; ratio = cuBLAS time / kernel time)"
              % (device, args.reps, args.warmup))
    print(header)
    for row in rows:
        print(row)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(reports, f, indent=2)
    if not args.keep and not args.prepared:
        print("(temporary files in %s)" % work)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
